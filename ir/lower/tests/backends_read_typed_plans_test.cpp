// Backends read the lowered form through its typed records (ir/lower/Lowered.h and the
// fragment, gemm and shared-layout readers), never as attribute strings: no plugin source
// calls find_attr or stmt_attr_* with a plan.*, lower.*, layout.* or mma.* name. A raw read
// skips the checks read_lowered made once and re-decides what the contract already says.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace backends_read_typed_plans_test {

namespace {

namespace fs = std::filesystem;

/// Files that still read raw attributes, each with why. An entry whose file no longer does is
/// an error too, so the list only shrinks.
const std::map<std::string, std::string> kNotYetConverted = {};

}  // namespace

TEST_CASE("no plugin reads a lowering annotation as a raw attribute") {
  const fs::path root = fs::path(TEGULA_SOURCE_DIR) / "plugins";
  const std::regex raw(R"((find_attr|stmt_attr\w*)\s*\([^;]*"(plan|lower|layout|mma)\.)");
  std::set<std::string> offenders;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    std::string ext = entry.path().extension().string();
    if (ext != ".cpp" && ext != ".h") continue;
    std::string rel = fs::relative(entry.path(), root).generic_string();
    if (rel.find("/tests/") != std::string::npos) continue;  // tests inspect what lowering wrote
    std::ifstream in(entry.path());
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      if (!std::regex_search(line, raw)) continue;
      offenders.insert(rel);
      if (!kNotYetConverted.count(rel)) FAIL_CHECK("plugins/" << rel << ":" << number << " reads a raw annotation: " << line);
    }
  }
  for (const auto& [file, why] : kNotYetConverted) {
    INFO(why);
    CHECK_MESSAGE(offenders.count(file), "plugins/" << file << " reads no raw annotation any more: remove it from the list");
  }
}

TEST_CASE("the scan finds a raw read") {
  // The pattern above, against the forms it must catch and one it must not.
  const std::regex raw(R"((find_attr|stmt_attr\w*)\s*\([^;]*"(plan|lower|layout|mma)\.)");
  CHECK(std::regex_search(std::string(R"(if (find_attr(s.attrs, "plan.forward")) {)"), raw));
  CHECK(std::regex_search(std::string(R"(int64_t v = ir::stmt_attr_int(s, "plan.vec");)"), raw));
  CHECK(std::regex_search(std::string(R"(ir::find_attr(k.attrs, "lower.assume"))"), raw));
  CHECK_FALSE(std::regex_search(std::string(R"(ir::stmt_attr_int(s, "axis"))"), raw));
}

}  // namespace backends_read_typed_plans_test
