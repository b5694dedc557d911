/// \file
/// The shipped example kernels as workload rows: each file under examples/ that a user would
/// run (RMSNorm, LayerNorm, the fused residual RMSNorm, the FP8 GEMM, the int4 GEMV and GEMM
/// with and without zero points) is compiled in (CMakeLists.txt
/// embeds it) and run at edge shapes (one element, a row shorter than a chunk, a prime row
/// length with a tail, several chunks) in each float dtype its tensors can take, so a vendor's
/// report says whether the kernels people run are right on their device. The norms' dtype
/// variants replace the example's f16 tensors and tiles by the dtype (arithmetic stays in f32);
/// the FP8 GEMM runs as written, NotSupported where the device has no e4m3, and so do the
/// int4 kernels, whose packed weights are random bit patterns (every nibble at every place).
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
  std::vector<DType> dtypes;    ///< the example's f16 made each of these (with `as_written`: the operand dtype)
  bool as_written;              ///< the file as it is, once, its operand dtypes[0]
  std::vector<double> scalars;  ///< per parameter (0 for tensors)
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, int64_t>>>> shapes;
  int64_t (*depth)(const std::vector<std::pair<std::string, int64_t>>&);  ///< terms per output
  std::vector<Values> values = {};  ///< per tensor ({}: every input Random)
  std::vector<DType> needs = {};    ///< dtypes besides the operand's and f32 the kernel needs
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

// The int4 kernels: ceildiv(K, 8) words and ceildiv(K, 128) groups a row. A decode row and
// a prime N with K whole groups; 7 rows with a group tail and a word tail (K = 300); for the
// gemms, two row blocks and a column tail.
std::vector<std::pair<std::string, int64_t>> int4_shape(int64_t m, int64_t n, int64_t k) {
  return {{"M", m}, {"N", n}, {"K", k}, {"KW", (k + 7) / 8}, {"G", (k + 127) / 128}};
}
const std::vector<std::pair<std::string, std::vector<std::pair<std::string, int64_t>>>> kGemvInt4Shapes = {
    {"m1_prime_n", int4_shape(1, 131, 256)}, {"m7_tails", int4_shape(7, 37, 300)}};
const std::vector<std::pair<std::string, std::vector<std::pair<std::string, int64_t>>>> kGemmInt4Shapes = {
    {"m1_prime_n", int4_shape(1, 131, 256)}, {"m7_tails", int4_shape(7, 37, 300)}, {"tiles", int4_shape(65, 131, 256)}};

}  // namespace

void add_workload_cases(Generator& g) {
  const std::vector<Role> in2out1 = {Role::Input, Role::Input, Role::Output};
  const std::vector<Role> int4 = {Role::Input, Role::Input, Role::Input, Role::Output};
  const std::vector<Role> int4_zp = {Role::Input, Role::Input, Role::Input, Role::Input, Role::Output};
  const std::vector<Values> int4_values = {Values::Random, Values::Bits, Values::Random, Values::Random,
                                           Values::Random};
  const std::vector<DType> int4_needs = {DType::I32, DType::U8};
  const Workload workloads[] = {
      {"norm/rmsnorm", "workload rmsnorm", in2out1, {DType::F16, DType::BF16, DType::F32}, false, {}, kNormShapes,
       norm_depth},
      {"norm/layernorm", "workload layernorm", {Role::Input, Role::Input, Role::Input, Role::Output},
       {DType::F16, DType::BF16, DType::F32}, false, {}, kNormShapes, norm_depth},
      {"norm/rmsnorm_residual", "workload rmsnorm residual",
       {Role::Input, Role::Input, Role::Input, Role::Output, Role::Output}, {DType::F16, DType::BF16, DType::F32}, false,
       {}, kNormShapes, norm_depth},
      {"quant/gemm_fp8", "workload gemm fp8", {Role::Input, Role::Input, Role::Output, Role::Input, Role::Input},
       {DType::E4M3}, true, {0, 0, 0, 0.5, 3.0},
       {{"one", {{"M", 1}, {"K", 1}, {"N", 1}}},
        {"tails", {{"M", 67}, {"K", 257}, {"N", 131}}},
        {"tiles", {{"M", 128}, {"K", 384}, {"N", 256}}}},
       gemm_depth},
      {"quant/gemv_int4", "workload gemv int4", int4, {DType::F16}, true, {}, kGemvInt4Shapes, gemm_depth, int4_values,
       int4_needs},
      {"quant/gemv_int4_zp", "workload gemv int4 zero points", int4_zp, {DType::F16}, true, {}, kGemvInt4Shapes,
       gemm_depth, int4_values, int4_needs},
      {"quant/gemm_int4", "workload gemm int4", int4, {DType::F16}, true, {}, kGemmInt4Shapes, gemm_depth, int4_values,
       int4_needs},
      {"quant/gemm_int4_zp", "workload gemm int4 zero points", int4_zp, {DType::F16}, true, {}, kGemmInt4Shapes,
       gemm_depth, int4_values, int4_needs},
  };
  for (const Workload& w : workloads) {
    std::string text = example(w.file);
    std::string base = w.file;
    base = base.substr(base.find('/') + 1);
    for (DType d : w.dtypes) {
      for (const auto& [shape_name, symbols] : w.shapes) {
        CaseSpec c;
        c.name = "tegula.workload." + base + "." + dt(d) + "." + shape_name;
        c.row = w.row;
        c.kernel = text.empty() || w.as_written ? text : with_dtype(text, d);
        c.symbols = symbols;
        for (size_t i = 0; i < w.roles.size(); ++i) {
          Values v = i < w.values.size() ? w.values[i] : Values::Random;
          c.tensors.push_back(w.roles[i] == Role::Output ? output() : input(v));
        }
        c.scalars = w.scalars;
        c.scalars.resize(c.tensors.size(), 0);
        c.check = Check::Accumulate;
        c.operand = d;
        c.accumulator = DType::F32;
        c.depth = w.depth(symbols);
        c.unsupported = text.empty() ? "examples/" + std::string(w.file) + ".tile is not compiled in" : g.needs({d, DType::F32});
        for (DType other : w.needs)
          if (c.unsupported.empty()) c.unsupported = g.needs({other});
        g.add(std::move(c));
      }
    }
  }
}

}  // namespace tegula::conformance
