// `tegula conformance --perf`: every device found gets a performance section. On the CPU
// device each selected figure is measured (the method recorded: warm-up, ten repetitions,
// the median between the fastest and the slowest), a memory figure is in GB/s, and a figure
// the description has no peak for says so instead of a percentage; the reference model's
// figures are "not measured", with the reason. The bundle verifies and says what it checked,
// and report.html shows the section: a roofline with the gemm's point, and a bar per figure
// that has a peak, in headless Chromium too.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "conformance/Verify.h"
#include "conformance/tests/TestSupport.h"
#include "core/Files.h"

namespace perf_section_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

namespace {

const char* kFigures =
    "tegula.perf.copy.registers,tegula.perf.copy.scalar,tegula.perf.launch,tegula.perf.gemm.fma*,tegula.perf.example.rmsnorm";

const Json* performance_of(const Json& report, const std::string& device) {
  for (const Json& d : report.find("devices")->items())
    if (field(d, "name") == device) return d.find("performance");
  return nullptr;
}

double num(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v && v->is_number() ? v->as_double() : -1;
}

const Json* figure(const Json& perf, const std::string& name) {
  for (const Json& f : perf.find("figures")->items())
    if (field(f, "name") == name) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("--perf measures the CPU device, says why the reference model is not measured, and the bundle verifies") {
  std::string dir = scratch("perf_section");
  CliRun run = run_conformance_with({"cpu", "reference"}, std::string("--filter 'tegula.fill.global.f32.*' --perf-filter '") +
                                                              kFigures + "' --no-offline --quiet --out '" + dir + "'");
  REQUIRE_MESSAGE(run.status == 0, run.output);
  Json report = load_report(dir);
  CHECK(report.find("run")->find("perf")->as_bool());
  CHECK(field(*report.find("run"), "perf_filter") == kFigures);

  const Json* cpu = performance_of(report, "cpu:0");
  REQUIRE(cpu);
  CHECK(field(*cpu, "profile") == "host");
  REQUIRE(cpu->find("figures")->size() == 5);
  for (const Json& f : cpu->find("figures")->items()) {
    CAPTURE(field(f, "name"));
    REQUIRE_MESSAGE(f.find("method"), f.dump());
    const Json& m = *f.find("method");
    CHECK(num(f, "value") > 0);
    CHECK(num(m, "reps") >= 3);
    CHECK(num(m, "min_ms") <= num(m, "median_ms"));
    CHECK(num(m, "median_ms") <= num(m, "max_ms"));
    CHECK(num(m, "spread_pct") >= 0);
    CHECK(num(m, "compile_ms") > 0);
    CHECK(field(m, "clocks").find("not readable") == 0);
  }
  const Json* copy = figure(*cpu, "tegula.perf.copy.registers");
  REQUIRE(copy);
  CHECK(field(*copy, "unit") == "GB/s");
  CHECK(field(*copy, "bound") == "memory");
  // The host description declares no bandwidth: no percentage, and the reason.
  CHECK(copy->find("percent")->is_null());
  CHECK(field(*copy, "peak_basis").find("no peak.memory_gbps") != std::string::npos);
  const Json* launch = figure(*cpu, "tegula.perf.launch");
  REQUIRE(launch);
  CHECK(field(*launch, "unit") == "us");
  const Json* gemm = figure(*cpu, "tegula.perf.gemm.fma.scalar");
  REQUIRE(gemm);
  CHECK(field(*gemm, "unit") == "TFLOP/s");
  CHECK(num(*gemm, "flops") == 2.0 * 256 * 256 * 256);

  // The optimization matrix's vectorised-access cell on cpu:0 carries the effect, from the
  // two copies (perf/PerfEffects.h).
  std::string effect;
  for (const Json& r : report.find("optimizations")->find("rows")->items())
    if (field(r, "id") == "vector_access") effect = field(*r.find("cells")->find("cpu:0"), "measured");
  CHECK_MESSAGE(effect.find("on ") == 0, effect);
  CHECK_MESSAGE(effect.find(" GB/s (tegula.perf.copy.registers), off ") != std::string::npos, effect);
  CHECK_MESSAGE(effect.find("GB/s (tegula.perf.copy.scalar): ") != std::string::npos, effect);

  const Json* ref = performance_of(report, "reference:0");
  REQUIRE(ref);
  CHECK(field(*ref, "profile") == "none");
  for (const Json& f : ref->find("figures")->items()) {
    CHECK_FALSE(f.find("method"));
    CHECK(field(f, "not_measured").find("software model") != std::string::npos);
  }

  VerifyOutcome v = verify_report(dir + "/report.json");
  CHECK_MESSAGE(v.errors.empty(), (v.errors.empty() ? "" : v.errors.front()));
  bool noted = false;
  for (const std::string& n : v.notes) noted = noted || n.find("5 performance figures measured") != std::string::npos;
  CHECK(noted);

  Result<std::string> page = read_file(dir + "/report.html");
  REQUIRE(page.is_ok());
  CHECK(page->find("<h2 id=\"performance\">Performance</h2>") != std::string::npos);
  CHECK(page->find("<svg class=\"roofline\"") != std::string::npos);
  CHECK(page->find("<circle class=\"point\"") != std::string::npos);  // the gemm and the rmsnorm do arithmetic
  CHECK(page->find("not measured: a software model") != std::string::npos);

  REQUIRE_MESSAGE(std::system("command -v chromium > /dev/null 2>&1") == 0,
                  "chromium is not installed: scripts/setup.sh installs it (Debian's chromium package)");
  std::string cmd = "timeout 60 chromium --headless --no-sandbox --disable-gpu --dump-dom 'file://" + dir + "/report.html' 2>/dev/null";
  std::string dom;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) dom.append(buf, n);
  ::pclose(p);
  CHECK(dom.find("<svg class=\"roofline\"") != std::string::npos);
  CHECK(dom.find("<circle class=\"point\"") != std::string::npos);
  CHECK(dom.find("id=\"perf-tegula.perf.copy.registers\"") != std::string::npos);
}

}  // namespace perf_section_test
