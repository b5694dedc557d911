// The copy rows: vector access, cp.async, TMA with mbarriers, software pipelining and
// register prefetch apply where the description offers them, and name the missing feature
// where it does not.
#include "ir/lower/optimizations/tests/RowCases.h"

namespace copy_rows_test {

using namespace tegula::ir::optimizations::testing;

TEST_CASE("vectorised global access applies with 16-byte accesses on GPUs and 32-byte ones on the host") {
  check_applies("vector_access", "sm_80", "plan.vec=8");
  check_applies("vector_access", "gfx942", "plan.vec=8");
  check_applies("vector_access", "vulkan_generic", "plan.vec=");
}

TEST_CASE("the bulk tensor copy engine with mbarriers applies on sm_90a and sm_100a, not on sm_80") {
  check_applies("bulk_tensor_copy", "sm_90a", "plan.engine=bulk");
  check_applies("bulk_tensor_copy", "sm_90a", "plan.barriers=");
  check_applies("bulk_tensor_copy", "sm_100a", "plan.engine=bulk");
  check_not_applicable("bulk_tensor_copy", "sm_80", "no bulk_tensor_copy feature");
  check_not_applicable("bulk_tensor_copy", "gfx942", "no bulk_tensor_copy feature");
}

TEST_CASE("asynchronous copies apply on sm_80 and on sm_90a for a view, which the bulk engine does not take") {
  check_applies("async_copy", "sm_80", "plan.engine=async");
  check_applies("async_copy", "sm_90a", "plan.engine=async");
  check_not_applicable("async_copy", "gfx942", "no async_copy feature");
  check_not_applicable("async_copy", "vulkan_generic", "no async_copy feature");
}

TEST_CASE("software pipelining applies with copy engines or register prefetch, and not without either") {
  check_applies("software_pipelining", "sm_80", "plan.prefetch=");
  check_applies("software_pipelining", "sm_90a", "plan.stages=3");
  check_applies("software_pipelining", "vulkan_generic", "plan.prefetch=");
  check_not_applicable("software_pipelining", "gfx942", "no async_copy, bulk_tensor_copy or register_prefetch");
  check_not_applicable("software_pipelining", "host_cpu", "no async_copy, bulk_tensor_copy or register_prefetch");
}

TEST_CASE("register prefetch applies on Vulkan only: copy engines prefetch instead elsewhere") {
  check_applies("register_prefetch", "vulkan_generic", "plan.engine=registers");
  check_not_applicable("register_prefetch", "sm_80", "no register_prefetch feature");
}

TEST_CASE("rasterised order and bounds facts apply on every target") {
  for (const std::string& t : tegula::builtin_target_names()) {
    CAPTURE(t);
    check_applies("rasterised_order", t, "lower.raster=8");
    check_applies("bounds_elision", t, "plan.inbounds=");
  }
}

}  // namespace copy_rows_test
