// The copy engines' legality is decided once (CopyEngines.h): pipeline planning picks the
// tensor copy engine only for copies it can move, falls back to the asynchronous copy unit
// or to plain copies with the reason in the log, and read_lowered refuses a plan.engine that
// names an engine the copy does not fit. Each rule that a backend used to re-check is here.
#include "ir/lower/CopyEngines.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/tests/LowerCases.h"

namespace copy_engine_legality_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

/// A pipelined loop whose only prefetch candidate is `copy A[...], S` with `pad`, the tile
/// dtype `dt` (and `src_dt` for the tensor) and tile shape rows x cols. Rows of 64 bytes or
/// less keep layout assignment from padding them (a padded layout is no bulk destination).
std::string one_copy_kernel(const std::string& dt, const std::string& src_dt, int64_t rows, int64_t cols, const std::string& pad) {
  std::string r = std::to_string(rows), c = std::to_string(cols);
  return "kernel k(A: " + src_dt + "[M, 1024], O: " + dt + "[" + r + ", " + c + "]) grid(1) threads(128) {\n"
         "  alloc S: shared " + dt + "[" + r + ", " + c + "]\n"
         "  pipelined i in 0 .. ceildiv(M, " + r + "), stages=3 {\n"
         "    copy A[i * " + r + ", 0], S" + pad + "\n"
         "    copy S, O\n"
         "  }\n"
         "}\n";
}

LowerResult lowered(const std::string& text, const std::string& target_name) {
  LowerOptions o;
  o.divisibility = {{"M", 256}};
  o.tensors_aligned = true;
  auto r = lower_text(text, target_name, o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  return std::move(*r);
}

std::string engine_of_first_copy(const LowerResult& r) {
  const Stmt* c = first_op(r.kernel.body, OpKind::Copy);
  REQUIRE(c);
  return attr_text(*c, "plan.engine");
}

}  // namespace

TEST_CASE("a plain 2-D tile of 16-byte rows goes to the tensor copy engine where there is one") {
  CHECK(engine_of_first_copy(lowered(one_copy_kernel("f16", "f16", 64, 32, ""), "sm_90a")) == "bulk");
  CHECK(engine_of_first_copy(lowered(one_copy_kernel("f16", "f16", 64, 32, ""), "sm_80")) == "async");
}

TEST_CASE("a NaN pad is the engine's NaN fill; another pad is not") {
  CHECK(engine_of_first_copy(lowered(one_copy_kernel("f32", "f32", 32, 16, ", pad=nan"), "sm_90a")) == "bulk");
  LowerResult r = lowered(one_copy_kernel("f32", "f32", 32, 16, ", pad=1.0"), "sm_90a");
  CHECK(engine_of_first_copy(r) == "async");
  CHECK(log_has(r, "the engine fills only 0 or NaN"));
}

TEST_CASE("more rows than one box holds stay off the tensor copy engine") {
  LowerResult r = lowered(one_copy_kernel("f16", "f16", 512, 16, ""), "sm_90a");
  CHECK(engine_of_first_copy(r) != "bulk");
  CHECK(log_has(r, "more than 256 rows"));
}

TEST_CASE("a copy that converts or saturates is moved by no engine") {
  LowerResult convert = lowered(one_copy_kernel("f16", "f32", 64, 32, ""), "sm_90a");
  CHECK(engine_of_first_copy(convert).empty());
  CHECK(log_has(convert, "the copy converts dtypes"));
  LowerResult e5m2 = lowered(one_copy_kernel("e5m2", "e5m2", 64, 64, ""), "sm_90a");
  CHECK(engine_of_first_copy(e5m2).empty());
  CHECK(log_has(e5m2, "e5m2 stores saturate"));
}

TEST_CASE("a bulk destination is placed on 128 bytes") {
  LowerResult r = lowered(one_copy_kernel("f16", "f16", 64, 32, ""), "sm_90a");
  auto l = get_shared_layout(alloc_of(r.kernel, "S")->attrs);
  REQUIRE(l.is_ok());
  CHECK(l->align % kBulkCopyAlign == 0);
  CHECK(l->offset % kBulkCopyAlign == 0);
}

TEST_CASE("read_lowered refuses an engine the copy does not fit") {
  SUBCASE("bulk on a copy with a pad the engine cannot fill") {
    LowerResult r = lowered(one_copy_kernel("f32", "f32", 32, 16, ", pad=1.0"), "sm_90a");
    Stmt* c = const_cast<Stmt*>(first_op(r.kernel.body, OpKind::Copy));
    set_attr(c->attrs, "plan.engine", AttrValue::of_ident("bulk"));
    auto back = read_lowered(print_kernel(r.kernel), target("sm_90a"), "forged.lowered");
    REQUIRE_FALSE(back.is_ok());
    CHECK(back.status().str().find("plan.engine=bulk on a copy the tensor copy engine cannot move") != std::string::npos);
    CHECK(back.status().loc().line == 4);
  }
  SUBCASE("async on a copy whose vectors are too wide") {
    LowerResult r = lowered(one_copy_kernel("f16", "f16", 64, 32, ""), "sm_80");
    Stmt* c = const_cast<Stmt*>(first_op(r.kernel.body, OpKind::Copy));
    set_attr(c->attrs, "plan.vec", AttrValue::of_int(16));  // 32 bytes per access
    auto back = read_lowered(print_kernel(r.kernel), target("sm_80"), "forged.lowered");
    REQUIRE_FALSE(back.is_ok());
    CHECK(back.status().str().find("plan.engine=async on a copy the asynchronous copy unit cannot move") != std::string::npos);
  }
}

}  // namespace copy_engine_legality_test
