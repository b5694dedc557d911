/// \file
/// The tegula CLI's commands, one file each group (main.cpp dispatches).
#pragma once

#include <string>
#include <vector>

#include "core/Status.h"
#include "runtime/cli/Options.h"
#include "tegula/tegula.hpp"

namespace tegula::cli {

/// The top-level usage on stderr; returns 2 (a mistake on the command line).
int usage();
/// The top-level usage on stdout; returns 0 (help asked for).
int top_help();
/// One command's usage on stderr (returns 2) or, asked for, on stdout (returns 0).
int command_usage(const std::string& command);
int command_help(const std::string& command);
int cmd_signature(const std::vector<std::string>& args);
int cmd_run(const std::vector<std::string>& args);
int cmd_devices(const std::vector<std::string>& args);
int cmd_plugins(const std::vector<std::string>& args);
int cmd_targets(const std::vector<std::string>& args);
int cmd_lower(const std::vector<std::string>& args);
int cmd_tune(const std::vector<std::string>& args);
int cmd_optimizations(const std::vector<std::string>& args);
/// tegula spec: a tunable kernel from an einsum-style statement (ir/spec/Spec.h).
int cmd_spec(const std::vector<std::string>& args);
/// Replace this process with tegula-conformance from the same folder; returns only on failure.
int cmd_conformance(const std::vector<std::string>& args);

/// Open the runtime the way every command does (environment honoured); prints the error.
Result<Runtime> open_runtime(const char* command);
/// The device named `name` ("" = the first device); prints a clear error listing the
/// available devices.
Result<Device> pick_device(const Runtime& rt, const std::string& name, const char* command);

}  // namespace tegula::cli
