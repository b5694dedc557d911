// An element access outside its tensor is an erroneous program, which the reference
// interpreter refuses. The Vulkan device declares it detected: the access is not made (a
// store is dropped, a load reads 0), the launch's fault word records which access it was
// (codegen/Generate.h), and queue_synchronize fails naming the kernel and the access. An
// access the program guards (select, &&, ||) is not evaluated where the guard is false, so
// it reports nothing; a fault is reported once, and other drains (buffer_free) keep it.
#include "plugins/vulkan/tests/VulkanTestUtil.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace out_of_range_detected_test {

using namespace tegula;
using namespace tegula::vulkan::testing;

namespace {

constexpr const char* kStorePast =
    "kernel oob_store(X: f32[N], Y: f32[N]) grid(1) threads(64) {\n  parallel i in 64 {\n"
    "    store Y[i + N] = X[i % N] + 1.0\n  }\n}\n";
constexpr const char* kLoadPast =
    "kernel oob_load(X: f32[N], Y: f32[N]) grid(1) threads(64) {\n  parallel i in 64 {\n"
    "    if i < N {\n      store Y[i] = X[i + N] + 2.0\n    }\n  }\n}\n";
constexpr const char* kInRange =
    "kernel in_range(X: f32[N], Y: f32[N]) grid(1) threads(64) {\n  parallel i in 64 {\n"
    "    if i < N {\n      store Y[i] = X[i] * 3.0\n    }\n  }\n}\n";

struct Buffers {
  Buffer x, y;
};

Buffers make_buffers(Env& e, int64_t n) {
  auto x = e.dev->alloc(uint64_t(n) * 4);
  auto y = e.dev->alloc(uint64_t(n) * 4);
  REQUIRE(x.is_ok());
  REQUIRE(y.is_ok());
  std::vector<float> xs(static_cast<size_t>(n)), ys(static_cast<size_t>(n), -7.0f);
  for (int64_t i = 0; i < n; ++i) xs[size_t(i)] = float(i);
  REQUIRE(x->write(xs.data(), xs.size() * 4).is_ok());
  REQUIRE(y->write(ys.data(), ys.size() * 4).is_ok());
  return {std::move(*x), std::move(*y)};
}

std::vector<float> read_floats(Buffer& b, int64_t n) {
  std::vector<float> out(static_cast<size_t>(n));
  REQUIRE(b.read(out.data(), out.size() * 4).is_ok());
  return out;
}

Kernel compile(Env& e, const char* text) {
  CompileOptions co;
  co.use_cache = false;
  auto k = e.dev->compile(text, co);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  return std::move(*k);
}

/// The access as the device compiled it: `Y[i + N]`, or `Y[i + 40]` on a device whose
/// description asks for shape specialisation (the NVIDIA driver: the runtime compiles the
/// kernel with its shape symbols replaced by the launch's values).
bool names_access(const std::string& message, const std::string& prefix) {
  return message.find(prefix + "N]") != std::string::npos || message.find(prefix + "40]") != std::string::npos;
}

}  // namespace

TEST_CASE("the device declares out-of-range accesses detected") {
  TG_REQUIRE_VULKAN_DEVICE();
  auto info = env().dev->info();
  REQUIRE(info.is_ok());
  CHECK(info->out_of_range == TEGULA_OUT_OF_RANGE_DETECTED);
}

TEST_CASE("a store past the tensor fails the synchronize, names the access and is dropped") {
  TG_REQUIRE_VULKAN_DEVICE();
  Env& e = env();
  Kernel k = compile(e, kStorePast);
  Buffers b = make_buffers(e, 40);
  REQUIRE(k.launch({Arg::tensor(b.x), Arg::tensor(b.y), Arg::integer(40)}).is_ok());
  Status st = e.dev->synchronize();
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.code() == ErrorCode::InvalidArgument);
  CHECK_MESSAGE(st.message().find("kernel 'oob_store'") != std::string::npos, st.message());
  CHECK_MESSAGE(names_access(st.message(), "store to Y[i + "), st.message());
  CHECK_MESSAGE(st.message().find("outside the tensor") != std::string::npos, st.message());
  // Reported once: the next synchronize has nothing to say, and Y was never written.
  CHECK(e.dev->synchronize().is_ok());
  for (float v : read_floats(b.y, 40)) CHECK(v == -7.0f);
}

TEST_CASE("a load past the tensor fails the synchronize and reads 0") {
  TG_REQUIRE_VULKAN_DEVICE();
  Env& e = env();
  Kernel k = compile(e, kLoadPast);
  Buffers b = make_buffers(e, 40);
  REQUIRE(k.launch({Arg::tensor(b.x), Arg::tensor(b.y), Arg::integer(40)}).is_ok());
  Status st = e.dev->synchronize();
  REQUIRE_FALSE(st.is_ok());
  CHECK_MESSAGE(names_access(st.message(), "load of X[i + "), st.message());
  for (float v : read_floats(b.y, 40)) CHECK(v == 2.0f);
}

TEST_CASE("accesses inside their tensors report nothing, in a batch beside a faulting launch") {
  TG_REQUIRE_VULKAN_DEVICE();
  Env& e = env();
  Kernel good = compile(e, kInRange);
  Kernel bad = compile(e, kStorePast);
  Buffers b = make_buffers(e, 40);
  // More launches than one batch holds (Queue.cpp flushes every 64): the fault of one launch
  // in the second batch is found, and only once.
  for (int i = 0; i < 70; ++i) REQUIRE(good.launch({Arg::tensor(b.x), Arg::tensor(b.y), Arg::integer(40)}).is_ok());
  CHECK(e.dev->synchronize().is_ok());
  for (int i = 0; i < 70; ++i) {
    Kernel& k = i == 66 ? bad : good;
    REQUIRE(k.launch({Arg::tensor(b.x), Arg::tensor(b.y), Arg::integer(40)}).is_ok());
  }
  Status st = e.dev->synchronize();
  REQUIRE_FALSE(st.is_ok());
  CHECK(st.message().find("kernel 'oob_store'") != std::string::npos);
  CHECK(e.dev->synchronize().is_ok());
  std::vector<float> y = read_floats(b.y, 40);
  for (int i = 0; i < 40; ++i) CHECK(y[size_t(i)] == float(i) * 3.0f);
}

TEST_CASE("a fault survives a drain that is not a synchronize") {
  TG_REQUIRE_VULKAN_DEVICE();
  Env& e = env();
  Kernel k = compile(e, kStorePast);
  Buffers b = make_buffers(e, 40);
  REQUIRE(k.launch({Arg::tensor(b.x), Arg::tensor(b.y), Arg::integer(40)}).is_ok());
  {
    // buffer_free waits for the queue's work (and so retires the batch) but reports nothing.
    auto other = e.dev->alloc(64);
    REQUIRE(other.is_ok());
  }
  Status st = e.dev->synchronize();
  REQUIRE_FALSE(st.is_ok());
  CHECK_MESSAGE(names_access(st.message(), "store to Y[i + "), st.message());
}

TEST_CASE("guarded element loads are evaluated only where the guard holds, as the reference does") {
  TG_REQUIRE_VULKAN_DEVICE();
  // 64 threads over N elements: select, && and || each guard a load that would be past X for
  // i >= N, and the reference (which refuses any access outside) must agree.
  for (const char* body : {"store Y[i] = select(i < N, X[i], 0.0) + 1.0",
                           "if i < N && X[i] > 0.0 {\n      store Y[i] = 1.0\n    }",
                           "if i >= N || X[i] > 0.0 {\n      store Y[i] = 1.0\n    }"}) {
    CAPTURE(body);
    RunSpec spec;
    spec.text = std::string("kernel guarded(X: f32[N], Y: f32[64]) grid(1) threads(64) {\n  parallel i in 64 {\n    ") + body +
                "\n  }\n}\n";
    spec.bindings = "N=37";
    spec.prepare = [](const ir::Kernel&, examples::LaunchData& d) {
      // Y starts at 0 (not poisoned): the kernels write only some of it.
      std::fill(d.tensors[1].bytes.begin(), d.tensors[1].bytes.end(), uint8_t(0));
    };
    CHECK(run_compare(spec) == "");
  }
}

}  // namespace out_of_range_detected_test
