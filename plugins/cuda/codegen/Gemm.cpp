/// \file
/// Gemm dispatch, the register conventions every family shares (ir/lower/README.md, "Gemm"),
/// the scalar fma fallback and warp-level mma.sync. Register operands of mma.sync come from
/// the operand fragment, or from shared memory into the catalogue's fragment layout: with
/// ldmatrix (.trans for operands stored the other way round) wherever a simulation of
/// ldmatrix over every lane and atom shows it delivers exactly the catalogue's layout and the
/// shared layout keeps its 16-byte rows whole, else with per-register loads.
#include <cstdint>
#include <optional>

#include "plugins/cuda/codegen/Emitter.h"
#include "targets/MatrixQuery.h"

namespace tegula::cuda::gen {

static bool same_distribution(const ir::Distribution& a, const ir::Distribution& b, int64_t threads, int rank) {
  if (a.value_count() != b.value_count() || a.thread_count() != b.thread_count()) return false;
  if (a == b) return true;
  for (int64_t t = 0; t < threads; ++t)
    for (int64_t v = 0; v < a.value_count(); ++v)
      if (a.coords(t, v, rank) != b.coords(t, v, rank)) return false;
  return true;
}

Status Emitter::check_gemm_layouts(const ir::Stmt& s, const ir::GemmPlan& p, const MatrixInstruction* mi) {
  const Buffer* C = buffer(s.gemm_c().buffer);
  if (!C || C->scope != ir::Scope::Fragment) return unsupported(s, "gemm accumulator is not a fragment");
  TG_ASSIGN_OR_RETURN(ir::Distribution acc, ir::accumulator_distribution(p, mi, threads()));
  if (!same_distribution(acc, C->dist, threads(), 2))
    return unsupported(s, "accumulator '" + C->name + "' is not laid out in " + p.inst + "'s register order");
  for (int which = 0; which < 2; ++which) {
    const Buffer* X = buffer(which == 0 ? s.gemm_a().buffer : s.gemm_b().buffer);
    if (!X || X->scope != ir::Scope::Fragment) continue;
    OperandLocation from = which == 0 ? p.a_from : p.b_from;
    if (from != OperandLocation::Registers && !p.is_fma()) return unsupported(s, "a fragment operand read through a shared-memory descriptor");
    bool trans = ir::stmt_attr_bool(s, which == 0 ? "trans_a" : "trans_b");
    TG_ASSIGN_OR_RETURN(ir::Distribution d, ir::operand_distribution(p, mi, threads(), which == 0, trans));
    if (!same_distribution(d, X->dist, threads(), 2))
      return unsupported(s, "operand '" + X->name + "' is not laid out in " + p.inst + "'s register order");
  }
  return Status::ok();
}

Status Emitter::emit_gemm(const ir::Stmt& s) {
  TG_ASSIGN_OR_RETURN(ir::GemmPlan p, ir::get_gemm_plan(s));
  if (p.is_fma()) {
    TG_RETURN_IF_ERROR(check_gemm_layouts(s, p, nullptr));
    return emit_gemm_fma(s, p);
  }
  const MatrixInstruction* mi = target_.find_instruction(p.inst);
  if (!mi) return unsupported(s, "target '" + target_.name + "' has no instruction '" + p.inst + "'");
  TG_RETURN_IF_ERROR(check_gemm_layouts(s, p, mi));
  switch (p.kind) {
    case InstructionKind::MmaSync: return emit_gemm_mma_sync(s, p, *mi);
    case InstructionKind::Wgmma:
      if (sm_ != 90) return unsupported(s, "wgmma needs sm_90a");
      return emit_gemm_wgmma(s, p, *mi);
    case InstructionKind::Tcgen05:
      if (sm_ != 100) return unsupported(s, "tcgen05 needs sm_100a");
      return emit_gemm_tcgen05(s, p, *mi);
    case InstructionKind::Fma: return emit_gemm_fma(s, p);
    case InstructionKind::Mfma:
    case InstructionKind::Coopmat: break;
  }
  return unsupported(s, std::string("instruction kind '") + instruction_kind_name(p.kind) + "' is not an NVIDIA one");
}

// --- fma ---------------------------------------------------------------------------------------

/// The element (row, col) of operand `which` (0: A as [M, K], 1: B as [K, N]) in its buffer.
static std::vector<std::string> stored(const ir::Stmt& s, int which, const std::string& mn, const std::string& k) {
  bool trans = ir::stmt_attr_bool(s, which == 0 ? "trans_a" : "trans_b");
  if (which == 0) return trans ? std::vector<std::string>{k, mn} : std::vector<std::string>{mn, k};
  return trans ? std::vector<std::string>{mn, k} : std::vector<std::string>{k, mn};
}

Status Emitter::emit_gemm_fma(const ir::Stmt& s, const ir::GemmPlan& p) {
  const Buffer* A = buffer(s.gemm_a().buffer);
  const Buffer* B = buffer(s.gemm_b().buffer);
  const Buffer* C = buffer(s.gemm_c().buffer);
  bool acc = ir::stmt_attr_bool(s, "accumulate");
  Rep rep = frag_rep(C->dtype);
  const char* ct = rep_type(rep);
  bool regs = A->scope == ir::Scope::Fragment || B->scope == ir::Scope::Fragment;
  open("");
  line("// gemm " + A->name + " x " + B->name + " -> " + C->name + " (fma, " + itos(p.gm) + "x" + itos(p.gn) + " threads of " + itos(p.rm) +
       "x" + itos(p.rn) + ")");
  line("const int fr0 = ((t / " + itos(p.gn) + ") % " + itos(p.gm) + ") * " + itos(p.rm) + ";");
  line("const int fc0 = (t % " + itos(p.gn) + ") * " + itos(p.rn) + ";");
  if (!acc)
    for (int64_t v = 0; v < p.rm * p.rn; ++v) line(C->cname + "[" + itos(v) + "] = 0;");
  line(regs ? "#pragma unroll" : "#pragma unroll 4");
  open("for (int kk = 0; kk < " + itos(p.Kp) + "; ++kk)");
  line(std::string(ct) + " fa[" + itos(p.rm) + "], fb[" + itos(p.rn) + "];");
  for (int which = 0; which < 2; ++which) {
    const Buffer* X = which == 0 ? A : B;
    int64_t r = which == 0 ? p.rm : p.rn;
    std::string arr = which == 0 ? "fa" : "fb", base = which == 0 ? "fr0" : "fc0";
    line("#pragma unroll");
    open("for (int i = 0; i < " + itos(r) + "; ++i)");
    if (X->scope == ir::Scope::Fragment) {
      // operand_distribution of the fma plan: value kk + Kp * i.
      line(arr + "[i] = " + convert({X->cname + "[kk + " + itos(p.Kp) + " * i]", frag_rep(X->dtype)}, rep) + ";");
    } else {
      Value v = read_element(*X, stored(s, which, "(" + base + " + i)", "kk"), 0.0);
      line(arr + "[i] = " + convert(v, rep) + ";");
    }
    close();
  }
  line("#pragma unroll");
  open("for (int i = 0; i < " + itos(p.rm) + "; ++i)");
  line("#pragma unroll");
  open("for (int j = 0; j < " + itos(p.rn) + "; ++j)");
  std::string c = C->cname + "[j + " + itos(p.rn) + " * i]";
  if (rep == Rep::F32) line(c + " = fmaf(fa[i], fb[j], " + c + ");");
  else if (rep == Rep::F64) line(c + " = fma(fa[i], fb[j], " + c + ");");
  else line(c + " += fa[i] * fb[j];");
  close();
  close();
  close();
  // The accumulator holds C's dtype: round what was summed in float.
  if (C->dtype != DType::F32 && C->dtype != DType::F64 && C->dtype != DType::I32)
    for (int64_t v = 0; v < p.rm * p.rn; ++v)
      line(C->cname + "[" + itos(v) + "] = " + round_to({C->cname + "[" + itos(v) + "]", rep}, C->dtype).code + ";");
  close();
  return Status::ok();
}

// --- register operands of matrix instructions ----------------------------------------------

Result<OperandRegs> Emitter::operand_regs(const MatrixInstruction& mi, const ir::GemmPlan& p, int which, DType dt) const {
  OperandRegs o;
  const Operand& op = which == 0 ? mi.a : which == 1 ? mi.b : mi.acc;
  const OperandPlacement* pl = op.find(OperandLocation::Registers);
  const Layout* layout = pl && pl->form == OperandPlacement::Form::ThreadValue ? &pl->layout : nullptr;
  if (!layout && which == 2) {
    const OperandPlacement* tm = op.find(OperandLocation::TensorMemory);
    if (tm && tm->readback_layout) layout = &*tm->readback_layout;
  }
  if (!layout)
    return error(ErrorCode::Unsupported, "instruction '" + mi.id + "' has no register layout for " + (which == 0 ? "A" : which == 1 ? "B" : "C"));
  MmaShape atom{int(p.m), int(p.n), int(p.k)};
  int64_t rows = which == 1 ? p.n : p.m;
  int64_t cols = which == 2 ? p.n : p.k;
  TG_ASSIGN_OR_RETURN(o.atom, ir::atom_distribution(*layout, atom, rows, cols, false));
  o.values = o.atom.value_count();
  int64_t es = int64_t(dtype_size(dt));
  o.wide = es == 8;
  o.epr = es >= 4 ? 1 : 4 / es;
  o.regs = o.values / o.epr;
  return o;
}

namespace {

/// Stored (row, col) of operand element (x, k): operands stored with K contiguous keep it.
std::pair<int64_t, int64_t> store_rc(bool k_contig, int64_t x, int64_t k) { return k_contig ? std::make_pair(x, k) : std::make_pair(k, x); }

}  // namespace

bool Emitter::plan_ldmatrix(const OperandRegs& o, const Buffer& X, bool k_contig, const std::vector<std::pair<int64_t, int64_t>>& origins,
                            LdPlan* plan) const {
  int64_t es = int64_t(dtype_size(X.dtype));
  if (o.wide || (o.regs != 1 && o.regs != 2 && o.regs != 4) || o.atom.thread_count() != 32) return false;
  if (X.offset % 16 || X.stage_bytes % 16) return false;
  int64_t row_elems = 16 / es;
  for (int trans = 0; trans < 2; ++trans) {
    if (trans && es != 2) break;
    LdPlan lp;
    lp.trans = trans != 0;
    lp.count = o.regs;
    bool ok = true;
    for (int64_t q = 0; q < o.regs && ok; ++q) {
      std::vector<int64_t> c0 = o.atom.coords(0, q * o.epr, 2);
      auto [r0, cc0] = store_rc(k_contig, c0[0], c0[1]);
      lp.origin.push_back({r0, cc0});
      for (int64_t L = 0; L < 32 && ok; ++L) {
        for (int64_t e = 0; e < o.epr && ok; ++e) {
          std::vector<int64_t> c = o.atom.coords(L, q * o.epr + e, 2);
          auto [sr, sc] = store_rc(k_contig, c[0], c[1]);
          int64_t wr = trans ? r0 + 2 * (L % 4) + e : r0 + L / 4;
          int64_t wc = trans ? cc0 + L / 4 : cc0 + o.epr * (L % 4) + e;
          ok = sr == wr && sc == wc;
        }
      }
    }
    // Every 8-row matrix's rows must be whole, aligned 16-byte lines of the shared layout.
    for (const auto& [orow, ocol] : origins) {
      for (int64_t q = 0; q < o.regs && ok; ++q) {
        for (int64_t rr = 0; rr < 8 && ok; ++rr) {
          int64_t sr = orow + lp.origin[size_t(q)].first + rr, sc = ocol + lp.origin[size_t(q)].second;
          if (sr >= X.shape[0] || sc + row_elems > X.shape[1]) {
            ok = false;
            break;
          }
          int64_t base = ir::shared_offset(X.layout, X.shape, X.dtype, {sr, sc});
          ok = base % 16 == 0;
          for (int64_t c = 1; c < row_elems && ok; ++c) ok = ir::shared_offset(X.layout, X.shape, X.dtype, {sr, sc + c}) == base + c * es;
        }
      }
      if (!ok) break;
    }
    if (ok) {
      *plan = lp;
      return true;
    }
  }
  return false;
}

Status Emitter::emit_operand_regs(const ir::Stmt& s, const ir::GemmPlan& p, const OperandRegs& o, int which, int64_t a, int64_t ks,
                                  const std::string& name, const std::string& lane, const std::string& group_x) {
  const Buffer* X = buffer(which == 0 ? s.gemm_a().buffer : s.gemm_b().buffer);
  DType dt = X->dtype;
  int64_t es = int64_t(dtype_size(dt));
  const char* reg_t = o.wide ? "double" : "unsigned";
  line(std::string(reg_t) + " " + name + "[" + itos(o.regs) + "];");
  int64_t reps = which == 0 ? p.rm : p.rn, xa = which == 0 ? p.m : p.n;
  if (X->scope == ir::Scope::Fragment) {
    // Register convention: atom value r of k-step ks is slot r + R * (a + reps * ks).
    int64_t base = o.values * (a + reps * ks);
    for (int64_t q = 0; q < o.regs; ++q) {
      std::vector<std::string> v;
      for (int64_t e = 0; e < o.epr; ++e) v.push_back(X->cname + "[" + itos(base + q * o.epr + e) + "]");
      std::string packed;
      if (o.wide) packed = v[0];
      else if (es == 4) packed = "__float_as_uint(" + v[0] + ")";
      else if (es == 2) packed = std::string(dt == DType::BF16 ? "tg_pack_bf16x2(" : "tg_pack_f16x2(") + v[0] + ", " + v[1] + ")";
      else {
        std::vector<std::string> parts;
        for (int64_t e = 0; e < 4; ++e) {
          std::string byte = dt == DType::E4M3 ? "(unsigned)tg_enc_e4m3(" + v[size_t(e)] + ")" : dt == DType::E5M2 ? "(unsigned)tg_enc_e5m2(" + v[size_t(e)] + ")"
                                                                                                                   : "((unsigned)" + v[size_t(e)] + " & 0xffu)";
          parts.push_back("(" + byte + " << " + itos(8 * e) + ")");
        }
        packed = join(parts, " | ");
      }
      line(name + "[" + itos(q) + "] = " + packed + ";");
    }
    return Status::ok();
  }
  if (X->scope != ir::Scope::Shared) return unsupported(s, "a gemm operand that is neither a fragment nor a shared tile");
  bool trans = ir::stmt_attr_bool(s, which == 0 ? "trans_a" : "trans_b");
  bool k_contig = which == 0 ? !trans : trans;
  // Origins of every atom this operand feeds (all groups), for the layout checks.
  auto key = std::make_pair(&s, which);
  if (!ld_plans_.count(key)) {
    std::vector<std::pair<int64_t, int64_t>> origins;
    int64_t groups = which == 0 ? p.gm : p.gn;
    for (int64_t g = 0; g < groups; ++g)
      for (int64_t r = 0; r < reps; ++r)
        for (int64_t k0 = 0; k0 < p.Kp; k0 += p.k) {
          auto rc = store_rc(k_contig, g * reps * xa + r * xa, k0);
          origins.push_back(rc);
        }
    LdPlan lp;
    if (!target_.has_feature(Feature::Ldmatrix) || !plan_ldmatrix(o, *X, k_contig, origins, &lp)) lp.count = 0;
    // Per-register loads: one 32-bit load where a register's elements are contiguous.
    lp.word_loads = es < 4;
    for (const auto& [orow, ocol] : origins) {
      for (int64_t L = 0; L < o.atom.thread_count() && lp.word_loads; ++L)
        for (int64_t q = 0; q < o.regs && lp.word_loads; ++q) {
          std::vector<int64_t> c = o.atom.coords(L, q * o.epr, 2);
          auto [sr, sc] = store_rc(k_contig, c[0], c[1]);
          int64_t base = ir::shared_offset(X->layout, X->shape, dt, {orow + sr, ocol + sc});
          if (base % 4 || X->offset % 4 || X->stage_bytes % 4) lp.word_loads = false;
          for (int64_t e = 1; e < o.epr && lp.word_loads; ++e) {
            std::vector<int64_t> ce = o.atom.coords(L, q * o.epr + e, 2);
            auto [er, ec] = store_rc(k_contig, ce[0], ce[1]);
            if (orow + er >= X->shape[0] || ocol + ec >= X->shape[1] ||
                ir::shared_offset(X->layout, X->shape, dt, {orow + er, ocol + ec}) != base + e * es)
              lp.word_loads = false;
          }
        }
    }
    ld_plans_[key] = lp;
  }
  const LdPlan& lp = ld_plans_.at(key);
  // The atom's origin in the operand: x = group origin + a * atom, k = ks * k.
  std::string ox = "(" + group_x + " + " + itos(a * xa) + ")", ok = itos(ks * p.k);
  std::string orow = k_contig ? ox : ok, ocol = k_contig ? ok : ox;
  if (lp.count) {
    std::vector<std::string> rsel, csel;
    for (int64_t q = 0; q < lp.count; ++q) {
      rsel.push_back(itos(lp.origin[size_t(q)].first));
      csel.push_back(itos(lp.origin[size_t(q)].second));
    }
    auto select = [&](const std::vector<std::string>& v) {
      std::string e = v.back();
      for (int64_t q = int64_t(v.size()) - 2; q >= 0; --q) e = "(lq == " + itos(q) + " ? " + v[size_t(q)] + " : " + e + ")";
      return e;
    };
    open("");
    line("const int lq = (" + lane + " >> 3) % " + itos(lp.count) + ", lr = " + lane + " & 7;");
    std::string addr = shared_addr(*X, {"(" + orow + " + " + select(rsel) + " + lr)", "(" + ocol + " + " + select(csel) + ")"});
    std::vector<std::string> outs;
    for (int64_t q = 0; q < lp.count; ++q) outs.push_back("\"=r\"(" + name + "[" + itos(q) + "])");
    std::string regs;
    for (int64_t q = 0; q < lp.count; ++q) regs += (q ? ", %" : "%") + itos(q);
    line("asm volatile(\"ldmatrix.sync.aligned.m8n8.x" + itos(lp.count) + (lp.trans ? ".trans" : "") + ".shared.b16 {" + regs + "}, [%" +
         itos(lp.count) + "];\" : " + join(outs, ", ") + " : \"r\"(" + addr + "));");
    close();
    return Status::ok();
  }
  // Per-register loads in the catalogue's layout.
  std::vector<std::string> lp_x = thread_part_exprs(o.atom, 2, lane);
  for (int64_t q = 0; q < o.regs; ++q) {
    std::vector<int64_t> vc = o.atom.coords(0, q * o.epr, 2);
    auto elem_coords = [&](int64_t e) {
      std::vector<int64_t> c = o.atom.coords(0, q * o.epr + e, 2);
      std::string x = "(" + ox + " + " + lp_x[0] + " + " + itos(c[0]) + ")";
      std::string k = "(" + ok + " + " + lp_x[1] + " + " + itos(c[1]) + ")";
      return k_contig ? std::vector<std::string>{x, k} : std::vector<std::string>{k, x};
    };
    (void)vc;
    if (o.wide) {
      line(name + "[" + itos(q) + "] = *(const double*)" + shared_ptr(*X, elem_coords(0)) + ";");
    } else if (es == 4 || lp.word_loads) {
      line(name + "[" + itos(q) + "] = *(const unsigned*)" + shared_ptr(*X, elem_coords(0)) + ";");
    } else {
      std::vector<std::string> parts;
      for (int64_t e = 0; e < o.epr; ++e)
        parts.push_back("((unsigned)*(const " + std::string(es == 2 ? "unsigned short" : "unsigned char") + "*)" + shared_ptr(*X, elem_coords(e)) +
                        " << " + itos(8 * es * e) + ")");
      line(name + "[" + itos(q) + "] = " + join(parts, " | ") + ";");
    }
  }
  return Status::ok();
}

// --- mma.sync ----------------------------------------------------------------------------------

Status Emitter::emit_gemm_mma_sync(const ir::Stmt& s, const ir::GemmPlan& p, const MatrixInstruction& mi) {
  const Buffer* A = buffer(s.gemm_a().buffer);
  const Buffer* B = buffer(s.gemm_b().buffer);
  const Buffer* C = buffer(s.gemm_c().buffer);
  if (p.a_from != OperandLocation::Registers || p.b_from != OperandLocation::Registers)
    return unsupported(s, "mma.sync takes its operands from registers only");
  if (p.group_threads != 32) return unsupported(s, "mma.sync with a group of " + itos(p.group_threads) + " threads");
  bool acc = ir::stmt_attr_bool(s, "accumulate");
  TG_ASSIGN_OR_RETURN(OperandRegs oa, operand_regs(mi, p, 0, A->dtype));
  TG_ASSIGN_OR_RETURN(OperandRegs ob, operand_regs(mi, p, 1, B->dtype));
  TG_ASSIGN_OR_RETURN(OperandRegs oc, operand_regs(mi, p, 2, C->dtype));
  int64_t RC = oc.values;
  bool c_f16 = C->dtype == DType::F16, c_wide = C->dtype == DType::F64, c_int = C->dtype == DType::I32;
  if (!(C->dtype == DType::F32 || c_f16 || c_wide || c_int)) return unsupported(s, std::string("an mma.sync accumulator of ") + dtype_name(C->dtype));
  int64_t c_regs = c_f16 ? RC / 2 : RC;
  open("");
  line("// gemm " + A->name + " x " + B->name + " -> " + C->name + ": " + mi.mnemonic + ", " + itos(p.gm) + "x" + itos(p.gn) + " warps of " +
       itos(p.rm) + "x" + itos(p.rn) + " atoms");
  line("const int lane = t & 31, wg = (t >> 5) % " + itos(p.gm * p.gn) + ";");
  line("const int gx_a = (wg % " + itos(p.gm) + ") * " + itos(p.rm * p.m) + ", gx_b = (wg / " + itos(p.gm) + ") * " + itos(p.rn * p.n) + ";");
  if (!acc)
    for (int64_t v = 0; v < C->slots; ++v) line(C->cname + "[" + itos(v) + "] = 0;");
  int64_t ksteps = p.Kp / p.k;
  for (int64_t ks = 0; ks < ksteps; ++ks) {
    open("");
    for (int64_t i = 0; i < p.rm; ++i) TG_RETURN_IF_ERROR(emit_operand_regs(s, p, oa, 0, i, ks, "a" + itos(i), "lane", "gx_a"));
    for (int64_t j = 0; j < p.rn; ++j) TG_RETURN_IF_ERROR(emit_operand_regs(s, p, ob, 1, j, ks, "b" + itos(j), "lane", "gx_b"));
    for (int64_t j = 0; j < p.rn; ++j) {
      for (int64_t i = 0; i < p.rm; ++i) {
        int64_t base = RC * (i + p.rm * j);
        std::vector<std::string> outs, ins;
        std::string dlist, alist, blist;
        int n = 0;
        std::vector<std::string> cvars;
        if (c_f16) {
          for (int64_t r = 0; r < c_regs; ++r) {
            std::string cv = "c" + itos(i) + "_" + itos(j) + "_" + itos(r);
            line("unsigned " + cv + " = tg_pack_f16x2(" + C->cname + "[" + itos(base + 2 * r) + "], " + C->cname + "[" + itos(base + 2 * r + 1) + "]);");
            cvars.push_back(cv);
          }
        } else {
          for (int64_t r = 0; r < c_regs; ++r) cvars.push_back(C->cname + "[" + itos(base + r) + "]");
        }
        const char* cc = c_f16 || c_int ? "+r" : c_wide ? "+d" : "+f";
        for (const std::string& cv : cvars) {
          outs.push_back("\"" + std::string(cc) + "\"(" + cv + ")");
          dlist += (dlist.empty() ? "%" : ", %") + itos(n++);
        }
        for (int64_t q = 0; q < oa.regs; ++q) {
          ins.push_back(std::string(oa.wide ? "\"d\"(a" : "\"r\"(a") + itos(i) + "[" + itos(q) + "])");
          alist += (alist.empty() ? "%" : ", %") + itos(n++);
        }
        for (int64_t q = 0; q < ob.regs; ++q) {
          ins.push_back(std::string(ob.wide ? "\"d\"(b" : "\"r\"(b") + itos(j) + "[" + itos(q) + "])");
          blist += (blist.empty() ? "%" : ", %") + itos(n++);
        }
        line("asm volatile(\"" + mi.mnemonic + " {" + dlist + "}, {" + alist + "}, {" + blist + "}, {" + dlist + "};\" : " + join(outs, ", ") +
             " : " + join(ins, ", ") + ");");
        if (c_f16) {
          for (int64_t r = 0; r < c_regs; ++r) {
            line(C->cname + "[" + itos(base + 2 * r) + "] = tg_dec_f16((unsigned short)(" + cvars[size_t(r)] + " & 0xffffu));");
            line(C->cname + "[" + itos(base + 2 * r + 1) + "] = tg_dec_f16((unsigned short)(" + cvars[size_t(r)] + " >> 16));");
          }
        }
      }
    }
    close();
  }
  close();
  return Status::ok();
}

}  // namespace tegula::cuda::gen
