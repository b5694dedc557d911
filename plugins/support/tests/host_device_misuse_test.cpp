// The host device refuses what it cannot do, with the plugin's name and the entry in the
// message: NULL arguments, buffers of another device (or none at all), ranges past a
// buffer's end, fill patterns of the wrong size, an event recorded on another device's
// queue, elapsed time between events never recorded, and a buffer larger than the host's
// memory (TG_ERR_OUT_OF_MEMORY, not a crash or an overcommitted promise).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "plugins/support/HostDevice.h"
#include "plugins/support/PluginErrors.h"

namespace host_device_misuse_test {

using namespace tegula::plugin;


namespace {

/// The error's code, with its message checked to start with `prefix`; TG_OK for no error.
tg_status_code code_of(tg_error* e, const std::string& prefix) {
  if (!e) return TG_OK;
  std::string message = error_message(e);
  CHECK_MESSAGE(message.rfind(prefix, 0) == 0, message);
  tg_status_code code = error_code(e);
  error_destroy(e);
  return code;
}

void no_executables(tg_executable*) {}

}  // namespace

TEST_CASE("bad arguments are refused, naming the plugin and the entry") {
  tg_device* device = new tg_device(nullptr);
  tg_device* other = new tg_device(nullptr);
  tg_queue* q = nullptr;
  tg_queue* other_q = nullptr;
  REQUIRE(code_of(host_queue_create("acme", device, &q), "") == TG_OK);
  REQUIRE(code_of(host_queue_create("acme", other, &other_q), "") == TG_OK);
  tg_buffer* b = nullptr;
  tg_buffer* foreign = nullptr;
  REQUIRE(code_of(host_buffer_alloc("acme", device, 16, &b), "") == TG_OK);
  REQUIRE(code_of(host_buffer_alloc("acme", other, 16, &foreign), "") == TG_OK);
  uint8_t bytes[32] = {};

  CHECK(code_of(host_queue_create("acme", nullptr, &q), "acme: queue_create: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_queue_synchronize("acme", nullptr), "acme: queue_synchronize: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_buffer_alloc("acme", device, 8, nullptr), "acme: buffer_alloc: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_copy_h2d("acme", q, foreign, 0, bytes, 4), "acme: copy_h2d: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_copy_h2d("acme", q, nullptr, 0, bytes, 4), "acme: copy_h2d: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_copy_h2d("acme", nullptr, b, 0, bytes, 4), "acme: copy_h2d: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_copy_h2d("acme", q, b, 8, bytes, 16), "acme: copy_h2d: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_copy_d2h("acme", q, bytes, b, 17, 0), "acme: copy_d2h: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_copy_d2d("acme", q, b, 0, foreign, 0, 4), "acme: copy_d2d: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_copy_d2d("acme", q, b, 12, b, 0, 8), "acme: copy_d2d: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_buffer_fill("acme", q, b, 0, 6, bytes, 4), "acme: buffer_fill: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_buffer_fill("acme", q, b, 0, 9, bytes, 3), "acme: buffer_fill: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_buffer_fill("acme", q, foreign, 0, 4, bytes, 4), "acme: buffer_fill: ") == TG_ERR_INVALID_ARGUMENT);

  tg_event *e = nullptr, *never = nullptr;
  REQUIRE(code_of(host_event_create("acme", device, &e), "") == TG_OK);
  REQUIRE(code_of(host_event_create("acme", device, &never), "") == TG_OK);
  CHECK(code_of(host_event_create("acme", nullptr, &e), "acme: event_create: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_event_record("acme", other_q, e), "acme: event_record: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_event_record("acme", q, e), "") == TG_OK);
  double ms = 0;
  CHECK(code_of(host_event_elapsed_ms("acme", e, never, &ms), "acme: event_elapsed_ms: an event was never recorded") ==
        TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_event_elapsed_ms("acme", e, e, nullptr), "acme: event_elapsed_ms: ") == TG_ERR_INVALID_ARGUMENT);
  CHECK(code_of(host_event_synchronize("acme", nullptr), "acme: event_synchronize: ") == TG_ERR_INVALID_ARGUMENT);

  host_device_free(device, no_executables);
  host_device_free(other, no_executables);
}

TEST_CASE("a buffer larger than the host's memory is out of memory") {
  tg_device* device = new tg_device(nullptr);
  tg_buffer* b = nullptr;
  uint64_t huge = host_memory_bytes() ? host_memory_bytes() + 1 : (uint64_t(1) << 62) + 1;
  CHECK(code_of(host_buffer_alloc("acme", device, huge, &b), "acme: cannot allocate") == TG_ERR_OUT_OF_MEMORY);
  CHECK(code_of(host_buffer_alloc("acme", device, UINT64_MAX, &b), "acme: cannot allocate") == TG_ERR_OUT_OF_MEMORY);
  CHECK(b == nullptr);
  CHECK(device->buffers.empty());
  host_device_free(device, no_executables);
}

}  // namespace host_device_misuse_test
