/// \file
/// tcgen05 (sm_100a): the accumulator lives in tensor memory (TMEM) while the instruction
/// runs. Warp 0 allocates the kernel's TMEM columns at entry and frees them at exit. Per gemm:
/// when accumulating, each primary group's threads write their accumulator registers into
/// their TMEM lanes (tcgen05.st, readback layout 32x32b: thread L of warp w owns lane
/// 32 (w % 4) + L); one thread per group issues every atom (tcgen05.mma with shared-memory
/// descriptors and the 32-bit instruction descriptor) and commits them to the gemm's
/// mbarrier; every thread waits on it and reads its lanes back with tcgen05.ld. Groups past
/// gm x gn (replicas) read the same lanes of their group's columns and issue nothing.
///
/// This path is compiled and checked through NVRTC and ptxas (compile_offline) and by PTX
/// inspection; no sm_100 device was available to run it.
#include "plugins/cuda/codegen/Descriptors.h"

#include <cstdint>

namespace tegula::cuda::gen {

static std::string hex64(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016llxull", (unsigned long long)v);
  return buf;
}

static int format_code(DType d) {
  switch (d) {
    case DType::F16: return 0;
    case DType::BF16: return 1;
    case DType::TF32: return 2;
    case DType::E4M3: return 0;
    case DType::E5M2: return 1;
    case DType::U8: return 0;
    case DType::I8: return 1;
    default: return 0;
  }
}

int64_t Emitter::tcgen05_columns(const ir::GemmPlan& p) { return p.gm * p.gn * p.rm * p.rn * p.n; }

Status Emitter::emit_gemm_tcgen05(const ir::Stmt& s, const ir::GemmPlan& p, const MatrixInstruction& mi) {
  const Buffer* A = buffer(s.gemm_a().buffer);
  const Buffer* B = buffer(s.gemm_b().buffer);
  const Buffer* C = buffer(s.gemm_c().buffer);
  bool acc = ir::stmt_attr_bool(s, "accumulate");
  bool ta = ir::stmt_attr_bool(s, "trans_a"), tb = ir::stmt_attr_bool(s, "trans_b");
  if (p.m != 128 || p.group_threads != 128) return unsupported(s, "tcgen05 atoms other than M = 128 (no readback layout is described for them)");
  if (p.a_from != OperandLocation::Shared || p.b_from != OperandLocation::Shared || A->scope != ir::Scope::Shared || B->scope != ir::Scope::Shared)
    return unsupported(s, "tcgen05 reads A and B from shared memory only");
  if (C->dtype != DType::F32 && C->dtype != DType::I32) return unsupported(s, std::string("a tcgen05 accumulator of ") + dtype_name(C->dtype));
  bool a_mn = ta, b_mn = !tb;
  auto da_r = make_descriptor(*A, !a_mn);
  if (!da_r.is_ok()) return unsupported(s, da_r.status().message());
  auto db_r = make_descriptor(*B, !b_mn);
  if (!db_r.is_ok()) return unsupported(s, db_r.status().message());
  SmemDescriptor da = *da_r, db = *db_r;
  int64_t ksteps = p.Kp / p.k;
  for (int64_t ks = 0; ks < ksteps; ++ks) {
    for (int64_t g = 0; g < p.gm; ++g)
      for (int64_t i = 0; i < p.rm; ++i) {
        Status st = check_descriptor(da, *A, g * p.rm * p.m + i * p.m, ks * p.k, p.m, p.k);
        if (!st.is_ok()) return unsupported(s, st.message());
      }
    for (int64_t g = 0; g < p.gn; ++g)
      for (int64_t j = 0; j < p.rn; ++j) {
        Status st = check_descriptor(db, *B, g * p.rn * p.n + j * p.n, ks * p.k, p.n, p.k);
        if (!st.is_ok()) return unsupported(s, st.message());
      }
  }
  uint32_t idesc = 0;
  idesc |= uint32_t(C->dtype == DType::I32 ? 2 : 1) << 4;
  idesc |= uint32_t(format_code(A->dtype)) << 7;
  idesc |= uint32_t(format_code(B->dtype)) << 10;
  idesc |= uint32_t(a_mn) << 15;
  idesc |= uint32_t(b_mn) << 16;
  idesc |= uint32_t(p.n >> 3) << 17;
  idesc |= uint32_t(p.m >> 4) << 24;
  std::string kind = mi.mnemonic;  // "tcgen05.mma.cta_group::1.kind::f16"
  int64_t groups = p.gm * p.gn;
  const Barriers& bar = mbarrier_of.at(&s);
  std::string phase = "ph" + itos(bar.index);
  std::string bar_addr = "(smem_u32 + " + itos(bar.offset) + "u)";
  bool is_int = C->dtype == DType::I32;

  open("");
  line("// gemm " + A->name + " x " + B->name + " -> " + C->name + ": " + kind + " m" + itos(p.m) + "n" + itos(p.n) + "k" + itos(p.k) + ", " +
       itos(p.gm) + "x" + itos(p.gn) + " groups of " + itos(p.rm) + "x" + itos(p.rn) + " atoms, accumulator in tensor memory");
  line("const int grp = t >> 7, gi_ = grp % " + itos(groups) + ";");
  line("const bool primary = grp < " + itos(groups) + ";");
  line("const int gx_a = (gi_ % " + itos(p.gm) + ") * " + itos(p.rm * p.m) + ", gx_b = (gi_ / " + itos(p.gm) + ") * " + itos(p.rn * p.n) + ";");
  line("const unsigned a_base = smem_u32 + (unsigned)(" + stage_base(*A) + ");");
  line("const unsigned b_base = smem_u32 + (unsigned)(" + stage_base(*B) + ");");
  line("const unsigned tcol = tmem + (unsigned)(gi_ * " + itos(p.rm * p.rn * p.n) + ");");
  line("const unsigned tlane = ((unsigned)((t >> 5) & 3) * 32u) << 16;");

  // Chunks of one atom's n columns that one tcgen05.ld/st moves (powers of two, at most 128).
  std::vector<std::pair<int64_t, int64_t>> chunks;  // (first column, count)
  for (int64_t c = 0; c < p.n;) {
    int64_t left = p.n - c, w = 1;
    while (w * 2 <= left && w * 2 <= 128) w *= 2;
    chunks.push_back({c, w});
    c += w;
  }
  auto move = [&](bool store) {
    for (int64_t j = 0; j < p.rn; ++j)
      for (int64_t i = 0; i < p.rm; ++i) {
        int64_t atom_col = (i + p.rm * j) * p.n;
        int64_t slot0 = p.n * (i + p.rm * j);
        for (const auto& [c0, w] : chunks) {
          open("");
          std::string tmps;
          std::vector<std::string> ops;
          for (int64_t r = 0; r < w; ++r) {
            std::string reg = C->cname + "[" + itos(slot0 + c0 + r) + "]";
            if (store) ops.push_back(is_int ? "\"r\"(" + reg + ")" : "\"r\"(__float_as_uint(" + reg + "))");
            else ops.push_back("\"=r\"(tr[" + itos(r) + "])");
            tmps += (r ? ", %" : "%") + itos(store ? r + 1 : r);
          }
          std::string addr = "tcol + tlane + " + itos(atom_col + c0) + "u";
          if (store) {
            line("asm volatile(\"tcgen05.st.sync.aligned.32x32b.x" + itos(w) + ".b32 [%0], {" + tmps + "};\" :: \"r\"(" + addr + "), " + join(ops, ", ") +
                 " : \"memory\");");
          } else {
            line("unsigned tr[" + itos(w) + "];");
            line("asm volatile(\"tcgen05.ld.sync.aligned.32x32b.x" + itos(w) + ".b32 {" + tmps + "}, [%" + itos(w) + "];\" : " + join(ops, ", ") +
                 " : \"r\"(" + addr + ") : \"memory\");");
            line("asm volatile(\"tcgen05.wait::ld.sync.aligned;\" ::: \"memory\");");
            line("#pragma unroll");
            line("for (int r = 0; r < " + itos(w) + "; ++r) asm volatile(\"\" : \"+r\"(tr[r]) :: \"memory\");");
            for (int64_t r = 0; r < w; ++r)
              line(C->cname + "[" + itos(slot0 + c0 + r) + "] = " + (is_int ? "(int)tr[" + itos(r) + "]" : "__uint_as_float(tr[" + itos(r) + "])") + ";");
          }
          close();
        }
      }
  };
  if (acc) {
    open("if (primary)");
    move(true);
    line("asm volatile(\"tcgen05.wait::st.sync.aligned;\" ::: \"memory\");");
    close();
  }
  line("asm volatile(\"tcgen05.fence::before_thread_sync;\" ::: \"memory\");");
  emit_barrier();
  open("if (primary && (t & 127) == 0)");
  line("asm volatile(\"tcgen05.fence::after_thread_sync;\" ::: \"memory\");");
  for (int64_t ks = 0; ks < ksteps; ++ks) {
    for (int64_t j = 0; j < p.rn; ++j) {
      for (int64_t i = 0; i < p.rm; ++i) {
        int enable = (acc || ks > 0) ? 1 : 0;
        std::string desc_a = hex64(tcgen05_descriptor_bits(da)) + " | (tg_u64)(((a_base + (unsigned)" +
                             descriptor_start(da, "gx_a + " + itos(i * p.m), ks * p.k) + ") >> 4) & 0x3fffu)";
        std::string desc_b = hex64(tcgen05_descriptor_bits(db)) + " | (tg_u64)(((b_base + (unsigned)" +
                             descriptor_start(db, "gx_b + " + itos(j * p.n), ks * p.k) + ") >> 4) & 0x3fffu)";
        line("asm volatile(\"{ .reg .pred p; setp.ne.b32 p, %4, 0; " + kind + " [%0], %1, %2, %3, p; }\" :: \"r\"(tcol + " +
             itos((i + p.rm * j) * p.n) + "u), \"l\"((tg_u64)(" + desc_a + ")), \"l\"((tg_u64)(" + desc_b + ")), \"r\"(" + itos(idesc) + "u), \"r\"(" +
             itos(enable) + ") : \"memory\");");
      }
    }
  }
  line("asm volatile(\"tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];\" :: \"r\"(" + bar_addr + ") : \"memory\");");
  close();
  line("tg_mbar_wait(" + bar_addr + ", " + phase + ");");
  line(phase + " ^= 1u;");
  line("asm volatile(\"tcgen05.fence::after_thread_sync;\" ::: \"memory\");");
  move(false);
  line("asm volatile(\"tcgen05.fence::before_thread_sync;\" ::: \"memory\");");
  emit_barrier();
  close();
  return Status::ok();
}

}  // namespace tegula::cuda::gen
