// Selecting cases: comma-separated globs over dotted names ('*' crosses dots, a leading '-'
// excludes), the quick profile keeps a few cases of every row, and `tegula conformance
// list` prints exactly the selection.
#include <doctest/doctest.h>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "conformance/Suite.h"
#include "conformance/tests/TestSupport.h"

namespace case_selection_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

TEST_CASE("filters") {
  Filter f("tegula.gemm.*, -tegula.gemm.*.random");
  CHECK(f.matches("tegula.gemm.mma_sync.m16n8k16.f16_f32.tn.exact"));
  CHECK_FALSE(f.matches("tegula.gemm.mma_sync.m16n8k16.f16_f32.tn.random"));
  CHECK_FALSE(f.matches("tegula.copy.global_shared.f32.one"));
  CHECK(Filter("").matches("anything"));
  CHECK(Filter("-tegula.copy.*").matches("tegula.fill.global.f32.lattice"));
}

TEST_CASE("the quick profile keeps every row") {
  auto target = builtin_target("sm_90a");
  REQUIRE(target.is_ok());
  std::vector<CaseSpec> all = build_suite(*target);
  std::vector<CaseSpec> quick = select_cases(all, true, Filter());
  std::set<std::string> rows_all, rows_quick;
  for (const CaseSpec& c : all)
    if (c.unsupported.empty()) rows_all.insert(c.row);
  for (const CaseSpec& c : quick) rows_quick.insert(c.row);
  CHECK(rows_all == rows_quick);
  CHECK(quick.size() < all.size() / 4);
}

TEST_CASE("list prints the selected case names") {
  std::string cmd = "'" + tegula_exe() + "' conformance list --target sm_90a --filter 'tegula.gemm.wgmma.m64n*k16.bf16_f32.tn.exact'";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  CHECK(::pclose(p) == 0);
  CHECK(out == "tegula.gemm.wgmma.m64n8k16.bf16_f32.tn.exact\ntegula.gemm.wgmma.m64n24k16.bf16_f32.tn.exact\n"
               "tegula.gemm.wgmma.m64n256k16.bf16_f32.tn.exact\n");
}

}  // namespace case_selection_test
