/// \file
/// The built-in target descriptions. Their JSON is compiled into the library (see
/// cmake/EmbedDescriptions.cmake), so a built-in target never depends on the file system or
/// the working directory at run time.
#include <algorithm>

#include "targets/EmbeddedDescriptions.h"
#include "targets/Target.h"

namespace tegula {

const std::vector<std::string>& builtin_target_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (size_t i = 0; i < kEmbeddedDescriptionCount; ++i) out.emplace_back(kEmbeddedDescriptions[i].name);
    std::sort(out.begin(), out.end());
    return out;
  }();
  return names;
}

Result<TargetDescription> builtin_target(std::string_view name) {
  for (size_t i = 0; i < kEmbeddedDescriptionCount; ++i) {
    const EmbeddedDescription& e = kEmbeddedDescriptions[i];
    if (name != e.name) continue;
    return parse_target(std::string_view(e.data, e.size), std::string(e.name) + ".json");
  }
  std::string known;
  for (const std::string& n : builtin_target_names()) known += (known.empty() ? "" : ", ") + n;
  return error(ErrorCode::NotFound,
               "no built-in target '" + std::string(name) + "' (built-in: " + known + ")");
}

}  // namespace tegula
