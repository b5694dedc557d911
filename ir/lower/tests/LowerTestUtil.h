// Helpers for the lowering tests: lower an example, run original and lowered kernels on the
// same inputs, compare bit for bit.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/Files.h"
#include "examples/checks/Checks.h"
#include "ir/Interpreter.h"
#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "targets/Target.h"

namespace tegula::ir::testing {

inline std::string example_text(const std::string& rel) {
  auto t = read_file(std::string(TEGULA_SOURCE_DIR) + "/examples/" + rel);
  return t.is_ok() ? *t : std::string();
}

/// Run a kernel on inputs made from `bindings` and `seed`; returns every tensor's bytes.
inline Result<std::vector<std::vector<uint8_t>>> run_bytes(const Kernel& k, const std::string& bindings, uint64_t seed) {
  TG_ASSIGN_OR_RETURN(auto b, examples::parse_bindings(bindings));
  TG_ASSIGN_OR_RETURN(examples::LaunchData data, examples::make_launch_data(k, b, seed));
  std::vector<Arg> args = examples::interpreter_args(k, data);
  TG_RETURN_IF_ERROR(interpret(k, args));
  std::vector<std::vector<uint8_t>> out;
  for (const auto& t : data.tensors) out.push_back(t.bytes);
  return out;
}

inline TargetDescription target(const std::string& name) {
  auto t = builtin_target(name);
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return *t;
}

}  // namespace tegula::ir::testing
