#include "conformance/Progress.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace tegula::conformance {
namespace {

int64_t count_of(const Json& counts, Outcome o) {
  const Json* v = counts.find(outcome_name(o));
  return v && v->is_number() ? v->as_int() : 0;
}

int64_t json_int(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v && v->is_number() ? v->as_int() : 0;
}

}  // namespace

std::string duration_words(double seconds) {
  int64_t s = int64_t(std::llround(std::max(0.0, seconds)));
  char buf[64];
  if (s < 60) std::snprintf(buf, sizeof buf, "%lld s", (long long)s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%lld min %02lld s", (long long)(s / 60), (long long)(s % 60));
  else std::snprintf(buf, sizeof buf, "%lld h %02lld min", (long long)(s / 3600), (long long)(s / 60 % 60));
  return buf;
}

std::string progress_line(const std::string& device, size_t done, size_t total, const int64_t counts[kNumOutcomes],
                          double seconds, const std::string& last_case) {
  int64_t ok = counts[int(Outcome::Pass)] + counts[int(Outcome::QualityWarning)] + counts[int(Outcome::CompileOnly)];
  char buf[256];
  std::snprintf(buf, sizeof buf, "[%s] %zu/%zu  ok %lld  not supported %lld  fail %lld  crash %lld  timeout %lld  %.1f s",
                device.c_str(), done, total, (long long)ok, (long long)counts[int(Outcome::NotSupported)],
                (long long)counts[int(Outcome::Fail)], (long long)counts[int(Outcome::Crash)],
                (long long)counts[int(Outcome::Timeout)], seconds);
  std::string line = buf;
  // The pace so far: NotSupported cases cost nothing, so early estimates can be short.
  if (done > 0 && done < total) line += ", about " + duration_words(seconds / double(done) * double(total - done)) + " left";
  if (!last_case.empty()) line += "  " + last_case;
  return line;
}

std::string counts_in_words(const Json& c, int64_t expected, int64_t unexpected_passes, int64_t stale) {
  int64_t total = 0;
  for (int i = 0; i < kNumOutcomes; ++i) total += count_of(c, Outcome(i));
  std::string words = std::to_string(total) + (total == 1 ? " case" : " cases");
  auto add = [&](int64_t n, const char* what) {
    if (n > 0) words += ", " + std::to_string(n) + " " + what;
  };
  add(count_of(c, Outcome::Pass), "passed");
  add(count_of(c, Outcome::QualityWarning), "passed with a quality warning");
  add(count_of(c, Outcome::CompileOnly), "compiled only (no device)");
  add(count_of(c, Outcome::NotSupported), "not supported");
  add(count_of(c, Outcome::Fail), "failed");
  add(count_of(c, Outcome::Crash), "crashed");
  add(count_of(c, Outcome::Timeout), "timed out");
  int64_t failures = count_of(c, Outcome::Fail) + count_of(c, Outcome::Crash) + count_of(c, Outcome::Timeout);
  if (failures > 0)
    words += expected == failures ? " (all expected)" : " (" + std::to_string(expected) + " of them expected)";
  add(unexpected_passes, unexpected_passes == 1 ? "unexpected pass" : "unexpected passes");
  add(stale, stale == 1 ? "stale expectation" : "stale expectations");
  return words;
}

std::string summary_line(const Json& summary, const std::string& html_path) {
  const Json* counts = summary.find("counts");
  Json none = Json::object();
  std::string words = counts_in_words(counts ? *counts : none, json_int(summary, "expected_failures"),
                                      json_int(summary, "unexpected_passes"), json_int(summary, "stale_expectations"));
  const Json* verdict = summary.find("verdict");
  std::string v = verdict && verdict->is_string() ? verdict->as_string() : "no verdict";
  return v + ": " + words + "; report " + html_path;
}

Progress::Progress(const std::string& device, size_t total, bool quiet)
    : device_(device), total_(total), quiet_(quiet), tty_(isatty(2)) {}

double Progress::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::add(const Record& r) {
  ++done_;
  ++counts_[int(r.outcome)];
  if (quiet_) return;
  double now = seconds();
  if (tty_ || done_ == 1 || done_ == total_ || now - last_ >= 10 || done_ % 500 == 0) {
    last_ = now;
    print(tty_ && done_ != total_, done_ == total_ ? "" : r.name);
  }
}

void Progress::finish() {
  if (!quiet_ && tty_) std::fputc('\n', stderr);
}

void Progress::print(bool in_place, const std::string& last_case) {
  std::string line = progress_line(device_, done_, total_, counts_, seconds(), last_case);
  // In place: the rest of a longer line before it is blanked (case names differ in length).
  std::fprintf(stderr, "%s%s%s", in_place ? "\r\033[K" : "", line.c_str(), in_place ? "" : "\n");
  std::fflush(stderr);
}

}  // namespace tegula::conformance
