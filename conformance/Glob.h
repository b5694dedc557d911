/// \file
/// Case filters: comma-separated fnmatch globs over dotted case names ('*' also crosses
/// dots). A glob starting with '-' excludes; a name is selected when it matches some
/// including glob (or there are none) and no excluding one.
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
  bool matches(const std::string& name) const;

private:
  std::vector<std::string> include_, exclude_;
};

}  // namespace tegula::conformance
