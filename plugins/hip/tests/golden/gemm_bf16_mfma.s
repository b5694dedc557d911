Disassembly of section .text:
0000000000001600 <gemm_bf16_mfma>:
	s_load_dwordx8 s[20:27], s[0:1], 0x0                       // 000000001600: C00E0500 00000000
	s_load_dwordx4 s[28:31], s[0:1], 0x20                      // 000000001608: C00A0700 00000020
	v_lshrrev_b32_e32 v1, 3, v0                                // 000000001610: 20020083
	v_and_b32_e32 v12, 4, v1                                   // 000000001614: 26180284
	v_lshrrev_b32_e32 v1, 1, v0                                // 000000001618: 20020081
	s_mov_b32 s4, s3                                           // 00000000161C: BE840003
	s_waitcnt lgkmcnt(0)                                       // 000000001620: BF8CC07F
	s_sub_u32 s6, 0, s28                                       // 000000001624: 80861C80
	s_subb_u32 s7, 0, s29                                      // 000000001628: 82871D80
	s_ashr_i64 s[36:37], s[6:7], 5                             // 00000000162C: 90A48506
	s_mov_b32 s3, 0                                            // 000000001630: BE830080
	v_and_b32_e32 v2, 31, v0                                   // 000000001634: 2604009F
	v_and_b32_e32 v14, 32, v1                                  // 000000001638: 261C02A0
	v_lshrrev_b32_e32 v1, 2, v0                                // 00000000163C: 20020082
	v_cmp_lt_i64_e64 s[6:7], s[36:37], 0                       // 000000001640: D0E10006 00010024
	s_mov_b32 s5, s3                                           // 000000001648: BE850003
	v_mov_b32_e32 v3, 0                                        // 00000000164C: 7E060280
	v_and_or_b32 v13, v1, 32, v2                               // 000000001650: D201000D 04094101
	s_mov_b64 s[0:1], 0                                        // 000000001658: BE800180
	s_and_b64 vcc, exec, s[6:7]                                // 00000000165C: 86EA067E
	s_cbranch_vccnz 3                                          // 000000001660: BF870003 <gemm_bf16_mfma+0x70>
	s_lshl_b64 s[34:35], s[4:5], 6                             // 000000001664: 8EA28604
	s_lshl_b64 s[38:39], s[2:3], 6                             // 000000001668: 8EA68602
	s_branch 1                                                 // 00000000166C: BF820001 <gemm_bf16_mfma+0x74>
	s_mov_b64 s[0:1], -1                                       // 000000001670: BE8001C1
	s_andn2_b64 vcc, exec, s[0:1]                              // 000000001674: 89EA007E
	v_accvgpr_write_b32 a15, s3                                // 000000001678: D3D9400F 18000003
	v_accvgpr_write_b32 a14, s3                                // 000000001680: D3D9400E 18000003
	v_accvgpr_write_b32 a13, s3                                // 000000001688: D3D9400D 18000003
	v_accvgpr_write_b32 a12, s3                                // 000000001690: D3D9400C 18000003
	v_accvgpr_write_b32 a11, s3                                // 000000001698: D3D9400B 18000003
	v_accvgpr_write_b32 a10, s3                                // 0000000016A0: D3D9400A 18000003
	v_accvgpr_write_b32 a9, s3                                 // 0000000016A8: D3D94009 18000003
	v_accvgpr_write_b32 a8, s3                                 // 0000000016B0: D3D94008 18000003
	v_accvgpr_write_b32 a7, s3                                 // 0000000016B8: D3D94007 18000003
	v_accvgpr_write_b32 a6, s3                                 // 0000000016C0: D3D94006 18000003
	v_accvgpr_write_b32 a5, s3                                 // 0000000016C8: D3D94005 18000003
	v_accvgpr_write_b32 a4, s3                                 // 0000000016D0: D3D94004 18000003
	v_accvgpr_write_b32 a3, s3                                 // 0000000016D8: D3D94003 18000003
	v_accvgpr_write_b32 a2, s3                                 // 0000000016E0: D3D94002 18000003
	v_accvgpr_write_b32 a1, s3                                 // 0000000016E8: D3D94001 18000003
	v_accvgpr_write_b32 a0, s3                                 // 0000000016F0: D3D94000 18000003
	s_cbranch_vccnz 493                                        // 0000000016F8: BF8701ED <gemm_bf16_mfma+0x8b0>
	v_lshrrev_b32_e32 v1, 5, v0                                // 0000000016FC: 20020085
	v_or_b32_e32 v10, 8, v1                                    // 000000001700: 28140288
	s_lshl_b64 s[34:35], s[4:5], 6                             // 000000001704: 8EA28604
	v_lshlrev_b32_e32 v8, 1, v2                                // 000000001708: 24100481
	v_or_b32_e32 v18, 16, v1                                   // 00000000170C: 28240290
	v_lshl_or_b32 v16, v10, 6, v8                              // 000000001710: D2000010 04210D0A
	v_mov_b32_e32 v11, s35                                     // 000000001718: 7E160223
	v_or_b32_e32 v10, s34, v10                                 // 00000000171C: 28141422
	v_or_b32_e32 v19, 24, v1                                   // 000000001720: 28260298
	v_or_b32_e32 v6, s34, v1                                   // 000000001724: 280C0222
	v_mov_b32_e32 v7, s35                                      // 000000001728: 7E0E0223
	v_cmp_gt_u64_e64 s[18:19], s[26:27], v[10:11]              // 00000000172C: D0EC0012 0002141A
	v_or_b32_e32 v10, s34, v18                                 // 000000001734: 28142422
	v_or_b32_e32 v20, 32, v1                                   // 000000001738: 282802A0
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[6:7]                  // 00000000173C: D0EC0000 00020C1A
	v_cmp_gt_u64_e64 s[4:5], s[26:27], v[10:11]                // 000000001744: D0EC0004 0002141A
	v_or_b32_e32 v10, s34, v19                                 // 00000000174C: 28142622
	v_and_b32_e32 v7, 63, v0                                   // 000000001750: 260E00BF
	s_lshl_b64 s[38:39], s[2:3], 6                             // 000000001754: 8EA68602
	v_lshrrev_b32_e32 v4, 6, v0                                // 000000001758: 20080086
	v_or_b32_e32 v21, 40, v1                                   // 00000000175C: 282A02A8
	v_or_b32_e32 v22, 48, v1                                   // 000000001760: 282C02B0
	v_or_b32_e32 v23, 56, v1                                   // 000000001764: 282E02B8
	v_lshlrev_b32_e32 v15, 1, v0                               // 000000001768: 241E0081
	v_cmp_gt_u64_e64 s[6:7], s[26:27], v[10:11]                // 00000000176C: D0EC0006 0002141A
	v_or_b32_e32 v10, s34, v20                                 // 000000001774: 28142822
	v_mov_b32_e32 v1, s39                                      // 000000001778: 7E020227
	v_or_b32_e32 v0, s38, v7                                   // 00000000177C: 28000E26
	v_cmp_gt_u64_e64 s[8:9], s[26:27], v[10:11]                // 000000001780: D0EC0008 0002141A
	v_or_b32_e32 v10, s34, v21                                 // 000000001788: 28142A22
	v_cmp_gt_u64_e64 s[16:17], s[30:31], v[0:1]                // 00000000178C: D0EC0010 0002001E
	v_lshlrev_b32_e32 v0, 1, v7                                // 000000001794: 24000E81
	v_cmp_gt_u64_e64 s[10:11], s[26:27], v[10:11]              // 000000001798: D0EC000A 0002141A
	v_or_b32_e32 v10, s34, v22                                 // 0000000017A0: 28142C22
	v_lshl_or_b32 v7, v4, 7, v0                                // 0000000017A4: D2000007 04010F04
	v_lshl_or_b32 v17, v18, 6, v8                              // 0000000017AC: D2000011 04210D12
	v_lshl_or_b32 v18, v19, 6, v8                              // 0000000017B4: D2000012 04210D13
	v_lshl_or_b32 v19, v20, 6, v8                              // 0000000017BC: D2000013 04210D14
	v_lshl_or_b32 v20, v21, 6, v8                              // 0000000017C4: D2000014 04210D15
	v_lshl_or_b32 v21, v22, 6, v8                              // 0000000017CC: D2000015 04210D16
	v_cmp_gt_u64_e64 s[12:13], s[26:27], v[10:11]              // 0000000017D4: D0EC000C 0002141A
	v_lshl_or_b32 v22, v23, 6, v8                              // 0000000017DC: D2000016 04210D17
	v_or_b32_e32 v10, s34, v23                                 // 0000000017E4: 28142E22
	v_or_b32_e32 v23, 0x200, v7                                // 0000000017E8: 282E0EFF 00000200
	v_or_b32_e32 v24, 0x400, v7                                // 0000000017F0: 28300EFF 00000400
	v_or_b32_e32 v25, 0x600, v7                                // 0000000017F8: 28320EFF 00000600
	v_or_b32_e32 v26, 0x800, v7                                // 000000001800: 28340EFF 00000800
	v_or_b32_e32 v27, 0xa00, v7                                // 000000001808: 28360EFF 00000A00
	v_or_b32_e32 v28, 0xc00, v7                                // 000000001810: 28380EFF 00000C00
	v_or_b32_e32 v29, 0xe00, v7                                // 000000001818: 283A0EFF 00000E00
	v_or_b32_e32 v7, v14, v2                                   // 000000001820: 280E050E
	v_cmp_gt_u64_e64 s[14:15], s[26:27], v[10:11]              // 000000001824: D0EC000E 0002141A
	v_or_b32_e32 v10, 8, v12                                   // 00000000182C: 28141888
	v_or_b32_e32 v11, 16, v12                                  // 000000001830: 28161890
	v_lshlrev_b32_e32 v7, 5, v7                                // 000000001834: 240E0E85
	v_lshlrev_b32_e32 v47, 1, v13                              // 000000001838: 245E1A81
	v_or_b32_e32 v35, v7, v10                                  // 00000000183C: 28461507
	v_lshl_or_b32 v36, v10, 7, v47                             // 000000001840: D2000024 04BD0F0A
	v_or_b32_e32 v10, v7, v11                                  // 000000001848: 28141707
	v_lshlrev_b32_e32 v40, 1, v10                              // 00000000184C: 24501481
	v_lshl_or_b32 v41, v11, 7, v47                             // 000000001850: D2000029 04BD0F0B
	v_mad_u64_u32 v[10:11], s[40:41], s30, v4, 0               // 000000001858: D1E8280A 0202081E
	v_mov_b32_e32 v50, v11                                     // 000000001860: 7E64030B
	v_mad_u64_u32 v[50:51], s[40:41], s31, v4, v[50:51]        // 000000001864: D1E82832 04CA081F
	v_mov_b32_e32 v5, 0                                        // 00000000186C: 7E0A0280
	v_mov_b32_e32 v11, v50                                     // 000000001870: 7E160332
	s_lshl_b64 s[2:3], s[2:3], 7                               // 000000001874: 8E828702
	v_mov_b32_e32 v1, v5                                       // 000000001878: 7E020305
	v_or_b32_e32 v46, 24, v12                                  // 00000000187C: 285C1898
	v_lshl_add_u64 v[10:11], v[10:11], 1, s[2:3]               // 000000001880: D208000A 0009030A
	v_or_b32_e32 v30, v7, v12                                  // 000000001888: 283C1907
	v_or_b32_e32 v7, v7, v46                                   // 00000000188C: 280E5D07
	v_lshl_add_u64 v[0:1], v[10:11], 0, v[0:1]                 // 000000001890: D2080000 0401010A
	v_lshlrev_b32_e32 v45, 1, v7                               // 000000001898: 245A0E81
	v_lshl_add_u64 v[0:1], s[22:23], 0, v[0:1]                 // 00000000189C: D2080000 04010016
	v_mul_lo_u32 v10, s29, v6                                  // 0000000018A4: D285000A 00020C1D
	v_mad_u64_u32 v[6:7], s[22:23], s28, v6, 0                 // 0000000018AC: D1E81606 02020C1C
	s_mul_i32 s22, s28, s35                                    // 0000000018B4: 9216231C
	v_mov_b32_e32 v9, v5                                       // 0000000018B8: 7E120305
	v_add3_u32 v7, v7, s22, v10                                // 0000000018BC: D1FF0007 04282D07
	v_lshl_or_b32 v31, v12, 7, v47                             // 0000000018C4: D200001F 04BD0F0C
	v_lshl_add_u64 v[6:7], v[6:7], 1, v[8:9]                   // 0000000018CC: D2080006 04210306
	v_lshlrev_b32_e32 v30, 1, v30                              // 0000000018D4: 243C3C81
	v_or_b32_e32 v32, 0x80, v31                                // 0000000018D8: 28403EFF 00000080
	v_or_b32_e32 v33, 0x100, v31                               // 0000000018E0: 28423EFF 00000100
	v_or_b32_e32 v34, 0x180, v31                               // 0000000018E8: 28443EFF 00000180
	v_lshlrev_b32_e32 v35, 1, v35                              // 0000000018F0: 24464681
	v_or_b32_e32 v37, 0x480, v31                               // 0000000018F4: 284A3EFF 00000480
	v_or_b32_e32 v38, 0x500, v31                               // 0000000018FC: 284C3EFF 00000500
	v_or_b32_e32 v39, 0x580, v31                               // 000000001904: 284E3EFF 00000580
	v_or_b32_e32 v42, 0x880, v31                               // 00000000190C: 28543EFF 00000880
	v_or_b32_e32 v43, 0x900, v31                               // 000000001914: 28563EFF 00000900
	v_or_b32_e32 v44, 0x980, v31                               // 00000000191C: 28583EFF 00000980
	v_lshl_or_b32 v46, v46, 7, v47                             // 000000001924: D200002E 04BD0F2E
	v_or_b32_e32 v47, 0xc80, v31                               // 00000000192C: 285E3EFF 00000C80
	v_or_b32_e32 v48, 0xd00, v31                               // 000000001934: 28603EFF 00000D00
	v_or_b32_e32 v49, 0xd80, v31                               // 00000000193C: 28623EFF 00000D80
	s_lshl_b64 s[2:3], s[30:31], 6                             // 000000001944: 8E82861E
	v_lshl_add_u64 v[6:7], s[20:21], 0, v[6:7]                 // 000000001948: D2080006 04190014
	s_lshl_b64 s[20:21], s[28:29], 4                           // 000000001950: 8E94841C
	s_lshl_b64 s[22:23], s[30:31], 3                           // 000000001954: 8E96831E
	s_mov_b64 s[40:41], 0                                      // 000000001958: BEA80180
	v_accvgpr_write_b32 a15, 0                                 // 00000000195C: D3D9400F 18000080
	v_accvgpr_write_b32 a14, 0                                 // 000000001964: D3D9400E 18000080
	v_accvgpr_write_b32 a13, 0                                 // 00000000196C: D3D9400D 18000080
	v_accvgpr_write_b32 a12, 0                                 // 000000001974: D3D9400C 18000080
	v_accvgpr_write_b32 a11, 0                                 // 00000000197C: D3D9400B 18000080
	v_accvgpr_write_b32 a10, 0                                 // 000000001984: D3D9400A 18000080
	v_accvgpr_write_b32 a9, 0                                  // 00000000198C: D3D94009 18000080
	v_accvgpr_write_b32 a8, 0                                  // 000000001994: D3D94008 18000080
	v_accvgpr_write_b32 a7, 0                                  // 00000000199C: D3D94007 18000080
	v_accvgpr_write_b32 a6, 0                                  // 0000000019A4: D3D94006 18000080
	v_accvgpr_write_b32 a5, 0                                  // 0000000019AC: D3D94005 18000080
	v_accvgpr_write_b32 a4, 0                                  // 0000000019B4: D3D94004 18000080
	v_accvgpr_write_b32 a3, 0                                  // 0000000019BC: D3D94003 18000080
	v_accvgpr_write_b32 a2, 0                                  // 0000000019C4: D3D94002 18000080
	v_accvgpr_write_b32 a1, 0                                  // 0000000019CC: D3D94001 18000080
	v_accvgpr_write_b32 a0, 0                                  // 0000000019D4: D3D94000 18000080
	s_mov_b32 s33, 0x5040100                                   // 0000000019DC: BEA100FF 05040100
	s_branch 93                                                // 0000000019E4: BF82005D <gemm_bf16_mfma+0x55c>
	s_or_b64 exec, exec, s[42:43]                              // 0000000019E8: 87FE2A7E
	s_waitcnt vmcnt(0)                                         // 0000000019EC: BF8C0F70
	ds_write_b16 v29, v50 offset:4096                          // 0000000019F0: D83E1000 0000321D
	s_waitcnt lgkmcnt(0)                                       // 0000000019F8: BF8CC07F
	s_barrier                                                  // 0000000019FC: BF8A0000
	ds_read_u16 v10, v33 offset:4096                           // 000000001A00: D8781000 0A000021
	ds_read_u16 v11, v34 offset:4096                           // 000000001A08: D8781000 0B000022
	ds_read_b64 v[8:9], v30                                    // 000000001A10: D8EC0000 0800001E
	ds_read_u16 v50, v31 offset:4096                           // 000000001A18: D8781000 3200001F
	ds_read_u16 v51, v32 offset:4096                           // 000000001A20: D8781000 33000020
	s_add_u32 s36, s36, 1                                      // 000000001A28: 80248124
	s_waitcnt lgkmcnt(3)                                       // 000000001A2C: BF8CC37F
	v_perm_b32 v11, v11, v10, s33                              // 000000001A30: D1ED000B 0086150B
	s_addc_u32 s37, s37, 0                                     // 000000001A38: 82258025
	s_cmp_eq_u64 s[36:37], 0                                   // 000000001A3C: BF128024
	s_waitcnt lgkmcnt(0)                                       // 000000001A40: BF8CC07F
	v_perm_b32 v10, v51, v50, s33                              // 000000001A44: D1ED000A 00866533
	s_cselect_b64 s[42:43], -1, 0                              // 000000001A4C: 85AA80C1
	s_add_u32 s40, s40, 32                                     // 000000001A50: 8028A028
	v_mfma_f32_32x32x8_bf16 a[0:15], v[8:9], v[10:11], a[0:15] // 000000001A54: D3E08000 04021508
	ds_read_b64 v[8:9], v35                                    // 000000001A5C: D8EC0000 08000023
	ds_read_u16 v10, v38 offset:4096                           // 000000001A64: D8781000 0A000026
	ds_read_u16 v11, v39 offset:4096                           // 000000001A6C: D8781000 0B000027
	ds_read_u16 v50, v36 offset:4096                           // 000000001A74: D8781000 32000024
	ds_read_u16 v51, v37 offset:4096                           // 000000001A7C: D8781000 33000025
	s_addc_u32 s41, s41, 0                                     // 000000001A84: 82298029
	v_lshl_add_u64 v[0:1], v[0:1], 0, s[2:3]                   // 000000001A88: D2080000 00090100
	s_waitcnt lgkmcnt(2)                                       // 000000001A90: BF8CC27F
	v_perm_b32 v11, v11, v10, s33                              // 000000001A94: D1ED000B 0086150B
	s_andn2_b64 vcc, exec, s[42:43]                            // 000000001A9C: 89EA2A7E
	s_waitcnt lgkmcnt(0)                                       // 000000001AA0: BF8CC07F
	v_perm_b32 v10, v51, v50, s33                              // 000000001AA4: D1ED000A 00866533
	v_lshl_add_u64 v[6:7], v[6:7], 0, 64                       // 000000001AAC: D2080006 03010106
	s_nop 0                                                    // 000000001AB4: BF800000
	v_mfma_f32_32x32x8_bf16 a[0:15], v[8:9], v[10:11], a[0:15] // 000000001AB8: D3E08000 04021508
	ds_read_b64 v[8:9], v40                                    // 000000001AC0: D8EC0000 08000028
	ds_read_u16 v10, v43 offset:4096                           // 000000001AC8: D8781000 0A00002B
	ds_read_u16 v11, v44 offset:4096                           // 000000001AD0: D8781000 0B00002C
	ds_read_u16 v50, v41 offset:4096                           // 000000001AD8: D8781000 32000029
	ds_read_u16 v51, v42 offset:4096                           // 000000001AE0: D8781000 3300002A
	s_waitcnt lgkmcnt(2)                                       // 000000001AE8: BF8CC27F
	v_perm_b32 v11, v11, v10, s33                              // 000000001AEC: D1ED000B 0086150B
	s_waitcnt lgkmcnt(0)                                       // 000000001AF4: BF8CC07F
	v_perm_b32 v10, v51, v50, s33                              // 000000001AF8: D1ED000A 00866533
	s_nop 1                                                    // 000000001B00: BF800001
	v_mfma_f32_32x32x8_bf16 a[0:15], v[8:9], v[10:11], a[0:15] // 000000001B04: D3E08000 04021508
	ds_read_b64 v[8:9], v45                                    // 000000001B0C: D8EC0000 0800002D
	ds_read_u16 v10, v48 offset:4096                           // 000000001B14: D8781000 0A000030
	ds_read_u16 v11, v49 offset:4096                           // 000000001B1C: D8781000 0B000031
	ds_read_u16 v50, v46 offset:4096                           // 000000001B24: D8781000 3200002E
	ds_read_u16 v51, v47 offset:4096                           // 000000001B2C: D8781000 3300002F
	s_waitcnt lgkmcnt(2)                                       // 000000001B34: BF8CC27F
	v_perm_b32 v11, v11, v10, s33                              // 000000001B38: D1ED000B 0086150B
	s_waitcnt lgkmcnt(0)                                       // 000000001B40: BF8CC07F
	v_perm_b32 v10, v51, v50, s33                              // 000000001B44: D1ED000A 00866533
	s_nop 1                                                    // 000000001B4C: BF800001
	v_mfma_f32_32x32x8_bf16 a[0:15], v[8:9], v[10:11], a[0:15] // 000000001B50: D3E08000 04021508
	s_cbranch_vccz 213                                         // 000000001B58: BF8600D5 <gemm_bf16_mfma+0x8b0>
	v_lshl_add_u64 v[8:9], v[2:3], 0, s[40:41]                 // 000000001B5C: D2080008 00A10102
	v_cmp_gt_u64_e32 vcc, s[28:29], v[8:9]                     // 000000001B64: 7DD8101C
	s_and_b64 s[44:45], s[0:1], vcc                            // 000000001B68: 86AC6A00
	v_mov_b32_e32 v8, 0                                        // 000000001B6C: 7E100280
	s_barrier                                                  // 000000001B70: BF8A0000
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001B74: BEAA202C
	s_cbranch_execz 2                                          // 000000001B78: BF880002 <gemm_bf16_mfma+0x584>
	global_load_ushort v8, v[6:7], off                         // 000000001B7C: DC488000 087F0006
	s_or_b64 exec, exec, s[42:43]                              // 000000001B84: 87FE2A7E
	s_waitcnt vmcnt(0)                                         // 000000001B88: BF8C0F70
	ds_write_b16 v15, v8                                       // 000000001B8C: D83E0000 0000080F
	s_and_b64 s[44:45], s[18:19], vcc                          // 000000001B94: 86AC6A12
	v_lshl_add_u64 v[8:9], v[6:7], 0, s[20:21]                 // 000000001B98: D2080008 00510106
	v_mov_b32_e32 v10, 0                                       // 000000001BA0: 7E140280
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001BA4: BEAA202C
	s_cbranch_execz 2                                          // 000000001BA8: BF880002 <gemm_bf16_mfma+0x5b4>
	global_load_ushort v10, v[8:9], off                        // 000000001BAC: DC488000 0A7F0008
	s_or_b64 exec, exec, s[42:43]                              // 000000001BB4: 87FE2A7E
	s_waitcnt vmcnt(0)                                         // 000000001BB8: BF8C0F70
	ds_write_b16 v16, v10                                      // 000000001BBC: D83E0000 00000A10
	s_and_b64 s[44:45], s[4:5], vcc                            // 000000001BC4: 86AC6A04
	v_lshl_add_u64 v[8:9], v[8:9], 0, s[20:21]                 // 000000001BC8: D2080008 00510108
	v_mov_b32_e32 v10, 0                                       // 000000001BD0: 7E140280
	v_mov_b32_e32 v11, 0                                       // 000000001BD4: 7E160280
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001BD8: BEAA202C
	s_cbranch_execz 2                                          // 000000001BDC: BF880002 <gemm_bf16_mfma+0x5e8>
	global_load_ushort v11, v[8:9], off                        // 000000001BE0: DC488000 0B7F0008
	s_or_b64 exec, exec, s[42:43]                              // 000000001BE8: 87FE2A7E
	s_and_b64 s[44:45], s[6:7], vcc                            // 000000001BEC: 86AC6A06
	v_lshl_add_u64 v[8:9], v[8:9], 0, s[20:21]                 // 000000001BF0: D2080008 00510108
	s_waitcnt vmcnt(0)                                         // 000000001BF8: BF8C0F70
	ds_write_b16 v17, v11                                      // 000000001BFC: D83E0000 00000B11
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001C04: BEAA202C
	s_cbranch_execz 2                                          // 000000001C08: BF880002 <gemm_bf16_mfma+0x614>
	global_load_ushort v10, v[8:9], off                        // 000000001C0C: DC488000 0A7F0008
	s_or_b64 exec, exec, s[42:43]                              // 000000001C14: 87FE2A7E
	s_waitcnt vmcnt(0)                                         // 000000001C18: BF8C0F70
	ds_write_b16 v18, v10                                      // 000000001C1C: D83E0000 00000A12
	s_and_b64 s[44:45], s[8:9], vcc                            // 000000001C24: 86AC6A08
	v_lshl_add_u64 v[8:9], v[8:9], 0, s[20:21]                 // 000000001C28: D2080008 00510108
	v_mov_b32_e32 v10, 0                                       // 000000001C30: 7E140280
	v_mov_b32_e32 v11, 0                                       // 000000001C34: 7E160280
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001C38: BEAA202C
	s_cbranch_execz 2                                          // 000000001C3C: BF880002 <gemm_bf16_mfma+0x648>
	global_load_ushort v11, v[8:9], off                        // 000000001C40: DC488000 0B7F0008
	s_or_b64 exec, exec, s[42:43]                              // 000000001C48: 87FE2A7E
	s_and_b64 s[44:45], s[10:11], vcc                          // 000000001C4C: 86AC6A0A
	v_lshl_add_u64 v[8:9], v[8:9], 0, s[20:21]                 // 000000001C50: D2080008 00510108
	s_waitcnt vmcnt(0)                                         // 000000001C58: BF8C0F70
	ds_write_b16 v19, v11                                      // 000000001C5C: D83E0000 00000B13
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001C64: BEAA202C
	s_cbranch_execz 2                                          // 000000001C68: BF880002 <gemm_bf16_mfma+0x674>
	global_load_ushort v10, v[8:9], off                        // 000000001C6C: DC488000 0A7F0008
	s_or_b64 exec, exec, s[42:43]                              // 000000001C74: 87FE2A7E
	s_waitcnt vmcnt(0)                                         // 000000001C78: BF8C0F70
	ds_write_b16 v20, v10                                      // 000000001C7C: D83E0000 00000A14
	s_and_b64 s[44:45], s[12:13], vcc                          // 000000001C84: 86AC6A0C
	v_lshl_add_u64 v[8:9], v[8:9], 0, s[20:21]                 // 000000001C88: D2080008 00510108
	v_mov_b32_e32 v10, 0                                       // 000000001C90: 7E140280
	v_mov_b32_e32 v11, 0                                       // 000000001C94: 7E160280
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001C98: BEAA202C
	s_cbranch_execz 2                                          // 000000001C9C: BF880002 <gemm_bf16_mfma+0x6a8>
	global_load_ushort v11, v[8:9], off                        // 000000001CA0: DC488000 0B7F0008
	s_or_b64 exec, exec, s[42:43]                              // 000000001CA8: 87FE2A7E
	s_and_b64 s[44:45], s[14:15], vcc                          // 000000001CAC: 86AC6A0E
	s_waitcnt vmcnt(0)                                         // 000000001CB0: BF8C0F70
	ds_write_b16 v21, v11                                      // 000000001CB4: D83E0000 00000B15
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001CBC: BEAA202C
	s_cbranch_execz 4                                          // 000000001CC0: BF880004 <gemm_bf16_mfma+0x6d4>
	v_lshl_add_u64 v[8:9], v[8:9], 0, s[20:21]                 // 000000001CC4: D2080008 00510108
	global_load_ushort v10, v[8:9], off                        // 000000001CCC: DC488000 0A7F0008
	s_or_b64 exec, exec, s[42:43]                              // 000000001CD4: 87FE2A7E
	v_lshl_add_u64 v[8:9], v[4:5], 0, s[40:41]                 // 000000001CD8: D2080008 00A10104
	v_cmp_gt_u64_e32 vcc, s[28:29], v[8:9]                     // 000000001CE0: 7DD8101C
	s_waitcnt vmcnt(0)                                         // 000000001CE4: BF8C0F70
	ds_write_b16 v22, v10                                      // 000000001CE8: D83E0000 00000A16
	s_and_b64 s[44:45], s[16:17], vcc                          // 000000001CF0: 86AC6A10
	v_mov_b32_e32 v50, 0                                       // 000000001CF4: 7E640280
	v_mov_b32_e32 v10, 0                                       // 000000001CF8: 7E140280
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001CFC: BEAA202C
	s_cbranch_execz 2                                          // 000000001D00: BF880002 <gemm_bf16_mfma+0x70c>
	global_load_ushort v10, v[0:1], off                        // 000000001D04: DC488000 0A7F0000
	s_or_b64 exec, exec, s[42:43]                              // 000000001D0C: 87FE2A7E
	s_waitcnt vmcnt(0)                                         // 000000001D10: BF8C0F70
	ds_write_b16 v15, v10 offset:4096                          // 000000001D14: D83E1000 00000A0F
	v_lshl_add_u64 v[10:11], v[8:9], 0, 4                      // 000000001D1C: D208000A 02110108
	v_cmp_gt_u64_e32 vcc, s[28:29], v[10:11]                   // 000000001D24: 7DD8141C
	s_and_b64 s[44:45], s[16:17], vcc                          // 000000001D28: 86AC6A10
	v_lshl_add_u64 v[10:11], v[0:1], 0, s[22:23]               // 000000001D2C: D208000A 00590100
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001D34: BEAA202C
	s_cbranch_execz 2                                          // 000000001D38: BF880002 <gemm_bf16_mfma+0x744>
	global_load_ushort v50, v[10:11], off                      // 000000001D3C: DC488000 327F000A
	s_or_b64 exec, exec, s[42:43]                              // 000000001D44: 87FE2A7E
	s_waitcnt vmcnt(0)                                         // 000000001D48: BF8C0F70
	ds_write_b16 v23, v50 offset:4096                          // 000000001D4C: D83E1000 00003217
	v_lshl_add_u64 v[50:51], v[8:9], 0, 8                      // 000000001D54: D2080032 02210108
	v_cmp_gt_u64_e32 vcc, s[28:29], v[50:51]                   // 000000001D5C: 7DD8641C
	s_and_b64 s[44:45], s[16:17], vcc                          // 000000001D60: 86AC6A10
	v_lshl_add_u64 v[10:11], v[10:11], 0, s[22:23]             // 000000001D64: D208000A 0059010A
	v_mov_b32_e32 v50, 0                                       // 000000001D6C: 7E640280
	v_mov_b32_e32 v51, 0                                       // 000000001D70: 7E660280
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001D74: BEAA202C
	s_cbranch_execz 2                                          // 000000001D78: BF880002 <gemm_bf16_mfma+0x784>
	global_load_ushort v51, v[10:11], off                      // 000000001D7C: DC488000 337F000A
	s_or_b64 exec, exec, s[42:43]                              // 000000001D84: 87FE2A7E
	v_lshl_add_u64 v[52:53], v[8:9], 0, 12                     // 000000001D88: D2080034 02310108
	v_cmp_gt_u64_e32 vcc, s[28:29], v[52:53]                   // 000000001D90: 7DD8681C
	s_and_b64 s[44:45], s[16:17], vcc                          // 000000001D94: 86AC6A10
	v_lshl_add_u64 v[10:11], v[10:11], 0, s[22:23]             // 000000001D98: D208000A 0059010A
	s_waitcnt vmcnt(0)                                         // 000000001DA0: BF8C0F70
	ds_write_b16 v24, v51 offset:4096                          // 000000001DA4: D83E1000 00003318
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001DAC: BEAA202C
	s_cbranch_execz 2                                          // 000000001DB0: BF880002 <gemm_bf16_mfma+0x7bc>
	global_load_ushort v50, v[10:11], off                      // 000000001DB4: DC488000 327F000A
	s_or_b64 exec, exec, s[42:43]                              // 000000001DBC: 87FE2A7E
	s_waitcnt vmcnt(0)                                         // 000000001DC0: BF8C0F70
	ds_write_b16 v25, v50 offset:4096                          // 000000001DC4: D83E1000 00003219
	v_lshl_add_u64 v[50:51], v[8:9], 0, 16                     // 000000001DCC: D2080032 02410108
	v_cmp_gt_u64_e32 vcc, s[28:29], v[50:51]                   // 000000001DD4: 7DD8641C
	s_and_b64 s[44:45], s[16:17], vcc                          // 000000001DD8: 86AC6A10
	v_lshl_add_u64 v[10:11], v[10:11], 0, s[22:23]             // 000000001DDC: D208000A 0059010A
	v_mov_b32_e32 v50, 0                                       // 000000001DE4: 7E640280
	v_mov_b32_e32 v51, 0                                       // 000000001DE8: 7E660280
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001DEC: BEAA202C
	s_cbranch_execz 2                                          // 000000001DF0: BF880002 <gemm_bf16_mfma+0x7fc>
	global_load_ushort v51, v[10:11], off                      // 000000001DF4: DC488000 337F000A
	s_or_b64 exec, exec, s[42:43]                              // 000000001DFC: 87FE2A7E
	v_lshl_add_u64 v[52:53], v[8:9], 0, 20                     // 000000001E00: D2080034 02510108
	v_cmp_gt_u64_e32 vcc, s[28:29], v[52:53]                   // 000000001E08: 7DD8681C
	s_and_b64 s[44:45], s[16:17], vcc                          // 000000001E0C: 86AC6A10
	v_lshl_add_u64 v[10:11], v[10:11], 0, s[22:23]             // 000000001E10: D208000A 0059010A
	s_waitcnt vmcnt(0)                                         // 000000001E18: BF8C0F70
	ds_write_b16 v26, v51 offset:4096                          // 000000001E1C: D83E1000 0000331A
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001E24: BEAA202C
	s_cbranch_execz 2                                          // 000000001E28: BF880002 <gemm_bf16_mfma+0x834>
	global_load_ushort v50, v[10:11], off                      // 000000001E2C: DC488000 327F000A
	s_or_b64 exec, exec, s[42:43]                              // 000000001E34: 87FE2A7E
	s_waitcnt vmcnt(0)                                         // 000000001E38: BF8C0F70
	ds_write_b16 v27, v50 offset:4096                          // 000000001E3C: D83E1000 0000321B
	v_lshl_add_u64 v[50:51], v[8:9], 0, 24                     // 000000001E44: D2080032 02610108
	v_cmp_gt_u64_e32 vcc, s[28:29], v[50:51]                   // 000000001E4C: 7DD8641C
	s_and_b64 s[44:45], s[16:17], vcc                          // 000000001E50: 86AC6A10
	v_lshl_add_u64 v[10:11], v[10:11], 0, s[22:23]             // 000000001E54: D208000A 0059010A
	v_mov_b32_e32 v50, 0                                       // 000000001E5C: 7E640280
	v_mov_b32_e32 v51, 0                                       // 000000001E60: 7E660280
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001E64: BEAA202C
	s_cbranch_execz 2                                          // 000000001E68: BF880002 <gemm_bf16_mfma+0x874>
	global_load_ushort v51, v[10:11], off                      // 000000001E6C: DC488000 337F000A
	s_or_b64 exec, exec, s[42:43]                              // 000000001E74: 87FE2A7E
	v_lshl_add_u64 v[8:9], v[8:9], 0, 28                       // 000000001E78: D2080008 02710108
	v_cmp_gt_u64_e32 vcc, s[28:29], v[8:9]                     // 000000001E80: 7DD8101C
	s_and_b64 s[44:45], s[16:17], vcc                          // 000000001E84: 86AC6A10
	s_waitcnt vmcnt(0)                                         // 000000001E88: BF8C0F70
	ds_write_b16 v28, v51 offset:4096                          // 000000001E8C: D83E1000 0000331C
	s_and_saveexec_b64 s[42:43], s[44:45]                      // 000000001E94: BEAA202C
	s_cbranch_execz 65235                                      // 000000001E98: BF88FED3 <gemm_bf16_mfma+0x3e8>
	v_lshl_add_u64 v[8:9], v[10:11], 0, s[22:23]               // 000000001E9C: D2080008 0059010A
	global_load_ushort v50, v[8:9], off                        // 000000001EA4: DC488000 327F0008
	s_branch 65230                                             // 000000001EAC: BF82FECE <gemm_bf16_mfma+0x3e8>
	v_or3_b32 v3, 0, s35, 0                                    // 000000001EB0: D2020003 02004680
	v_or3_b32 v2, v14, s34, v12                                // 000000001EB8: D2020002 0430450E
	v_mov_b32_e32 v1, s39                                      // 000000001EC0: 7E020227
	v_or_b32_e32 v0, s38, v13                                  // 000000001EC4: 28001A26
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[2:3]                  // 000000001EC8: D0EC0000 0002041A
	v_cmp_gt_u64_e32 vcc, s[30:31], v[0:1]                     // 000000001ED0: 7DD8001E
	s_and_b64 s[2:3], s[0:1], vcc                              // 000000001ED4: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 000000001ED8: BE802002
	s_cbranch_execz 14                                         // 000000001EDC: BF88000E <gemm_bf16_mfma+0x918>
	v_mul_lo_u32 v6, v3, s30                                   // 000000001EE0: D2850006 00003D03
	v_mul_lo_u32 v7, v2, s31                                   // 000000001EE8: D2850007 00003F02
	v_mad_u64_u32 v[4:5], s[2:3], v2, s30, 0                   // 000000001EF0: D1E80204 02003D02
	v_add3_u32 v5, v5, v7, v6                                  // 000000001EF8: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 000000001F00: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 000000001F08: D2080004 04110500
	global_store_dword v[4:5], a0, off                         // 000000001F10: DC708000 00FF0004
	s_or_b64 exec, exec, s[0:1]                                // 000000001F18: 87FE007E
	v_or_b32_e32 v4, 1, v2                                     // 000000001F1C: 28080481
	v_mov_b32_e32 v5, v3                                       // 000000001F20: 7E0A0303
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[4:5]                  // 000000001F24: D0EC0000 0002081A
	s_and_b64 s[2:3], s[0:1], vcc                              // 000000001F2C: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 000000001F30: BE802002
	s_cbranch_execz 14                                         // 000000001F34: BF88000E <gemm_bf16_mfma+0x970>
	v_mul_lo_u32 v6, v5, s30                                   // 000000001F38: D2850006 00003D05
	v_mul_lo_u32 v7, v4, s31                                   // 000000001F40: D2850007 00003F04
	v_mad_u64_u32 v[4:5], s[2:3], v4, s30, 0                   // 000000001F48: D1E80204 02003D04
	v_add3_u32 v5, v5, v7, v6                                  // 000000001F50: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 000000001F58: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 000000001F60: D2080004 04110500
	global_store_dword v[4:5], a1, off                         // 000000001F68: DC708000 00FF0104
	s_or_b64 exec, exec, s[0:1]                                // 000000001F70: 87FE007E
	v_or_b32_e32 v4, 2, v2                                     // 000000001F74: 28080482
	v_mov_b32_e32 v5, v3                                       // 000000001F78: 7E0A0303
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[4:5]                  // 000000001F7C: D0EC0000 0002081A
	s_and_b64 s[2:3], s[0:1], vcc                              // 000000001F84: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 000000001F88: BE802002
	s_cbranch_execz 14                                         // 000000001F8C: BF88000E <gemm_bf16_mfma+0x9c8>
	v_mul_lo_u32 v6, v5, s30                                   // 000000001F90: D2850006 00003D05
	v_mul_lo_u32 v7, v4, s31                                   // 000000001F98: D2850007 00003F04
	v_mad_u64_u32 v[4:5], s[2:3], v4, s30, 0                   // 000000001FA0: D1E80204 02003D04
	v_add3_u32 v5, v5, v7, v6                                  // 000000001FA8: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 000000001FB0: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 000000001FB8: D2080004 04110500
	global_store_dword v[4:5], a2, off                         // 000000001FC0: DC708000 00FF0204
	s_or_b64 exec, exec, s[0:1]                                // 000000001FC8: 87FE007E
	v_or_b32_e32 v4, 3, v2                                     // 000000001FCC: 28080483
	v_mov_b32_e32 v5, v3                                       // 000000001FD0: 7E0A0303
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[4:5]                  // 000000001FD4: D0EC0000 0002081A
	s_and_b64 s[2:3], s[0:1], vcc                              // 000000001FDC: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 000000001FE0: BE802002
	s_cbranch_execz 14                                         // 000000001FE4: BF88000E <gemm_bf16_mfma+0xa20>
	v_mul_lo_u32 v6, v5, s30                                   // 000000001FE8: D2850006 00003D05
	v_mul_lo_u32 v7, v4, s31                                   // 000000001FF0: D2850007 00003F04
	v_mad_u64_u32 v[4:5], s[2:3], v4, s30, 0                   // 000000001FF8: D1E80204 02003D04
	v_add3_u32 v5, v5, v7, v6                                  // 000000002000: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 000000002008: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 000000002010: D2080004 04110500
	global_store_dword v[4:5], a3, off                         // 000000002018: DC708000 00FF0304
	s_or_b64 exec, exec, s[0:1]                                // 000000002020: 87FE007E
	v_or_b32_e32 v4, 8, v2                                     // 000000002024: 28080488
	v_mov_b32_e32 v5, v3                                       // 000000002028: 7E0A0303
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[4:5]                  // 00000000202C: D0EC0000 0002081A
	s_and_b64 s[2:3], s[0:1], vcc                              // 000000002034: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 000000002038: BE802002
	s_cbranch_execz 14                                         // 00000000203C: BF88000E <gemm_bf16_mfma+0xa78>
	v_mul_lo_u32 v6, v5, s30                                   // 000000002040: D2850006 00003D05
	v_mul_lo_u32 v7, v4, s31                                   // 000000002048: D2850007 00003F04
	v_mad_u64_u32 v[4:5], s[2:3], v4, s30, 0                   // 000000002050: D1E80204 02003D04
	v_add3_u32 v5, v5, v7, v6                                  // 000000002058: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 000000002060: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 000000002068: D2080004 04110500
	global_store_dword v[4:5], a4, off                         // 000000002070: DC708000 00FF0404
	s_or_b64 exec, exec, s[0:1]                                // 000000002078: 87FE007E
	v_or_b32_e32 v4, 9, v2                                     // 00000000207C: 28080489
	v_mov_b32_e32 v5, v3                                       // 000000002080: 7E0A0303
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[4:5]                  // 000000002084: D0EC0000 0002081A
	s_and_b64 s[2:3], s[0:1], vcc                              // 00000000208C: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 000000002090: BE802002
	s_cbranch_execz 14                                         // 000000002094: BF88000E <gemm_bf16_mfma+0xad0>
	v_mul_lo_u32 v6, v5, s30                                   // 000000002098: D2850006 00003D05
	v_mul_lo_u32 v7, v4, s31                                   // 0000000020A0: D2850007 00003F04
	v_mad_u64_u32 v[4:5], s[2:3], v4, s30, 0                   // 0000000020A8: D1E80204 02003D04
	v_add3_u32 v5, v5, v7, v6                                  // 0000000020B0: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 0000000020B8: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 0000000020C0: D2080004 04110500
	global_store_dword v[4:5], a5, off                         // 0000000020C8: DC708000 00FF0504
	s_or_b64 exec, exec, s[0:1]                                // 0000000020D0: 87FE007E
	v_or_b32_e32 v4, 10, v2                                    // 0000000020D4: 2808048A
	v_mov_b32_e32 v5, v3                                       // 0000000020D8: 7E0A0303
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[4:5]                  // 0000000020DC: D0EC0000 0002081A
	s_and_b64 s[2:3], s[0:1], vcc                              // 0000000020E4: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 0000000020E8: BE802002
	s_cbranch_execz 14                                         // 0000000020EC: BF88000E <gemm_bf16_mfma+0xb28>
	v_mul_lo_u32 v6, v5, s30                                   // 0000000020F0: D2850006 00003D05
	v_mul_lo_u32 v7, v4, s31                                   // 0000000020F8: D2850007 00003F04
	v_mad_u64_u32 v[4:5], s[2:3], v4, s30, 0                   // 000000002100: D1E80204 02003D04
	v_add3_u32 v5, v5, v7, v6                                  // 000000002108: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 000000002110: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 000000002118: D2080004 04110500
	global_store_dword v[4:5], a6, off                         // 000000002120: DC708000 00FF0604
	s_or_b64 exec, exec, s[0:1]                                // 000000002128: 87FE007E
	v_or_b32_e32 v4, 11, v2                                    // 00000000212C: 2808048B
	v_mov_b32_e32 v5, v3                                       // 000000002130: 7E0A0303
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[4:5]                  // 000000002134: D0EC0000 0002081A
	s_and_b64 s[2:3], s[0:1], vcc                              // 00000000213C: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 000000002140: BE802002
	s_cbranch_execz 14                                         // 000000002144: BF88000E <gemm_bf16_mfma+0xb80>
	v_mul_lo_u32 v6, v5, s30                                   // 000000002148: D2850006 00003D05
	v_mul_lo_u32 v7, v4, s31                                   // 000000002150: D2850007 00003F04
	v_mad_u64_u32 v[4:5], s[2:3], v4, s30, 0                   // 000000002158: D1E80204 02003D04
	v_add3_u32 v5, v5, v7, v6                                  // 000000002160: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 000000002168: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 000000002170: D2080004 04110500
	global_store_dword v[4:5], a7, off                         // 000000002178: DC708000 00FF0704
	s_or_b64 exec, exec, s[0:1]                                // 000000002180: 87FE007E
	v_or_b32_e32 v4, 16, v2                                    // 000000002184: 28080490
	v_mov_b32_e32 v5, v3                                       // 000000002188: 7E0A0303
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[4:5]                  // 00000000218C: D0EC0000 0002081A
	s_and_b64 s[2:3], s[0:1], vcc                              // 000000002194: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 000000002198: BE802002
	s_cbranch_execz 14                                         // 00000000219C: BF88000E <gemm_bf16_mfma+0xbd8>
	v_mul_lo_u32 v6, v5, s30                                   // 0000000021A0: D2850006 00003D05
	v_mul_lo_u32 v7, v4, s31                                   // 0000000021A8: D2850007 00003F04
	v_mad_u64_u32 v[4:5], s[2:3], v4, s30, 0                   // 0000000021B0: D1E80204 02003D04
	v_add3_u32 v5, v5, v7, v6                                  // 0000000021B8: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 0000000021C0: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 0000000021C8: D2080004 04110500
	global_store_dword v[4:5], a8, off                         // 0000000021D0: DC708000 00FF0804
	s_or_b64 exec, exec, s[0:1]                                // 0000000021D8: 87FE007E
	v_or_b32_e32 v4, 17, v2                                    // 0000000021DC: 28080491
	v_mov_b32_e32 v5, v3                                       // 0000000021E0: 7E0A0303
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[4:5]                  // 0000000021E4: D0EC0000 0002081A
	s_and_b64 s[2:3], s[0:1], vcc                              // 0000000021EC: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 0000000021F0: BE802002
	s_cbranch_execz 14                                         // 0000000021F4: BF88000E <gemm_bf16_mfma+0xc30>
	v_mul_lo_u32 v6, v5, s30                                   // 0000000021F8: D2850006 00003D05
	v_mul_lo_u32 v7, v4, s31                                   // 000000002200: D2850007 00003F04
	v_mad_u64_u32 v[4:5], s[2:3], v4, s30, 0                   // 000000002208: D1E80204 02003D04
	v_add3_u32 v5, v5, v7, v6                                  // 000000002210: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 000000002218: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 000000002220: D2080004 04110500
	global_store_dword v[4:5], a9, off                         // 000000002228: DC708000 00FF0904
	s_or_b64 exec, exec, s[0:1]                                // 000000002230: 87FE007E
	v_or_b32_e32 v4, 18, v2                                    // 000000002234: 28080492
	v_mov_b32_e32 v5, v3                                       // 000000002238: 7E0A0303
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[4:5]                  // 00000000223C: D0EC0000 0002081A
	s_and_b64 s[2:3], s[0:1], vcc                              // 000000002244: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 000000002248: BE802002
	s_cbranch_execz 14                                         // 00000000224C: BF88000E <gemm_bf16_mfma+0xc88>
	v_mul_lo_u32 v6, v5, s30                                   // 000000002250: D2850006 00003D05
	v_mul_lo_u32 v7, v4, s31                                   // 000000002258: D2850007 00003F04
	v_mad_u64_u32 v[4:5], s[2:3], v4, s30, 0                   // 000000002260: D1E80204 02003D04
	v_add3_u32 v5, v5, v7, v6                                  // 000000002268: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 000000002270: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 000000002278: D2080004 04110500
	global_store_dword v[4:5], a10, off                        // 000000002280: DC708000 00FF0A04
	s_or_b64 exec, exec, s[0:1]                                // 000000002288: 87FE007E
	v_or_b32_e32 v4, 19, v2                                    // 00000000228C: 28080493
	v_mov_b32_e32 v5, v3                                       // 000000002290: 7E0A0303
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[4:5]                  // 000000002294: D0EC0000 0002081A
	s_and_b64 s[2:3], s[0:1], vcc                              // 00000000229C: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 0000000022A0: BE802002
	s_cbranch_execz 14                                         // 0000000022A4: BF88000E <gemm_bf16_mfma+0xce0>
	v_mul_lo_u32 v6, v5, s30                                   // 0000000022A8: D2850006 00003D05
	v_mul_lo_u32 v7, v4, s31                                   // 0000000022B0: D2850007 00003F04
	v_mad_u64_u32 v[4:5], s[2:3], v4, s30, 0                   // 0000000022B8: D1E80204 02003D04
	v_add3_u32 v5, v5, v7, v6                                  // 0000000022C0: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 0000000022C8: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 0000000022D0: D2080004 04110500
	global_store_dword v[4:5], a11, off                        // 0000000022D8: DC708000 00FF0B04
	s_or_b64 exec, exec, s[0:1]                                // 0000000022E0: 87FE007E
	v_or_b32_e32 v4, 24, v2                                    // 0000000022E4: 28080498
	v_mov_b32_e32 v5, v3                                       // 0000000022E8: 7E0A0303
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[4:5]                  // 0000000022EC: D0EC0000 0002081A
	s_and_b64 s[2:3], s[0:1], vcc                              // 0000000022F4: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 0000000022F8: BE802002
	s_cbranch_execz 14                                         // 0000000022FC: BF88000E <gemm_bf16_mfma+0xd38>
	v_mul_lo_u32 v6, v5, s30                                   // 000000002300: D2850006 00003D05
	v_mul_lo_u32 v7, v4, s31                                   // 000000002308: D2850007 00003F04
	v_mad_u64_u32 v[4:5], s[2:3], v4, s30, 0                   // 000000002310: D1E80204 02003D04
	v_add3_u32 v5, v5, v7, v6                                  // 000000002318: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 000000002320: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 000000002328: D2080004 04110500
	global_store_dword v[4:5], a12, off                        // 000000002330: DC708000 00FF0C04
	s_or_b64 exec, exec, s[0:1]                                // 000000002338: 87FE007E
	v_or_b32_e32 v4, 25, v2                                    // 00000000233C: 28080499
	v_mov_b32_e32 v5, v3                                       // 000000002340: 7E0A0303
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[4:5]                  // 000000002344: D0EC0000 0002081A
	s_and_b64 s[2:3], s[0:1], vcc                              // 00000000234C: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 000000002350: BE802002
	s_cbranch_execz 14                                         // 000000002354: BF88000E <gemm_bf16_mfma+0xd90>
	v_mul_lo_u32 v6, v5, s30                                   // 000000002358: D2850006 00003D05
	v_mul_lo_u32 v7, v4, s31                                   // 000000002360: D2850007 00003F04
	v_mad_u64_u32 v[4:5], s[2:3], v4, s30, 0                   // 000000002368: D1E80204 02003D04
	v_add3_u32 v5, v5, v7, v6                                  // 000000002370: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 000000002378: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 000000002380: D2080004 04110500
	global_store_dword v[4:5], a13, off                        // 000000002388: DC708000 00FF0D04
	s_or_b64 exec, exec, s[0:1]                                // 000000002390: 87FE007E
	v_or_b32_e32 v4, 26, v2                                    // 000000002394: 2808049A
	v_mov_b32_e32 v5, v3                                       // 000000002398: 7E0A0303
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[4:5]                  // 00000000239C: D0EC0000 0002081A
	s_and_b64 s[2:3], s[0:1], vcc                              // 0000000023A4: 86826A00
	s_and_saveexec_b64 s[0:1], s[2:3]                          // 0000000023A8: BE802002
	s_cbranch_execz 14                                         // 0000000023AC: BF88000E <gemm_bf16_mfma+0xde8>
	v_mul_lo_u32 v6, v5, s30                                   // 0000000023B0: D2850006 00003D05
	v_mul_lo_u32 v7, v4, s31                                   // 0000000023B8: D2850007 00003F04
	v_mad_u64_u32 v[4:5], s[2:3], v4, s30, 0                   // 0000000023C0: D1E80204 02003D04
	v_add3_u32 v5, v5, v7, v6                                  // 0000000023C8: D1FF0005 041A0F05
	v_lshl_add_u64 v[4:5], v[4:5], 2, s[24:25]                 // 0000000023D0: D2080004 00610504
	v_lshl_add_u64 v[4:5], v[0:1], 2, v[4:5]                   // 0000000023D8: D2080004 04110500
	global_store_dword v[4:5], a14, off                        // 0000000023E0: DC708000 00FF0E04
	s_or_b64 exec, exec, s[0:1]                                // 0000000023E8: 87FE007E
	v_or_b32_e32 v2, 27, v2                                    // 0000000023EC: 2804049B
	v_cmp_gt_u64_e64 s[0:1], s[26:27], v[2:3]                  // 0000000023F0: D0EC0000 0002041A
	s_and_b64 s[0:1], s[0:1], vcc                              // 0000000023F8: 86806A00
	s_and_saveexec_b64 s[2:3], s[0:1]                          // 0000000023FC: BE822000
	s_cbranch_execz 14                                         // 000000002400: BF88000E <gemm_bf16_mfma+0xe3c>
	v_mul_lo_u32 v4, v3, s30                                   // 000000002404: D2850004 00003D03
	v_mul_lo_u32 v5, v2, s31                                   // 00000000240C: D2850005 00003F02
	v_mad_u64_u32 v[2:3], s[0:1], v2, s30, 0                   // 000000002414: D1E80002 02003D02
	v_add3_u32 v3, v3, v5, v4                                  // 00000000241C: D1FF0003 04120B03
	v_lshl_add_u64 v[2:3], v[2:3], 2, s[24:25]                 // 000000002424: D2080002 00610502
	v_lshl_add_u64 v[0:1], v[0:1], 2, v[2:3]                   // 00000000242C: D2080000 04090500
	global_store_dword v[0:1], a15, off                        // 000000002434: DC708000 00FF0F00
	s_endpgm                                                   // 00000000243C: BF810000
	s_nop 0                                                    // 000000002440: BF800000
	s_nop 0                                                    // 000000002444: BF800000
	s_nop 0                                                    // 000000002448: BF800000
	s_nop 0                                                    // 00000000244C: BF800000
	s_nop 0                                                    // 000000002450: BF800000
	s_nop 0                                                    // 000000002454: BF800000
	s_nop 0                                                    // 000000002458: BF800000
	s_nop 0                                                    // 00000000245C: BF800000
	s_nop 0                                                    // 000000002460: BF800000
	s_nop 0                                                    // 000000002464: BF800000
	s_nop 0                                                    // 000000002468: BF800000
	s_nop 0                                                    // 00000000246C: BF800000
	s_nop 0                                                    // 000000002470: BF800000
	s_nop 0                                                    // 000000002474: BF800000
	s_nop 0                                                    // 000000002478: BF800000
	s_nop 0                                                    // 00000000247C: BF800000
	s_nop 0                                                    // 000000002480: BF800000
	s_nop 0                                                    // 000000002484: BF800000
	s_nop 0                                                    // 000000002488: BF800000
	s_nop 0                                                    // 00000000248C: BF800000
	s_nop 0                                                    // 000000002490: BF800000
	s_nop 0                                                    // 000000002494: BF800000
	s_nop 0                                                    // 000000002498: BF800000
	s_nop 0                                                    // 00000000249C: BF800000
	s_nop 0                                                    // 0000000024A0: BF800000
	s_nop 0                                                    // 0000000024A4: BF800000
	s_nop 0                                                    // 0000000024A8: BF800000
	s_nop 0                                                    // 0000000024AC: BF800000
	s_nop 0                                                    // 0000000024B0: BF800000
	s_nop 0                                                    // 0000000024B4: BF800000
	s_nop 0                                                    // 0000000024B8: BF800000
	s_nop 0                                                    // 0000000024BC: BF800000
	s_nop 0                                                    // 0000000024C0: BF800000
	s_nop 0                                                    // 0000000024C4: BF800000
	s_nop 0                                                    // 0000000024C8: BF800000
	s_nop 0                                                    // 0000000024CC: BF800000
	s_nop 0                                                    // 0000000024D0: BF800000
	s_nop 0                                                    // 0000000024D4: BF800000
	s_nop 0                                                    // 0000000024D8: BF800000
	s_nop 0                                                    // 0000000024DC: BF800000
	s_nop 0                                                    // 0000000024E0: BF800000
	s_nop 0                                                    // 0000000024E4: BF800000
	s_nop 0                                                    // 0000000024E8: BF800000
	s_nop 0                                                    // 0000000024EC: BF800000
	s_nop 0                                                    // 0000000024F0: BF800000
	s_nop 0                                                    // 0000000024F4: BF800000
	s_nop 0                                                    // 0000000024F8: BF800000
	s_nop 0                                                    // 0000000024FC: BF800000
	s_nop 0                                                    // 000000002500: BF800000
	s_nop 0                                                    // 000000002504: BF800000
	s_nop 0                                                    // 000000002508: BF800000
	s_nop 0                                                    // 00000000250C: BF800000
	s_nop 0                                                    // 000000002510: BF800000
	s_nop 0                                                    // 000000002514: BF800000
	s_nop 0                                                    // 000000002518: BF800000
	s_nop 0                                                    // 00000000251C: BF800000
	s_nop 0                                                    // 000000002520: BF800000
	s_nop 0                                                    // 000000002524: BF800000
	s_nop 0                                                    // 000000002528: BF800000
	s_nop 0                                                    // 00000000252C: BF800000
	s_nop 0                                                    // 000000002530: BF800000
	s_nop 0                                                    // 000000002534: BF800000
	s_nop 0                                                    // 000000002538: BF800000
	s_nop 0                                                    // 00000000253C: BF800000
	s_nop 0                                                    // 000000002540: BF800000
	s_nop 0                                                    // 000000002544: BF800000
	s_nop 0                                                    // 000000002548: BF800000
	s_nop 0                                                    // 00000000254C: BF800000
	s_nop 0                                                    // 000000002550: BF800000
	s_nop 0                                                    // 000000002554: BF800000
	s_nop 0                                                    // 000000002558: BF800000
	s_nop 0                                                    // 00000000255C: BF800000
	s_nop 0                                                    // 000000002560: BF800000
	s_nop 0                                                    // 000000002564: BF800000
	s_nop 0                                                    // 000000002568: BF800000
	s_nop 0                                                    // 00000000256C: BF800000
	s_nop 0                                                    // 000000002570: BF800000
	s_nop 0                                                    // 000000002574: BF800000
	s_nop 0                                                    // 000000002578: BF800000
	s_nop 0                                                    // 00000000257C: BF800000
	s_nop 0                                                    // 000000002580: BF800000
	s_nop 0                                                    // 000000002584: BF800000
	s_nop 0                                                    // 000000002588: BF800000
	s_nop 0                                                    // 00000000258C: BF800000
	s_nop 0                                                    // 000000002590: BF800000
	s_nop 0                                                    // 000000002594: BF800000
	s_nop 0                                                    // 000000002598: BF800000
	s_nop 0                                                    // 00000000259C: BF800000
	s_nop 0                                                    // 0000000025A0: BF800000
	s_nop 0                                                    // 0000000025A4: BF800000
	s_nop 0                                                    // 0000000025A8: BF800000
	s_nop 0                                                    // 0000000025AC: BF800000
	s_nop 0                                                    // 0000000025B0: BF800000
	s_nop 0                                                    // 0000000025B4: BF800000
	s_nop 0                                                    // 0000000025B8: BF800000
	s_nop 0                                                    // 0000000025BC: BF800000
	s_nop 0                                                    // 0000000025C0: BF800000
	s_nop 0                                                    // 0000000025C4: BF800000
	s_nop 0                                                    // 0000000025C8: BF800000
	s_nop 0                                                    // 0000000025CC: BF800000
	s_nop 0                                                    // 0000000025D0: BF800000
	s_nop 0                                                    // 0000000025D4: BF800000
	s_nop 0                                                    // 0000000025D8: BF800000
	s_nop 0                                                    // 0000000025DC: BF800000
	s_nop 0                                                    // 0000000025E0: BF800000
	s_nop 0                                                    // 0000000025E4: BF800000
	s_nop 0                                                    // 0000000025E8: BF800000
	s_nop 0                                                    // 0000000025EC: BF800000
	s_nop 0                                                    // 0000000025F0: BF800000
	s_nop 0                                                    // 0000000025F4: BF800000
	s_nop 0                                                    // 0000000025F8: BF800000
	s_nop 0                                                    // 0000000025FC: BF800000
	s_nop 0                                                    // 000000002600: BF800000
	s_nop 0                                                    // 000000002604: BF800000
	s_nop 0                                                    // 000000002608: BF800000
	s_nop 0                                                    // 00000000260C: BF800000
	s_nop 0                                                    // 000000002610: BF800000
	s_nop 0                                                    // 000000002614: BF800000
	s_nop 0                                                    // 000000002618: BF800000
	s_nop 0                                                    // 00000000261C: BF800000
	s_nop 0                                                    // 000000002620: BF800000
	s_nop 0                                                    // 000000002624: BF800000
	s_nop 0                                                    // 000000002628: BF800000
	s_nop 0                                                    // 00000000262C: BF800000
	s_nop 0                                                    // 000000002630: BF800000
	s_nop 0                                                    // 000000002634: BF800000
	s_nop 0                                                    // 000000002638: BF800000
	s_nop 0                                                    // 00000000263C: BF800000
	s_nop 0                                                    // 000000002640: BF800000
	s_nop 0                                                    // 000000002644: BF800000
	s_nop 0                                                    // 000000002648: BF800000
	s_nop 0                                                    // 00000000264C: BF800000
	s_nop 0                                                    // 000000002650: BF800000
	s_nop 0                                                    // 000000002654: BF800000
	s_nop 0                                                    // 000000002658: BF800000
	s_nop 0                                                    // 00000000265C: BF800000
	s_nop 0                                                    // 000000002660: BF800000
	s_nop 0                                                    // 000000002664: BF800000
	s_nop 0                                                    // 000000002668: BF800000
	s_nop 0                                                    // 00000000266C: BF800000
	s_nop 0                                                    // 000000002670: BF800000
	s_nop 0                                                    // 000000002674: BF800000
	s_nop 0                                                    // 000000002678: BF800000
	s_nop 0                                                    // 00000000267C: BF800000
	s_nop 0                                                    // 000000002680: BF800000
	s_nop 0                                                    // 000000002684: BF800000
	s_nop 0                                                    // 000000002688: BF800000
	s_nop 0                                                    // 00000000268C: BF800000
	s_nop 0                                                    // 000000002690: BF800000
	s_nop 0                                                    // 000000002694: BF800000
	s_nop 0                                                    // 000000002698: BF800000
	s_nop 0                                                    // 00000000269C: BF800000
	s_nop 0                                                    // 0000000026A0: BF800000
	s_nop 0                                                    // 0000000026A4: BF800000
	s_nop 0                                                    // 0000000026A8: BF800000
	s_nop 0                                                    // 0000000026AC: BF800000
	s_nop 0                                                    // 0000000026B0: BF800000
	s_nop 0                                                    // 0000000026B4: BF800000
	s_nop 0                                                    // 0000000026B8: BF800000
	s_nop 0                                                    // 0000000026BC: BF800000
	s_nop 0                                                    // 0000000026C0: BF800000
	s_nop 0                                                    // 0000000026C4: BF800000
	s_nop 0                                                    // 0000000026C8: BF800000
	s_nop 0                                                    // 0000000026CC: BF800000
	s_nop 0                                                    // 0000000026D0: BF800000
	s_nop 0                                                    // 0000000026D4: BF800000
	s_nop 0                                                    // 0000000026D8: BF800000
	s_nop 0                                                    // 0000000026DC: BF800000
	s_nop 0                                                    // 0000000026E0: BF800000
	s_nop 0                                                    // 0000000026E4: BF800000
	s_nop 0                                                    // 0000000026E8: BF800000
	s_nop 0                                                    // 0000000026EC: BF800000
	s_nop 0                                                    // 0000000026F0: BF800000
	s_nop 0                                                    // 0000000026F4: BF800000
	s_nop 0                                                    // 0000000026F8: BF800000
	s_nop 0                                                    // 0000000026FC: BF800000
	s_nop 0                                                    // 000000002700: BF800000
	s_nop 0                                                    // 000000002704: BF800000
	s_nop 0                                                    // 000000002708: BF800000
	s_nop 0                                                    // 00000000270C: BF800000
	s_nop 0                                                    // 000000002710: BF800000
	s_nop 0                                                    // 000000002714: BF800000
	s_nop 0                                                    // 000000002718: BF800000
	s_nop 0                                                    // 00000000271C: BF800000
	s_nop 0                                                    // 000000002720: BF800000
	s_nop 0                                                    // 000000002724: BF800000
	s_nop 0                                                    // 000000002728: BF800000
	s_nop 0                                                    // 00000000272C: BF800000
	s_nop 0                                                    // 000000002730: BF800000
	s_nop 0                                                    // 000000002734: BF800000
	s_nop 0                                                    // 000000002738: BF800000
	s_nop 0                                                    // 00000000273C: BF800000
	s_nop 0                                                    // 000000002740: BF800000
	s_nop 0                                                    // 000000002744: BF800000
	s_nop 0                                                    // 000000002748: BF800000
	s_nop 0                                                    // 00000000274C: BF800000
	s_nop 0                                                    // 000000002750: BF800000
	s_nop 0                                                    // 000000002754: BF800000
	s_nop 0                                                    // 000000002758: BF800000
	s_nop 0                                                    // 00000000275C: BF800000
	s_nop 0                                                    // 000000002760: BF800000
	s_nop 0                                                    // 000000002764: BF800000
	s_nop 0                                                    // 000000002768: BF800000
	s_nop 0                                                    // 00000000276C: BF800000
	s_nop 0                                                    // 000000002770: BF800000
	s_nop 0                                                    // 000000002774: BF800000
	s_nop 0                                                    // 000000002778: BF800000
	s_nop 0                                                    // 00000000277C: BF800000
	s_nop 0                                                    // 000000002780: BF800000
	s_nop 0                                                    // 000000002784: BF800000
	s_nop 0                                                    // 000000002788: BF800000
	s_nop 0                                                    // 00000000278C: BF800000
	s_nop 0                                                    // 000000002790: BF800000
	s_nop 0                                                    // 000000002794: BF800000
	s_nop 0                                                    // 000000002798: BF800000
	s_nop 0                                                    // 00000000279C: BF800000
	s_nop 0                                                    // 0000000027A0: BF800000
	s_nop 0                                                    // 0000000027A4: BF800000
	s_nop 0                                                    // 0000000027A8: BF800000
	s_nop 0                                                    // 0000000027AC: BF800000
	s_nop 0                                                    // 0000000027B0: BF800000
	s_nop 0                                                    // 0000000027B4: BF800000
	s_nop 0                                                    // 0000000027B8: BF800000
	s_nop 0                                                    // 0000000027BC: BF800000
	s_nop 0                                                    // 0000000027C0: BF800000
	s_nop 0                                                    // 0000000027C4: BF800000
	s_nop 0                                                    // 0000000027C8: BF800000
	s_nop 0                                                    // 0000000027CC: BF800000
	s_nop 0                                                    // 0000000027D0: BF800000
	s_nop 0                                                    // 0000000027D4: BF800000
	s_nop 0                                                    // 0000000027D8: BF800000
	s_nop 0                                                    // 0000000027DC: BF800000
	s_nop 0                                                    // 0000000027E0: BF800000
	s_nop 0                                                    // 0000000027E4: BF800000
	s_nop 0                                                    // 0000000027E8: BF800000
	s_nop 0                                                    // 0000000027EC: BF800000
	s_nop 0                                                    // 0000000027F0: BF800000
	s_nop 0                                                    // 0000000027F4: BF800000
	s_nop 0                                                    // 0000000027F8: BF800000
	s_nop 0                                                    // 0000000027FC: BF800000
	s_nop 0                                                    // 000000002800: BF800000
	s_nop 0                                                    // 000000002804: BF800000
	s_nop 0                                                    // 000000002808: BF800000
	s_nop 0                                                    // 00000000280C: BF800000
	s_nop 0                                                    // 000000002810: BF800000
	s_nop 0                                                    // 000000002814: BF800000
	s_nop 0                                                    // 000000002818: BF800000
	s_nop 0                                                    // 00000000281C: BF800000
	s_nop 0                                                    // 000000002820: BF800000
	s_nop 0                                                    // 000000002824: BF800000
	s_nop 0                                                    // 000000002828: BF800000
	s_nop 0                                                    // 00000000282C: BF800000
	s_nop 0                                                    // 000000002830: BF800000
	s_nop 0                                                    // 000000002834: BF800000
	s_nop 0                                                    // 000000002838: BF800000
	s_nop 0                                                    // 00000000283C: BF800000
