// Helpers for interpreter tests: run a kernel over host arrays given as float64 values.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/DType.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"

namespace tegula::ir::testing {

/// One argument: a tensor (values encoded in the parameter's dtype), or a number.
struct Value {
  bool is_tensor = false;
  std::vector<double> values;
  double number = 0;
  static Value tensor(std::vector<double> v) { return {true, std::move(v), 0}; }
  static Value scalar(double v) { return {false, {}, v}; }
};

/// Run kernel `k` with `args` (parameters, then symbols); tensors are decoded back into args.
inline Status run_parsed(const Kernel& k, std::vector<Value>& args) {
  std::vector<std::vector<uint8_t>> storage(args.size());
  std::vector<Arg> iargs;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_tensor) {
      bool is_int = i >= k.params.size() || !dtype_is_float(k.params[i].dtype);
      iargs.push_back(is_int ? Arg::integer(int64_t(args[i].number)) : Arg::number(args[i].number));
      continue;
    }
    DType t = k.params[i].dtype;
    storage[i].resize(args[i].values.size() * dtype_size(t));
    for (size_t e = 0; e < args[i].values.size(); ++e) store_element(t, args[i].values[e], storage[i].data() + e * dtype_size(t));
    iargs.push_back(Arg::tensor(storage[i].data(), storage[i].size()));
  }
  Status st = interpret(k, iargs);
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_tensor) continue;
    DType t = k.params[i].dtype;
    for (size_t e = 0; e < args[i].values.size(); ++e) args[i].values[e] = load_element(t, storage[i].data() + e * dtype_size(t));
  }
  return st;
}

/// Run `text` with `args` (parameters, then symbols); tensors are decoded back into args.
inline Status run_kernel(const std::string& text, std::vector<Value>& args) {
  auto k = parse_and_verify(text, "test.tile");
  if (!k.is_ok()) return k.status();
  return run_parsed(*k, args);
}

}  // namespace tegula::ir::testing
