// read_lowered refuses a shared-memory placement that place_shared would never write: a
// buffer without an offset, overlapping or misaligned regions, a footprint too small for the
// regions or too large for the target, barriers on a statement that signals through none,
// and a tensor-memory slot without a tcgen05 gemm. Backends read the offsets as given, so a
// forged placement would otherwise corrupt shared memory silently.
#include "ir/lower/Lowered.h"
#include "ir/lower/SharedLayout.h"
#include "ir/lower/SharedPlacement.h"
#include "ir/lower/tests/LowerCases.h"

namespace shared_placement_refuses_misuse_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

namespace {

Kernel pipelined_gemm(const std::string& target_name) {
  LowerOptions o;
  o.divisibility = {{"M", 16}, {"N", 16}, {"K", 16}};
  o.tensors_aligned = true;
  auto r = lower_text(example_text("gemm/gemm_bf16.tile"), target_name, o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  return r->kernel;
}

void check_refused(const Kernel& k, const std::string& target_name, const std::string& needle) {
  auto r = read_lowered(print_kernel(k), target(target_name), "forged.lowered");
  INFO(r.status().str());
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().str().find(needle) != std::string::npos);
  CHECK(r.status().loc().line > 0);
}

Stmt& alloc_named(Kernel& k, const std::string& name) {
  for (Stmt& s : k.body.stmts)
    if (s.op == OpKind::Alloc && s.name == name) return s;
  FAIL("no alloc " << name);
  return k.body.stmts[0];
}

void set_offset(Kernel& k, const std::string& name, int64_t offset) {
  Stmt& a = alloc_named(k, name);
  SharedLayout l = *get_shared_layout(a.attrs);
  l.offset = offset;
  set_shared_layout(a.attrs, l);
}

}  // namespace

TEST_CASE("the placement lowering writes is read back") {
  for (const char* t : {"sm_80", "sm_90a", "sm_100a", "vulkan_generic"}) {
    Kernel k = pipelined_gemm(t);
    auto r = read_lowered(print_kernel(k), target(t), "own.lowered");
    CHECK_MESSAGE(r.is_ok(), r.status().str());
  }
}

TEST_CASE("a shared buffer without an offset is refused") {
  Kernel k = pipelined_gemm("sm_80");
  std::erase_if(alloc_named(k, "Bs").attrs, [](const Attr& a) { return a.name == "layout.offset"; });
  check_refused(k, "sm_80", "shared buffer 'Bs' has no place in shared memory");
}

TEST_CASE("overlapping buffers are refused") {
  Kernel k = pipelined_gemm("sm_80");
  SharedLayout b = *get_shared_layout(alloc_named(k, "Bs").attrs);
  set_offset(k, "Bs", get_shared_layout(alloc_named(k, "As").attrs)->offset + std::max<int64_t>(16, b.align));
  check_refused(k, "sm_80", "overlaps");
}

TEST_CASE("a misaligned buffer is refused") {
  Kernel k = pipelined_gemm("sm_90a");
  SharedLayout l = *get_shared_layout(alloc_named(k, "Bs").attrs);
  set_offset(k, "Bs", l.offset + 8);
  check_refused(k, "sm_90a", "is not " + std::to_string(std::max<int64_t>(16, l.align)) + "-byte aligned");
}

TEST_CASE("a footprint smaller than the regions is refused") {
  Kernel k = pipelined_gemm("sm_80");
  int64_t bytes = get_kernel_plan(k)->shared_bytes;
  set_attr(k.attrs, "lower.shared_bytes", AttrValue::of_int(bytes - 16));
  check_refused(k, "sm_80", "does not hold the placed regions");
}

TEST_CASE("a footprint larger than the target offers is refused") {
  Kernel k = pipelined_gemm("sm_80");
  set_attr(k.attrs, "lower.shared_bytes", AttrValue::of_int(int64_t(1) << 30));
  check_refused(k, "sm_80", "exceeds the");
}

TEST_CASE("barriers on a loop that signals through none are refused") {
  Kernel k = pipelined_gemm("sm_80");  // cp.async pipelines wait on groups, not barriers
  Stmt* loop = const_cast<Stmt*>(first_op(k.body, OpKind::Pipelined));
  REQUIRE(loop);
  set_attr(loop->attrs, "plan.barriers", AttrValue::of_int(0));
  check_refused(k, "sm_80", "plan.barriers on a statement that signals through no shared barriers");
}

TEST_CASE("a bulk pipeline whose barriers were removed is refused") {
  Kernel k = pipelined_gemm("sm_90a");
  Stmt* loop = const_cast<Stmt*>(first_op(k.body, OpKind::Pipelined));
  REQUIRE(loop);
  REQUIRE(find_attr(loop->attrs, "plan.barriers"));
  std::erase_if(loop->attrs, [](const Attr& a) { return a.name == "plan.barriers"; });
  check_refused(k, "sm_90a", "completion barriers");
}

TEST_CASE("a tensor-memory slot without a tcgen05 gemm is refused") {
  Kernel k = pipelined_gemm("sm_90a");
  set_attr(k.attrs, "lower.tmem_slot", AttrValue::of_int(0));
  check_refused(k, "sm_90a", "lower.tmem_slot without a tcgen05 gemm");
}

}  // namespace shared_placement_refuses_misuse_test
