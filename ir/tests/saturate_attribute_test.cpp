// The kernel attribute `saturate` (core/DType.h's store modes, ir/Analysis.h's store_mode):
// by default a store to a narrow float clamps what overflows to its largest value; with
// saturate=false it gives Inf or NaN where the format has one (e5m2: Inf; e4m3, FNUZ, e8m0:
// NaN) and clamps where it has none (fp6, fp4). Casts round the same way. The attribute is a
// bool, and a located error otherwise.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "ir/Parser.h"
#include "ir/tests/RunUtil.h"

namespace saturate_attribute_test {

using namespace tegula;
using namespace tegula::ir;
using testing::Value;

namespace {

/// Y[i] = X[i] (f32 in, `out` stored), and Z[i] = f32(cast(X[i]) to `out`), under `attrs`.
std::vector<double> run_store(const std::string& out, const std::string& attrs, const std::vector<double>& x, bool via_cast = false) {
  std::string n = std::to_string(x.size());
  std::string value = via_cast ? "cast<" + out + ">(X[i])" : "X[i]";
  std::string ydt = via_cast ? "f32" : out;
  std::string text = "kernel k(X: f32[" + n + "], Y: " + ydt + "[" + n + "]) grid(1) threads(32)" + attrs + " {\n  parallel i in " + n +
                     " {\n    store Y[i] = " + value + "\n  }\n}\n";
  std::vector<Value> args = {Value::tensor(x), Value::tensor(std::vector<double>(x.size(), 0))};
  Status st = testing::run_kernel(text, args);
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  return args[1].values;
}

const std::vector<double> kBig = {1e9, -1e9, INFINITY, 1.0};

}  // namespace

TEST_CASE("stores saturate by default and with saturate=true") {
  for (const std::string attrs : {"", ", saturate=true"}) {
    std::vector<double> y = run_store("e4m3", attrs, kBig);
    CHECK(y == std::vector<double>{448, -448, 448, 1});
    y = run_store("e5m2", attrs, kBig);
    CHECK(y == std::vector<double>{57344, -57344, 57344, 1});
    y = run_store("e4m3fnuz", attrs, kBig);
    CHECK(y == std::vector<double>{240, -240, 240, 1});
  }
}

TEST_CASE("saturate=false gives Inf or NaN where the format has one, and clamps where it has none") {
  std::vector<double> y = run_store("e5m2", ", saturate=false", kBig);
  CHECK(y[0] == INFINITY);
  CHECK(y[1] == -INFINITY);
  CHECK(y[2] == INFINITY);
  CHECK(y[3] == 1);
  for (const std::string d : {"e4m3", "e4m3fnuz", "e5m2fnuz"}) {
    CAPTURE(d);
    y = run_store(d, ", saturate=false", kBig);
    CHECK(std::isnan(y[0]));
    CHECK(std::isnan(y[2]));
    CHECK(y[3] == 1);
  }
  // e8m0 reaches 2^127: 1e9 is in range; Inf and negative values (it has no sign) are NaN.
  y = run_store("e8m0", ", saturate=false", kBig);
  CHECK(y[0] == std::ldexp(1.0, 30));
  CHECK(std::isnan(y[1]));
  CHECK(std::isnan(y[2]));
  y = run_store("e8m0", "", kBig);
  CHECK(y[1] == std::ldexp(1.0, -127));
  CHECK(y[2] == std::ldexp(1.0, 127));
  y = run_store("e2m1", ", saturate=false", kBig);
  CHECK(y == std::vector<double>{6, -6, 6, 1});
  y = run_store("e3m2", ", saturate=false", kBig);
  CHECK(y == std::vector<double>{28, -28, 28, 1});
}

TEST_CASE("a cast rounds in the kernel's store mode too") {
  std::vector<double> y = run_store("e4m3", ", saturate=false", kBig, true);
  CHECK(std::isnan(y[0]));
  y = run_store("e4m3", "", kBig, true);
  CHECK(y[0] == 448);
}

TEST_CASE("saturate must be a bool") {
  for (const char* bad : {"saturate=1", "saturate=yes", "saturate=[1]"}) {
    CAPTURE(bad);
    std::string text = std::string("kernel k(X: f32[4], Y: e4m3[4]) grid(1) threads(4), ") + bad +
                       " {\n  parallel i in 4 {\n    store Y[i] = X[i]\n  }\n}\n";
    auto k = parse_and_verify(text, "sat.tile");
    REQUIRE_FALSE(k.is_ok());
    CHECK_MESSAGE(k.status().message().find("saturate") != std::string::npos, k.status().str());
    CHECK(k.status().str().find("sat.tile:1:") != std::string::npos);
  }
}

}  // namespace saturate_attribute_test
