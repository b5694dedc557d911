/// \file
/// The parts of report.html that are not its tables (Html.cpp has those): escaping, the
/// stable ids of cases, each outcome's colour class and mark, the summary in words per
/// device, the failures-first list with each listed case's details, and the filter bar
/// with its inline script. Private to Html.cpp and HtmlParts.cpp.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "conformance/Outcome.h"
#include "conformance/Record.h"
#include "core/Json.h"

namespace tegula::conformance::html {

/// One device of the report, read once for the whole page.
struct DeviceView {
  const Json* json = nullptr;
  std::string name;
  std::vector<Record> records;
  std::set<std::string> unexpected_passes;  ///< names of cases the expectation list names that held
  std::string error;                        ///< not tested at all: why
};

/// One entry of the failures-first list: a case (device and record), a device that could
/// not be tested (record null) or a stale expectation (device null).
struct Listed {
  int rank = 0;  ///< the list's order: unexpected before expected, Crash before Timeout before Fail
  const DeviceView* device = nullptr;
  const Record* record = nullptr;
  std::string plugin, stale;  ///< a stale expectation: its plugin and its cases glob
};

/// & < > " ' as entities: safe in text and in quoted attributes.
std::string esc(const std::string& s);
/// A member as text: a string as it is, anything else as JSON; "" when absent.
std::string text(const Json& j, const char* key);

/// "<prefix>-<name>" with letters, digits, '_' and '.' kept and every other byte written as
/// '-' and two hex digits, so distinct names never share an id ("cuda:0" -> "device-cuda-3a0").
std::string element_id(const std::string& prefix, const std::string& name);
/// "case-<device>--<case>", each part as element_id writes it: unique per device and case,
/// and the same in every report.
std::string case_id(const std::string& device, const std::string& name);

/// The colour class of an outcome ("o-pass", "o-fail", "o-crash", ...): one per outcome.
const char* outcome_class(Outcome o);
/// The mark beside an outcome's name, as an HTML entity: one per outcome.
const char* outcome_mark(Outcome o);
/// The mark and the outcome's name.
std::string outcome_tag(Outcome o);
/// "expected" (an expected failure), "unexpected-pass" or "".
std::string record_flag(const DeviceView& d, const Record& r);
/// The dtypes a case's name mentions, in order, space-separated ("bf16 f32").
std::string name_dtypes(const std::string& name);
/// data-outcome, data-dtype and (where set) data-flag of a case, for the filters; a case row
/// in a matrix cell takes its device and row from the cell and the matrix row.
std::string case_row_attrs(const DeviceView& d, const Record& r);

/// The summary: one sentence of counts in words per device.
std::string summary_html(const std::vector<DeviceView>& devices);
/// Everything the failures-first list names, in its order.
std::vector<Listed> listed_cases(const Json& report, const std::vector<DeviceView>& devices);
/// The list itself, each entry linking to its case's details; a sentence when it is empty.
std::string failure_list_html(const std::vector<Listed>& listed);
/// Each listed case's details at its anchor: kernel text, seed, mismatch, log, reproduce.
std::string case_details_html(const Json& report, const std::vector<Listed>& listed);
/// Outcome, dtype, row and device selects and a text search, for the inline script.
std::string filters_html(const std::vector<DeviceView>& devices, const std::vector<std::string>& rows);
/// Every outcome's mark and colour, in words.
std::string legend_html();

extern const char* const kStyle;
extern const char* const kScript;

}  // namespace tegula::conformance::html
