// Cooperative-matrix instructions keep their accumulator opaque: chosen when every use of the
// accumulator is one an opaque matrix supports, refused (with the reason) otherwise, and the
// lowered kernel computes the original's results.
#include "core/Files.h"
#include "ir/lower/tests/LowerCases.h"

namespace opaque_fragments_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

TargetDescription coopmat_target() {
  auto text = read_file(std::string(TEGULA_SOURCE_DIR) + "/targets/descriptions/vulkan_generic.json");
  REQUIRE(text.is_ok());
  std::string json = *text;
  const std::string entry = R"({
      "id": "coopmat.m16n16k16.f16_f32", "kind": "coopmat", "m": 16, "n": 16, "k": 16,
      "dtypes": {"a": "f16", "b": "f16", "c": "f32", "d": "f32"},
      "locations": {"a": ["registers"], "b": ["registers"], "acc": ["registers"]},
      "scope": "subgroup", "group_threads": 32, "issue_threads": 32,
      "majors": {"a": ["k", "mn"], "b": ["k", "mn"]},
      "layouts": {"a": {"registers": {"layout": "opaque"}}, "b": {"registers": {"layout": "opaque"}},
                  "acc": {"registers": {"layout": "opaque"}}},
      "mnemonic": "OpCooperativeMatrixMulAddKHR", "requires": ["cooperative_matrix"], "rate": 512
    },
    )";
  auto pos = json.find("\"matrix_instructions\": [");
  REQUIRE(pos != std::string::npos);
  json.insert(pos + std::string("\"matrix_instructions\": [").size(), "\n    " + entry);
  auto feat = json.find("\"features\": [\"subgroup_ops\", \"register_prefetch\"]");
  REQUIRE(feat != std::string::npos);
  json.replace(feat, std::string("\"features\": [\"subgroup_ops\", \"register_prefetch\"]").size(), "\"features\": [\"subgroup_ops\", \"register_prefetch\", \"cooperative_matrix\"]");
  auto t = parse_target(json, "coopmat_test.json");
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return *t;
}

}  // namespace

TEST_CASE("a gemm whose accumulator is only filled, multiplied and copied out uses the cooperative matrix") {
  TargetDescription t = coopmat_target();
  auto k = parse_and_verify(gemm_text("f16", 64, 64, 32, 128), "case");
  REQUIRE(k.is_ok());
  auto r = lower(*k, t);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  const Stmt* g = first_op(r->kernel.body, OpKind::Gemm);
  CHECK(attr_text(*g, "mma.kind") == "coopmat");
  const Stmt* acc = alloc_of(r->kernel, "Acc");
  CHECK(attr_text(*acc, "layout.opaque") == "\"coopmat.m16n16k16.f16_f32\"");
  CHECK(find_attr(acc->attrs, "layout.threads") == nullptr);
  for_each_stmt(r->kernel.body, [](const Stmt& s) {
    if (s.op == OpKind::Copy && s.copy_src().buffer == "Acc") CHECK(stmt_attr_ident(s, "plan.kind") == "opaque");
  });
  for (const char* shape : {"M=64,N=64,K=32", "M=70,N=33,K=45"}) {
    InterpretOptions o;
    o.target = &t;
    CHECK(*run_bytes(r->kernel, shape, 3) == *run_bytes(*k, shape, 3));
  }
}

TEST_CASE("an accumulator that a reduction reads cannot be opaque: fma fallback, with the reason") {
  TargetDescription t = coopmat_target();
  std::string text =
      "kernel g(A: f16[32, 16], B: f16[16, 32], C: f32[32]) grid(1) threads(64) {\n"
      "  alloc As: shared f16[32, 16]\n  alloc Bs: shared f16[16, 32]\n  alloc Acc: fragment f32[32, 32]\n"
      "  alloc R: fragment f32[32]\n"
      "  copy A, As\n  copy B, Bs\n  gemm As, Bs, Acc\n  reduce Acc, R, op=max, axis=1\n  copy R, C\n}\n";
  auto k = parse_and_verify(text, "case");
  REQUIRE(k.is_ok());
  auto r = lower(*k, t);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(attr_text(*first_op(r->kernel.body, OpKind::Gemm), "mma.kind") == "fma");
  CHECK(log_has(*r, "its accumulator is an opaque matrix"));
  CHECK(*run_bytes(r->kernel, "", 4) == *run_bytes(*k, "", 4));
}

TEST_CASE("a map with element indices keeps its accumulator out of an opaque matrix, and says why") {
  // A cooperative matrix hides which element each invocation holds, so idx() could not be
  // computed there: the lowering takes a described layout instead (fma here), once.
  TargetDescription t = coopmat_target();
  std::string text = gemm_text("f16", 64, 64, 32, 128);
  text.insert(text.find("  copy Acc, C["), "  map Acc = select(bx * 64 + idx(1) > by * 64 + idx(0), -inf, Acc)\n");
  auto k = parse_and_verify(text, "case");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  auto r = lower(*k, t);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(attr_text(*first_op(r->kernel.body, OpKind::Gemm), "mma.kind") != "coopmat");
  CHECK(find_attr(alloc_of(r->kernel, "Acc")->attrs, "layout.opaque") == nullptr);
  CHECK(log_has(*r, "an element index"));
  CHECK(log_has(*r, "map into 'Acc': element indices from the layout of fragment 'Acc'"));
  for (const char* shape : {"M=64,N=64,K=32", "M=70,N=33,K=45", "M=1,N=1,K=1"})
    CHECK(*run_bytes(r->kernel, shape, 3) == *run_bytes(*k, shape, 3));
}

TEST_CASE("a cooperative matrix forced onto an accumulator a map with idx writes is refused by the lowering") {
  TargetDescription t = coopmat_target();
  std::string text = gemm_text("f16", 64, 64, 32, 128, ", inst=\"coopmat.m16n16k16.f16_f32\"");
  text.insert(text.find("  copy Acc, C["), "  map Acc = select(idx(1) > idx(0), 0.0, Acc)\n");
  auto k = parse_and_verify(text, "case");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  auto r = lower(*k, t);
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().code() == ErrorCode::Unsupported);
  CHECK_MESSAGE(r.status().message().find("an element index") != std::string::npos, r.status().str());
}

}  // namespace opaque_fragments_test
