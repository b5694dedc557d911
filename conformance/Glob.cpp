#include "conformance/Glob.h"

#include <string>
#include <string_view>

#include <fnmatch.h>

namespace tegula::conformance {

bool glob_match(const std::string& glob, const std::string& name) { return ::fnmatch(glob.c_str(), name.c_str(), 0) == 0; }

Filter::Filter(std::string_view text) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    std::string item(text.substr(start, end - start));
    while (!item.empty() && item.back() == ' ') item.pop_back();
    while (!item.empty() && item.front() == ' ') item.erase(0, 1);
    if (!item.empty() && item[0] == '-') exclude_.push_back(item.substr(1));
    else if (!item.empty()) include_.push_back(item);
    start = end + 1;
  }
}

bool Filter::matches(const std::string& name, const std::string& row) const {
  auto hit = [&](const std::string& g) { return glob_match(g, name) || (!row.empty() && glob_match(g, row)); };
  for (const std::string& g : exclude_)
    if (hit(g)) return false;
  if (include_.empty()) return true;
  for (const std::string& g : include_)
    if (hit(g)) return true;
  return false;
}

}  // namespace tegula::conformance
