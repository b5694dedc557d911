/// \file
/// The report bundle: report.json (everything needed to judge and to re-derive the run)
/// and report.html (the same, as a matrix of report rows by device). The parts of the JSON
/// that follow from others (counts, expected-failure marks, the verdict, the integrity
/// hash) are computed by the functions here, which `verify` calls again to check them.
///
/// report.json, schema tegula.conformance.report.v1:
///   suite     version, tegula version, tolerance table version and SHA-256
///   run       command line, seed, profile, filter, strict, jobs, timeout, start and end
///   host      OS, CPU, cores, compiler
///   plugins   name, version, library path and SHA-256, its expectation list
///   devices   identity (device name, vendor, driver and toolkit versions, memory, compute
///             units), target description (name, SHA-256, JSON), case-list SHA-256,
///             counts, and one record per case
///   optimizations  the optimization matrix (ir/lower/optimizations/) on every tested
///             device's target description: rows, one cell per device (state, reason, the
///             measured effect or "not measured"), each device's target name
///   summary   counts, expected and unexpected failures, unexpected passes, stale
///             expectations, verdict, exit status
///   integrity SHA-256 of the canonical text of everything above
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "conformance/Expectations.h"
#include "conformance/Record.h"
#include "core/Json.h"

namespace tegula::conformance {

inline constexpr const char* kReportSchema = "tegula.conformance.report.v1";

/// Marks the failures `list` names (record.expected_failure) and returns the names of the
/// cases it names that succeeded anyway (unexpected passes).
std::vector<std::string> apply_expectations(const ExpectationList& list, const std::string& device, std::vector<Record>& records);

/// {"Pass": n, ...} over every outcome, in the fixed order.
Json outcome_counts(const std::vector<Record>& records);

/// A device's derived fields from its records: counts, expected_failures,
/// unexpected_failures, unexpected_passes. A device that could not be tested at all
/// (`untestable`) counts as one unexpected failure.
void derive_device(Json& device, const std::vector<Record>& records, const std::vector<std::string>& unexpected_passes,
                   bool untestable = false);

/// Entries of `list` that name no case of the whole case lists (whatever a run selected) of
/// the plugin's devices they name: pairs of device name and every case name it has. An
/// entry none of whose devices ran is not judged.
std::vector<std::string> stale_expectations(const ExpectationList& list,
                                            const std::vector<std::pair<std::string, std::vector<std::string>>>& device_cases);

/// The summary from the devices' derived fields and the plugins' stale entries.
Json derive_summary(const Json& report);

/// The optimization matrix on the target descriptions of the report's devices (those that
/// were tested), as `tegula optimizations --json` prints it plus each column's target
/// (OptimizationMatrix.cpp).
Json derive_optimizations(const Json& report);
/// The matrix without its measured figures: what derive_optimizations must reproduce.
Json without_measurements(const Json& matrix);
/// "" when `got` is `want` but for measured figures; otherwise the first difference, in words.
std::string optimizations_difference(const Json& got, const Json& want);

/// SHA-256 of the report's canonical text without its "integrity" member.
std::string integrity_hash(const Json& report);

/// Records of one device as stored in a report.
Result<std::vector<Record>> device_records(const Json& device);

/// The HTML page for a report (self-contained, deterministic).
std::string render_html(const Json& report);

}  // namespace tegula::conformance
