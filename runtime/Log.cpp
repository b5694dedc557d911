#include "runtime/Log.h"

#include <cstdio>

namespace tegula::runtime {

void Log::write(LogLevel level, const std::string& message) const {
  if (to_stderr_) {
    // One fputs per line, so lines from several threads do not interleave mid-line.
    std::string line = "tegula loader: " + message + "\n";
    std::fputs(line.c_str(), stderr);
  }
  if (callback_) callback_(user_, int(level), message.c_str());
}

}  // namespace tegula::runtime
