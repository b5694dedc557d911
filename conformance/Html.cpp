/// \file
/// report.html: one self-contained page (an inline style and a small inline script; no
/// external file, nothing fetched). From the top: the verdict with the counts in words; the
/// summary, one sentence per device; the filter bar (outcome, dtype, row, device and a text
/// search); the failures-first list, each entry linking to its case's details; the matrix,
/// one row per primitive or instruction and one column per device, each cell its counts
/// with a mark and count for every outcome but Pass, opening (a <details> element) onto the
/// row's cases on that device; the listed cases in detail (kernel text, seed, mismatch,
/// log, the commands that reproduce them); the optimization matrix over the same devices;
/// then the run, the plugins and the devices' identities. HtmlParts.cpp has the parts
/// that are not tables.
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "conformance/HtmlParts.h"
#include "conformance/Progress.h"
#include "conformance/Report.h"
#include "conformance/perf/PerfHtml.h"

namespace tegula::conformance {
namespace {

using html::DeviceView;
using html::esc;
using html::text;

std::vector<DeviceView> device_views(const Json& report) {
  std::vector<DeviceView> out;
  const Json* devices = report.find("devices");
  if (!devices || !devices->is_array()) return out;
  for (const Json& d : devices->items()) {
    DeviceView v;
    v.json = &d;
    v.name = text(d, "name");
    if (d.find("error")) v.error = text(d, "error");
    Result<std::vector<Record>> recs = device_records(d);
    if (recs.is_ok()) v.records = std::move(*recs);
    if (const Json* p = d.find("unexpected_passes"); p && p->is_array())
      for (const Json& n : p->items()) v.unexpected_passes.insert(n.is_string() ? n.as_string() : n.dump());
    out.push_back(std::move(v));
  }
  return out;
}

/// The matrix rows in first-seen order.
std::vector<std::string> rows_of(const std::vector<DeviceView>& devices) {
  std::vector<std::string> rows;
  std::set<std::string> seen;
  for (const DeviceView& d : devices)
    for (const Record& r : d.records)
      if (seen.insert(r.row).second) rows.push_back(r.row);
  return rows;
}

struct Cell {
  int64_t counts[kNumOutcomes] = {};
  int64_t unexpected[kNumOutcomes] = {};  ///< failures the expectation list does not name
  int64_t expected = 0, unexpected_passes = 0;
  std::vector<const Record*> records;
};

std::string cell_class(const Cell& c) {
  for (Outcome o : {Outcome::Crash, Outcome::Timeout, Outcome::Fail})
    if (c.unexpected[int(o)]) return html::outcome_class(o);
  if (c.expected) return "xfail";
  if (c.unexpected_passes) return "unexpected-pass";
  for (Outcome o : {Outcome::Pass, Outcome::QualityWarning, Outcome::CompileOnly})
    if (c.counts[int(o)]) return html::outcome_class(o);
  return html::outcome_class(Outcome::NotSupported);
}

/// "held/run" (or n/s), then a mark and count for every outcome but Pass the cell holds.
std::string cell_summary(const Cell& c) {
  int64_t run = 0, ok = 0;
  for (int i = 0; i < kNumOutcomes; ++i) {
    if (Outcome(i) == Outcome::NotSupported) continue;
    run += c.counts[i];
    if (is_success(Outcome(i))) ok += c.counts[i];
  }
  std::string s = run == 0 ? "n/s" : std::to_string(ok) + "/" + std::to_string(run);
  auto badge = [&](const std::string& cls, const std::string& mark, int64_t n, const std::string& what) {
    s += "<span class=\"b " + cls + "\" title=\"" + std::to_string(n) + " " + what + "\">" + mark + " " +
         std::to_string(n) + "</span>";
  };
  for (Outcome o : {Outcome::Crash, Outcome::Timeout, Outcome::Fail, Outcome::QualityWarning, Outcome::NotSupported,
                    Outcome::CompileOnly})
    if (c.counts[int(o)]) badge(html::outcome_class(o), html::outcome_mark(o), c.counts[int(o)], outcome_name(o));
  if (c.expected) badge("xfail", "xfail", c.expected, c.expected == 1 ? "expected failure" : "expected failures");
  if (c.unexpected_passes)
    badge("unexpected-pass", "xpass", c.unexpected_passes,
          c.unexpected_passes == 1 ? "unexpected pass" : "unexpected passes");
  return s;
}

std::string case_row(const DeviceView& d, const Record& rec, bool listed) {
  std::string flag = html::record_flag(d, rec);
  std::string info = rec.detail;
  if (flag == "expected") info = "expected failure: " + rec.expected_failure + "; " + info;
  if (rec.outcome == Outcome::Pass || rec.outcome == Outcome::QualityWarning) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "max abs %.3g, rel %.3g, ulp %.3g; %.1f ms", rec.max_abs, rec.max_rel, rec.max_ulp,
                  rec.ms);
    info = buf + (info.empty() ? "" : "; " + info);
  }
  std::string cls = std::string(html::outcome_class(rec.outcome)) + (flag.empty() ? "" : " " + flag);
  return "<tr class=\"case " + cls + "\"" + html::case_row_attrs(d, rec) + "><td><code>" + esc(rec.name) + "</code>" +
         (listed ? " <a href=\"#" + html::case_id(d.name, rec.name) + "\">details</a>" : "") + "</td><td>" +
         html::outcome_tag(rec.outcome) + (rec.check.empty() ? "" : " (" + esc(rec.check) + ")") +
         (flag == "unexpected-pass" ? " (unexpected pass)" : "") + "</td><td>" + esc(info) + "</td></tr>\n";
}

std::string matrix_html(const std::vector<DeviceView>& devices, const std::vector<std::string>& rows,
                        const std::set<const Record*>& listed) {
  std::string h =
      "<h2>Matrix</h2>\n<p>Cells: cases that held / cases run on the device (n/s: none claimed), then a mark and "
      "the count of each outcome but Pass. Open a cell for its cases; a listed case links to its details.</p>\n" +
      html::legend_html() + "<table id=\"matrix\">\n<tr><th>primitive / instruction</th>";
  for (const DeviceView& d : devices) h += "<th data-device=\"" + esc(d.name) + "\">" + esc(d.name) + "</th>";
  h += "</tr>\n";
  for (const std::string& r : rows) {
    h += "<tr data-row=\"" + esc(r) + "\"><th>" + esc(r) + "</th>";
    for (const DeviceView& d : devices) {
      Cell c;
      for (const Record& rec : d.records) {
        if (rec.row != r) continue;
        ++c.counts[int(rec.outcome)];
        std::string flag = html::record_flag(d, rec);
        if (flag == "expected")
          ++c.expected;
        else if (flag == "unexpected-pass")
          ++c.unexpected_passes;
        else if (is_failure(rec.outcome))
          ++c.unexpected[int(rec.outcome)];
        c.records.push_back(&rec);
      }
      if (c.records.empty()) {
        h += "<td data-device=\"" + esc(d.name) + "\"></td>";
        continue;
      }
      h += "<td class=\"cell " + cell_class(c) + "\" data-device=\"" + esc(d.name) + "\"><details><summary>" +
           cell_summary(c) + "</summary><table>\n";
      for (const Record* rec : c.records) h += case_row(d, *rec, listed.count(rec) > 0);
      h += "</table></details></td>";
    }
    h += "</tr>\n";
  }
  return h + "</table>\n";
}

/// The optimization matrix beside the primitives one: a row per optimization, a column per
/// device (the same order), each cell its mark opening onto the marker or the reason.
std::string optimizations_html(const Json& m) {
  std::string h =
      "<h2>Optimization matrix</h2>\n<p>What the lowering applies on each device's target description "
      "(<code>tegula optimizations</code>): yes (open for the marker that proves it), n/a (open for why), not yet "
      "(the lowering lacks it), MISSED (the target could, the lowering did not). Measured effect: " +
      esc(text(m, "measured")) + ".</p>\n<table>\n<tr><th>optimization</th>";
  std::vector<std::string> columns;
  if (const Json* c = m.find("columns"); c && c->is_array())
    for (const Json& name : c->items()) columns.push_back(name.is_string() ? name.as_string() : name.dump());
  const Json* targets = m.find("column_targets");
  for (const std::string& c : columns)
    h += "<th>" + esc(c) +
         (targets && targets->find(c) ? "<br><small>" + esc(text(*targets, c.c_str())) + "</small>" : "") + "</th>";
  h += "</tr>\n";
  const Json* rows = m.find("rows");
  if (!rows || !rows->is_array()) return h + "</table>\n";
  for (const Json& r : rows->items()) {
    h += "<tr><th title=\"" + esc(text(r, "description")) + "\">" + esc(text(r, "title")) + "<br><small><code>" +
         esc(text(r, "id")) + "</code></small></th>";
    const Json* cells = r.find("cells");
    for (const std::string& c : columns) {
      const Json* cell = cells ? cells->find(c) : nullptr;
      std::string state = cell ? text(*cell, "state") : "";
      const char* cls = state == "applies"   ? "o-pass"
                        : state == "missed"  ? "o-fail"
                        : state == "not_yet" ? "o-qw"
                                             : "o-ns";
      const char* mark = state == "applies"   ? "yes"
                         : state == "missed"  ? "MISSED"
                         : state == "not_yet" ? "not yet"
                                              : "n/a";
      if (!cell) {
        h += "<td></td>";
        continue;
      }
      h += "<td class=\"" + std::string(cls) + "\"><details><summary>" + mark + "</summary>" +
           esc(text(*cell, "reason")) + "<br><small>measured: " + esc(text(*cell, "measured")) +
           "</small></details></td>";
    }
    h += "</tr>\n";
  }
  return h + "</table>\n";
}

/// The run's facts: suite, hashes, command line, seed, times, host, integrity.
std::string run_html(const Json& report) {
  std::string h = "<h2>Run</h2>\n<table>\n";
  auto row = [&](const std::string& k, const std::string& v) { h += "<tr><th>" + esc(k) + "</th><td><code>" + esc(v) + "</code></td></tr>\n"; };
  if (const Json* suite = report.find("suite")) {
    row("suite", text(*suite, "version"));
    row("tegula", text(*suite, "tegula_version"));
    if (const Json* t = suite->find("tolerance_table"))
      row("tolerance table", "v" + text(*t, "version") + " sha256 " + text(*t, "sha256"));
  }
  if (const Json* run = report.find("run")) {
    std::string command;
    if (const Json* c = run->find("command_line"); c && c->is_array())
      for (const Json& a : c->items())
        command += (command.empty() ? "" : " ") + (a.is_string() ? a.as_string() : a.dump());
    row("command line", command);
    row("seed", text(*run, "seed"));
    row("profile", text(*run, "profile"));
    if (!text(*run, "filter").empty()) row("filter", text(*run, "filter"));
    row("started", text(*run, "started"));
    row("finished", text(*run, "finished"));
  }
  if (const Json* host = report.find("host"))
    row("host", text(*host, "os") + "; " + text(*host, "cpu") + "; " + text(*host, "cores") + " cores");
  if (const Json* integrity = report.find("integrity")) row("integrity sha256", text(*integrity, "sha256"));
  return h + "</table>\n";
}

std::string plugins_html(const Json& report) {
  std::string h =
      "<h2>Plugins</h2>\n<table>\n<tr><th>plugin</th><th>version</th><th>library</th><th>sha256</th>"
      "<th>expected failures</th><th>stale expectations</th></tr>\n";
  if (const Json* plugins = report.find("plugins"); plugins && plugins->is_array()) {
    for (const Json& p : plugins->items()) {
      std::string xf, stale;
      if (const Json* e = p.find("expectations"))
        if (const Json* list = e->find("expected_failures"); list && list->is_array()) xf = std::to_string(list->size()) + " entries";
      if (const Json* s = p.find("stale_expectations"); s && s->is_array())
        for (const Json& g : s->items())
          stale += (stale.empty() ? "" : ", ") + (g.is_string() ? g.as_string() : g.dump());
      h += "<tr id=\"" + html::element_id("plugin", text(p, "name")) + "\"><td>" + esc(text(p, "name")) + "</td><td>" +
           esc(text(p, "version")) + "</td><td><code>" + esc(text(p, "library_path")) + "</code></td><td><code>" +
           esc(text(p, "library_sha256")) + "</code></td><td>" + esc(xf) + "</td><td>" + esc(stale) + "</td></tr>\n";
    }
  }
  return h + "</table>\n";
}

std::string devices_html(const std::vector<DeviceView>& devices) {
  std::string h =
      "<h2>Devices</h2>\n<table>\n<tr><th>device</th><th>kind</th><th>name</th><th>vendor</th><th>driver</th>"
      "<th>toolkit</th><th>target</th><th>out of range</th><th>case list sha256</th></tr>\n";
  for (const DeviceView& v : devices) {
    const Json& d = *v.json;
    const Json* id = d.find("identity");
    std::string target;
    if (const Json* t = d.find("target")) target = text(*t, "name") + " (" + text(*t, "sha256").substr(0, 12) + ")";
    h += "<tr><td>" + esc(v.name) + "</td><td>" + esc(text(d, "kind")) + "</td><td>" +
         esc(id ? text(*id, "device_name") : "") + "</td><td>" + esc(id ? text(*id, "vendor") : "") + "</td><td>" +
         esc(id ? text(*id, "driver_version") : "") + "</td><td>" + esc(id ? text(*id, "toolkit_version") : "") +
         "</td><td>" + esc(target) + "</td><td>" +
         esc(id && id->find("out_of_range") ? text(*id, "out_of_range") : "undeclared") + "</td><td><code>" +
         esc(text(d, "case_list_sha256").substr(0, 16)) + "</code></td></tr>\n";
  }
  return h + "</table>\n";
}

}  // namespace

std::string render_html(const Json& report) {
  std::vector<DeviceView> devices = device_views(report);
  std::vector<std::string> rows = rows_of(devices);
  std::vector<html::Listed> listed = html::listed_cases(report, devices);
  std::set<const Record*> listed_records;
  for (const html::Listed& l : listed)
    if (l.record) listed_records.insert(l.record);

  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>tegula conformance "
      "report</title>\n<style>";
  h += html::kStyle;
  h += "</style>\n</head>\n<body>\n<h1>tegula conformance report</h1>\n";
  const Json* summary = report.find("summary");
  std::string verdict = summary ? text(*summary, "verdict") : "";
  std::string words;
  if (summary) {
    Json none = Json::object();
    auto number = [&](const char* key) {
      const Json* v = summary->find(key);
      return v && v->is_number() ? v->as_int() : 0;
    };
    const Json* counts = summary->find("counts");
    words = "; " + counts_in_words(counts ? *counts : none, number("expected_failures"), number("unexpected_passes"),
                                   number("stale_expectations"));
  }
  h += "<p>Verdict: <span class=\"" + std::string(verdict == "conformant" ? "verdict-ok" : "verdict-bad") + "\">" +
       esc(verdict) + "</span>" + esc(words) + "</p>\n";
  h += html::summary_html(devices);
  h += html::filters_html(devices, rows);
  h += html::failure_list_html(listed);
  h += matrix_html(devices, rows, listed_records);
  h += html::case_details_html(report, listed);
  // Reports made before the optimization matrix existed have none.
  if (const Json* o = report.find("optimizations")) h += optimizations_html(*o);
  h += performance_html(report);
  h += run_html(report) + plugins_html(report) + devices_html(devices);
  h += "<script>" + std::string(html::kScript) + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace tegula::conformance
