/// \file
/// gemm: every matrix instruction of the target's catalogue forced onto a gemm (inst=...),
/// the fma fallback forced (inst=fma) over every dtype combination, and the lowering's own
/// choice (inst=auto). Per instruction: each instruction shape (for an N range: the
/// smallest, one with N = 8 mod 16, the largest), every operand layout the entry accepts
/// (the rest are NotSupported), and shapes at the edges: M, N, K that are not multiples of
/// the tile or of the instruction, K tails, N = 8 mod 16, one element, several issuing
/// groups, accumulate=false, a pipelined K loop, a non-zero starting accumulator, a
/// narrower output dtype, and random values under the tolerance table.
///
/// Layout names give A then B in the BLAS/CUTLASS convention, where 'n' is column-major and
/// 't' row-major: A 't' is [M, K] (K contiguous), 'n' is [K, M] (trans_a); B 'n' is [N, K]
/// (K contiguous, trans_b), 't' is [K, N]. So "tn" is K-major for both, the layout every
/// instruction takes, and "nt" is M- and N-major.
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "conformance/cases/Generator.h"
#include "targets/MatrixQuery.h"

namespace tegula::conformance {
namespace {

using namespace kt;

enum class Body { Loop, Pipelined, Overwrite };

struct Gemm {
  const MatrixInstruction* mi = nullptr;
  std::string inst = "auto";  ///< the inst attribute
  DType a = DType::F32, b = DType::F32, acc = DType::F32, out = DType::F32;
  bool ta = false, tb = true, a_fragment = false;
  int64_t tm = 32, tn = 32, tk = 8, threads = 128;
  int64_t M = 64, N = 64, K = 16;
  Values values = Values::Lattice;
  Body body = Body::Loop;
  double init = 0;
  std::vector<int64_t> misalign;
  std::optional<MmaShape> exact_atom;  ///< the code must show exactly this instruction shape
  bool causal = false;                 ///< a causal mask over the accumulator (map with idx) before the store
};

struct Layout {
  const char* name;
  bool ta, tb;
};

constexpr Layout kLayouts[] = {{"tn", false, true}, {"tt", false, false}, {"nt", true, false}, {"nn", true, true}};

std::string gemm_kernel(const Gemm& g) {
  std::string at = dt(g.a), bt = dt(g.b), ct = dt(g.acc), ot = dt(g.out);
  std::string a_shape = g.ta ? "[K, M]" : "[M, K]", b_shape = g.tb ? "[N, K]" : "[K, N]";
  std::string as = g.ta ? dims({n(g.tk), n(g.tm)}) : dims({n(g.tm), n(g.tk)});
  std::string bs = g.tb ? dims({n(g.tn), n(g.tk)}) : dims({n(g.tk), n(g.tn)});
  std::string kk = g.body == Body::Overwrite ? "0" : "kk * " + n(g.tk);
  std::string a_at = g.ta ? "[" + kk + ", by * " + n(g.tm) + "]" : "[by * " + n(g.tm) + ", " + kk + "]";
  std::string b_at = g.tb ? "[bx * " + n(g.tn) + ", " + kk + "]" : "[" + kk + ", bx * " + n(g.tn) + "]";
  std::string attrs = g.body == Body::Overwrite ? "accumulate=false" : "accumulate=true";
  if (g.ta) attrs += ", trans_a=true";
  if (g.tb) attrs += ", trans_b=true";
  if (g.inst != "auto") attrs += ", inst=\"" + g.inst + "\"";
  std::string s = "kernel gemm_tile(A: " + at + a_shape + ", B: " + bt + b_shape + ", C: " + ot + "[M, N]) grid(ceildiv(N, " +
                  n(g.tn) + "), ceildiv(M, " + n(g.tm) + ")) threads(" + n(g.threads) + ") {\n";
  s += "  alloc As: " + std::string(g.a_fragment ? "fragment " : "shared ") + at + as + "\n";
  s += "  alloc Bs: shared " + bt + bs + "\n";
  s += "  alloc Acc: fragment " + ct + "[" + n(g.tm) + ", " + n(g.tn) + "]\n";
  s += "  fill Acc, " + literal(g.body == Body::Overwrite ? 7.0 : g.init, g.acc) + "\n";
  std::string step = "    copy A" + a_at + ", As\n    copy B" + b_at + ", Bs\n    gemm As, Bs, Acc, " + attrs + "\n";
  if (g.body == Body::Overwrite) {
    s += step;  // one gemm over the whole of K (K <= the tile): it must replace the 7s
  } else {
    s += std::string(g.body == Body::Pipelined ? "  pipelined" : "  for") + " kk in 0 .. ceildiv(K, " + n(g.tk) + ")" +
         (g.body == Body::Pipelined ? ", stages=3" : "") + " {\n" + step + "  }\n";
  }
  if (g.causal) {
    // The motivating case of element indices: above the diagonal of the whole C, a special
    // value (or the index difference for integer accumulators).
    std::string row = "by * " + n(g.tm) + " + idx(0)", col = "bx * " + n(g.tn) + " + idx(1)";
    std::string masked = dtype_is_int(g.acc) ? "idx(0) - idx(1)" : "-inf";
    s += "  map Acc = select(" + col + " > " + row + ", " + masked + ", Acc)\n";
  }
  s += "  copy Acc, C[by * " + n(g.tm) + ", bx * " + n(g.tn) + "]\n}\n";
  return s;
}

/// The exact value set for a gemm: the full lattice, or the small one where partial sums
/// must stay within a few more than 11 significant bits (f16 accumulators; fp8 operands,
/// which tensor cores accumulate with about 14 bits).
Values exact_values(DType a, DType b, DType acc) {
  auto fp8 = [](DType d) { return d == DType::E4M3 || d == DType::E5M2; };
  return acc == DType::F16 || acc == DType::BF16 || fp8(a) || fp8(b) ? Values::SmallLattice : Values::Lattice;
}

std::string dtypes_label(DType a, DType b, DType acc) {
  return a == b ? std::string(dt(a)) + "_" + dt(acc) : std::string(dt(a)) + "_" + dt(b) + "_" + dt(acc);
}

bool has_major(const std::vector<Major>& majors, Major m) { return std::find(majors.begin(), majors.end(), m) != majors.end(); }

bool takes_registers(const Operand& op) {
  const OperandPlacement* p = op.find(OperandLocation::Registers);
  return p && p->form != OperandPlacement::Form::Opaque;
}

/// The accumulator must come back to registers in a layout the description gives, or be
/// opaque (a cooperative matrix: the backend stores it itself); an entry without either
/// (tcgen05 M=64 read-back) cannot be used by any kernel.
bool accumulator_described(const MatrixInstruction& mi) {
  const OperandPlacement* regs = mi.acc.find(OperandLocation::Registers);
  const OperandPlacement* tmem = mi.acc.find(OperandLocation::TensorMemory);
  return (regs && (regs->form == OperandPlacement::Form::ThreadValue || regs->form == OperandPlacement::Form::Opaque)) ||
         (tmem && tmem->readback_layout);
}

/// "" when the entry accepts the layout (and A as a fragment), else why not.
std::string layout_support(const MatrixInstruction* mi, bool ta, bool tb, bool a_fragment) {
  if (!mi || mi->kind == InstructionKind::Fma) return "";
  if (!accumulator_described(*mi))
    return mi->id + ": the description gives no register layout to read its accumulator back, so no kernel can use it";
  if (a_fragment && !takes_registers(mi->a)) return mi->id + " takes A only from shared memory";
  Major am = ta ? Major::MN : Major::K, bm = tb ? Major::K : Major::MN;
  const char* from = mi->a.allows(OperandLocation::Global) ? " from its tensor" : " from shared memory";
  if (!a_fragment && !takes_registers(mi->a) && !has_major(mi->a_majors, am))
    return mi->id + " takes A" + from + " only " + (am == Major::K ? "MN" : "K") + "-major";
  from = mi->b.allows(OperandLocation::Global) ? " from its tensor" : " from shared memory";
  if (!takes_registers(mi->b) && !has_major(mi->b_majors, bm))
    return mi->id + " takes B" + from + " only " + (bm == Major::K ? "MN" : "K") + "-major";
  return "";
}

/// The catalogue id with its ranged dimensions filled in: wgmma.m64nNk16 -> wgmma.m64n128k16;
/// an id without such placeholders gets the shape appended (coopmat.wg256.f16_f32 ->
/// coopmat.wg256.f16_f32.m32n32k16), so every shape's cases have their own names.
std::string expand_id(const MatrixInstruction& mi, const MmaShape& s) {
  std::string id = mi.id;
  bool placed = false;
  auto fill = [&](const std::string& from, const std::string& to) {
    size_t p = id.find(from);
    if (p == std::string::npos) return;
    id.replace(p, from.size(), to);
    placed = true;
  };
  if (!mi.m.is_fixed()) fill("mM", "m" + n(s.m));
  if (!mi.n.is_fixed()) fill("nN", "n" + n(s.n));
  if (!mi.k.is_fixed()) fill("kK", "k" + n(s.k));
  bool ranged = !mi.m.is_fixed() || !mi.n.is_fixed() || !mi.k.is_fixed();
  if (ranged && !placed) id += ".m" + n(s.m) + "n" + n(s.n) + "k" + n(s.k);
  return id;
}

/// The text compiled code must contain: the mnemonic's first word; a ranged dimension's
/// letter stays as the wildcard 'N' (any number) for the check.
std::string mnemonic_pattern(const MatrixInstruction& mi) {
  if (mi.kind == InstructionKind::Fma) return "";
  std::string m = mi.mnemonic.substr(0, mi.mnemonic.find(' '));
  return m;
}

/// The mnemonic with its ranged dimensions written out: m64nNk16 -> m64n24k16.
std::string exact_mnemonic(const MatrixInstruction& mi, std::string m, const MmaShape& s) {
  auto fill = [&](const std::string& from, const std::string& to) {
    size_t p = m.find(from);
    if (p != std::string::npos) m.replace(p, from.size(), to);
  };
  if (!mi.m.is_fixed()) fill("mM", "m" + n(s.m));
  if (!mi.n.is_fixed()) fill("nN", "n" + n(s.n));
  if (!mi.k.is_fixed()) fill("kK", "k" + n(s.k));
  return m;
}

/// A workgroup-scope cooperative matrix: one per block, loading A and B from the tensors.
bool workgroup_matrix(const MatrixInstruction& mi) { return mi.kind == InstructionKind::Coopmat && mi.scope == GroupScope::Cta; }

/// Whether the accumulator lives as an opaque matrix (its element positions unknown).
bool is_opaque_accumulator(const MatrixInstruction& mi) {
  const OperandPlacement* regs = mi.acc.find(OperandLocation::Registers);
  return regs && regs->form == OperandPlacement::Form::Opaque;
}

/// The instruction shapes to test: fixed, or for a range the smallest, the first with
/// N = 8 mod 16 and the largest.
std::vector<MmaShape> chosen_shapes(const MatrixInstruction& mi) {
  std::vector<MmaShape> all = instruction_shapes(mi);
  if (all.size() <= 1) return all;
  std::vector<MmaShape> pick = {all.front()};
  for (const MmaShape& s : all) {
    if (s.n % 16 == 8 && s.n > all.front().n) {
      pick.push_back(s);
      break;
    }
  }
  if (!(all.back() == pick.back())) pick.push_back(all.back());
  return pick;
}

/// The atom shape used for layouts and shape classes: N = 128 where the range has it (the
/// usual choice for wgmma and tcgen05), else 64, else the entry's first shape.
MmaShape canonical_shape(const MatrixInstruction& mi) {
  std::vector<MmaShape> all = instruction_shapes(mi);
  for (int want : {128, 64})
    for (const MmaShape& s : all)
      if (s.n == want) return s;
  return all.front();
}

/// The block tile for an atom: two atoms along M and N where they are small, one where a
/// single atom is already a large tile, and exactly one along a ranged dimension (so the
/// lowering can only pick the named shape); K covers two instruction steps. A workgroup
/// matrix (cta-scope coopmat) steps K by the largest size that divides the tile's K, so its
/// tile K is the atom's.
void plan_tile(Gemm& g, const MatrixInstruction& mi, const MmaShape& atom, int group_threads) {
  g.tm = atom.m >= 64 || !mi.m.is_fixed() ? atom.m : 2 * atom.m;
  g.tn = atom.n >= 64 || !mi.n.is_fixed() ? atom.n : 2 * atom.n;
  g.tk = workgroup_matrix(mi) ? atom.k : 2 * atom.k;
  g.threads = group_threads;
  if (atom.m == 1 && atom.n == 1) {  // the fma fallback
    g.tm = 32, g.tn = 32, g.tk = 8, g.threads = 128;
  }
}

struct ShapeClass {
  std::string name;
  void (*apply)(Gemm&, const MmaShape&);
};

void set_mnk(Gemm& g, int64_t m, int64_t nn, int64_t k) { g.M = m, g.N = nn, g.K = k; }

/// The smallest prime above `v`.
int64_t prime_above(int64_t v) {
  for (int64_t p = v + 1;; ++p) {
    bool prime = p > 1;
    for (int64_t d = 2; d * d <= p && prime; ++d) prime = p % d != 0;
    if (prime) return p;
  }
}

class GemmCases {
public:
  explicit GemmCases(Generator& gen) : gen_(gen) {}

  void add(const Gemm& g, const std::string& name, const std::string& row, const std::string& extra_unsupported = "") {
    CaseSpec c;
    c.name = name;
    c.misalign = g.misalign;
    c.row = row;
    c.kernel = gemm_kernel(g);
    c.symbols = {{"M", g.M}, {"N", g.N}, {"K", g.K}};
    Values v = g.values;
    c.tensors = {input(v), input(v), output()};
    c.scalars = {0, 0, 0};
    if (v == Values::Random) {
      c.check = Check::Accumulate;
      c.accumulator = g.acc;
      c.operand = g.a;
      c.depth = g.K;
    }
    c.unsupported = gen_.needs({g.a, g.b, g.acc, g.out});
    if (c.unsupported.empty()) c.unsupported = extra_unsupported;
    if (c.unsupported.empty() && g.threads > gen_.target().max_threads_per_block)
      c.unsupported = "needs " + n(g.threads) + " threads per block";
    if (g.mi) {
      c.instruction = g.mi->id;
      c.mnemonic = mnemonic_pattern(*g.mi);
      if (g.exact_atom) c.mnemonic = exact_mnemonic(*g.mi, c.mnemonic, *g.exact_atom);
    }
    gen_.add(std::move(c));
  }

  /// One instruction (or the forced fma fallback for one dtype combination).
  void instruction(const MatrixInstruction* mi, const std::string& inst, DType a, DType b, DType acc,
                   const std::string& support) {
    bool is_fma = mi->kind == InstructionKind::Fma;
    std::string label = is_fma ? "fma." + dtypes_label(a, b, acc) : "";
    std::string row = is_fma ? "gemm fma " + dtypes_label(a, b, acc) : "gemm " + mi->id;
    Values lattice = exact_values(a, b, acc);
    auto base = [&](const MmaShape& atom) {
      Gemm g;
      g.mi = mi;
      g.inst = inst;
      g.a = a, g.b = b, g.acc = acc, g.out = acc;
      g.values = lattice;
      plan_tile(g, *mi, atom, mi->group_threads);
      return g;
    };
    auto prefix = [&](const MmaShape& atom) { return "tegula.gemm." + (is_fma ? label : expand_id(*mi, atom)) + "."; };
    auto try_layout = [&](Gemm& g, const Layout& l, bool a_frag) {
      g.ta = l.ta, g.tb = l.tb, g.a_fragment = a_frag;
      return layout_support(mi, l.ta, l.tb, a_frag);
    };
    const Layout* canonical = nullptr;
    for (const Layout& l : kLayouts) {
      if (layout_support(mi, l.ta, l.tb, false).empty()) {
        canonical = &l;
        break;
      }
    }
    if (!canonical) canonical = &kLayouts[0];
    MmaShape atom0 = canonical_shape(*mi);

    // Each instruction shape, exact multiples of the tile, on the canonical layout; the
    // code must show that very shape.
    for (const MmaShape& atom : is_fma ? std::vector<MmaShape>{atom0} : chosen_shapes(*mi)) {
      Gemm g = base(atom);
      std::string why = try_layout(g, *canonical, false);
      set_mnk(g, 2 * g.tm, 2 * g.tn, 2 * g.tk);
      g.exact_atom = atom;
      add(g, prefix(atom) + canonical->name + ".exact", row, support.empty() ? why : support);
    }
    // Every layout (and A from registers where the entry takes it) at the edges.
    for (const Layout& l : kLayouts) {
      for (bool a_frag : {false, true}) {
        if (a_frag && !(is_fma || takes_registers(mi->a))) continue;
        if (a_frag && l.ta) continue;  // a fragment operand is held as gemm defines it
        Gemm g = base(atom0);
        std::string why = try_layout(g, l, a_frag);
        set_mnk(g, g.tm + 7, g.tn + 5, g.tk + 3);
        add(g, prefix(atom0) + l.name + (a_frag ? ".afrag" : "") + ".edge", row, support.empty() ? why : support);
      }
    }
    // Shape classes on the canonical layout.
    // `not_here`: why the class does not apply to this instruction ("" when it does).
    auto variant = [&](const std::string& cls, auto&& tweak, const std::string& not_here = "") {
      Gemm g = base(atom0);
      std::string why = try_layout(g, *canonical, false);
      set_mnk(g, 2 * g.tm, 2 * g.tn, 2 * g.tk);
      tweak(g);
      if (why.empty()) why = not_here;
      add(g, prefix(atom0) + canonical->name + "." + cls, row, support.empty() ? why : support);
    };
    bool workgroup = workgroup_matrix(*mi);
    variant("k_tail", [&](Gemm& g) { set_mnk(g, g.tm, g.tn, 3 * g.tk + std::max<int64_t>(1, atom0.k / 2) + 1); });
    variant("one", [&](Gemm& g) { set_mnk(g, 1, 1, 1); });
    variant("prime", [&](Gemm& g) { set_mnk(g, prime_above(g.tm), prime_above(g.tn + g.tn / 2), prime_above(2 * g.tk)); });
    variant("odd", [&](Gemm& g) { set_mnk(g, std::max<int64_t>(1, g.tm - 1), std::max<int64_t>(1, g.tn - 1), std::max<int64_t>(1, g.tk - 1)); });
    variant("n8mod16", [&](Gemm& g) { set_mnk(g, g.tm, 2 * g.tn + 8, g.tk); });
    variant(
        "groups",
        [&](Gemm& g) {
          if (!is_fma) {
            g.tm = 2 * atom0.m, g.tn = 2 * atom0.n, g.threads = 4 * mi->group_threads;
            set_mnk(g, 2 * g.tm + 3, 2 * g.tn, 2 * g.tk);
          } else {
            g.threads = 256, g.tm = 64, g.tn = 64;
            set_mnk(g, 2 * g.tm + 3, 2 * g.tn, 2 * g.tk);
          }
        },
        workgroup ? mi->id + " is one matrix per block: there is no second issuing group" : "");
    variant("overwrite", [&](Gemm& g) {
      g.body = Body::Overwrite;
      set_mnk(g, g.tm + 1, g.tn, g.tk);
    });
    variant("pipelined", [&](Gemm& g) {
      g.body = Body::Pipelined;
      set_mnk(g, g.tm, g.tn, 4 * g.tk + 1);
    });
    variant("acc_init", [&](Gemm& g) { g.init = 1.5; });
    variant(
        "misaligned",
        [&](Gemm& g) {
          set_mnk(g, g.tm + 7, g.tn + 5, g.tk + 3);
          g.misalign = {1, 3, 1};
        },
        workgroup ? mi->id + " loads from tensors on 16-byte boundaries; misaligned launches run the variant without it" : "");
    variant("random", [&](Gemm& g) {
      g.values = Values::Random;
      set_mnk(g, g.tm + 3, g.tn, 8 * g.tk);
    });
    // An opaque accumulator (cooperative matrices) hides which element a thread holds:
    // forced onto one, a map with idx is NotSupported in the lowering.
    bool opaque = is_opaque_accumulator(*mi);
    variant(
        "causal",
        [&](Gemm& g) {
          g.causal = true;
          set_mnk(g, prime_above(g.tm + g.tm / 2), prime_above(g.tn + 2), g.tk + 3);
        },
        opaque ? mi->id +
                     "'s accumulator is an opaque matrix: its element positions are hidden, so a map with idx() cannot "
                     "run on it"
               : "");
    if (a != acc && dtype_is_float(a)) variant(std::string("out_") + dt(a), [&](Gemm& g) { g.out = a; });
  }

  /// The combinations the fma fallback and inst=auto are tested on.
  static std::vector<std::array<DType, 3>> combinations() {
    std::vector<std::array<DType, 3>> v;
    for (DType f : float_dtypes()) {
      // FP6, FP4 and the scale formats feed gemms only with block scales (MX, NVFP4): a plain
      // gemm of them is no kernel anyone runs.
      if (f == DType::E2M3 || f == DType::E3M2 || f == DType::E2M1 || f == DType::E8M0 || f == DType::UE4M3) continue;
      v.push_back({f, f, DType::F32});
    }
    v.push_back({DType::F64, DType::F64, DType::F64});
    v.push_back({DType::F32, DType::F32, DType::F64});
    for (DType i : int_dtypes()) v.push_back({i, i, DType::I32});
    v.push_back({DType::E4M3, DType::E5M2, DType::F32});
    v.push_back({DType::F16, DType::BF16, DType::F32});
    v.push_back({DType::I8, DType::U8, DType::I32});
    return v;
  }

  void fma(const MatrixInstruction* fma_entry) {
    for (const auto& [a, b, acc] : combinations()) {
      std::string support;
      auto lists = [](const std::vector<DType>& v, DType d) { return std::find(v.begin(), v.end(), d) != v.end(); };
      if (!lists(fma_entry->a_types, a) || !lists(fma_entry->b_types, b) || !lists(fma_entry->c_types, acc) ||
          !lists(fma_entry->d_types, acc))
        support = fma_entry->id + " does not take " + dtypes_label(a, b, acc);
      instruction(fma_entry, "fma", a, b, acc, support);
    }
  }

  void automatic() {
    for (const auto& [a, b, acc] : combinations()) {
      Gemm g;
      g.a = a, g.b = b, g.acc = acc, g.out = acc;
      g.values = exact_values(a, b, acc);
      g.tm = 64, g.tn = 64, g.tk = 32, g.threads = 128;
      set_mnk(g, g.tm + 7, g.tn + 5, 2 * g.tk + 3);
      add(g, "tegula.gemm.auto." + dtypes_label(a, b, acc) + ".tn.edge", "gemm auto");
    }
  }

private:
  Generator& gen_;
};

}  // namespace

void add_gemm_cases(Generator& gen) {
  GemmCases cases(gen);
  for (const MatrixInstruction& mi : gen.target().matrix_instructions) {
    if (mi.kind == InstructionKind::Fma) {
      cases.fma(&mi);
      continue;
    }
    DType a = mi.a_types.front(), b = mi.b_types.front(), acc = mi.d_types.front();
    cases.instruction(&mi, mi.id, a, b, acc, "");
  }
  cases.automatic();
}

void add_offline_gemm_cases(Generator& gen, const std::string& offline_target) {
  std::vector<CaseSpec> all;
  Generator inner(gen.target(), all);
  add_gemm_cases(inner);
  for (CaseSpec& c : all) {
    if (!c.unsupported.empty() || c.instruction.empty()) continue;
    auto ends = [&](const std::string& tail) {
      return c.name.size() >= tail.size() && c.name.compare(c.name.size() - tail.size(), tail.size(), tail) == 0;
    };
    if (!ends(".exact") && !ends(".causal")) continue;
    c.offline_target = offline_target;
    gen.add(std::move(c));
  }
}

}  // namespace tegula::conformance
