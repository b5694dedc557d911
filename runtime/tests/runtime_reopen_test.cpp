// Runtimes can be opened and closed repeatedly, and two open at once share each plugin's
// instance: the second reuses it, and the plugin shuts down when the last one closes (then
// a later runtime initialises it again).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>

#include "runtime/tests/TestSupport.h"

namespace runtime_reopen_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("open, use, close, several times") {
  for (int i = 0; i < 3; ++i) {
    auto rt = open_runtime({reference_manifest()});
    REQUIRE(rt.is_ok());
    auto d = rt->find_device("reference:0");
    REQUIRE(d.is_ok());
    auto b = d->alloc(4);
    REQUIRE(b.is_ok());
    REQUIRE(b->write(std::vector<int32_t>{i}).is_ok());
    CHECK(b->read<int32_t>(1).value()[0] == i);
  }
}

TEST_CASE("two runtimes at once share the plugin instance") {
  CapturedLog log_a, log_b;
  auto a = open_runtime({reference_manifest()}, &log_a);
  auto b = open_runtime({reference_manifest()}, &log_b);
  REQUIRE(a.is_ok());
  REQUIRE(b.is_ok());
  CHECK(log_a.contains("loading plugin 'reference'"));
  CHECK(log_b.contains("sharing the instance already running"));
  auto da = a->find_device("reference");
  auto db = b->find_device("reference");
  tegula_buffer* left_behind = nullptr;  // freed by a's close
  REQUIRE(tegula_buffer_alloc(da->handle(), 8, &left_behind) == nullptr);
  *a = Runtime();  // closes a; b keeps working on the shared instance
  auto other = db->alloc(8);
  CHECK(other.is_ok());
}

TEST_CASE("objects left alive are freed by close") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  tegula_device* d = tegula_device_get(rt->handle(), 0);
  tegula_buffer* leaked = nullptr;
  REQUIRE(tegula_buffer_alloc(d, 1024, &leaked) == nullptr);
  tegula_kernel* k = nullptr;
  REQUIRE(tegula_kernel_compile(d, axpb_ir(), std::strlen(axpb_ir()), nullptr, &k) == nullptr);
  // Not freed: tegula_runtime_close (in ~Runtime) must free both (run under a leak checker
  // to see it).
}

}  // namespace runtime_reopen_test
