/// \file
/// Case filters: comma-separated fnmatch globs over dotted case names ('*' also crosses
/// dots) and over the report matrix's row labels ("fill shared", "gemm wgmma*"), so a row
/// of report.html can be run again by its label. A glob starting with '-' excludes; a case
/// is selected when its name or row matches some including glob (or there are none) and
/// neither matches an excluding one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tegula::conformance {

bool glob_match(const std::string& glob, const std::string& name);

class Filter {
public:
  Filter() = default;
  explicit Filter(std::string_view text);
  bool matches(const std::string& name, const std::string& row = "") const;

private:
  std::vector<std::string> include_, exclude_;
};

}  // namespace tegula::conformance
