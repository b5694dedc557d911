/// \file
/// The shipped example kernels as workload rows: each file under examples/ that a user would
/// run (RMSNorm, LayerNorm, the fused residual RMSNorm) is compiled in (CMakeLists.txt
/// embeds it) and run at edge shapes (one element, a row shorter than a chunk, a prime row
/// length with a tail, several chunks) in each float dtype its tensors can take, so a vendor's
/// report says whether the kernels people run are right on their device. The dtype variants
/// replace the example's f16 tensors and tiles by the dtype; arithmetic stays in f32.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "conformance/WorkloadKernels.h"
#include "conformance/cases/Generator.h"

namespace tegula::conformance {
namespace {

using namespace kt;

std::string example(const std::string& name) {
  for (const auto& [n, text] : kWorkloadKernels)
    if (name == n) return text;
  return "";
}

/// `text` with every f16 tensor and tile made `d`.
std::string with_dtype(std::string text, DType d) {
  const std::string from = "f16[", to = std::string(dt(d)) + "[";
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    bool inside_bf16 = at > 0 && text[at - 1] == 'b';
    if (inside_bf16) continue;
    text.replace(at, from.size(), to);
  }
  return text;
}

struct Workload {
  const char* file;      ///< under examples/, without .tile
  const char* row;       ///< the report matrix row
  std::vector<Role> roles;
};

struct Shape {
  const char* name;
  int64_t m, n;
};

}  // namespace

void add_workload_cases(Generator& g) {
  const Workload workloads[] = {
      {"norm/rmsnorm", "workload rmsnorm", {Role::Input, Role::Input, Role::Output}},
      {"norm/layernorm", "workload layernorm", {Role::Input, Role::Input, Role::Input, Role::Output}},
      {"norm/rmsnorm_residual", "workload rmsnorm residual",
       {Role::Input, Role::Input, Role::Input, Role::Output, Role::Output}},
  };
  const Shape shapes[] = {{"one", 1, 1}, {"short_row", 7, 100}, {"prime_tail", 5, 1531}, {"chunks", 9, 2048}};
  for (const Workload& w : workloads) {
    std::string text = example(w.file);
    std::string base = w.file;
    base = base.substr(base.find('/') + 1);
    for (DType d : {DType::F16, DType::BF16, DType::F32}) {
      for (const Shape& s : shapes) {
        CaseSpec c;
        c.name = "tegula.workload." + base + "." + dt(d) + "." + s.name;
        c.row = w.row;
        c.kernel = text.empty() ? "" : with_dtype(text, d);
        c.symbols = {{"M", s.m}, {"N", s.n}};
        for (Role r : w.roles) c.tensors.push_back(r == Role::Output ? output() : input(Values::Random));
        c.scalars.assign(c.tensors.size(), 0);
        // Sums of squares (and of deviations) over the row, then a reciprocal square root.
        c.check = Check::Accumulate;
        c.operand = d;
        c.accumulator = DType::F32;
        c.depth = 2 * s.n + 8;
        c.unsupported = text.empty() ? "examples/" + std::string(w.file) + ".tile is not compiled in" : g.needs({d, DType::F32});
        g.add(std::move(c));
      }
    }
  }
}

}  // namespace tegula::conformance
