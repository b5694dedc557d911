#include "conformance/HtmlParts.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "conformance/Progress.h"
#include "conformance/Runner.h"
#include "conformance/Suite.h"
#include "core/DType.h"
#include "core/Sha256.h"
#include "targets/Target.h"

namespace tegula::conformance::html {
namespace {

/// Listed cases beyond this many show the command that prints their kernel instead of its
/// text: a backend that fails every case would otherwise make a page of every kernel.
constexpr size_t kMaxKernelTexts = 300;

/// At most `limit` bytes of `s`, cut before a UTF-8 continuation byte, with an ellipsis.
std::string shortened(const std::string& s, size_t limit) {
  if (s.size() <= limit) return s;
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "...";
}

/// A word for the shell: single-quoted, a quote inside written '\''.
std::string shell_word(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

int64_t member_int(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v && v->is_number() ? v->as_int() : 0;
}

/// 0 untested device, 1-3 unexpected Crash, Timeout, Fail, 4 unexpected pass, 6 expected
/// failure (5 is a stale expectation); -1 for a record the list does not name.
int rank_of(const DeviceView& d, const Record& r) {
  std::string flag = record_flag(d, r);
  if (flag == "unexpected-pass") return 4;
  if (!is_failure(r.outcome)) return -1;
  if (flag == "expected") return 6;
  return r.outcome == Outcome::Crash ? 1 : r.outcome == Outcome::Timeout ? 2 : 3;
}

/// The kernels of the named cases of a device, from the case list its target description
/// gives: the report holds each kernel's hash, not its text.
std::map<std::string, std::string> kernels_of(const DeviceView& d, const std::set<std::string>& names) {
  std::map<std::string, std::string> out;
  const Json* t = d.json ? d.json->find("target") : nullptr;
  if (!t || names.empty()) return out;
  Result<TargetDescription> target = parse_target(text(*t, "json"), d.name + " target");
  if (!target.is_ok()) return out;
  bool offline = text(*d.json, "kind") == "offline";
  for (CaseSpec& c : offline ? build_offline_suite(*target) : build_suite(*target))
    if (names.count(c.name)) out[c.name] = std::move(c.kernel);
  return out;
}

/// The data-* attributes the filters read, for an element that stands alone (not in a cell).
std::string item_attrs(const DeviceView& d, const Record& r) {
  return case_row_attrs(d, r) + " data-device=\"" + esc(d.name) + "\" data-row=\"" + esc(r.row) + "\"";
}

std::string mismatch_words(const Record& r) {
  if (r.outcome == Outcome::Crash || r.outcome == Outcome::Timeout) return "none recorded: the case did not finish";
  char buf[128];
  std::snprintf(buf, sizeof buf, "max error abs %.3g, rel %.3g, ulp %.3g", r.max_abs, r.max_rel, r.max_ulp);
  if (r.outcome == Outcome::CompileOnly) return "none: compiled offline, nothing ran";
  if (is_success(r.outcome)) return std::string("none: every element matched the reference within the table; ") + buf;
  std::string s;
  if (r.mismatches > 0)
    s = std::to_string(r.mismatches) + " of " + std::to_string(r.elements) + " elements differ from the reference";
  if (r.first_mismatch) {
    std::string at;
    for (int64_t i : r.first_mismatch->index) at += (at.empty() ? "" : ", ") + std::to_string(i);
    s += std::string(s.empty() ? "" : "; ") + "the first at " + r.first_mismatch->tensor + "[" + at + "]: expected " +
         r.first_mismatch->expected + ", got " + r.first_mismatch->actual;
  }
  if (s.empty()) return "no element compared differs (the check that failed is not a comparison of values)";
  return s + "; " + buf;
}

/// The run's --seed, which every case's inputs derive from (a Crash or Timeout record, made
/// by the parent when its worker died, carries none of its own).
std::string run_seed(const Json& report) {
  const Json* run = report.find("run");
  return run ? text(*run, "seed") : "";
}

/// The lines that run the case again and print its kernel.
std::string reproduce_text(const Json& report, const DeviceView& d, const Record& r) {
  std::string extra;
  if (const Json* run = report.find("run"))
    if (const Json* t = run->find("timeout_s"); t && t->is_number() && t->as_double() != 60) {
      char buf[48];
      std::snprintf(buf, sizeof buf, " --timeout %g", t->as_double());
      extra = buf;
    }
  return "tegula conformance --device " + shell_word(d.name) + " --filter " + shell_word(r.name) + " --seed " +
         run_seed(report) + extra + "\ntegula conformance show " + shell_word(r.name) + " --device " +
         shell_word(d.name);
}

std::string case_article(const Json& report, const DeviceView& d, const Record& r, const std::string* kernel,
                         bool capped) {
  std::string flag = record_flag(d, r);
  std::string h = "<article class=\"case-detail " + std::string(outcome_class(r.outcome)) +
                  (flag.empty() ? "" : " " + flag) + "\" id=\"" + case_id(d.name, r.name) + "\"" + item_attrs(d, r) +
                  ">\n<h3>" + outcome_tag(r.outcome) + (flag == "expected" ? " (expected)" : "") +
                  (flag == "unexpected-pass" ? " (unexpected pass)" : "") + " <code>" + esc(r.name) +
                  "</code> on <code>" + esc(d.name) + "</code></h3>\n<dl>\n";
  auto item = [&](const char* term, const std::string& html) {
    h += "<dt>" + std::string(term) + "</dt><dd>" + html + "</dd>\n";
  };
  item("row", esc(r.row));
  if (!r.check.empty() || !r.detail.empty())
    item("result", (r.check.empty() ? "" : "check <code>" + esc(r.check) + "</code>: ") + esc(r.detail));
  if (flag == "expected") item("expected failure", esc(r.expected_failure));
  if (flag == "unexpected-pass")
    item("expectation",
         "the plugin's expectation list names this case as an expected failure, and it held: the entry "
         "is out of date (under <code>--strict</code> an unexpected pass fails the run)");
  item("mismatch", esc(mismatch_words(r)));
  std::string shape;
  for (const auto& [symbol, value] : r.shape)
    shape += (shape.empty() ? "; shape " : " ") + symbol + "=" + std::to_string(value);
  std::string seed = run_seed(report);
  if (r.seed != 0 && std::to_string(r.seed) != seed) seed += "; the record's own seed is " + std::to_string(r.seed);
  item("inputs", "seed " + esc(seed) +
                     " (the run's <code>--seed</code>: every input derives from it and the case name)" + esc(shape));
  size_t tail = r.detail.find("its last output: ");
  std::string log = "the device's worker logs are <code>logs/" + esc(safe_name(d.name)) +
                    ".w*.log</code> in this bundle (<a href=\"logs/\">logs/</a>)";
  if (tail != std::string::npos)
    log = "the worker's last output (lines joined by |):<pre>" + esc(r.detail.substr(tail + 17)) + "</pre>" + log;
  item("log", log);
  item("reproduce", "<pre class=\"cmd\">" + esc(reproduce_text(report, d, r)) + "</pre>");
  std::string k = "sha256 <code>" + esc(r.kernel_sha256) + "</code>";
  if (kernel && sha256_hex(*kernel) == r.kernel_sha256)
    k += "<pre class=\"kernel\">" + esc(*kernel) + "</pre>";
  else if (capped)
    k += "; <code>tegula conformance show</code> above prints it (the page holds the first " +
         std::to_string(kMaxKernelTexts) + " listed kernels)";
  else
    k += "; this build's case list for the device's target description has no kernel of that hash";
  item("kernel", k);
  return h + "</dl>\n</article>\n";
}

const char* outcome_meaning(Outcome o) {
  switch (o) {
    case Outcome::Pass: return "matched the reference, twice, touching nothing else";
    case Outcome::Fail: return "wrong values, a guard or input overwritten, a compile or launch error";
    case Outcome::NotSupported: return "the target description does not claim what the case needs";
    case Outcome::CompileOnly: return "compiled offline and the forced instruction is in the code";
    case Outcome::QualityWarning: return "within tolerance, above the quality bound";
    case Outcome::Crash: return "the worker running the case died";
    case Outcome::Timeout: return "ran past the timeout; the worker was killed";
  }
  return "";
}

}  // namespace

std::string esc(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string text(const Json& j, const char* key) {
  const Json* v = j.find(key);
  if (!v) return "";
  if (v->is_string()) return v->as_string();
  return v->dump();
}

std::string element_id(const std::string& prefix, const std::string& name) {
  static const char* digits = "0123456789abcdef";
  std::string out = prefix + "-";
  for (char c : name) {
    auto b = static_cast<unsigned char>(c);
    if ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_' || b == '.')
      out += c;
    else
      out += {'-', digits[b >> 4], digits[b & 15]};
  }
  return out;
}

std::string case_id(const std::string& device, const std::string& name) {
  // An escape is '-' and two hex digits, so "--" never occurs inside either part.
  return element_id("case", device) + "-" + element_id("", name);
}

const char* outcome_class(Outcome o) {
  switch (o) {
    case Outcome::Pass: return "o-pass";
    case Outcome::Fail: return "o-fail";
    case Outcome::NotSupported: return "o-ns";
    case Outcome::CompileOnly: return "o-co";
    case Outcome::QualityWarning: return "o-qw";
    case Outcome::Crash: return "o-crash";
    case Outcome::Timeout: return "o-timeout";
  }
  return "";
}

const char* outcome_mark(Outcome o) {
  switch (o) {
    case Outcome::Pass: return "&#x2713;";            // check mark
    case Outcome::Fail: return "&#x2717;";            // ballot x
    case Outcome::NotSupported: return "&#x2205;";    // empty set
    case Outcome::CompileOnly: return "&#x2699;";     // gear
    case Outcome::QualityWarning: return "&#x2248;";  // almost equal
    case Outcome::Crash: return "&#x2620;";           // skull and crossbones
    case Outcome::Timeout: return "&#x23F1;";         // stopwatch
  }
  return "";
}

std::string outcome_tag(Outcome o) {
  return "<span class=\"mark\">" + std::string(outcome_mark(o)) + "</span> " + outcome_name(o);
}

std::string record_flag(const DeviceView& d, const Record& r) {
  if (!r.expected_failure.empty()) return "expected";
  if (is_success(r.outcome) && d.unexpected_passes.count(r.name)) return "unexpected-pass";
  return "";
}

std::string name_dtypes(const std::string& name) {
  std::string out, token;
  std::set<std::string> seen;
  for (size_t i = 0; i <= name.size(); ++i) {
    if (i < name.size() && name[i] != '.' && name[i] != '_') {
      token += name[i];
      continue;
    }
    if (parse_dtype(token) && seen.insert(token).second) out += (out.empty() ? "" : " ") + token;
    token.clear();
  }
  return out;
}

std::string case_row_attrs(const DeviceView& d, const Record& r) {
  std::string flag = record_flag(d, r);
  return " data-outcome=\"" + std::string(outcome_name(r.outcome)) + "\" data-dtype=\"" + esc(name_dtypes(r.name)) +
         "\"" + (flag.empty() ? "" : " data-flag=\"" + flag + "\"");
}

std::string summary_html(const std::vector<DeviceView>& devices) {
  std::string h = "<h2>Summary</h2>\n<ul class=\"summary\">\n";
  for (const DeviceView& d : devices) {
    std::string id = element_id("device", d.name);
    if (!d.error.empty()) {
      h += "<li id=\"" + id + "\" class=\"o-fail\">" + esc(d.name + ": not tested: " + d.error) + "</li>\n";
      continue;
    }
    const Json* identity = d.json->find("identity");
    const Json* target = d.json->find("target");
    std::string what = identity ? text(*identity, "device_name") : "";
    if (text(*d.json, "kind") == "offline") what += std::string(what.empty() ? "" : ", ") + "compiled offline";
    if (target && !text(*target, "name").empty()) what += (what.empty() ? "" : ", ") + text(*target, "name");
    Json none = Json::object();
    const Json* counts = d.json->find("counts");
    std::string words = counts_in_words(counts ? *counts : none, member_int(*d.json, "expected_failures"),
                                        int64_t(d.unexpected_passes.size()));
    int64_t unexpected = member_int(*d.json, "unexpected_failures"),
            expected = member_int(*d.json, "expected_failures");
    const char* cls = unexpected ? "o-fail" : expected ? "xfail" : "o-pass";
    h += "<li id=\"" + id + "\" class=\"" + cls + "\">" +
         esc(d.name + (what.empty() ? "" : " (" + what + ")") + ": " + words) + "</li>\n";
  }
  return h + "</ul>\n";
}

std::vector<Listed> listed_cases(const Json& report, const std::vector<DeviceView>& devices) {
  std::vector<Listed> out;
  for (const DeviceView& d : devices) {
    if (!d.error.empty()) out.push_back({0, &d, nullptr, "", ""});
    for (const Record& r : d.records)
      if (int rank = rank_of(d, r); rank >= 0) out.push_back({rank, &d, &r, "", ""});
  }
  if (const Json* plugins = report.find("plugins"); plugins && plugins->is_array())
    for (const Json& p : plugins->items())
      if (const Json* s = p.find("stale_expectations"); s && s->is_array())
        for (const Json& glob : s->items())
          out.push_back({5, nullptr, nullptr, text(p, "name"), glob.is_string() ? glob.as_string() : glob.dump()});
  // In rank order, keeping the order within a rank. Not std::stable_sort: libstdc++ 12's uses
  // get_temporary_buffer, which clang 19 refuses as deprecated under -Werror (the CI's clang
  // build). The ranks are a handful of small numbers.
  int top = 0;
  for (const Listed& l : out) top = std::max(top, l.rank);
  std::vector<Listed> sorted;
  sorted.reserve(out.size());
  for (int rank = 0; rank <= top; ++rank)
    for (Listed& l : out)
      if (l.rank == rank) sorted.push_back(std::move(l));
  return sorted;
}

std::string failure_list_html(const std::vector<Listed>& listed) {
  std::string h = "<h2 id=\"failures\">Failures first</h2>\n";
  if (listed.empty())
    return h +
           "<p class=\"no-failures\">No failures: no case failed, crashed or timed out, every device was tested, and "
           "no expectation passed unexpectedly or is stale.</p>\n";
  int64_t n[7] = {};
  for (const Listed& l : listed) ++n[l.rank];
  auto count = [](int64_t k, const char* one, const char* many) {
    return std::to_string(k) + " " + (k == 1 ? one : many);
  };
  h += "<p>" + count(n[0] + n[1] + n[2] + n[3], "unexpected failure", "unexpected failures") + ", " +
       count(n[4], "unexpected pass", "unexpected passes") + ", " +
       count(n[5], "stale expectation", "stale expectations") + ", " +
       count(n[6], "expected failure", "expected failures") +
       ", in that order (crashes, then timeouts, then failures). Each entry links to its details.</p>\n"
       "<ol id=\"failure-list\">\n";
  for (const Listed& l : listed) {
    if (!l.device) {
      h += "<li class=\"failure-entry stale\" data-outcome=\"\" data-flag=\"stale\"><a href=\"#" +
           element_id("plugin", l.plugin) + "\">stale expectation</a> of plugin <code>" + esc(l.plugin) +
           "</code>: <code>" + esc(l.stale) + "</code> names no case of its devices</li>\n";
      continue;
    }
    if (!l.record) {
      h += "<li class=\"failure-entry o-fail\" data-outcome=\"Fail\" data-flag=\"untested\" data-device=\"" +
           esc(l.device->name) + "\"><a href=\"#" + element_id("device", l.device->name) + "\">" +
           outcome_tag(Outcome::Fail) + ": not tested</a> <code>" + esc(l.device->name) +
           "</code>: " + esc(shortened(l.device->error, 240)) + "</li>\n";
      continue;
    }
    const Record& r = *l.record;
    std::string flag = record_flag(*l.device, r);
    h += "<li class=\"failure-entry " + std::string(outcome_class(r.outcome)) + (flag.empty() ? "" : " " + flag) +
         "\"" + item_attrs(*l.device, r) + "><a href=\"#" + case_id(l.device->name, r.name) + "\">" +
         outcome_tag(r.outcome) +
         (flag == "expected"          ? " (expected)"
          : flag == "unexpected-pass" ? " (unexpected pass)"
                                      : "") +
         "</a> <code>" + esc(r.name) + "</code> on <code>" + esc(l.device->name) + "</code>" +
         (r.check.empty() ? "" : " (" + esc(r.check) + ")") +
         (r.detail.empty() ? "" : ": " + esc(shortened(r.detail, 240))) + "</li>\n";
  }
  return h + "</ol>\n";
}

std::string case_details_html(const Json& report, const std::vector<Listed>& listed) {
  std::map<const DeviceView*, std::set<std::string>> wanted;
  size_t with_kernel = 0;
  for (const Listed& l : listed)
    if (l.record && with_kernel < kMaxKernelTexts && wanted[l.device].insert(l.record->name).second) ++with_kernel;
  std::map<const DeviceView*, std::map<std::string, std::string>> kernels;
  for (const auto& [device, names] : wanted) kernels[device] = kernels_of(*device, names);
  std::string h;
  for (const Listed& l : listed) {
    if (!l.record) continue;
    const std::map<std::string, std::string>& mine = kernels[l.device];
    auto k = mine.find(l.record->name);
    bool capped = !wanted[l.device].count(l.record->name);
    h += case_article(report, *l.device, *l.record, k == mine.end() ? nullptr : &k->second, capped);
  }
  if (h.empty()) return "";
  return "<h2 id=\"details\">Listed cases in detail</h2>\n" + h;
}

std::string filters_html(const std::vector<DeviceView>& devices, const std::vector<std::string>& rows) {
  std::set<std::string> dtypes;
  for (const DeviceView& d : devices)
    for (const Record& r : d.records) {
      std::string names = name_dtypes(r.name);
      for (size_t at = 0; at < names.size();) {
        size_t end = std::min(names.find(' ', at), names.size());
        dtypes.insert(names.substr(at, end - at));
        at = end + 1;
      }
    }
  auto option = [](const std::string& value, const std::string& label) {
    return "<option value=\"" + esc(value) + "\">" + label + "</option>";
  };
  std::string h = "<div id=\"filters\" class=\"filters\">\n<label>outcome <select id=\"f-outcome\">" +
                  option("", "any") + option("failures", "Fail, Crash or Timeout") +
                  option("expected", "expected failures") + option("unexpected-pass", "unexpected passes");
  for (int i = 0; i < kNumOutcomes; ++i)
    h += option(outcome_name(Outcome(i)), std::string(outcome_mark(Outcome(i))) + " " + outcome_name(Outcome(i)));
  h += "</select></label>\n<label>dtype <select id=\"f-dtype\">" + option("", "any");
  for (int i = 0; i < kNumDTypes; ++i)
    if (dtypes.count(dtype_name(DType(i)))) h += option(dtype_name(DType(i)), dtype_name(DType(i)));
  h += "</select></label>\n<label>primitive <select id=\"f-row\">" + option("", "any");
  for (const std::string& r : rows) h += option(r, esc(r));
  h += "</select></label>\n<label>device <select id=\"f-device\">" + option("", "any");
  for (const DeviceView& d : devices) h += option(d.name, esc(d.name));
  h += "</select></label>\n<label>search <input id=\"f-text\" type=\"search\" placeholder=\"case, check or "
       "detail\"></label>\n"
       "<button type=\"button\" id=\"f-clear\">clear</button> <span id=\"f-count\"></span>\n"
       "<noscript>The filters need JavaScript; the rest of the page does not.</noscript>\n"
       "<div class=\"legend\">A link can set them: report.html?outcome=failures&amp;device=NAME&amp;row=ROW&amp;"
       "dtype=D&amp;text=WORDS</div>\n</div>\n";
  return h;
}

std::string legend_html() {
  std::string h = "<ul class=\"legend\">\n";
  for (int i = 0; i < kNumOutcomes; ++i)
    h += "<li><span class=\"" + std::string(outcome_class(Outcome(i))) + "\">" + outcome_tag(Outcome(i)) + "</span> " +
         outcome_meaning(Outcome(i)) + "</li>\n";
  return h +
         "<li><span class=\"xfail\">expected</span> a failure the plugin's expectation list names (with its "
         "reason)</li>\n"
         "<li><span class=\"unexpected-pass\">unexpected pass</span> a case the list names that held</li>\n</ul>\n";
}

const char* const kStyle = R"css(
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; } h3 { font-size: 1em; margin: 0 0 .4em; }
table { border-collapse: collapse; font-size: 0.85em; }
td, th { border: 1px solid #ccc; padding: 2px 6px; vertical-align: top; text-align: left; }
th { background: #f0f0f0; }
[hidden] { display: none !important; }
.o-pass { background: #d8f5d0; } .o-fail { background: #f8c8c8; } .o-crash { background: #e4c8f4; color: #4a0072; }
.o-timeout { background: #ffd9a8; } .o-qw { background: #fff3b0; } .o-co { background: #cfe3fb; }
.o-ns { background: #eeeeee; color: #666; } .xfail { background: #efe6cc; } .unexpected-pass { background: #c6eeee; }
.stale { background: #e8e8f8; }
.mark { font-weight: bold; }
.b { display: inline-block; margin-left: 4px; padding: 0 3px; border-radius: 3px; font-size: 0.9em; border: 1px solid #999; }
summary { cursor: pointer; white-space: nowrap; }
details table { margin: 4px 0; background: white; }
code { font-size: 0.95em; }
pre { background: #f6f6f6; border: 1px solid #ddd; padding: 4px 6px; overflow-x: auto; white-space: pre-wrap; margin: 2px 0; }
.verdict-ok { color: #1a7f1a; font-weight: bold; } .verdict-bad { color: #b00020; font-weight: bold; }
.summary li, #failure-list li, .legend li { margin: 2px 0; padding: 1px 4px; }
.legend { list-style: none; padding: 0; font-size: 0.85em; }
.filters { position: sticky; top: 0; background: #fafafa; border: 1px solid #ccc; padding: 4px 8px; z-index: 1; }
.filters label { margin-right: 10px; white-space: nowrap; }
.case-detail { border: 1px solid #ccc; border-left: 6px solid #999; padding: 4px 8px; margin: 8px 0; }
.case-detail dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0; background: white; padding: 4px; }
.case-detail dt { font-weight: bold; } .case-detail dd { margin: 0; min-width: 0; }
)css";

const char* const kScript = R"js(
(function () {
  var bar = document.getElementById('filters');
  if (!bar) return;
  function all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function attr(el, name) { var at = el.closest('[' + name + ']'); return at ? at.getAttribute(name) : ''; }
  function value(id) { return document.getElementById(id).value; }
  var items = all('[data-outcome]'), cases = all('#matrix tr.case'), failing = ['Fail', 'Crash', 'Timeout'];
  var flags = ['expected', 'unexpected-pass'];
  function apply() {
    var o = value('f-outcome'), t = value('f-dtype'), r = value('f-row'), d = value('f-device');
    var s = value('f-text').trim().toLowerCase(), active = !!(o || t || r || s);
    function keep(el) {
      var out = el.getAttribute('data-outcome');
      if (o === 'failures' && failing.indexOf(out) < 0) return false;
      if (flags.indexOf(o) >= 0 && el.getAttribute('data-flag') !== o) return false;
      if (o && o !== 'failures' && flags.indexOf(o) < 0 && out !== o) return false;
      if (t && (' ' + el.getAttribute('data-dtype') + ' ').indexOf(' ' + t + ' ') < 0) return false;
      if (r && attr(el, 'data-row') !== r) return false;
      if (d && attr(el, 'data-device') !== d) return false;
      return !s || el.textContent.toLowerCase().indexOf(s) >= 0;
    }
    items.forEach(function (el) { el.hidden = !keep(el); });
    all('#matrix [data-device]').forEach(function (el) { el.hidden = !!d && el.getAttribute('data-device') !== d; });
    all('#matrix tr[data-row]').forEach(function (row) {
      row.hidden = (active || !!d) && !row.querySelector('tr.case:not([hidden])');
      if (active) all('details', row).forEach(function (det) { det.open = !!det.querySelector('tr.case:not([hidden])'); });
    });
    var shown = cases.filter(function (el) { return !el.hidden; }).length;
    document.getElementById('f-count').textContent =
        active || d ? shown + ' of ' + cases.length + ' cases shown' : cases.length + ' cases';
  }
  all('select, input', bar).forEach(function (el) { el.addEventListener('input', apply); el.addEventListener('change', apply); });
  document.getElementById('f-clear').addEventListener('click', function () {
    all('select, input', bar).forEach(function (el) { el.value = ''; });
    apply();
  });
  function reveal() {
    var el = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    for (var p = el; p; p = p.parentElement) { if (p.tagName === 'DETAILS') p.open = true; p.hidden = false; }
  }
  window.addEventListener('hashchange', reveal);
  // A link can carry the filters: report.html?outcome=failures&device=cuda:0&text=gemm.
  var preset = new URLSearchParams(location.search);
  [['outcome', 'f-outcome'], ['dtype', 'f-dtype'], ['row', 'f-row'], ['device', 'f-device'], ['text', 'f-text']]
      .forEach(function (p) { if (preset.has(p[0])) document.getElementById(p[1]).value = preset.get(p[0]); });
  // The filters first: a link to a case shows it even where they would hide it.
  apply();
  reveal();
})();
)js";

}  // namespace tegula::conformance::html
