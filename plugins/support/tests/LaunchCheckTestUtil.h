// What the validate_launch tests share: a kernel, buffers as a plugin would hold them, and
// launch arguments built field by field.
#pragma once

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/Parser.h"
#include "plugins/support/LaunchCheck.h"

namespace tegula::plugin::testing {

/// A fake device: buffer handles are indices into `held`; anything else is not its buffer.
struct FakeDevice {
  struct Held {
    uint64_t size = 0;
    uint64_t address = 0;
  };
  std::vector<Held> held;

  tg_buffer* add(uint64_t size, uint64_t address = 4096) {
    held.push_back({size, address});
    return handle(held.size() - 1);
  }
  static tg_buffer* handle(size_t index) { return reinterpret_cast<tg_buffer*>(uintptr_t(index + 1) * 64); }
  static LaunchBuffer lookup(const void* context, size_t, const tg_buffer* buffer) {
    const FakeDevice* d = static_cast<const FakeDevice*>(context);
    size_t index = reinterpret_cast<uintptr_t>(buffer) / 64 - 1;
    if (reinterpret_cast<uintptr_t>(buffer) % 64 != 0 || index >= d->held.size()) return {};
    return {true, d->held[index].size, d->held[index].address};
  }
};

inline tg_launch_arg buffer_arg(tg_buffer* b, uint64_t offset = 0) {
  tg_launch_arg a{};
  a.struct_size = sizeof a;
  a.kind = TG_ARG_BUFFER;
  a.buffer = b;
  a.offset = offset;
  return a;
}
inline tg_launch_arg int_arg(int64_t v) {
  tg_launch_arg a{};
  a.struct_size = sizeof a;
  a.kind = TG_ARG_I64;
  a.i64 = v;
  return a;
}
inline tg_launch_arg float_arg(double v) {
  tg_launch_arg a{};
  a.struct_size = sizeof a;
  a.kind = TG_ARG_F64;
  a.f64 = v;
  return a;
}

/// The kernel most of the tests launch: two tensors of N floats, a float scalar, grid N / 16.
inline const char* const kAdd1 = R"(
kernel add1(X: f32[N], Y: f32[N], s: f32) grid(ceildiv(N, 16)) threads(16) {
  alloc x: shared f32[16]
  copy X[bx * 16], x
  map x = x + s
  copy x, Y[bx * 16]
}
)";

inline ir::Kernel parse(const char* text) {
  Result<ir::Kernel> k = ir::parse_and_verify(text, "test.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  return std::move(k).value();
}

/// validate_launch over `args` with `grid`, the grid checked as given.
inline Result<std::array<uint32_t, 3>> validate(const LaunchSignature& sig, const FakeDevice& dev,
                                                std::vector<tg_launch_arg> args, std::array<uint32_t, 3> grid,
                                                GridCheck check = GridCheck::Given) {
  tg_launch_params p{};
  p.struct_size = sizeof p;
  for (int d = 0; d < 3; ++d) p.grid[d] = grid[d];
  p.args = args.data();
  p.arg_count = args.size();
  return validate_launch(sig, p, FakeDevice::lookup, &dev, check);
}

/// The launch is refused with `code` and exactly `message`.
inline void check_refused(const Result<std::array<uint32_t, 3>>& r, ErrorCode code, const std::string& message) {
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().code() == code);
  CHECK(r.status().message() == message);
}

}  // namespace tegula::plugin::testing
