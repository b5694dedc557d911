/// \file
/// Status and Result: the one error type used across tegula. A Status carries a code, a
/// lower-case message and, where there is one, the source location (file:line:column) of the
/// input that caused it. Nothing in tegula throws across a library boundary: fallible calls
/// return Status or Result<T>.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace tegula {

/// The closed set of error codes. Misuse by a caller or a bad input is never Internal.
enum class ErrorCode : int {
  Ok = 0,
  InvalidArgument,  ///< a bad value passed by the caller
  Parse,            ///< malformed text (IR, JSON, manifest)
  Verify,           ///< well-formed IR that breaks a rule of the IR
  NotFound,         ///< a named thing does not exist
  Unimplemented,    ///< an optional feature that this component does not provide
  Unsupported,      ///< a valid request this target or device cannot carry out
  OutOfRange,       ///< an index or size outside its bounds
  Corrupt,          ///< stored data failed its integrity check
  Io,               ///< a file or OS call failed
  Device,           ///< a device or driver call failed
  Plugin,           ///< a plugin misbehaved (bad answer, refused ABI)
  Timeout,          ///< a wait ran out of time
  Internal,         ///< a bug in tegula itself
  OutOfMemory,      ///< host or device memory ran out (appended: the C API's codes follow this order)
};

const char* error_code_name(ErrorCode code);

/// A position in some input text. line and column count from 1; 0 means unknown.
struct SourceLoc {
  std::string file;
  int line = 0;
  int column = 0;

  bool known() const { return line > 0; }
  /// "file:line:column", or "" when unknown.
  std::string str() const;
};

class [[nodiscard]] Status {
public:
  Status() = default;
  Status(ErrorCode code, std::string message, SourceLoc loc = {})
      : code_(code), message_(std::move(message)), loc_(std::move(loc)) {}

  static Status ok() { return Status(); }

  bool is_ok() const { return code_ == ErrorCode::Ok; }
  explicit operator bool() const { return is_ok(); }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  const SourceLoc& loc() const { return loc_; }

  /// "file:line:col: error: message" (location omitted when unknown).
  std::string str() const;

  /// Prefix the message with more context ("while loading x: ...").
  Status with_context(const std::string& context) const;

private:
  ErrorCode code_ = ErrorCode::Ok;
  std::string message_;
  SourceLoc loc_;
};

inline Status error(ErrorCode code, std::string message, SourceLoc loc = {}) {
  return Status(code, std::move(message), std::move(loc));
}

/// A value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
public:
  Result(T value) : value_(std::move(value)) {}
  Result(Status status) : status_(std::move(status)) {
    if (status_.is_ok()) status_ = Status(ErrorCode::Internal, "result built from an ok status");
  }

  bool is_ok() const { return value_.has_value(); }
  explicit operator bool() const { return is_ok(); }
  const Status& status() const { return status_; }

  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }

private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace tegula

#define TG_CONCAT_INNER(a, b) a##b
#define TG_CONCAT(a, b) TG_CONCAT_INNER(a, b)

/// Return the Status of `expr` from the enclosing function if it is not ok.
#define TG_RETURN_IF_ERROR(expr)                            \
  do {                                                      \
    ::tegula::Status tg_status_ = (expr);                   \
    if (!tg_status_.is_ok()) return tg_status_;             \
  } while (0)

/// `TG_ASSIGN_OR_RETURN(auto x, f())`: bind the value of a Result or return its Status.
#define TG_ASSIGN_OR_RETURN(lhs, expr) \
  TG_ASSIGN_OR_RETURN_IMPL(TG_CONCAT(tg_result_, __LINE__), lhs, expr)
#define TG_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                             \
  if (!tmp.is_ok()) return tmp.status();         \
  lhs = std::move(tmp).value()

/// An internal invariant: a failure is a bug in tegula, never the fault of an input.
#define TG_ASSERT(cond, msg)                                                           \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      std::fprintf(stderr, "%s:%d: internal error: %s (%s)\n", __FILE__, __LINE__, msg, \
                   #cond);                                                             \
      std::abort();                                                                    \
    }                                                                                  \
  } while (0)
