// A kernel lowered with launch assumptions (lower.assume: shape symbols divisible by a power
// of two; lower.tensor_align: tensors on 16-byte boundaries) has no fallback for launches
// that break them, so the plugin refuses those with INVALID_ARGUMENT naming the symbol or
// the tensor. The runtime normally picks a variant whose assumptions hold; this test loads
// one directly through the plugin ABI and breaks them.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace launch_assumptions_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

TEST_CASE("launches that break the lowering's assumptions are refused") {
  VulkanPlugin p;
  if (p.devices() == 0) {
    MESSAGE("no Vulkan device");
    return;
  }
  auto t = parse_target(p.target_json(0), "device");
  REQUIRE(t.is_ok());
  auto parsed = ir::parse_and_verify(example_text("gemm/gemm_f16.tile"), "gemm_f16.tile");
  REQUIRE(parsed.is_ok());
  ir::LowerOptions o;
  o.divisibility = {{"M", 16}, {"N", 16}, {"K", 16}};
  o.tensors_aligned = true;
  auto lowered = ir::lower(*parsed, *t, o);
  REQUIRE_MESSAGE(lowered.is_ok(), lowered.status().str());
  const ir::Kernel& k = lowered->kernel;
  std::string text = ir::print_kernel(k);
  REQUIRE(ir::find_attr(k.attrs, "lower.assume"));
  REQUIRE(ir::find_attr(k.attrs, "lower.tensor_align"));
  std::string blob = p.compile_offline(p.target_json(0), text);
  REQUIRE(!blob.empty());

  tg_device* d = nullptr;
  REQUIRE(p.code(p.api()->device_open(p.handle(), 0, &d)) == TG_OK);
  tg_executable* exe = nullptr;
  REQUIRE(p.code(p.api()->executable_load(d, blob.data(), blob.size(), &exe)) == TG_OK);
  tg_queue* q = nullptr;
  REQUIRE(p.code(p.api()->queue_create(d, &q)) == TG_OK);
  tg_buffer *a = nullptr, *b = nullptr, *c = nullptr;
  for (tg_buffer** buf : {&a, &b, &c}) REQUIRE(p.code(p.api()->buffer_alloc(d, 64 * 1024, buf)) == TG_OK);

  // gemm_f16(A: f16[M, K], B: f16[K, N], C: f16[M, N]) grid(ceildiv(N, 128), ceildiv(M, 128)).
  std::vector<std::string> symbols = k.symbols();
  auto symbol_at = [&](const std::string& name) { return size_t(std::find(symbols.begin(), symbols.end(), name) - symbols.begin()); };
  REQUIRE(symbol_at("M") < 3);
  REQUIRE(symbol_at("N") < 3);
  REQUIRE(symbol_at("K") < 3);
  // The launch's error message ("" when it is accepted).
  auto launch = [&](int64_t m, int64_t n, int64_t kk, uint64_t a_offset) -> std::string {
    std::vector<tg_launch_arg> args(6);
    for (tg_launch_arg& x : args) {
      std::memset(&x, 0, sizeof(x));
      x.struct_size = sizeof(x);
    }
    tg_buffer* buffers[3] = {a, b, c};
    for (size_t i = 0; i < 3; ++i) {
      args[i].kind = TG_ARG_BUFFER;
      args[i].buffer = buffers[i];
    }
    args[0].offset = a_offset;
    for (auto [name, value] : {std::pair<const char*, int64_t>{"M", m}, {"N", n}, {"K", kk}}) {
      args[3 + symbol_at(name)].kind = TG_ARG_I64;
      args[3 + symbol_at(name)].i64 = value;
    }
    tg_launch_params lp;
    std::memset(&lp, 0, sizeof(lp));
    lp.struct_size = sizeof(lp);
    lp.grid[0] = uint32_t((n + 127) / 128);
    lp.grid[1] = uint32_t((m + 127) / 128);
    lp.grid[2] = 1;
    lp.args = args.data();
    lp.arg_count = args.size();
    tg_error* e = p.api()->launch(q, exe, &lp);
    if (!e) return "";
    std::string message = p.api()->error_message(e);
    CHECK_MESSAGE(p.api()->error_code(e) == TG_ERR_INVALID_ARGUMENT, message);
    p.api()->error_destroy(e);
    return message;
  };
  CHECK(launch(128, 128, 128, 0) == "");
  CHECK(launch(128, 128, 128, 16) == "");
  // Every assumed symbol (K and N at least: the rows of A, B and C) odd in turn.
  const ir::Attr* assume = ir::find_attr(k.attrs, "lower.assume");
  std::vector<std::string> assumed;
  for (const ir::AttrValue& item : assume->value.list) assumed.push_back(item.list[0].s);
  CHECK(std::count(assumed.begin(), assumed.end(), "K") == 1);
  CHECK(std::count(assumed.begin(), assumed.end(), "N") == 1);
  for (const std::string& name : assumed) {
    CAPTURE(name);
    std::string refused = launch(name == "M" ? 129 : 128, name == "N" ? 129 : 128, name == "K" ? 129 : 128, 0);
    CHECK(refused.find("'" + name + "'") != std::string::npos);
  }
  std::string misaligned = launch(128, 128, 128, 8);
  CHECK(misaligned.find("'A'") != std::string::npos);
  CHECK(p.code(p.api()->queue_synchronize(q)) == TG_OK);

  for (tg_buffer* buf : {a, b, c}) p.api()->buffer_free(buf);
  p.api()->queue_destroy(q);
  p.api()->executable_free(exe);
  p.api()->device_close(d);
}

}  // namespace launch_assumptions_test
