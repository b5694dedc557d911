// The reference plugin, driven directly through the ABI (as the conformance suite drives any
// plugin): executables are the SDK's container and bytes that fail it (or whose text is not
// lowered IR) are TG_ERR_CORRUPT; ranges,
// foreign handles and a grid that disagrees with the kernel are refused, never crashed on.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>

#include "plugins/support/Container.h"
#include "plugins/support/testing/PluginHarness.h"
#include "runtime/tests/TestSupport.h"

namespace reference_plugin_abi_test {

using namespace tegula::testing;

namespace {

/// The reference plugin opened with the SDK's test harness, device 0 and a queue open; the raw
/// table and handles for the calls made wrong on purpose.
struct Reference {
  std::unique_ptr<tegula::plugin_testing::Plugin> opened;
  std::unique_ptr<tegula::plugin_testing::Device> opened_device;
  const tg_plugin_api* api = nullptr;
  tg_plugin* plugin = nullptr;
  tg_device* device = nullptr;
  tg_queue* queue = nullptr;

  Reference() {
    auto p = tegula::plugin_testing::Plugin::open(plugin_library("reference"));
    REQUIRE_MESSAGE(p.is_ok(), p.status().str());
    opened = std::move(p).value();
    auto d = opened->open_device(0);
    REQUIRE_MESSAGE(d.is_ok(), d.status().str());
    opened_device = std::move(d).value();
    api = opened->api();
    plugin = opened->handle();
    device = opened_device->handle();
    queue = opened_device->queue();
  }
  std::string message;  ///< of the last error code() saw
  /// The code of `e`, released (its message kept in `message`).
  tg_status_code code(tg_error* e) {
    tg_status_code c = opened->code(e);
    message = c == TG_OK ? "" : tegula::plugin_testing::last_message();
    return c;
  }
  std::string compile(const char* ir) {
    auto bytes = opened_device->compile(ir);
    REQUIRE_MESSAGE(bytes.is_ok(), bytes.status().str());
    return *bytes;
  }
};

}  // namespace

TEST_CASE("executable bytes are validated on load") {
  Reference r;
  std::string exe = r.compile(axpb_ir());
  CHECK(exe.compare(0, 8, "tgrefexe") == 0);
  tg_executable* e = nullptr;
  REQUIRE(r.api->executable_load(r.device, exe.data(), exe.size(), &e) == nullptr);
  r.api->executable_free(e);

  std::string bad_magic = exe;
  bad_magic[0] = 'X';
  CHECK(r.code(r.api->executable_load(r.device, bad_magic.data(), bad_magic.size(), &e)) == TG_ERR_CORRUPT);
  std::string truncated = exe.substr(0, exe.size() - 5);
  CHECK(r.code(r.api->executable_load(r.device, truncated.data(), truncated.size(), &e)) == TG_ERR_CORRUPT);
  std::string bad_version = exe;
  bad_version[8] = 9;
  CHECK(r.code(r.api->executable_load(r.device, bad_version.data(), bad_version.size(), &e)) == TG_ERR_CORRUPT);
  // The text after the container's header and the field's length: the digest catches it.
  std::string bad_text = exe;
  bad_text.replace(tegula::plugin::kContainerHeaderBytes + 8, 6, "kernal");
  CHECK(r.code(r.api->executable_load(r.device, bad_text.data(), bad_text.size(), &e)) == TG_ERR_CORRUPT);
  CHECK(r.message.find("digest mismatch") != std::string::npos);
  // An intact container whose text is not lowered IR: read_lowered refuses it.
  std::string forged = tegula::plugin::ContainerWriter("tgrefexe", 2).field("kernal").finish();
  CHECK(r.code(r.api->executable_load(r.device, forged.data(), forged.size(), &e)) == TG_ERR_CORRUPT);
  CHECK(r.message.find("does not read back") != std::string::npos);
  // Two fields where there is one: trailing bytes.
  std::string two = tegula::plugin::ContainerWriter("tgrefexe", 2).field(exe.substr(64)).field("").finish();
  CHECK(r.code(r.api->executable_load(r.device, two.data(), two.size(), &e)) == TG_ERR_CORRUPT);
  CHECK(r.code(r.api->executable_load(r.device, "", 0, &e)) == TG_ERR_CORRUPT);
}

TEST_CASE("compile refuses bad IR, other formats and unknown options") {
  Reference r;
  tg_blob blob = {sizeof(blob)};
  tg_compile_request req = {sizeof(req), nullptr, TG_IR_FORMAT_LOWERED_V1, "kernel", 6, ""};
  CHECK(r.code(r.api->compile(r.device, &req, &blob)) == TG_ERR_COMPILE);
  req.ir_format = "spirv";
  CHECK(r.code(r.api->compile(r.device, &req, &blob)) == TG_ERR_UNSUPPORTED);
  req.ir_format = TG_IR_FORMAT_LOWERED_V1;
  req.ir_data = axpb_ir();
  req.ir_size = std::strlen(axpb_ir());
  req.options = "fast_math=1";
  CHECK(r.code(r.api->compile(r.device, &req, &blob)) == TG_ERR_INVALID_ARGUMENT);
}

TEST_CASE("transfers check ranges and handles") {
  Reference r;
  tg_buffer* b = nullptr;
  REQUIRE(r.api->buffer_alloc(r.device, 16, &b) == nullptr);
  char data[32] = {0};
  CHECK(r.code(r.api->copy_h2d(r.queue, b, 8, data, 8)) == TG_OK);
  CHECK(r.code(r.api->copy_h2d(r.queue, b, 9, data, 8)) == TG_ERR_INVALID_ARGUMENT);
  CHECK(r.code(r.api->copy_d2h(r.queue, data, b, UINT64_MAX, 2)) == TG_ERR_INVALID_ARGUMENT);
  CHECK(r.code(r.api->buffer_fill(r.queue, b, 0, 6, data, 4)) == TG_ERR_INVALID_ARGUMENT);
  CHECK(r.code(r.api->buffer_fill(r.queue, b, 0, 6, data, 3)) == TG_ERR_INVALID_ARGUMENT);
  tg_buffer* zero = nullptr;
  REQUIRE(r.api->buffer_alloc(r.device, 0, &zero) == nullptr);
  CHECK(r.code(r.api->copy_h2d(r.queue, zero, 0, data, 0)) == TG_OK);
  tg_buffer* huge = nullptr;
  CHECK(r.code(r.api->buffer_alloc(r.device, UINT64_MAX / 2, &huge)) == TG_ERR_OUT_OF_MEMORY);
  // A pointer that is not one of this device's buffers.
  CHECK(r.code(r.api->copy_h2d(r.queue, reinterpret_cast<tg_buffer*>(data), 0, data, 1)) == TG_ERR_INVALID_ARGUMENT);
  r.api->buffer_free(b);
  r.api->buffer_free(zero);
}

TEST_CASE("launch checks the grid and runs the kernel") {
  Reference r;
  std::string exe = r.compile(axpb_ir());
  tg_executable* e = nullptr;
  REQUIRE(r.api->executable_load(r.device, exe.data(), exe.size(), &e) == nullptr);
  tg_buffer *x = nullptr, *y = nullptr;
  REQUIRE(r.api->buffer_alloc(r.device, 100 * 4, &x) == nullptr);
  REQUIRE(r.api->buffer_alloc(r.device, 100 * 4, &y) == nullptr);
  std::vector<float> in(100, 2.0f), out(100, 0.0f);
  REQUIRE(r.api->copy_h2d(r.queue, x, 0, in.data(), 400) == nullptr);
  tg_launch_arg args[5] = {};
  for (auto& a : args) a.struct_size = sizeof(tg_launch_arg);
  args[0].kind = TG_ARG_BUFFER, args[0].buffer = x;
  args[1].kind = TG_ARG_BUFFER, args[1].buffer = y;
  args[2].kind = TG_ARG_F64, args[2].f64 = 3.0;
  args[3].kind = TG_ARG_F64, args[3].f64 = 1.0;
  args[4].kind = TG_ARG_I64, args[4].i64 = 100;
  tg_launch_params params = {sizeof(params), nullptr, {1, 1, 1}, 0, args, 5};
  CHECK(r.code(r.api->launch(r.queue, e, &params)) == TG_ERR_INVALID_ARGUMENT);  // the grid is 2 blocks
  params.grid[0] = 2;
  REQUIRE(r.code(r.api->launch(r.queue, e, &params)) == TG_OK);
  REQUIRE(r.api->copy_d2h(r.queue, out.data(), y, 0, 400) == nullptr);
  REQUIRE(r.api->queue_synchronize(r.queue) == nullptr);
  CHECK(out[0] == 7.0f);
  CHECK(out[99] == 7.0f);
  args[4].kind = 9;
  CHECK(r.code(r.api->launch(r.queue, e, &params)) == TG_ERR_INVALID_ARGUMENT);
}

TEST_CASE("events complete at once and time the wall clock") {
  Reference r;
  tg_event *a = nullptr, *b = nullptr;
  REQUIRE(r.api->event_create(r.device, &a) == nullptr);
  REQUIRE(r.api->event_create(r.device, &b) == nullptr);
  double ms = -1;
  CHECK(r.code(r.api->event_elapsed_ms(a, b, &ms)) == TG_ERR_INVALID_ARGUMENT);  // not recorded
  REQUIRE(r.api->event_record(r.queue, a) == nullptr);
  REQUIRE(r.api->event_record(r.queue, b) == nullptr);
  REQUIRE(r.api->event_synchronize(b) == nullptr);
  REQUIRE(r.api->event_elapsed_ms(a, b, &ms) == nullptr);
  CHECK(ms >= 0.0);
  r.api->event_destroy(a);  // b is left for shutdown to free
}

TEST_CASE("offline compilation and the readable form of an executable") {
  Reference r;
  std::string exe = r.compile(axpb_ir());
  tg_target_description target = {sizeof(target), nullptr, TG_TARGET_FORMAT_JSON_V1, "{}", 2};
  tg_compile_request req = {sizeof(req), nullptr, TG_IR_FORMAT_LOWERED_V1, axpb_ir(), std::strlen(axpb_ir()), ""};
  tg_blob blob = {sizeof(blob)};
  REQUIRE(r.api->compile_offline(r.plugin, &target, &req, &blob) == nullptr);
  CHECK(std::string(static_cast<const char*>(blob.data), blob.size) == exe);  // same bytes as on a device
  r.api->blob_release(&blob);

  tg_blob text = {sizeof(text)};
  REQUIRE(r.api->executable_describe(r.plugin, exe.data(), exe.size(), &text) == nullptr);
  CHECK(std::string(static_cast<const char*>(text.data), text.size) == axpb_ir());
  r.api->blob_release(&text);
  CHECK(r.code(r.api->executable_describe(r.plugin, "junk", 4, &text)) == TG_ERR_CORRUPT);
}

}  // namespace reference_plugin_abi_test
