// A choice `tegula tune` records is found by another program on the same compile cache: an
// embedder's binary links its own copy of the runtime, so the record's key names the device's
// target and plugin build (what was measured), never the runtime build that measured it.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/Files.h"
#include "runtime/tests/CliSupport.h"
#include "runtime/tests/TestSupport.h"

namespace cli_tune_other_program_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("a binding tegula tune measured is launched by another program") {
  std::string cache = scratch_dir("cli_tune_other_program");
  std::string gemm = example("gemm/gemm_tuned_bf16.tile");
  int rc = -1;
  std::string out = tegula_cli("tune " + gemm + " --device reference --bind M=24,N=40,K=16 --top 2 --repeat 1", &rc,
                               "TEGULA_CACHE_DIR=" + cache);
  REQUIRE_MESSAGE(rc == 0, out);
  size_t chose = out.find("chose ");
  REQUIRE(chose != std::string::npos);
  std::string binding = out.substr(chose + 6, out.find(':', chose) - chose - 6);

  auto rt = open_runtime({reference_manifest()}, nullptr, cache);
  REQUIRE_MESSAGE(rt.is_ok(), rt.status().str());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  auto text = read_file(gemm);
  REQUIRE(text.is_ok());
  auto k = d->compile(*text);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  const int64_t m = 24, n = 40, kk = 16;
  // bf16 ones: every element of C is K exactly; C starts as NaN (0xffff).
  std::vector<uint16_t> a(size_t(m * kk), 0x3f80), b(size_t(kk * n), 0x3f80), c(size_t(m * n), 0xffff);
  auto ba = d->alloc(a.size() * 2), bb = d->alloc(b.size() * 2), bc = d->alloc(c.size() * 2);
  REQUIRE((ba.is_ok() && bb.is_ok() && bc.is_ok()));
  REQUIRE(ba->write(a).is_ok());
  REQUIRE(bb->write(b).is_ok());
  REQUIRE(bc->write(c).is_ok());
  Status launched = k->launch({Arg::tensor(*ba), Arg::tensor(*bb), Arg::tensor(*bc), Arg::integer(m), Arg::integer(kk),
                               Arg::integer(n)});
  REQUIRE_MESSAGE(launched.is_ok(), launched.str());
  REQUIRE(d->synchronize().is_ok());
  auto t = k->tunables();
  REQUIRE(t.is_ok());
  CHECK(t->first == binding);
  CHECK(t->second == "measured");
  REQUIRE(bc->read(c.data(), c.size() * 2).is_ok());
  for (uint16_t v : c) REQUIRE(v == 0x4180);  // bf16 16.0
}

}  // namespace cli_tune_other_program_test
