// Every matrix instruction of every built-in target, forced onto a gemm, lowers and runs on
// the interpreter's instruction model to exactly the original kernel's bytes. This checks
// each catalogue layout, the tiling of atoms over groups and repeats, and the register
// order convention in one sweep.
#include <algorithm>
#include <cstdint>
#include <set>

#include "ir/lower/tests/LowerTestUtil.h"
#include "targets/MatrixQuery.h"

namespace catalogue_sweep_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

struct Variant {
  int64_t groups_m, groups_n, repeat_m, repeat_n;
  bool a_fragment;
};

std::string gemm_kernel(const MatrixInstruction& mi, MmaShape atom, const Variant& v, bool trans_b) {
  DType a = mi.a_types[0], b = mi.b_types[0], c = mi.d_types[0];
  int64_t threads = mi.group_threads * v.groups_m * v.groups_n;
  int64_t M = atom.m * v.groups_m * v.repeat_m, N = atom.n * v.groups_n * v.repeat_n, K = atom.k * 2;
  std::string at = dtype_name(a), bt = dtype_name(b), ct = dtype_name(c);
  std::string bshape = trans_b ? "[" + std::to_string(N) + ", " + std::to_string(K) + "]" : "[" + std::to_string(K) + ", " + std::to_string(N) + "]";
  std::string s = "kernel g(A: " + at + "[" + std::to_string(M) + ", " + std::to_string(K) + "], B: " + bt + bshape + ", C: " + ct + "[" +
                  std::to_string(M) + ", " + std::to_string(N) + "]) grid(1) threads(" + std::to_string(threads) + ") {\n";
  s += "  alloc As: " + std::string(v.a_fragment ? "fragment " : "shared ") + at + "[" + std::to_string(M) + ", " + std::to_string(K) + "]\n";
  s += "  alloc Bs: shared " + bt + bshape + "\n";
  s += "  alloc Acc: fragment " + ct + "[" + std::to_string(M) + ", " + std::to_string(N) + "]\n";
  s += "  copy A, As\n  copy B, Bs\n  fill Acc, 0.5\n";
  s += "  gemm As, Bs, Acc, accumulate=true" + std::string(trans_b ? ", trans_b=true" : "") + ", inst=\"" + mi.id + "\"\n";
  s += "  copy Acc, C\n}\n";
  return s;
}

}  // namespace

TEST_CASE("every catalogue instruction computes the gemm it is forced onto") {
  int swept = 0;
  for (const std::string& tname : builtin_target_names()) {
    TargetDescription t = testing::target(tname);
    for (const MatrixInstruction& mi : t.matrix_instructions) {
      if (mi.kind == InstructionKind::Fma) continue;
      std::vector<MmaShape> shapes = instruction_shapes(mi);
      // The smallest and the largest shape of a range keep the sweep quick.
      std::set<size_t> picks = {0, shapes.size() - 1};
      bool a_regs = mi.a.find(OperandLocation::Registers) != nullptr;
      for (size_t pick : picks) {
        for (const Variant& v : {Variant{1, 1, 1, 1, false}, Variant{2, 1, 1, 2, false}, Variant{1, 2, 2, 1, a_regs}}) {
          int64_t threads = mi.group_threads * v.groups_m * v.groups_n;
          if (threads > t.max_threads_per_block) continue;
          bool b_mn = std::find(mi.b_majors.begin(), mi.b_majors.end(), Major::MN) != mi.b_majors.end() ||
                      mi.b.find(OperandLocation::Registers) != nullptr;
          for (bool trans_b : {true, false}) {
            if (!trans_b && !b_mn) continue;
            std::string text = gemm_kernel(mi, shapes[pick], v, trans_b);
            CAPTURE(tname);
            CAPTURE(text);
            auto k = parse_and_verify(text, "sweep.tile");
            REQUIRE_MESSAGE(k.is_ok(), k.status().str());
            auto want = testing::run_bytes(*k, "", 11);
            REQUIRE_MESSAGE(want.is_ok(), want.status().str());
            auto lowered = lower(*k, t);
            if (!lowered.is_ok() && lowered.status().message().find("no described register layout") != std::string::npos) {
              // Entries whose accumulator read-back the description leaves out (tcgen05 M=64)
              // are refused, not guessed.
              CHECK(lowered.status().code() == ErrorCode::Unsupported);
              continue;
            }
            if (!lowered.is_ok() && !trans_b) {
              // An MN-major B too narrow for a descriptor is refused with a reason, never
              // lowered wrongly.
              CHECK(lowered.status().code() == ErrorCode::Unsupported);
              CHECK(lowered.status().message().find("descriptor") != std::string::npos);
              continue;
            }
            REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
            const Stmt* gemm = nullptr;
            for (const Stmt& s : lowered->kernel.body.stmts)
              if (s.op == OpKind::Gemm) gemm = &s;
            REQUIRE(gemm);
            CHECK(find_attr(gemm->attrs, "mma.inst")->value.s == mi.id);
            auto got = testing::run_bytes(lowered->kernel, "", 11);
            REQUIRE_MESSAGE(got.is_ok(), got.status().str());
            CHECK(*got == *want);
            ++swept;
          }
        }
      }
    }
  }
  MESSAGE("swept " << swept << " instruction variants");
  CHECK(swept > 100);
}

}  // namespace catalogue_sweep_test
