#include "core/Status.h"

namespace tegula {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::Ok: return "ok";
    case ErrorCode::InvalidArgument: return "invalid argument";
    case ErrorCode::Parse: return "parse error";
    case ErrorCode::Verify: return "verify error";
    case ErrorCode::NotFound: return "not found";
    case ErrorCode::Unimplemented: return "unimplemented";
    case ErrorCode::Unsupported: return "unsupported";
    case ErrorCode::OutOfRange: return "out of range";
    case ErrorCode::Corrupt: return "corrupt";
    case ErrorCode::Io: return "i/o error";
    case ErrorCode::Device: return "device error";
    case ErrorCode::Plugin: return "plugin error";
    case ErrorCode::Timeout: return "timeout";
    case ErrorCode::Internal: return "internal error";
    case ErrorCode::OutOfMemory: return "out of memory";
  }
  return "unknown error";
}

std::string SourceLoc::str() const {
  if (!known()) return file;
  return (file.empty() ? std::string("<input>") : file) + ":" + std::to_string(line) + ":" +
         std::to_string(column);
}

std::string Status::str() const {
  if (is_ok()) return "ok";
  std::string where = loc_.str();
  std::string out = where.empty() ? std::string() : where + ": ";
  return out + "error: " + message_;
}

Status Status::with_context(const std::string& context) const {
  if (is_ok()) return *this;
  return Status(code_, context + ": " + message_, loc_);
}

}  // namespace tegula
