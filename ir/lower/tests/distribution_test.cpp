// Free distributions account for every thread of any block size and cover every element
// exactly once; reduced distributions replicate the reduced axis.
#include <doctest/doctest.h>

#include <cstdint>

#include "ir/lower/Distribution.h"

namespace distribution_test {

using namespace tegula::ir;

TEST_CASE("free distributions cover the tile and use every thread, power of two or not") {
  for (int64_t threads : {1, 3, 32, 96, 100, 128, 192, 256, 1000, 1024})
    for (auto shape : std::vector<std::vector<int64_t>>{{4, 256}, {1}, {7}, {3, 5}, {128, 128}, {2, 3, 64}, {1000}})
      for (int64_t vec : {1, 4, 8}) {
        CAPTURE(threads);
        CAPTURE(vec);
        Distribution d = free_distribution(shape, threads, vec);
        CHECK(d.thread_count() == threads);
        CHECK(check_coverage(d, shape, false).is_ok());
      }
}

TEST_CASE("a reduced distribution keeps each row's holders as holders of the row's result") {
  Distribution d = free_distribution({4, 256}, 96, 4);
  Distribution r = reduced_distribution(d, 1, true);
  CHECK(r.thread_count() == 96);
  CHECK(check_coverage(r, {4, 1}, false).is_ok());
  for (int64_t t = 0; t < 96; ++t)
    for (int64_t v = 0; v < d.value_count(); ++v) {
      auto c = d.coords(t, v, 2);
      bool held = false;
      for (int64_t w = 0; w < r.value_count(); ++w) held = held || r.coords(t, w, 2)[0] == c[0];
      CHECK(held);
    }
}

TEST_CASE("coverage names a missing or doubly held element") {
  Distribution twice{{{4, 0, 1}, {2, 0, 1}}, {}};
  auto st = check_coverage(twice, {4}, false);
  CHECK(st.message().find("held twice") != std::string::npos);
  Distribution short_one{{{3, 0, 1}}, {}};
  st = check_coverage(short_one, {4}, false);
  CHECK(st.message().find("element [3] is held by no thread") != std::string::npos);
}

}  // namespace distribution_test
