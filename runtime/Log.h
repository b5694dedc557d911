/// \file
/// The loader's log. Every step of discovery and loading is written here: with
/// TEGULA_LOADER_DEBUG=1 each line goes to stderr prefixed "tegula loader: ", and an
/// embedder's callback (tegula_runtime_options.log) receives every line whatever the
/// variable says. Without either, loading is silent: a machine with a manifest for hardware
/// it lacks must not print warnings into every program that opens the runtime.
#pragma once

#include <string>

namespace tegula::runtime {

/// The same numbers as tg_log_level and tegula_log_level.
enum class LogLevel : int { Error = 0, Warn = 1, Info = 2, Debug = 3 };

using LogCallback = void (*)(void* user, int level, const char* message);

class Log {
public:
  Log() = default;
  Log(bool to_stderr, LogCallback callback, void* user)
      : to_stderr_(to_stderr), callback_(callback), user_(user) {}

  void write(LogLevel level, const std::string& message) const;
  void debug(const std::string& message) const { write(LogLevel::Debug, message); }
  void info(const std::string& message) const { write(LogLevel::Info, message); }
  void warn(const std::string& message) const { write(LogLevel::Warn, message); }
  void error(const std::string& message) const { write(LogLevel::Error, message); }

  bool enabled() const { return to_stderr_ || callback_; }

private:
  bool to_stderr_ = false;
  LogCallback callback_ = nullptr;
  void* user_ = nullptr;
};

}  // namespace tegula::runtime
