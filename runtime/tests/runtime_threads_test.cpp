// A runtime may be used from several threads at once: calls into one plugin are
// serialised by the host, and each thread's results are its own.
#include <doctest/doctest.h>

#include <thread>

#include "runtime/tests/TestSupport.h"

namespace runtime_threads_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("four threads compile, launch and read back on one device") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  Device d = rt->find_device("reference").value();
  std::vector<int> ok(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      auto k = d.compile(axpb_ir());
      auto x = d.alloc(256 * 4);
      auto y = d.alloc(256 * 4);
      if (!k.is_ok() || !x.is_ok() || !y.is_ok()) return;
      std::vector<float> in(256, float(t));
      if (!x->write(in).is_ok()) return;
      for (int i = 0; i < 5; ++i)
        if (!k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::number(2), Arg::number(t), Arg::integer(256)}).is_ok())
          return;
      auto out = y->read<float>(256);
      ok[size_t(t)] = out.is_ok() && (*out)[255] == 3.0f * float(t);
    });
  }
  for (std::thread& th : threads) th.join();
  CHECK(ok == std::vector<int>{1, 1, 1, 1});
}

}  // namespace runtime_threads_test
