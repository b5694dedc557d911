#include "plugins/support/testing/ConcurrentCompile.h"

#include <condition_variable>
#include <mutex>
#include <thread>

#include "plugins/support/testing/RunCompare.h"

namespace tegula::plugin_testing {
namespace {

/// Holds threads until all `count` have arrived, so their calls start together.
class StartLine {
public:
  explicit StartLine(size_t count) : waiting_(count) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mu_);
    if (--waiting_ == 0) {
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return waiting_ == 0; });
  }

private:
  std::mutex mu_;
  std::condition_variable cv_;
  size_t waiting_;
};

}  // namespace

void run_together(size_t count, const std::function<void(size_t)>& work) {
  StartLine start(count);
  std::vector<std::thread> threads;
  threads.reserve(count);
  for (size_t i = 0; i < count; ++i)
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      work(i);
    });
  for (std::thread& t : threads) t.join();
}

Result<std::vector<Executable>> compile_and_load_concurrently(Device& device, const std::vector<std::string>& lowered) {
  Result<PluginInfo> info = device.plugin().info();
  if (!info.is_ok()) return info.status();
  if (!(info->concurrency & TG_CONCURRENT_COMPILE))
    return error(ErrorCode::InvalidArgument, "the plugin does not declare TG_CONCURRENT_COMPILE");
  std::vector<std::string> serial;
  for (size_t i = 0; i < lowered.size(); ++i) {
    Result<std::string> bytes = device.compile(lowered[i]);
    if (!bytes.is_ok()) return error(bytes.status().code(), "kernel " + std::to_string(i) + ", alone: " + bytes.status().message());
    serial.push_back(std::move(bytes).value());
  }
  std::vector<Result<std::string>> together(lowered.size(), Result<std::string>(std::string()));
  run_together(lowered.size(), [&](size_t i) { together[i] = device.compile(lowered[i]); });
  for (size_t i = 0; i < lowered.size(); ++i) {
    if (!together[i].is_ok())
      return error(together[i].status().code(), "kernel " + std::to_string(i) + ", compiled beside the others: " +
                                                    together[i].status().message());
    if (*together[i] != serial[i])
      return error(ErrorCode::Internal, "kernel " + std::to_string(i) + ": compiled beside the others it gives " +
                                            std::to_string(together[i]->size()) + " bytes unlike the " +
                                            std::to_string(serial[i].size()) + " of a compile alone");
  }
  std::vector<Result<Executable>> loaded;
  for (size_t i = 0; i < lowered.size(); ++i) loaded.emplace_back(Executable());
  run_together(lowered.size(), [&](size_t i) { loaded[i] = device.load(*together[i]); });
  std::vector<Executable> out;
  for (size_t i = 0; i < lowered.size(); ++i) {
    if (!loaded[i].is_ok())
      return error(loaded[i].status().code(), "kernel " + std::to_string(i) + ", loaded beside the others: " +
                                                  loaded[i].status().message());
    out.push_back(std::move(loaded[i]).value());
  }
  return out;
}

namespace {

/// Kernel i: Y = X * a + b + i in blocks of 2^(5 + i % 4) elements.
std::string offset_kernel(int i) {
  std::string block = std::to_string(32 << (i % 4));
  return "kernel axpb_plus_" + std::to_string(i) + "(X: f32[N], Y: f32[N], a: f32, b: f32) grid(ceildiv(N, " + block +
         ")) threads(32) {\n  alloc x: fragment f32[" + block + "]\n  copy X[bx * " + block + "], x\n  map x = x * a + b + " +
         std::to_string(i) + ".0\n  copy x, Y[bx * " + block + "]\n}\n";
}

Status run_and_check(Device& device, const Executable& exe, int i) {
  constexpr uint32_t kN = 1000;
  std::vector<float> x(kN), y(kN);
  for (uint32_t e = 0; e < kN; ++e) x[e] = float(e % 97) - 48.0f;
  std::vector<uint8_t> poison(kN * 4, 0xff);
  TG_ASSIGN_OR_RETURN(Buffer xb, device.alloc(kN * 4));
  TG_ASSIGN_OR_RETURN(Buffer yb, device.alloc(kN * 4));
  TG_RETURN_IF_ERROR(device.write(xb, x.data(), kN * 4));
  TG_RETURN_IF_ERROR(device.write(yb, poison.data(), kN * 4));
  uint32_t block = 32u << (i % 4);
  TG_RETURN_IF_ERROR(device.launch(exe, {(kN + block - 1) / block, 1, 1},
                                   {buffer_arg(xb.handle()), buffer_arg(yb.handle()), float_arg(2.0), float_arg(0.5), int_arg(kN)}));
  TG_RETURN_IF_ERROR(device.read(yb, y.data(), kN * 4));
  for (uint32_t e = 0; e < kN; ++e) {
    float want = x[e] * 2.0f + 0.5f + float(i);
    if (!(y[e] == want))
      return error(ErrorCode::Internal, "kernel " + std::to_string(i) + ", element " + std::to_string(e) + ": " +
                                            std::to_string(y[e]) + ", expected " + std::to_string(want));
  }
  return Status::ok();
}

}  // namespace

Status check_concurrent_compile(Device& device, const TargetDescription& target, int kernels) {
  std::vector<std::string> lowered;
  for (int i = 0; i < kernels; ++i) {
    TG_ASSIGN_OR_RETURN(std::string text, lower_source(offset_kernel(i), target));
    lowered.push_back(std::move(text));
  }
  TG_ASSIGN_OR_RETURN(std::vector<Executable> exes, compile_and_load_concurrently(device, lowered));
  for (int i = 0; i < kernels; ++i) TG_RETURN_IF_ERROR(run_and_check(device, exes[size_t(i)], i));
  return Status::ok();
}

}  // namespace tegula::plugin_testing
