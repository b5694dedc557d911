/// \file
/// Measuring one performance figure on a device, through the public runtime API, and the
/// figure's JSON as report.json stores it (schema in conformance/README.md, "Performance").
///
/// Method, recorded with every figure:
///   - compile: the kernel compiled with the cache off, launched once and synchronised;
///   - warm-up: launches back to back for at least 100 ms (and at least 3), which also brings
///     a GPU's clock up from idle;
///   - repetitions: 10, each a batch of launches between two device events, the batch long
///     enough (about 5 ms) that the events' resolution does not matter; the figure is the
///     median batch's time per launch, with the fastest and slowest and their spread;
///   - clocks are not readable through the tegula API: a device that throttles under load
///     (the H200 under its power cap) shows it as spread, and sustained figures are lower
///     than those of a short burst.
/// Launch overhead is host wall time per launch over batches of 1000 launches with one
/// synchronisation; compile figures are the wall time of three cold compiles, median.
#pragma once

#include <cstdint>
#include <string>

#include "conformance/perf/PerfSuite.h"
#include "core/Json.h"
#include "targets/Peak.h"
#include "tegula/tegula.hpp"

namespace tegula::conformance {

/// `v` to `digits` significant digits: figures are measurements, and a stored figure must read
/// back exactly as the number it was derived from (verify derives it again).
double significant(double v, int digits);

/// The figure's value from its time per launch (ms): GB/s, TFLOP/s, G items/s, or the time
/// itself (us for launches, ms for compiles). verify recomputes it with this function.
double figure_value(const PerfSpec& spec, double median_ms);
const char* figure_unit(const PerfSpec& spec);

/// What the device's description declares for this figure (Memory: bandwidth; Compute: the
/// forced instruction's peak, or the best instruction's for the example's dtype); none for
/// Rate and Time figures.
DeclaredPeak figure_peak(const PerfSpec& spec, const TargetDescription& target);

/// Measures `spec` on `device`. Never throws; a failure is a figure "not measured" with the
/// reason.
Json measure_figure(const Device& device, const TargetDescription& target, const PerfSpec& spec, uint64_t seed);

/// A figure that was not measured, with the reason (what a figure JSON holds without a value).
Json unmeasured_figure(const PerfSpec& spec, const std::string& reason);

/// A figure's JSON from its measured method fields (median_ms and the rest), its value,
/// peak and percentage derived; verify rebuilds it from the stored method and compares.
Json figure_json(const PerfSpec& spec, const TargetDescription& target, const Json& method);

}  // namespace tegula::conformance
