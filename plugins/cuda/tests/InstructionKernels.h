// Gemm kernels that force one catalogue instruction (inst="<id>"), shared by the offline
// sweep (PTX holds the instruction) and the GPU sweep (results match the interpreter).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "targets/MatrixQuery.h"
#include "targets/Target.h"

namespace tegula::cuda::testing {

struct GemmCase {
  std::string text;
  std::string needle;  ///< what the PTX must contain
  std::string label;
};

/// A concrete atom for an instruction: the largest allowed N up to `max_n`.
inline MmaShape pick_shape(const MatrixInstruction& mi, int max_n) {
  std::vector<MmaShape> shapes = instruction_shapes(mi);
  MmaShape best = shapes.front();
  for (const MmaShape& s : shapes)
    if (s.n <= max_n && s.n >= best.n) best = s;
  return best;
}

inline std::string mnemonic_for(const MatrixInstruction& mi, const MmaShape& atom) {
  std::string m = mi.mnemonic;
  size_t p = m.find("nN");
  if (p != std::string::npos) m.replace(p, 2, "n" + std::to_string(atom.n));
  return m;
}

/// gm x gn groups, rm x rn atoms each, A in shared memory or a fragment, B stored [N, K]
/// (trans_b) or [K, N]; M, N, K optionally not multiples of the tile (edge shapes, masked).
inline std::string forced_gemm(const MatrixInstruction& mi, MmaShape atom, int gm, int gn, int rm, int rn, bool a_fragment, bool trans_b,
                               int ksteps = 2) {
  DType a = mi.a_types[0], b = mi.b_types[0], c = mi.d_types[0];
  int64_t threads = int64_t(mi.group_threads) * gm * gn;
  int64_t M = int64_t(atom.m) * gm * rm, N = int64_t(atom.n) * gn * rn, K = int64_t(atom.k) * ksteps;
  auto s = [](int64_t v) { return std::to_string(v); };
  std::string at = dtype_name(a), bt = dtype_name(b), ct = dtype_name(c);
  std::string bshape = trans_b ? "[" + s(N) + ", " + s(K) + "]" : "[" + s(K) + ", " + s(N) + "]";
  std::string gb = trans_b ? "[Nt, Kt]" : "[Kt, Nt]";
  std::string boff = trans_b ? "B[bx * " + s(N) + ", 0]" : "B[0, bx * " + s(N) + "]";
  std::string t = "kernel g(A: " + at + "[Mt, Kt], B: " + bt + gb + ", C: " + ct + "[Mt, Nt]) grid(ceildiv(Nt, " + s(N) + "), ceildiv(Mt, " +
                  s(M) + ")) threads(" + s(threads) + ") {\n";
  t += "  alloc As: " + std::string(a_fragment ? "fragment " : "shared ") + at + "[" + s(M) + ", " + s(K) + "]\n";
  t += "  alloc Bs: shared " + bt + bshape + "\n";
  t += "  alloc Acc: fragment " + ct + "[" + s(M) + ", " + s(N) + "]\n";
  t += "  copy A[by * " + s(M) + ", 0], As\n  copy " + boff + ", Bs\n  fill Acc, 0.5\n";
  t += "  gemm As, Bs, Acc, accumulate=true" + std::string(trans_b ? ", trans_b=true" : "") + ", inst=\"" + mi.id + "\"\n";
  t += "  copy Acc, C[by * " + s(M) + ", bx * " + s(N) + "]\n}\n";
  return t;
}

/// Every non-fma instruction of a target in a few layouts.
inline std::vector<GemmCase> instruction_cases(const TargetDescription& t, bool thorough) {
  std::vector<GemmCase> out;
  for (const MatrixInstruction& mi : t.matrix_instructions) {
    if (mi.kind == InstructionKind::Fma) continue;
    bool wide = mi.kind != InstructionKind::MmaSync;
    MmaShape atom = pick_shape(mi, wide ? (thorough ? 128 : 64) : 8);
    bool a_regs = mi.a.find(OperandLocation::Registers) != nullptr;
    bool b_mn = std::find(mi.b_majors.begin(), mi.b_majors.end(), Major::MN) != mi.b_majors.end() ||
                mi.b.find(OperandLocation::Registers) != nullptr;
    std::string needle = mi.kind == InstructionKind::Tcgen05 ? mi.mnemonic : mnemonic_for(mi, atom);
    auto add = [&](int gm, int gn, int rm, int rn, bool a_frag, bool trans_b, const std::string& what) {
      if (int64_t(mi.group_threads) * gm * gn > t.max_threads_per_block) return;
      out.push_back({forced_gemm(mi, atom, gm, gn, rm, rn, a_frag, trans_b), needle, t.name + " " + mi.id + " " + what});
    };
    add(1, 1, 1, 1, false, true, "1x1 groups, B [N, K]");
    // B stored [K, N]: through .trans loads or MN-major descriptors (16-bit types).
    bool sixteen = mi.b_types[0] == DType::F16 || mi.b_types[0] == DType::BF16;
    if (b_mn && (thorough || (sixteen && wide))) add(1, 1, 1, 1, false, false, "1x1 groups, B [K, N]");
    if (thorough) {
      add(2, 1, 1, 2, false, true, "2x1 groups of 1x2, B [N, K]");
      if (a_regs) add(1, 2, 2, 1, true, b_mn ? false : true, "1x2 groups of 2x1, A a fragment");
    }
  }
  return out;
}

}  // namespace tegula::cuda::testing
