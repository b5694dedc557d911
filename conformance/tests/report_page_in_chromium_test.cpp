// report.html as a browser shows it: headless Chromium (Debian's chromium, installed by
// scripts/setup.sh) loads a report with failures and its DOM after the page's script ran is
// checked. The summary and the matrix are there, every failure link finds its case, the
// script counted the cases, a filter in the address (?outcome=Crash) hides every other
// outcome and says how many remain, and a case's anchor in the address shows that case even
// where the filter hides its outcome.
// (The page has no plots yet: the report has no performance figures.)
#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

#include "conformance/tests/TestSupport.h"

namespace report_page_in_chromium_test {

using namespace tegula;
using namespace tegula::conformance::testing;

namespace {

const char* kFilter = "tegula.copy.global_shared.f32.*,tegula.fill.global.f32.*,-*.misaligned";

/// The DOM Chromium builds from `url` after its scripts ran; empty when it could not.
std::string dump_dom(const std::string& url) {
  std::string cmd = "timeout 60 chromium --headless --no-sandbox --disable-gpu --dump-dom '" + url + "' 2>/dev/null";
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

/// Every opening tag that carries data-outcome: its outcome and whether it is hidden.
struct Tagged {
  std::string outcome;
  bool hidden = false;
};
std::vector<Tagged> outcome_tags(const std::string& dom) {
  std::vector<Tagged> out;
  std::regex tag("<[a-z]+ [^>]*data-outcome=\"([A-Za-z]+)\"[^>]*>");
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), tag); it != std::sregex_iterator(); ++it) {
    std::string t = it->str();
    out.push_back({(*it)[1].str(), t.find(" hidden") != std::string::npos});
  }
  return out;
}

}  // namespace

TEST_CASE("the report renders in headless Chromium, and its filters and anchors work there") {
  REQUIRE_MESSAGE(std::system("command -v chromium > /dev/null 2>&1") == 0,
                  "chromium is not installed: scripts/setup.sh installs it (Debian's chromium package)");
  std::string dir = scratch("report_page_in_chromium");
  CliRun run = run_conformance_with({"conformance_wrong", "conformance_crash"},
                                    std::string("--filter '") + kFilter + "' --jobs 2 --quiet --out '" + dir + "'");
  REQUIRE_MESSAGE(run.status == 1, run.output);
  Json report = load_report(dir);
  size_t wrong = records(report, "conformance_wrong:0").size(), crash = records(report, "conformance_crash:0").size();
  REQUIRE(wrong > 0);
  REQUIRE(crash > 0);
  std::string page = "file://" + dir + "/report.html";

  std::string dom = dump_dom(page);
  REQUIRE_MESSAGE(dom.find("</html>") != std::string::npos, "chromium gave no DOM for " << page);
  CHECK(dom.find("id=\"matrix\"") != std::string::npos);
  CHECK(dom.find("conformance_wrong:0") != std::string::npos);
  CHECK(dom.find("conformance_crash:0") != std::string::npos);
  // The script ran: it wrote the count, which the file leaves empty.
  CHECK(dom.find("id=\"f-count\">" + std::to_string(wrong + crash) + " cases<") != std::string::npos);
  // Every failure link's target is in the DOM.
  std::regex link("href=\"#([^\"]+)\"");
  size_t links = 0;
  std::string first_target;
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), link); it != std::sregex_iterator(); ++it) {
    std::string id = (*it)[1].str();
    if (first_target.empty()) first_target = id;
    CHECK_MESSAGE(dom.find("id=\"" + id + "\"") != std::string::npos, id);
    ++links;
  }
  CHECK(links >= wrong + crash);
  for (const Tagged& t : outcome_tags(dom)) CHECK_FALSE(t.hidden);  // no filter: nothing hidden

  // ?outcome=Crash: only the crashes stay, and the count says so.
  std::string crashes = dump_dom(page + "?outcome=Crash");
  std::vector<Tagged> tags = outcome_tags(crashes);
  size_t shown_crashes = 0, hidden_others = 0, others = 0;
  for (const Tagged& t : tags) {
    if (t.outcome == "Crash") {
      CHECK_FALSE(t.hidden);
      shown_crashes += !t.hidden;
    } else {
      ++others;
      hidden_others += t.hidden;
    }
  }
  CHECK(shown_crashes >= crash);
  CHECK(others > 0);
  CHECK(hidden_others == others);
  CHECK(crashes.find(std::to_string(crash) + " of " + std::to_string(wrong + crash) + " cases shown") != std::string::npos);

  // A link to a case shows it even under a filter that hides its outcome: with ?outcome=Fail
  // the crashed case named by the anchor is shown, and the other crashes stay hidden.
  REQUIRE(first_target.find("conformance_crash") != std::string::npos);
  std::string anchored = dump_dom(page + "?outcome=Fail#" + first_target);
  std::regex article("<article [^>]*id=\"([^\"]+)\"[^>]*data-outcome=\"Crash\"[^>]*>");
  size_t crash_articles = 0;
  for (auto it = std::sregex_iterator(anchored.begin(), anchored.end(), article); it != std::sregex_iterator(); ++it) {
    bool hidden = it->str().find(" hidden") != std::string::npos;
    CHECK_MESSAGE(hidden == ((*it)[1].str() != first_target), (*it)[1].str());
    ++crash_articles;
  }
  CHECK(crash_articles >= 2);
}

}  // namespace report_page_in_chromium_test
