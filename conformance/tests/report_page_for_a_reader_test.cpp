// report.html is written for a person: the verdict and one sentence of counts per device
// on top; then every failure, crashes first and expected failures last, each entry linking
// to its case's details (the kernel text escaped, the seed, the mismatch, the log and the
// commands that reproduce it, which do); a colour class and a mark per outcome, and matrix
// cells that show the NotSupported cases they hold; filters over data-* attributes; nothing
// outside the file. A report where everything held says so in words.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "conformance/Suite.h"
#include "conformance/Verify.h"
#include "conformance/tests/TestSupport.h"
#include "targets/Target.h"

namespace report_page_for_a_reader_test {

using namespace tegula;
using namespace tegula::conformance;
using namespace tegula::conformance::testing;

namespace {

// Kernels with '<' and '&&' (control barrier and if), two dtypes (bf16 NotSupported on narrow).
const char* kFilter =
    "tegula.control.barrier.*,tegula.control.if.*,tegula.copy.global_shared.f32.*,"
    "tegula.copy.global_shared.bf16.*,-*.misaligned";
const char* kBarrier = "tegula.control.barrier.reverse";

struct Bundle {
  std::string dir;
  Json report;
  std::string page;
};

Bundle read_bundle(const std::string& dir) {
  Bundle b{dir, load_report(dir), ""};
  Result<std::string> page = read_file(dir + "/report.html");
  if (page.is_ok()) b.page = *page;
  return b;
}

/// Three devices: every case wrong (one of them an expected failure), every case crashing,
/// and a correct one that claims no bf16 (one case of it an expected failure that passes, and
/// an entry naming no case).
const Bundle& failing() {
  static const Bundle b = [] {
    std::string dir = scratch("report_page_for_a_reader");
    (void)make_dirs(dir + "/x");
    (void)write_file_atomic(
        dir + "/x/conformance_wrong.json",
        "{\"schema\": \"tegula.conformance.expectations.v1\", \"plugin\": \"conformance_wrong\", "
        "\"expected_failures\": [{\"cases\": \"tegula.control.if.scalar0\", \"reason\": \"a known <b> & co\"}]}");
    (void)write_file_atomic(
        dir + "/x/conformance_narrow.json",
        "{\"schema\": \"tegula.conformance.expectations.v1\", \"plugin\": \"conformance_narrow\", "
        "\"expected_failures\": [{\"cases\": \"tegula.control.if.scalar0\", \"reason\": \"fixed since\"}, "
        "{\"cases\": \"tegula.no_such_case.*\", \"reason\": \"gone\"}]}");
    CliRun run = run_conformance_with({"conformance_wrong", "conformance_crash", "conformance_narrow"},
                                      std::string("--filter '") + kFilter + "' --expectations '" + dir +
                                          "/x' --jobs 2 --quiet --out '" + dir + "/r'");
    if (run.status != 1) MESSAGE(run.output);
    return read_bundle(dir + "/r");
  }();
  return b;
}

const Bundle& passing() {
  static const Bundle b = [] {
    std::string dir = scratch("report_page_for_a_reader_pass");
    CliRun run = run_conformance("reference", "--filter 'tegula.fill.global.f32.*' --quiet --out '" + dir + "'");
    if (run.status != 0) MESSAGE(run.output);
    return read_bundle(dir);
  }();
  return b;
}

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + needle.size())) ++n;
  return n;
}

/// Written here, not taken from the page's code: what escaped text must look like.
std::string escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '\'')
      out += "&#39;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

std::string unescaped(std::string s) {
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}})
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  return s;
}

/// The text from `open` (included) to the next `close` (included); "" when absent.
std::string element(const std::string& page, const std::string& open, const std::string& close, size_t from = 0) {
  size_t at = page.find(open, from);
  if (at == std::string::npos) return "";
  size_t end = page.find(close, at);
  return end == std::string::npos ? "" : page.substr(at, end + close.size() - at);
}

/// The value of attribute `name` in the first tag of `html`.
std::string attribute(const std::string& html, const std::string& name) {
  size_t at = html.find(" " + name + "=\"");
  if (at == std::string::npos || at > html.find('>')) return "";
  at += name.size() + 3;
  return html.substr(at, html.find('"', at) - at);
}

std::vector<std::string> failure_entries(const std::string& page) {
  std::string list = element(page, "<ol id=\"failure-list\">", "</ol>");
  std::vector<std::string> out;
  for (size_t at = list.find("<li"); at != std::string::npos; at = list.find("<li", at + 1))
    out.push_back(list.substr(at, list.find("</li>", at) + 5 - at));
  return out;
}

const Json& device(const Json& report, const std::string& name) {
  for (const Json& d : report.find("devices")->items())
    if (field(d, "name") == name) return d;
  FAIL("no device " << name);
  return report;
}

const Json& record(const Json& report, const std::string& dev, const std::string& name) {
  for (const Json& r : device(report, dev).find("records")->items())
    if (field(r, "name") == name) return r;
  FAIL("no record " << name);
  return report;
}

std::map<std::string, int> outcomes(const Json& report, const std::string& dev) {
  std::map<std::string, int> n;
  for (const Json& r : records(report, dev)) ++n[field(r, "outcome")];
  return n;
}

/// "<name> (<device name>, <target>): " as the summary starts a device's sentence.
std::string sentence_start(const Json& report, const std::string& dev) {
  const Json& d = device(report, dev);
  return dev + " (" + field(*d.find("identity"), "device_name") + ", " + field(*d.find("target"), "name") + "): ";
}

}  // namespace

TEST_CASE("the summary gives each device's counts in words, and the verdict the run's") {
  const Bundle& b = failing();
  REQUIRE(!b.page.empty());
  std::map<std::string, int> wrong = outcomes(b.report, "conformance_wrong:0"),
                             crash = outcomes(b.report, "conformance_crash:0"),
                             narrow = outcomes(b.report, "conformance_narrow:0");
  // What the test plugins do to these cases (catches_*_test.cpp show it case by case).
  REQUIRE(wrong == std::map<std::string, int>{{"Fail", 18}});
  REQUIRE(crash == std::map<std::string, int>{{"Crash", 18}});
  REQUIRE(narrow == std::map<std::string, int>{{"NotSupported", 6}, {"Pass", 12}});
  CHECK(count(b.page,
              sentence_start(b.report, "conformance_wrong:0") + "18 cases, 18 failed (1 of them expected)</li>") == 1);
  CHECK(count(b.page,
              sentence_start(b.report, "conformance_crash:0") + "18 cases, 18 crashed (0 of them expected)</li>") == 1);
  CHECK(count(b.page, sentence_start(b.report, "conformance_narrow:0") +
                          "18 cases, 12 passed, 6 not supported, 1 unexpected pass</li>") == 1);
  CHECK(b.page.find(
            "not conformant</span>; 54 cases, 12 passed, 6 not supported, 18 failed, 18 crashed (1 of them expected), "
            "1 unexpected pass, 1 stale expectation</p>") != std::string::npos);
  // No counts as raw JSON, anywhere.
  CHECK(b.page.find("&quot;Pass&quot;") == std::string::npos);
  CHECK(b.page.find("\"Pass\":") == std::string::npos);
}

TEST_CASE("the failures come first, one entry per failing case, each linking to an anchor that exists once") {
  const Bundle& b = failing();
  std::vector<std::string> entries = failure_entries(b.page);
  REQUIRE(entries.size() == 38);  // 18 Fail (one expected), 18 Crash, an unexpected pass, a stale expectation
  std::set<std::string> named;
  for (const std::string& e : entries) {
    std::string href = attribute(e.substr(e.find("<a ")), "href");
    REQUIRE(href.size() > 1);
    CHECK(href[0] == '#');
    CHECK_MESSAGE(count(b.page, "id=\"" + href.substr(1) + "\"") == 1, href);
    std::string dev = attribute(e, "data-device"), name = unescaped(element(e, "<code>", "</code>"));
    if (!dev.empty()) named.insert(dev + " " + name.substr(6, name.size() - 13));
  }
  for (std::string dev : {"conformance_wrong:0", "conformance_crash:0"})
    for (const Json& r : records(b.report, dev))
      CHECK_MESSAGE(named.count(dev + " " + field(r, "name")), field(r, "name"));
  // Crashes, then the other unexpected failures, the unexpected pass, the stale entry, and
  // the expected failure last.
  for (size_t i = 0; i < 18; ++i) CHECK(entries[i].find("class=\"failure-entry o-crash\"") != std::string::npos);
  for (size_t i = 18; i < 35; ++i) CHECK(entries[i].find("class=\"failure-entry o-fail\"") != std::string::npos);
  CHECK(entries[35].find("class=\"failure-entry o-pass unexpected-pass\"") != std::string::npos);
  CHECK(entries[35].find("<code>tegula.control.if.scalar0</code> on <code>conformance_narrow:0</code>") !=
        std::string::npos);
  CHECK(entries[36].find("href=\"#plugin-conformance_narrow\">stale expectation</a>") != std::string::npos);
  CHECK(entries[36].find("<code>tegula.no_such_case.*</code>") != std::string::npos);
  CHECK(entries[37].find("class=\"failure-entry o-fail expected\"") != std::string::npos);
  CHECK(entries[37].find("tegula.control.if.scalar0") != std::string::npos);
  // Ids are derived from the device and the case, sanitised: the same in every report.
  CHECK(count(b.page, "id=\"case-conformance_wrong-3a0--tegula.control.barrier.reverse\"") == 1);
  CHECK(count(b.page, "href=\"#case-conformance_crash-3a0--tegula.copy.global_shared.bf16.edge\"") >= 1);
  // No id twice in the whole page.
  std::set<std::string> ids;
  for (size_t at = b.page.find(" id=\""); at != std::string::npos; at = b.page.find(" id=\"", at + 1)) {
    std::string id = b.page.substr(at + 5, b.page.find('"', at + 5) - at - 5);
    CHECK_MESSAGE(ids.insert(id).second, id);
  }
}

TEST_CASE("a failing case's details show its kernel escaped, seed, mismatch, log and the commands that reproduce it") {
  const Bundle& b = failing();
  std::string article = element(
      b.page, "<article class=\"case-detail o-fail\" id=\"case-conformance_wrong-3a0--tegula.control.barrier.reverse\"",
      "</article>");
  REQUIRE(!article.empty());
  // The kernel, from the case list the device's target description gives.
  auto target = parse_target(field(*device(b.report, "conformance_wrong:0").find("target"), "json"), "wrong");
  REQUIRE(target.is_ok());
  std::string kernel;
  for (const CaseSpec& c : build_suite(*target))
    if (c.name == kBarrier) kernel = c.kernel;
  REQUIRE(kernel.find(" < M && ") != std::string::npos);
  CHECK(article.find("<pre class=\"kernel\">" + escaped(kernel) + "</pre>") != std::string::npos);
  CHECK(b.page.find(" < M && ") == std::string::npos);
  // The seed, the mismatch and where the log is.
  const Json& rec = record(b.report, "conformance_wrong:0", kBarrier);
  const Json& first = *rec.find("first_mismatch");
  CHECK(article.find("seed 1234 ") != std::string::npos);
  CHECK(article.find(std::to_string(rec.find("mismatches")->as_int()) + " of " +
                     std::to_string(rec.find("elements")->as_int()) + " elements differ") != std::string::npos);
  CHECK(article.find(escaped("the first at " + field(first, "tensor") + "[" +
                             std::to_string(first.find("index")->items()[0].as_int()) + ", " +
                             std::to_string(first.find("index")->items()[1].as_int()) + "]: expected " +
                             field(first, "expected") + ", got " + field(first, "actual"))) != std::string::npos);
  CHECK(article.find("logs/conformance_wrong_0.w*.log") != std::string::npos);
  CHECK(file_exists(b.dir + "/logs/conformance_wrong_0.w0.log"));
  // The commands, as the page gives them, run the case again and print its kernel.
  std::string commands = unescaped(element(article, "<pre class=\"cmd\">", "</pre>"));
  std::string run_line =
      "tegula conformance --device 'conformance_wrong:0' --filter '" + std::string(kBarrier) + "' --seed 1234";
  std::string show_line = "tegula conformance show '" + std::string(kBarrier) + "' --device 'conformance_wrong:0'";
  REQUIRE(commands == "<pre class=\"cmd\">" + run_line + "\n" + show_line + "</pre>");
  std::string again = scratch("report_page_for_a_reader_again");
  CliRun rerun = run_conformance("conformance_wrong", run_line.substr(19) + " --quiet --out '" + again + "'");
  CHECK(rerun.status == 1);
  std::vector<Json> redone = records(load_report(again), "conformance_wrong:0");
  REQUIRE(redone.size() == 1);
  CHECK(*redone[0].find("first_mismatch") == first);
  CliRun shown = run_conformance("conformance_wrong", show_line.substr(19));
  CHECK(shown.status == 0);
  CHECK(shown.output.find(kernel) != std::string::npos);
  // A crash's details and an expected failure's reason, escaped.
  CHECK(count(b.page, "<article class=\"case-detail o-crash\" id=\"case-conformance_crash-3a0--") == 18);
  std::string expected = element(b.page, "id=\"case-conformance_wrong-3a0--tegula.control.if.scalar0\"", "</article>");
  CHECK(expected.find("<dt>expected failure</dt><dd>a known &lt;b&gt; &amp; co</dd>") != std::string::npos);
}

TEST_CASE("Crash and Fail look different, every outcome has its class and mark, and cells show what is not Pass") {
  const Bundle& b = failing();
  std::vector<std::string> entries = failure_entries(b.page);
  REQUIRE(entries.size() == 38);
  CHECK(entries.front().find("o-crash") != std::string::npos);
  CHECK(entries.front().find("&#x2620;</span> Crash") != std::string::npos);
  CHECK(entries.front().find("&#x2717;") == std::string::npos);
  CHECK(entries[20].find("o-crash") == std::string::npos);
  CHECK(entries[20].find("&#x2717;</span> Fail") != std::string::npos);
  CHECK(entries[20].find("&#x2620;") == std::string::npos);
  // The legend: one class and one mark per outcome, all different.
  std::string legend = element(b.page, "<ul class=\"legend\">", "</ul>");
  std::set<std::string> classes, marks;
  for (const char* o : {"Pass", "Fail", "NotSupported", "CompileOnly", "QualityWarning", "Crash", "Timeout"}) {
    size_t at = legend.find("</span> " + std::string(o) + "</span>");
    REQUIRE_MESSAGE(at != std::string::npos, o);
    size_t open = legend.rfind("<li><span class=\"", at);
    classes.insert(attribute(legend.substr(open + 4), "class"));
    size_t mark = legend.rfind("<span class=\"mark\">", at);
    marks.insert(legend.substr(mark, at - mark));
  }
  CHECK(classes.size() == 7);
  CHECK(marks.size() == 7);
  // The narrow device's copy row passed where it ran: a green cell that shows its 6 NotSupported.
  std::string cell = element(b.page, "<td class=\"cell o-pass\" data-device=\"conformance_narrow:0\">", "</summary>",
                             b.page.find("<tr data-row=\"copy global_shared\">"));
  CHECK(cell.find("<summary>6/6<span class=\"b o-ns\" title=\"6 NotSupported\">&#x2205; 6</span>") !=
        std::string::npos);
  CHECK(b.page.find("<td class=\"cell o-crash\" data-device=\"conformance_crash:0\"><details><summary>0/12") !=
        std::string::npos);
  CHECK(b.page.find("<td class=\"cell o-fail\" data-device=\"conformance_wrong:0\"><details><summary>0/12") !=
        std::string::npos);
  std::string unexpected = element(b.page, "<td class=\"cell unexpected-pass\" data-device=\"conformance_narrow:0\">",
                                   "</summary>", b.page.find("<tr data-row=\"control if\">"));
  CHECK(unexpected.find("<span class=\"b unexpected-pass\" title=\"1 unexpected pass\">xpass 1</span>") !=
        std::string::npos);
}

TEST_CASE("filters by outcome, dtype, row and device and a text search, and nothing outside the file") {
  const Bundle& b = failing();
  for (const char* control : {"<select id=\"f-outcome\">", "<select id=\"f-dtype\">", "<select id=\"f-row\">",
                              "<select id=\"f-device\">", "<input id=\"f-text\" type=\"search\""})
    CHECK_MESSAGE(count(b.page, control) == 1, control);
  for (const char* option :
       {"<option value=\"Crash\">", "<option value=\"failures\">", "<option value=\"bf16\">", "<option value=\"f32\">",
        "<option value=\"control barrier\">", "<option value=\"conformance_crash:0\">"})
    CHECK_MESSAGE(b.page.find(option) != std::string::npos, option);
  CHECK(b.page.find("<option value=\"f16\">") == std::string::npos);  // no case here has f16
  // The attributes the script reads, on matrix rows, cells and cases.
  CHECK(count(b.page, "<tr data-row=\"control barrier\">") == 1);
  CHECK(b.page.find("data-device=\"conformance_narrow:0\"><details>") != std::string::npos);
  CHECK(b.page.find("<tr class=\"case o-ns\" data-outcome=\"NotSupported\" data-dtype=\"bf16\">") != std::string::npos);
  CHECK(b.page.find("data-flag=\"expected\"") != std::string::npos);
  CHECK(count(b.page, "<script>") == 1);
  CHECK(b.page.find("addEventListener('change', apply)") != std::string::npos);
  // Self-contained: every link is into the page or the bundle's logs folder.
  for (const char* external : {"src=\"http", "href=\"http", "src=", "<link", "@import", "url("})
    CHECK_MESSAGE(b.page.find(external) == std::string::npos, external);
  for (size_t at = b.page.find("href=\""); at != std::string::npos; at = b.page.find("href=\"", at + 1)) {
    std::string href = b.page.substr(at + 6, b.page.find('"', at + 6) - at - 6);
    if (href == "logs/") continue;
    REQUIRE_MESSAGE(href[0] == '#', href);
    CHECK_MESSAGE(count(b.page, "id=\"" + href.substr(1) + "\"") == 1, href);
  }
}

TEST_CASE("a report where every case held says so in words and lists nothing") {
  const Bundle& b = passing();
  REQUIRE(!b.page.empty());
  std::map<std::string, int> n = outcomes(b.report, "reference:0");
  REQUIRE(n.size() == 1);
  REQUIRE(n["Pass"] > 0);
  std::string total = std::to_string(n["Pass"]);
  CHECK(count(b.page, sentence_start(b.report, "reference:0") + total + " cases, " + total + " passed</li>") == 1);
  CHECK(b.page.find("<p class=\"no-failures\">No failures: no case failed, crashed or timed out") != std::string::npos);
  CHECK(b.page.find("<ol id=\"failure-list\"") == std::string::npos);
  CHECK(b.page.find("class=\"failure-entry") == std::string::npos);
  CHECK(b.page.find("<article") == std::string::npos);
}

TEST_CASE("verify accepts both pages as written") {
  for (const Bundle* b : {&failing(), &passing()}) {
    VerifyOutcome v = verify_report(b->dir + "/report.json");
    for (const std::string& e : v.errors) MESSAGE(e);
    CHECK(v.ok());
  }
}

}  // namespace report_page_for_a_reader_test
