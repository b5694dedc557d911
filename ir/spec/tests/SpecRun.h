// Helpers for the spec tests: generate a kernel from a spec, parse instances of it, and run
// one on the reference interpreter over named float64 arrays.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ir/Parser.h"
#include "ir/Tunables.h"
#include "ir/spec/Spec.h"
#include "ir/tests/RunUtil.h"

namespace tegula::ir::testing {

using Tensors = std::map<std::string, std::vector<double>>;

inline std::string spec_kernel(const std::string& spec, const std::string& dtypes, DType acc = DType::F32) {
  SpecOptions options;
  auto parsed = parse_spec_dtypes(dtypes);
  REQUIRE_MESSAGE(parsed.is_ok(), parsed.status().str());
  options.dtypes = *parsed;
  options.acc = acc;
  auto text = kernel_from_spec(spec, options);
  REQUIRE_MESSAGE(text.is_ok(), text.status().str());
  return *text;
}

/// Every binding that satisfies the where conditions.
inline std::vector<Binding> spec_bindings(const std::string& text) {
  auto space = parse_tune_space(text, "spec.tile");
  REQUIRE_MESSAGE(space.is_ok(), space.status().str());
  REQUIRE(!space->empty());
  auto all = enumerate_bindings(*space);
  REQUIRE(all.is_ok());
  REQUIRE(!all->empty());
  return *all;
}

/// Seeded values in [-1, 1) (a small LCG: the same on every platform).
inline std::vector<double> random_values(size_t n, uint32_t seed) {
  std::vector<double> v(n);
  uint32_t s = seed * 2654435761u + 1;
  for (double& x : v) {
    s = s * 1664525u + 1013904223u;
    x = double(s >> 8) / double(1 << 24) * 2 - 1;
  }
  return v;
}

/// Run instance `b` of `text` with tensors by name (outputs preset, e.g. for +=), scalars
/// and symbols by name; tensors come back decoded (inputs as rounded to their dtypes).
inline void run_instance(const std::string& text, const Binding& b, Tensors& tensors,
                         const std::map<std::string, double>& numbers) {
  const std::string where = binding_text(b) + ": ";
  auto k = parse_and_verify(text, "spec.tile", &b);
  REQUIRE_MESSAGE(k.is_ok(), (where + k.status().str()));
  std::vector<Value> args;
  for (const Param& p : k->params) {
    if (p.is_tensor) {
      REQUIRE_MESSAGE(tensors.count(p.name), p.name);
      args.push_back(Value::tensor(tensors.at(p.name)));
    } else {
      REQUIRE_MESSAGE(numbers.count(p.name), p.name);
      args.push_back(Value::scalar(numbers.at(p.name)));
    }
  }
  for (const std::string& s : k->symbols()) {
    REQUIRE_MESSAGE(numbers.count(s), s);
    args.push_back(Value::scalar(numbers.at(s)));
  }
  Status st = run_parsed(*k, args);
  REQUIRE_MESSAGE(st.is_ok(), (where + st.str()));
  for (size_t i = 0; i < k->params.size(); ++i)
    if (k->params[i].is_tensor) tensors[k->params[i].name] = args[i].values;
}

/// The first, a middle and the last binding: small, mixed and large tiles.
inline std::vector<Binding> sample_bindings(const std::string& text) {
  std::vector<Binding> all = spec_bindings(text);
  return {all.front(), all[all.size() / 2], all.back()};
}

/// |got - want| within a relative `rel` and an absolute `abs`, element by element.
inline void check_close(const std::vector<double>& got, const std::vector<double>& want, double rel, double abs,
                        const std::string& what) {
  REQUIRE(got.size() == want.size());
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    bool ok = std::fabs(got[i] - want[i]) <= rel * std::fabs(want[i]) + abs || (std::isinf(want[i]) && got[i] == want[i]);
    if (!ok && bad++ < 3) FAIL_CHECK(what << ": element " << i << " is " << got[i] << ", want " << want[i]);
  }
  CHECK_MESSAGE(bad == 0, what << ": " << bad << " of " << got.size() << " elements differ");
}

}  // namespace tegula::ir::testing
