// cpu:0 may be used from several threads at once: launches from different threads (and,
// straight through the ABI, from different queues) take turns on the plugin's thread pool,
// and each gets its own results.
#include <thread>

#include "plugins/cpu/tests/CpuTestUtil.h"

namespace threads_test {

using namespace tegula;
using namespace tegula::cpu::testing;

namespace {

const char* kAxpb = R"(
kernel axpb(X: f32[N], Y: f32[N], a: f32, b: f32) grid(ceildiv(N, 64)) threads(64) {
  alloc x: fragment f32[64]
  copy X[bx * 64], x
  map x = x * a + b
  copy x, Y[bx * 64]
}
)";

}  // namespace

TEST_CASE("four threads compile, launch and read back on cpu:0") {
  Device d = cpu_device();
  std::vector<int> ok(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Result<Kernel> k = d.compile(kAxpb);
      Result<Buffer> x = d.alloc(10000 * 4), y = d.alloc(10000 * 4);
      if (!k.is_ok() || !x.is_ok() || !y.is_ok()) return;
      std::vector<float> in(10000, float(t));
      if (!x->write(in).is_ok()) return;
      for (int i = 0; i < 20; ++i)
        if (!k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::number(2), Arg::number(t), Arg::integer(10000)}).is_ok()) return;
      Result<std::vector<float>> out = y->read<float>(10000);
      ok[size_t(t)] = out.is_ok() && (*out)[0] == 3.0f * float(t) && (*out)[9999] == 3.0f * float(t);
    });
  }
  for (std::thread& th : threads) th.join();
  CHECK(ok == std::vector<int>{1, 1, 1, 1});
}

TEST_CASE("two queues launching at once through the ABI") {
  CpuPlugin p;
  std::string blob = p.compiled(p.lowered(kAxpb));
  REQUIRE(!blob.empty());
  tg_executable* exe = nullptr;
  REQUIRE(p.plugin->ok(p.api()->executable_load(p.device->handle(), blob.data(), blob.size(), &exe)));
  constexpr int kN = 100000;
  struct Lane {
    tg_queue* queue = nullptr;
    tg_buffer* x = nullptr;
    tg_buffer* y = nullptr;
    bool ok = false;
  } lanes[2];
  for (Lane& l : lanes) {
    REQUIRE(p.plugin->ok(p.api()->queue_create(p.device->handle(), &l.queue)));
    REQUIRE(p.plugin->ok(p.api()->buffer_alloc(p.device->handle(), kN * 4, &l.x)));
    REQUIRE(p.plugin->ok(p.api()->buffer_alloc(p.device->handle(), kN * 4, &l.y)));
  }
  auto work = [&](int t) {
    Lane& l = lanes[t];
    std::vector<float> in(kN, float(t + 1));
    if (p.api()->copy_h2d(l.queue, l.x, 0, in.data(), kN * 4)) return;
    tg_launch_arg args[5] = {};
    for (tg_launch_arg& a : args) a.struct_size = sizeof a;
    args[0].kind = args[1].kind = TG_ARG_BUFFER;
    args[0].buffer = l.x;
    args[1].buffer = l.y;
    args[2].kind = args[3].kind = TG_ARG_F64;
    args[2].f64 = 3;
    args[3].f64 = t;
    args[4].kind = TG_ARG_I64;
    args[4].i64 = kN;
    tg_launch_params params{};
    params.struct_size = sizeof params;
    params.grid[0] = (kN + 63) / 64;
    params.grid[1] = params.grid[2] = 1;
    params.args = args;
    params.arg_count = 5;
    for (int i = 0; i < 50; ++i)
      if (p.api()->launch(l.queue, exe, &params)) return;  // (an error here leaks; the test fails anyway)
    if (p.api()->queue_synchronize(l.queue)) return;
    std::vector<float> out(kN);
    if (p.api()->copy_d2h(l.queue, out.data(), l.y, 0, kN * 4)) return;
    l.ok = out[0] == 3.0f * float(t + 1) + float(t) && out[kN - 1] == out[0];
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  CHECK(lanes[0].ok);
  CHECK(lanes[1].ok);
  for (Lane& l : lanes) {
    p.api()->buffer_free(l.x);
    p.api()->buffer_free(l.y);
    p.api()->queue_destroy(l.queue);
  }
  p.api()->executable_free(exe);
}

}  // namespace threads_test
