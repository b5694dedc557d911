/// \file
/// report.html: one self-contained page (no scripts, no external files). A header with the
/// suite, hashes and verdict; a table of devices with their identity; then the matrix: one
/// row per primitive or instruction, one column per device, each cell its counts, opening
/// (a <details> element) onto the row's cases on that device with their outcomes, errors
/// and first mismatch; then the optimization matrix over the same devices.
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "conformance/Report.h"

namespace tegula::conformance {
namespace {

std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string str(const Json& j, const char* key) {
  const Json* v = j.find(key);
  if (!v) return "";
  if (v->is_string()) return v->as_string();
  return v->dump();
}

const char* css_class(Outcome o) {
  switch (o) {
    case Outcome::Pass: return "pass";
    case Outcome::Fail: return "fail";
    case Outcome::NotSupported: return "ns";
    case Outcome::CompileOnly: return "co";
    case Outcome::QualityWarning: return "qw";
    case Outcome::Crash: return "fail";
    case Outcome::Timeout: return "fail";
  }
  return "";
}

struct Cell {
  int64_t counts[kNumOutcomes] = {};
  int64_t expected = 0;
  std::vector<const Record*> records;
};

std::string cell_class(const Cell& c) {
  int64_t failures = c.counts[int(Outcome::Fail)] + c.counts[int(Outcome::Crash)] + c.counts[int(Outcome::Timeout)];
  if (failures > c.expected) return "fail";
  if (failures) return "xfail";
  if (c.counts[int(Outcome::QualityWarning)]) return "qw";
  if (c.counts[int(Outcome::Pass)]) return "pass";
  if (c.counts[int(Outcome::CompileOnly)]) return "co";
  return "ns";
}

std::string cell_label(const Cell& c) {
  int64_t run = 0, ok = 0;
  for (int i = 0; i < kNumOutcomes; ++i) {
    if (Outcome(i) == Outcome::NotSupported) continue;
    run += c.counts[i];
    if (is_success(Outcome(i))) ok += c.counts[i];
  }
  if (run == 0) return "n/s";
  std::string s = std::to_string(ok) + "/" + std::to_string(run);
  if (c.expected) s += " (" + std::to_string(c.expected) + " xfail)";
  return s;
}

const char* kStyle = R"css(
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
table { border-collapse: collapse; font-size: 0.85em; }
td, th { border: 1px solid #ccc; padding: 2px 6px; vertical-align: top; text-align: left; }
th { background: #f0f0f0; }
.pass { background: #d8f5d0; } .fail { background: #f8c8c8; } .xfail { background: #fbe3b8; }
.qw { background: #fff3b0; } .co { background: #cfe3fb; } .ns { background: #eeeeee; color: #777; }
summary { cursor: pointer; white-space: nowrap; }
details table { margin: 4px 0; background: white; }
code { font-size: 0.95em; }
.verdict-ok { color: #1a7f1a; font-weight: bold; } .verdict-bad { color: #b00020; font-weight: bold; }
)css";

/// The optimization matrix beside the primitives one: a row per optimization, a column per
/// device (the same order), each cell its mark opening onto the marker or the reason.
std::string optimizations_html(const Json& m) {
  std::string h =
      "<h2>Optimization matrix</h2>\n<p>What the lowering applies on each device's target description "
      "(<code>tegula optimizations</code>): yes (open for the marker that proves it), n/a (open for why), not yet "
      "(the lowering lacks it), MISSED (the target could, the lowering did not). Measured effect: " +
      esc(str(m, "measured")) + ".</p>\n<table>\n<tr><th>optimization</th>";
  std::vector<std::string> columns;
  if (const Json* c = m.find("columns"); c && c->is_array())
    for (const Json& name : c->items()) columns.push_back(name.is_string() ? name.as_string() : name.dump());
  const Json* targets = m.find("column_targets");
  for (const std::string& c : columns)
    h += "<th>" + esc(c) +
         (targets && targets->find(c) ? "<br><small>" + esc(str(*targets, c.c_str())) + "</small>" : "") + "</th>";
  h += "</tr>\n";
  const Json* rows = m.find("rows");
  if (!rows || !rows->is_array()) return h + "</table>\n";
  for (const Json& r : rows->items()) {
    h += "<tr><th title=\"" + esc(str(r, "description")) + "\">" + esc(str(r, "title")) + "<br><small><code>" +
         esc(str(r, "id")) + "</code></small></th>";
    const Json* cells = r.find("cells");
    for (const std::string& c : columns) {
      const Json* cell = cells ? cells->find(c) : nullptr;
      std::string state = cell ? str(*cell, "state") : "";
      const char* cls = state == "applies" ? "pass" : state == "missed" ? "fail" : state == "not_yet" ? "qw" : "ns";
      const char* mark = state == "applies"   ? "yes"
                         : state == "missed"  ? "MISSED"
                         : state == "not_yet" ? "not yet"
                                              : "n/a";
      if (!cell) {
        h += "<td></td>";
        continue;
      }
      h += "<td class=\"" + std::string(cls) + "\"><details><summary>" + mark + "</summary>" +
           esc(str(*cell, "reason")) + "<br><small>measured: " + esc(str(*cell, "measured")) +
           "</small></details></td>";
    }
    h += "</tr>\n";
  }
  return h + "</table>\n";
}

}  // namespace

std::string render_html(const Json& report) {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>tegula conformance report</title>\n<style>";
  h += kStyle;
  h += "</style>\n</head>\n<body>\n<h1>tegula conformance report</h1>\n";
  const Json* suite = report.find("suite");
  const Json* run = report.find("run");
  const Json* summary = report.find("summary");
  const Json* integrity = report.find("integrity");
  std::string verdict = summary ? str(*summary, "verdict") : "";
  h += "<p>Verdict: <span class=\"" + std::string(verdict == "conformant" ? "verdict-ok" : "verdict-bad") + "\">" + esc(verdict) +
       "</span></p>\n<table>\n";
  auto row = [&](const std::string& k, const std::string& v) { h += "<tr><th>" + esc(k) + "</th><td><code>" + esc(v) + "</code></td></tr>\n"; };
  if (suite) {
    row("suite", str(*suite, "version"));
    row("tegula", str(*suite, "tegula_version"));
    if (const Json* t = suite->find("tolerance_table")) row("tolerance table", "v" + str(*t, "version") + " sha256 " + str(*t, "sha256"));
  }
  if (run) {
    row("command line", str(*run, "command_line"));
    row("seed", str(*run, "seed"));
    row("profile", str(*run, "profile"));
    row("started", str(*run, "started"));
    row("finished", str(*run, "finished"));
  }
  if (const Json* host = report.find("host")) row("host", str(*host, "os") + "; " + str(*host, "cpu") + "; " + str(*host, "cores") + " cores");
  if (summary) row("summary", str(*summary, "counts") + "; unexpected failures " + str(*summary, "unexpected_failures"));
  if (integrity) row("integrity sha256", str(*integrity, "sha256"));
  h += "</table>\n";

  h += "<h2>Plugins</h2>\n<table>\n<tr><th>plugin</th><th>version</th><th>library</th><th>sha256</th><th>expected failures</th></tr>\n";
  if (const Json* plugins = report.find("plugins"); plugins && plugins->is_array()) {
    for (const Json& p : plugins->items()) {
      std::string xf;
      if (const Json* e = p.find("expectations"))
        if (const Json* list = e->find("expected_failures"); list && list->is_array()) xf = std::to_string(list->size()) + " entries";
      h += "<tr><td>" + esc(str(p, "name")) + "</td><td>" + esc(str(p, "version")) + "</td><td><code>" + esc(str(p, "library_path")) +
           "</code></td><td><code>" + esc(str(p, "library_sha256")) + "</code></td><td>" + esc(xf) + "</td></tr>\n";
    }
  }
  h += "</table>\n";

  // Devices, their records, and the rows in first-seen order.
  std::vector<std::string> device_names;
  std::vector<std::vector<Record>> device_recs;
  std::vector<std::string> rows;
  std::map<std::string, bool> seen_row;
  h += "<h2>Devices</h2>\n<table>\n<tr><th>device</th><th>kind</th><th>name</th><th>vendor</th><th>driver</th><th>toolkit</th>"
       "<th>target</th><th>out of range</th><th>case list sha256</th><th>counts</th></tr>\n";
  if (const Json* devices = report.find("devices"); devices && devices->is_array()) {
    for (const Json& d : devices->items()) {
      device_names.push_back(str(d, "name"));
      Result<std::vector<Record>> recs = device_records(d);
      device_recs.push_back(recs.is_ok() ? *recs : std::vector<Record>{});
      for (const Record& r : device_recs.back())
        if (!seen_row[r.row]) {
          seen_row[r.row] = true;
          rows.push_back(r.row);
        }
      const Json* id = d.find("identity");
      std::string target;
      if (const Json* t = d.find("target")) target = str(*t, "name") + " (" + str(*t, "sha256").substr(0, 12) + ")";
      h += "<tr><td>" + esc(str(d, "name")) + "</td><td>" + esc(str(d, "kind")) + "</td><td>" + esc(id ? str(*id, "device_name") : "") +
           "</td><td>" + esc(id ? str(*id, "vendor") : "") + "</td><td>" + esc(id ? str(*id, "driver_version") : "") + "</td><td>" +
           esc(id ? str(*id, "toolkit_version") : "") + "</td><td>" + esc(target) + "</td><td>" +
           esc(id && id->find("out_of_range") ? str(*id, "out_of_range") : "undeclared") + "</td><td><code>" +
           esc(str(d, "case_list_sha256").substr(0, 16)) + "</code></td><td>" + esc(str(d, "counts")) + "</td></tr>\n";
    }
  }
  h += "</table>\n";

  h += "<h2>Matrix</h2>\n<p>Cells: cases that held / cases run on the device (n/s: none claimed). Open a cell for its cases.</p>\n";
  h += "<table>\n<tr><th>primitive / instruction</th>";
  for (const std::string& d : device_names) h += "<th>" + esc(d) + "</th>";
  h += "</tr>\n";
  for (const std::string& r : rows) {
    h += "<tr><th>" + esc(r) + "</th>";
    for (size_t di = 0; di < device_names.size(); ++di) {
      Cell c;
      for (const Record& rec : device_recs[di]) {
        if (rec.row != r) continue;
        ++c.counts[int(rec.outcome)];
        if (!rec.expected_failure.empty()) ++c.expected;
        c.records.push_back(&rec);
      }
      if (c.records.empty()) {
        h += "<td></td>";
        continue;
      }
      h += "<td class=\"" + cell_class(c) + "\"><details><summary>" + esc(cell_label(c)) + "</summary><table>\n";
      for (const Record* rec : c.records) {
        std::string info = rec->detail;
        if (!rec->expected_failure.empty()) info = "expected failure: " + rec->expected_failure + "; " + info;
        if (rec->outcome == Outcome::Pass || rec->outcome == Outcome::QualityWarning) {
          char buf[128];
          std::snprintf(buf, sizeof buf, "max abs %.3g, rel %.3g, ulp %.3g; %.1f ms", rec->max_abs, rec->max_rel, rec->max_ulp, rec->ms);
          info = buf + (info.empty() ? "" : "; " + info);
        }
        h += "<tr class=\"" + std::string(css_class(rec->outcome)) + "\"><td><code>" + esc(rec->name) + "</code></td><td>" +
             outcome_name(rec->outcome) + (rec->check.empty() ? "" : " (" + esc(rec->check) + ")") + "</td><td>" + esc(info) +
             "</td></tr>\n";
      }
      h += "</table></details></td>";
    }
    h += "</tr>\n";
  }
  h += "</table>\n";
  // Reports made before the optimization matrix existed render as they did.
  if (const Json* o = report.find("optimizations")) h += optimizations_html(*o);
  h += "</body>\n</html>\n";
  return h;
}

}  // namespace tegula::conformance
