// Workgroup-scope matrices (coopmat at cta scope) load A and B from their tensors: chosen
// only where both operands are staged by forwardable copies and the accumulator is only
// filled, multiplied into and stored, as one whole-tile atom; the staging copies and tiles
// are marked forwarded, take no shared memory and get no barriers; and the lowered kernel
// still computes the original's results.
#include "core/Files.h"
#include "ir/lower/Forwarding.h"
#include "ir/lower/tests/LowerCases.h"

namespace forward_operands_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

/// `any_major`: the entry also loads transposed (MN-major A, K-major B) operands.
TargetDescription workgroup_target(bool any_major = false) {
  auto text = read_file(std::string(TEGULA_SOURCE_DIR) + "/targets/descriptions/vulkan_generic.json");
  REQUIRE(text.is_ok());
  std::string json = *text;
  const std::string entry = R"({
      "id": "coopmat.wg128.f16_f32", "kind": "coopmat",
      "m": {"min": 32, "max": 256, "step": 32}, "n": {"min": 32, "max": 256, "step": 32}, "k": {"min": 16, "max": 64, "step": 16},
      "dtypes": {"a": "f16", "b": "f16", "c": "f32", "d": "f32"},
      "locations": {"a": ["global"], "b": ["global"], "acc": ["registers"]},
      "scope": "cta", "group_threads": 128, "issue_threads": 128,
      "majors": {"a": ["k"], "b": ["mn"]},
      "layouts": {"a": {"global": {"layout": "opaque"}}, "b": {"global": {"layout": "opaque"}},
                  "acc": {"registers": {"layout": "opaque"}}},
      "mnemonic": "OpCooperativeMatrixMulAddKHR", "requires": ["cooperative_matrix"], "rate": 2048
    },
    )";
  auto pos = json.find("\"matrix_instructions\": [");
  REQUIRE(pos != std::string::npos);
  std::string e = entry;
  if (any_major) e.replace(e.find("\"majors\": {\"a\": [\"k\"], \"b\": [\"mn\"]}"), 35, "\"majors\": {\"a\": [\"k\", \"mn\"], \"b\": [\"k\", \"mn\"]}");
  json.insert(pos + std::string("\"matrix_instructions\": [").size(), "\n    " + e);
  auto feat = json.find("\"features\": [\"subgroup_ops\", \"register_prefetch\"]");
  REQUIRE(feat != std::string::npos);
  json.replace(feat, std::string("\"features\": [\"subgroup_ops\", \"register_prefetch\"]").size(), "\"features\": [\"subgroup_ops\", \"register_prefetch\", \"cooperative_matrix\"]");
  auto t = parse_target(json, "workgroup_test.json");
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return *t;
}

LowerOptions aligned() {
  LowerOptions o;
  o.tensors_aligned = true;
  return o;
}

Result<LowerResult> lower_with(const std::string& text, const TargetDescription& t) {
  auto k = parse_and_verify(text, "case");
  if (!k.is_ok()) return k.status();
  return lower(*k, t, aligned());
}

}  // namespace

TEST_CASE("a plain tiled gemm gets one workgroup matrix, its operands forwarded") {
  TargetDescription t = workgroup_target();
  auto k = parse_and_verify(gemm_text("f16", 64, 128, 32, 128), "case");
  REQUIRE(k.is_ok());
  auto r = lower(*k, t, aligned());
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  const Stmt* g = first_op(r->kernel.body, OpKind::Gemm);
  CHECK(attr_text(*g, "mma.inst") == "\"coopmat.wg128.f16_f32\"");
  CHECK(attr_text(*g, "mma.atom") == "[64, 128, 32]");
  CHECK(attr_text(*g, "mma.groups") == "[1, 1]");
  CHECK(attr_text(*g, "mma.a") == "global");
  CHECK(attr_text(*g, "mma.b") == "global");
  for (const char* tile : {"As", "Bs"}) CHECK(is_forwarded(*alloc_of(r->kernel, tile)));
  int forwarded = 0, barriers = 0;
  for_each_stmt(r->kernel.body, [&](const Stmt& s) {
    if (s.op == OpKind::Copy && find_attr(s.attrs, "plan.forward")) ++forwarded;
    if (s.op == OpKind::Barrier) ++barriers;
  });
  CHECK(forwarded == 2);
  CHECK(barriers == 0);
  CHECK(attr_text(r->kernel, "lower.shared_bytes") == "0");
  CHECK(log_has(*r, "copy into 'As' forwarded"));
  // Edge shapes: partial tiles along M, N and K.
  for (const char* shape : {"M=64,N=128,K=64", "M=70,N=131,K=45", "M=1,N=1,K=1"}) {
    CAPTURE(shape);
    CHECK(*run_bytes(r->kernel, shape, 7) == *run_bytes(*k, shape, 7));
  }
}

TEST_CASE("only the variant for aligned tensors loads from them") {
  TargetDescription t = workgroup_target();
  auto k = parse_and_verify(gemm_text("f16", 64, 128, 32, 128), "case");
  REQUIRE(k.is_ok());
  auto r = lower(*k, t);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(attr_text(*first_op(r->kernel.body, OpKind::Gemm), "mma.kind") == "fma");
  CHECK(log_has(*r, "must start on 16-byte boundaries"));
  CHECK_FALSE(is_forwarded(*alloc_of(r->kernel, "As")));
}

TEST_CASE("transposed operands are forwarded where the entry loads either major order") {
  TargetDescription t = workgroup_target(true);
  for (const char* trans : {", trans_a=true", ", trans_b=true", ", trans_a=true, trans_b=true"}) {
    CAPTURE(trans);
    bool ta = std::string(trans).find("trans_a") != std::string::npos, tb = std::string(trans).find("trans_b") != std::string::npos;
    std::string text = std::string("kernel g(A: f16[") + (ta ? "K, M" : "M, K") + "], B: f16[" + (tb ? "N, K" : "K, N") +
                       "], C: f32[M, N]) grid(ceildiv(N, 128), ceildiv(M, 64)) threads(128) {\n  alloc As: shared f16[" +
                       (ta ? "32, 64" : "64, 32") + "]\n  alloc Bs: shared f16[" + (tb ? "128, 32" : "32, 128") +
                       "]\n  alloc Acc: fragment f32[64, 128]\n  fill Acc, 0.0\n  for kk in 0 .. ceildiv(K, 32) {\n    copy A[" +
                       (ta ? "kk * 32, by * 64" : "by * 64, kk * 32") + "], As\n    copy B[" + (tb ? "bx * 128, kk * 32" : "kk * 32, bx * 128") +
                       "], Bs\n    gemm As, Bs, Acc, accumulate=true" + trans + "\n  }\n  copy Acc, C[by * 64, bx * 128]\n}\n";
    auto k = parse_and_verify(text, "case");
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    auto r = lower(*k, t, aligned());
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    CHECK(attr_text(*first_op(r->kernel.body, OpKind::Gemm), "mma.a") == "global");
    CHECK(is_forwarded(*alloc_of(r->kernel, "As")));
    CHECK(is_forwarded(*alloc_of(r->kernel, "Bs")));
    for (const char* shape : {"M=64,N=128,K=64", "M=70,N=131,K=45"}) {
      CAPTURE(shape);
      CHECK(*run_bytes(r->kernel, shape, 11) == *run_bytes(*k, shape, 11));
    }
  }
}

TEST_CASE("an epilogue of + - * over the accumulator and f32 scalars keeps the workgroup matrix") {
  TargetDescription t = workgroup_target();
  std::string text = gemm_text("f16", 64, 128, 32, 128);
  text.replace(text.find("C: f32[M, N])"), 13, "C: f32[M, N], alpha: f32)");
  text.replace(text.find("  copy Acc, C"), 0, "  map Acc = -(Acc * alpha) + 0.5 - Acc * Acc\n");
  auto k = parse_and_verify(text, "case");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  auto r = lower(*k, t, aligned());
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(attr_text(*first_op(r->kernel.body, OpKind::Gemm), "mma.inst") == "\"coopmat.wg128.f16_f32\"");
  for (const char* shape : {"M=64,N=128,K=64", "M=70,N=131,K=45"}) {
    CAPTURE(shape);
    auto lowered = run_bytes(r->kernel, shape, 13), original = run_bytes(*k, shape, 13);
    REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
    REQUIRE_MESSAGE(original.is_ok(), original.status().str());
    CHECK(*lowered == *original);
  }
  // An f64 scalar makes the arithmetic f64: not matrix arithmetic (on a device that holds
  // f64; vulkan_generic does not, and lowering would refuse the parameter).
  text.replace(text.find("alpha: f32"), 10, "alpha: f64");
  t.dtypes.push_back(DType::F64);
  auto r64 = lower_with(text, t);
  REQUIRE_MESSAGE(r64.is_ok(), r64.status().str());
  CHECK(attr_text(*first_op(r64->kernel.body, OpKind::Gemm), "mma.inst") != "\"coopmat.wg128.f16_f32\"");
}

TEST_CASE("the whole block must be the matrix's workgroup") {
  TargetDescription t = workgroup_target();
  auto r = lower_with(gemm_text("f16", 64, 128, 32, 256), t);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(attr_text(*first_op(r->kernel.body, OpKind::Gemm), "mma.kind") == "fma");
  CHECK(log_has(*r, "its matrices span a workgroup of 128 threads, not 256"));
  CHECK_FALSE(is_forwarded(*alloc_of(r->kernel, "As")));
}

TEST_CASE("a tile size the matrix does not allow is refused, not padded") {
  TargetDescription t = workgroup_target();
  auto r = lower_with(gemm_text("f16", 48, 128, 32, 128), t);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(attr_text(*first_op(r->kernel.body, OpKind::Gemm), "mma.kind") == "fma");
  CHECK(log_has(*r, "M x N = 48x128 is not a matrix size it allows"));
}

TEST_CASE("an operand the kernel also reads elsewhere cannot be forwarded") {
  TargetDescription t = workgroup_target();
  std::string text =
      "kernel g(A: f16[64, 32], B: f16[32, 64], C: f32[64, 64], D: f16[64, 32]) grid(1) threads(128) {\n"
      "  alloc As: shared f16[64, 32]\n  alloc Bs: shared f16[32, 64]\n  alloc Acc: fragment f32[64, 64]\n"
      "  fill Acc, 0.0\n  copy A, As\n  copy B, Bs\n  gemm As, Bs, Acc, accumulate=true\n  copy As, D\n  copy Acc, C\n}\n";
  auto k = parse_and_verify(text, "case");
  REQUIRE(k.is_ok());
  auto r = lower(*k, t, aligned());
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(attr_text(*first_op(r->kernel.body, OpKind::Gemm), "mma.kind") == "fma");
  CHECK(log_has(*r, "A is used by more than its copy and this gemm"));
  CHECK(*run_bytes(r->kernel, "", 5) == *run_bytes(*k, "", 5));
}

TEST_CASE("a transposed, padded or rewritten operand cannot be forwarded") {
  TargetDescription t = workgroup_target();
  struct Case {
    std::string text;
    const char* why;
  };
  const std::string head = "kernel g(A: f16[64, 32], B: f16[32, 64], C: f32[64, 64]) grid(1) threads(128) {\n";
  const std::string allocs = "  alloc As: shared f16[64, 32]\n  alloc Bs: shared f16[32, 64]\n  alloc Acc: fragment f32[64, 64]\n";
  for (const Case& c : {
           Case{head + "  alloc At: shared f16[32, 64]\n  alloc Bs: shared f16[32, 64]\n  alloc Acc: fragment f32[64, 64]\n"
                       "  copy B, At\n  copy B, Bs\n  gemm At, Bs, Acc, trans_a=true\n  copy Acc, C\n}\n",
                "A is stored mn-major, which it does not load"},
           Case{head + allocs + "  copy A, As, pad=1.0\n  copy B, Bs\n  gemm As, Bs, Acc\n  copy Acc, C\n}\n",
                "the copy into A is not a whole tile padded with zeros"},
           Case{head + allocs + "  copy A, As\n  copy B, Bs\n  gemm As, Bs, Acc\n  copy Acc, C\n  fill B, 0.0\n}\n",
                "the kernel writes 'B'"},
           Case{head + allocs + "  copy A, As\n  copy B, Bs\n  gemm As, Bs, Acc\n  map Acc = Acc / 2.0\n  copy Acc, C\n}\n",
                "a workgroup matrix accumulator can only be filled"},
       }) {
    CAPTURE(c.why);
    auto k = parse_and_verify(c.text, "case");
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    auto r = lower(*k, t, aligned());
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    CHECK(attr_text(*first_op(r->kernel.body, OpKind::Gemm), "mma.kind") != "coopmat");
    CHECK(log_has(*r, c.why));
    CHECK(*run_bytes(r->kernel, "", 9) == *run_bytes(*k, "", 9));
  }
}

TEST_CASE("misuse: a lowered gemm that loads from global without a forwardable copy is an internal error") {
  TargetDescription t = workgroup_target();
  std::string text =
      "kernel g(A: f16[64, 32], B: f16[32, 64], C: f32[64, 64]) grid(1) threads(128) {\n"
      "  alloc As: shared f16[64, 32]\n  alloc Bs: shared f16[32, 64]\n  alloc Acc: fragment f32[64, 64]\n"
      "  copy A, As\n  copy B, Bs\n  gemm As, Bs, Acc, inst=\"coopmat.wg128.f16_f32\"\n  copy As, A\n  copy Acc, C\n}\n";
  auto r = lower_with(text, t);
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().code() == ErrorCode::Unsupported);
  CHECK(r.status().message().find("cannot compute this gemm") != std::string::npos);
}

}  // namespace forward_operands_test
