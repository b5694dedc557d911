/// \file
/// Command-line values for the tegula CLI: every option that takes a value says so when the
/// value is missing, and numbers are parsed whole (`--seed abc` is an error, never 0).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Status.h"

namespace tegula::cli {

bool is_help_flag(const std::string& arg);
/// Whether any of `args` asks for help ("--help" or "-h").
bool asks_for_help(const std::vector<std::string>& args);

/// The value after args[i] (and advances i), or an error "option '--device' needs a value".
Result<std::string> option_value(const std::vector<std::string>& args, size_t& i);

/// The whole of `text` as a number; `what` names it in the error ("--seed").
Result<uint64_t> parse_unsigned(const std::string& text, const std::string& what);
Result<int64_t> parse_integer(const std::string& text, const std::string& what);
Result<double> parse_number(const std::string& text, const std::string& what);

/// Print "tegula COMMAND: MESSAGE" to stderr and return `code`.
int fail(const char* command, const Status& status, int code = 1);

}  // namespace tegula::cli
