/// \file
/// What a run prints while it runs and when it ends. Progress: one line per device, redrawn
/// in place on a terminal (else every 10 s and at the end), with the counts so far, the
/// time taken, the time left (from the pace so far) and the case that just finished. The
/// summary line, last of the run: the verdict, the counts in words and the report's page.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "conformance/Outcome.h"
#include "conformance/Record.h"
#include "core/Json.h"

namespace tegula::conformance {

/// "12 s", "3 min 05 s", "1 h 02 min".
std::string duration_words(double seconds);

/// One progress line: "[reference:0] 120/5381  ok 118  ...  12.3 s, about 8 min 10 s left  <case>".
std::string progress_line(const std::string& device, size_t done, size_t total, const int64_t counts[kNumOutcomes],
                          double seconds, const std::string& last_case);

/// The counts in words: "5381 cases, 5370 passed, 8 not supported, 3 failed (all expected), 1
/// unexpected pass". `counts` is {"Pass": n, ...}; outcomes counted 0 are left out.
std::string counts_in_words(const Json& counts, int64_t expected_failures, int64_t unexpected_passes = 0,
                            int64_t stale_expectations = 0);

/// "conformant: 5381 cases, 5370 passed, 8 not supported, 3 failed (all expected); report DIR/report.html"
std::string summary_line(const Json& summary, const std::string& html_path);

class Progress {
public:
  Progress(const std::string& device, size_t total, bool quiet);
  void add(const Record& r);
  void finish();

private:
  double seconds() const;
  void print(bool in_place, const std::string& last_case);

  std::string device_;
  size_t total_ = 0, done_ = 0;
  bool quiet_ = false, tty_ = false;
  int64_t counts_[kNumOutcomes] = {};
  double last_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace tegula::conformance
