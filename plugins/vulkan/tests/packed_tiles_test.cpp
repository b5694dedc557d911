// Gemm operand tiles that only 16-byte copies write and only cooperative-matrix loads read
// are stored as arrays of 16-byte words: the lowering decides it (layout.words,
// ir/lower/PackSharedTiles.cpp, from the instructions' any_pointee) and the shader declares
// exactly those tiles as uvec4 arrays; a tile anything else touches, and every tile on a
// device without cooperative matrices, keeps its element array. read_lowered refuses a
// layout.words the rules do not allow, at the attribute.
#include "plugins/vulkan/tests/CodegenTestUtil.h"

#include <cstdint>
#include <string>
#include <vector>

#include "ir/lower/PackedTiles.h"

namespace packed_tiles_test {

using namespace tegula;
using namespace tegula::vulkan;
using namespace tegula::vulkan::testing;

namespace {

std::string gemm(const std::string& extra) {
  return "kernel g(A: f16[256, 256], B: f16[256, 256], C: f16[256, 256]) grid(2, 2) threads(256) {\n"
         "  alloc As: shared f16[128, 32]\n  alloc Bs: shared f16[32, 128]\n  alloc Acc: fragment f32[128, 128]\n"
         "  fill Acc, 0.0\n"
         "  pipelined k in 0 .. 8, stages=2 {\n"
         "    copy A[by * 128, k * 32], As\n    copy B[k * 32, bx * 128], Bs\n" +
         extra +
         "    gemm As, Bs, Acc, accumulate=true\n  }\n"
         "  copy Acc, C[by * 128, bx * 128]\n}\n";
}

ir::Kernel lowered(const std::string& text, const TargetDescription& t) {
  auto k = ir::parse_and_verify(text, "case.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  auto r = ir::lower(*k, t);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  return r->kernel;
}

ir::Stmt& alloc_of(ir::Kernel& k, const std::string& name) {
  for (ir::Stmt& s : k.body.stmts)
    if (s.op == ir::OpKind::Alloc && s.name == name) return s;
  FAIL("no alloc " << name);
  return k.body.stmts[0];
}

int64_t words_of(ir::Kernel& k, const std::string& name) { return *ir::packed_word_bytes(alloc_of(k, name)); }

/// `k` with layout.words=16 forged onto `tile` (line `line` of the case), read back for `t`.
void check_refused(ir::Kernel k, const std::string& tile, const TargetDescription& t, const std::string& needle,
                   int line) {
  ir::set_attr(alloc_of(k, tile).attrs, "layout.words", ir::AttrValue::of_int(16));
  auto r = ir::read_lowered(ir::print_kernel(k), t, "forged.lowered");
  Status st = r.status();
  INFO(st.str());
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.code() == ErrorCode::Verify);
  CHECK(st.str().find(needle) != std::string::npos);
  CHECK(st.loc().file == "case.tile");
  CHECK(st.loc().line == line);
}

}  // namespace

TEST_CASE("cooperative-matrix operand tiles are packed") {
  TargetDescription t = describe(h200_caps());
  ir::Kernel k = lowered(gemm(""), t);
  CHECK(words_of(k, "As") == 16);
  CHECK(words_of(k, "Bs") == 16);
  auto shader = generate_for(gemm(""), t);
  REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
  CHECK(packed_workgroup_arrays(shader->words) == 2);
}

TEST_CASE("a tile an elementwise op also touches keeps its elements") {
  TargetDescription t = describe(h200_caps());
  ir::Kernel k = lowered(gemm("    map As = As * 2.0\n"), t);
  CHECK(words_of(k, "As") == 0);
  CHECK(words_of(k, "Bs") == 16);
  auto shader = generate_for(gemm("    map As = As * 2.0\n"), t);
  REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
  CHECK(packed_workgroup_arrays(shader->words) == 1);  // Bs only
}

TEST_CASE("without cooperative matrices no tile is packed") {
  TargetDescription t = describe(lavapipe_caps());
  ir::Kernel k = lowered(gemm(""), t);
  CHECK(words_of(k, "As") == 0);
  CHECK(words_of(k, "Bs") == 0);
  auto shader = generate_for(gemm(""), t);
  REQUIRE_MESSAGE(shader.is_ok(), shader.status().str());
  CHECK(packed_workgroup_arrays(shader->words) == 0);
}

TEST_CASE("read_lowered refuses words the rules do not allow") {
  SUBCASE("on a tile an elementwise op touches") {
    TargetDescription t = describe(h200_caps());
    check_refused(lowered(gemm("    map As = As * 2.0\n"), t), "As", t, "a map uses it other than by a whole-word copy",
                  2);
  }
  SUBCASE("on a device whose matrix loads take no other pointee type") {
    TargetDescription t = describe(lavapipe_caps());
    check_refused(lowered(gemm(""), t), "As", t, "(any_pointee)", 2);
  }
  SUBCASE("on an instruction the description does not say loads words") {
    TargetDescription t = describe(h200_caps());
    ir::Kernel k = lowered(gemm(""), t);
    for (MatrixInstruction& mi : t.matrix_instructions) mi.any_pointee = false;
    ir::set_attr(k.attrs, "lower.target_hash", ir::AttrValue::of_string(target_hash(t)));
    // Both tiles were packed by the lowering; the first is refused.
    check_refused(k, "As", t, "(any_pointee)", 2);
  }
  SUBCASE("of another word size") {
    TargetDescription t = describe(h200_caps());
    ir::Kernel k = lowered(gemm(""), t);
    ir::set_attr(alloc_of(k, "As").attrs, "layout.words", ir::AttrValue::of_int(8));
    auto r = ir::read_lowered(ir::print_kernel(k), t, "forged.lowered");
    REQUIRE_FALSE(r.is_ok());
    CHECK(r.status().str().find("'layout.words' must be 16") != std::string::npos);
    CHECK(r.status().loc().file == "forged.lowered");  // at the attribute in the lowered text
  }
}

}  // namespace packed_tiles_test
