#include "runtime/cli/Options.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tegula::cli {

bool is_help_flag(const std::string& arg) { return arg == "--help" || arg == "-h"; }

bool asks_for_help(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    if (is_help_flag(a)) return true;
  return false;
}

Result<std::string> option_value(const std::vector<std::string>& args, size_t& i) {
  // "--device --seed 3" is a missing value, not a device named "--seed".
  if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0)
    return error(ErrorCode::InvalidArgument, "option '" + args[i] + "' needs a value");
  return args[++i];
}

Result<uint64_t> parse_unsigned(const std::string& text, const std::string& what) {
  errno = 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text[0] == '-' || text[0] == '+' || *end != '\0' || errno == ERANGE)
    return error(ErrorCode::InvalidArgument, what + ": '" + text + "' is not an unsigned integer");
  return uint64_t(v);
}

Result<int64_t> parse_integer(const std::string& text, const std::string& what) {
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE)
    return error(ErrorCode::InvalidArgument, what + ": '" + text + "' is not an integer");
  return int64_t(v);
}

Result<double> parse_number(const std::string& text, const std::string& what) {
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  // nan and inf are numbers a kernel may be given on purpose; only junk is refused.
  if (text.empty() || *end != '\0' || (errno == ERANGE && std::isinf(v)))
    return error(ErrorCode::InvalidArgument, what + ": '" + text + "' is not a number");
  return v;
}

int fail(const char* command, const Status& status, int code) {
  // A located error reads "file:line:column: error: ..." as compilers print it.
  if (status.loc().known()) {
    std::fprintf(stderr, "%s\n", status.str().c_str());
  } else {
    std::fprintf(stderr, "tegula %s: %s\n", command, status.message().c_str());
  }
  return code;
}

}  // namespace tegula::cli
