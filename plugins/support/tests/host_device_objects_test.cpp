// The synchronous host device keeps what it makes: buffers are 64-byte aligned host memory
// that transfers fill and read back (overlapping device-to-device copies included), fills
// repeat their pattern, events complete when recorded and time the wall clock, and freeing
// the device frees every object it still holds (its executables through the plugin).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "plugins/support/HostDevice.h"
#include "plugins/support/PluginErrors.h"

// The ABI header's opaque executable, completed here at global scope where it is declared.
struct tg_executable {
  int* freed = nullptr;
};

namespace host_device_objects_test {

using namespace tegula::plugin;

namespace {

bool ok(tg_error* e) {
  if (!e) return true;
  MESSAGE(error_message(e));
  error_destroy(e);
  return false;
}

}  // namespace

TEST_CASE("buffers round-trip through the transfers") {
  tg_device* device = new tg_device(nullptr);
  tg_queue* q = nullptr;
  REQUIRE(ok(host_queue_create("test", device, &q)));
  tg_buffer* b = nullptr;
  REQUIRE(ok(host_buffer_alloc("test", device, 100, &b)));
  CHECK(reinterpret_cast<uintptr_t>(b->data) % kHostBufferAlignment == 0);
  CHECK(b->size == 100);
  CHECK(host_owns(device, b));
  std::vector<uint8_t> in(100), out(100);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 7 + 1);
  REQUIRE(ok(host_copy_h2d("test", q, b, 0, in.data(), in.size())));
  // Overlapping, within one buffer: bytes 0..49 to 10..59, as memmove would.
  REQUIRE(ok(host_copy_d2d("test", q, b, 10, b, 0, 50)));
  REQUIRE(ok(host_copy_d2h("test", q, out.data(), b, 0, out.size())));
  std::vector<uint8_t> want = in;
  std::memmove(want.data() + 10, in.data(), 50);
  CHECK(out == want);
  const uint16_t pattern = 0xbeef;
  REQUIRE(ok(host_buffer_fill("test", q, b, 4, 8, &pattern, 2)));
  uint16_t read[4];
  REQUIRE(ok(host_copy_d2h("test", q, read, b, 4, 8)));
  for (uint16_t v : read) CHECK(v == 0xbeef);
  CHECK(ok(host_queue_synchronize("test", q)));
  tg_buffer* empty = nullptr;
  REQUIRE(ok(host_buffer_alloc("test", device, 0, &empty)));
  CHECK(empty->data == nullptr);
  host_buffer_free(empty);
  CHECK_FALSE(host_owns(device, empty));
  host_buffer_free(b);
  host_queue_destroy(q);
  CHECK(device->buffers.empty());
  CHECK(device->queues.empty());
  delete device;
}

TEST_CASE("events complete when recorded and time the wall clock") {
  tg_device* device = new tg_device(nullptr);
  tg_queue* q = nullptr;
  REQUIRE(ok(host_queue_create("test", device, &q)));
  tg_event *a = nullptr, *b = nullptr;
  REQUIRE(ok(host_event_create("test", device, &a)));
  REQUIRE(ok(host_event_create("test", device, &b)));
  REQUIRE(ok(host_event_record("test", q, a)));
  REQUIRE(ok(host_event_record("test", q, b)));
  CHECK(ok(host_event_synchronize("test", b)));
  double ms = -1;
  REQUIRE(ok(host_event_elapsed_ms("test", a, b, &ms)));
  CHECK(ms >= 0);
  CHECK(ms < 1000);
  host_event_destroy(a);
  host_event_destroy(b);
  CHECK(device->events.empty());
  host_queue_destroy(q);
  delete device;
}

TEST_CASE("freeing the device frees what it still holds, executables through the plugin") {
  tg_device* device = new tg_device(nullptr);
  tg_queue* q = nullptr;
  tg_buffer* b = nullptr;
  tg_event* e = nullptr;
  REQUIRE(ok(host_queue_create("test", device, &q)));
  REQUIRE(ok(host_buffer_alloc("test", device, 64, &b)));
  REQUIRE(ok(host_event_create("test", device, &e)));
  int freed = 0;
  tg_executable exe1{&freed}, exe2{&freed};
  host_add_executable(device, &exe1);
  host_add_executable(device, &exe2);
  host_remove_executable(device, &exe2);
  host_device_free(device, [](tg_executable* x) { ++*x->freed; });
  CHECK(freed == 1);  // the one still held, and only once
}

}  // namespace host_device_objects_test
