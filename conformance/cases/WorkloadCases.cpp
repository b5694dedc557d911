/// \file
/// The shipped example kernels as workload rows: each file under examples/ that a user would
/// run (RMSNorm, LayerNorm, the fused residual RMSNorm, the FP8 GEMM) is compiled in (CMakeLists.txt
/// embeds it) and run at edge shapes (one element, a row shorter than a chunk, a prime row
/// length with a tail, several chunks) in each float dtype its tensors can take, so a vendor's
/// report says whether the kernels people run are right on their device. The norms' dtype
/// variants replace the example's f16 tensors and tiles by the dtype (arithmetic stays in f32);
/// the FP8 GEMM runs as written, NotSupported where the device has no e4m3.
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
  const char* file;  ///< under examples/, without .tile
  const char* row;   ///< the report matrix row
  std::vector<Role> roles;
  std::vector<DType> dtypes;  ///< the example's f16 made each of these ({} for the file as it is)
  std::vector<double> scalars;  ///< per parameter (0 for tensors)
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, int64_t>>>> shapes;
  int64_t (*depth)(const std::vector<std::pair<std::string, int64_t>>&);  ///< terms per output
};

int64_t symbol(const std::vector<std::pair<std::string, int64_t>>& s, const char* name) {
  for (const auto& [n, v] : s)
    if (n == name) return v;
  return 0;
}

// Sums of squares (and of deviations) over the row, then a reciprocal square root.
int64_t norm_depth(const std::vector<std::pair<std::string, int64_t>>& s) { return 2 * symbol(s, "N") + 8; }
int64_t gemm_depth(const std::vector<std::pair<std::string, int64_t>>& s) { return symbol(s, "K") + 1; }

const std::vector<std::pair<std::string, std::vector<std::pair<std::string, int64_t>>>> kNormShapes = {
    {"one", {{"M", 1}, {"N", 1}}},
    {"short_row", {{"M", 7}, {"N", 100}}},
    {"prime_tail", {{"M", 5}, {"N", 1531}}},
    {"chunks", {{"M", 9}, {"N", 2048}}}};

}  // namespace

void add_workload_cases(Generator& g) {
  const std::vector<Role> in2out1 = {Role::Input, Role::Input, Role::Output};
  const Workload workloads[] = {
      {"norm/rmsnorm", "workload rmsnorm", in2out1, {DType::F16, DType::BF16, DType::F32}, {}, kNormShapes, norm_depth},
      {"norm/layernorm", "workload layernorm", {Role::Input, Role::Input, Role::Input, Role::Output},
       {DType::F16, DType::BF16, DType::F32}, {}, kNormShapes, norm_depth},
      {"norm/rmsnorm_residual", "workload rmsnorm residual",
       {Role::Input, Role::Input, Role::Input, Role::Output, Role::Output}, {DType::F16, DType::BF16, DType::F32}, {},
       kNormShapes, norm_depth},
      {"quant/gemm_fp8", "workload gemm fp8", {Role::Input, Role::Input, Role::Output, Role::Input, Role::Input}, {},
       {0, 0, 0, 0.5, 3.0},
       {{"one", {{"M", 1}, {"K", 1}, {"N", 1}}},
        {"tails", {{"M", 67}, {"K", 257}, {"N", 131}}},
        {"tiles", {{"M", 128}, {"K", 384}, {"N", 256}}}},
       gemm_depth},
  };
  for (const Workload& w : workloads) {
    std::string text = example(w.file);
    std::string base = w.file;
    base = base.substr(base.find('/') + 1);
    std::vector<DType> dtypes = w.dtypes.empty() ? std::vector<DType>{DType::E4M3} : w.dtypes;
    for (DType d : dtypes) {
      for (const auto& [shape_name, symbols] : w.shapes) {
        CaseSpec c;
        c.name = "tegula.workload." + base + "." + dt(d) + "." + shape_name;
        c.row = w.row;
        c.kernel = text.empty() || w.dtypes.empty() ? text : with_dtype(text, d);
        c.symbols = symbols;
        for (Role r : w.roles) c.tensors.push_back(r == Role::Output ? output() : input(Values::Random));
        c.scalars = w.scalars;
        c.scalars.resize(c.tensors.size(), 0);
        c.check = Check::Accumulate;
        c.operand = d;
        c.accumulator = DType::F32;
        c.depth = w.depth(symbols);
        c.unsupported = text.empty() ? "examples/" + std::string(w.file) + ".tile is not compiled in" : g.needs({d, DType::F32});
        g.add(std::move(c));
      }
    }
  }
}

}  // namespace tegula::conformance
