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
/// FlashAttention (examples/attention, non-causal and causal, head dims 64 and 128) runs in
/// bf16 and f16 at sequences 1, 7 (a partial block), 130 (blocks and a tail) and 1000, with
/// several heads and batches; a workload that the device's lowering refuses (the shared memory
/// a small device lacks) is NotSupported there with the lowering's reason.
/// MLA decode (examples/mla: one pass, the flash-decoding split over a dense and a paged cache,
/// the combine) runs in bf16 as written at L = 1, 7 (a partial block) and 130 (blocks and a
/// tail), with fewer heads than a head group and with empty splits; the paged split reads a
/// random block table and random lengths (empty sequences included). A workload that the
/// device's lowering refuses (the 144 KiB of shared memory the MLA kernels take, which a
/// small device lacks) is NotSupported there with the lowering's reason.
/// Mamba-2's chunked scan (examples/mamba2: chunk states, state passing, chunk scan, and the
/// fused kernel) runs in bf16 as written (states f32) at L = 1, 7 (a partial chunk) and 130
/// (chunks and a tail) between them, with two heads sharing one group of B and C. Its log-decays A are signed
/// zeros (every decay exactly 1): the suite's bound runs the kernel on |inputs|, and exp(|A|)
/// would inflate it by up to e^(2 sum |A|) over a chunk, a bound that catches nothing; the
/// decays themselves are checked against float64 by ir/tests/examples_mamba2_test.cpp.
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "conformance/WorkloadKernels.h"
#include "conformance/cases/Generator.h"
#include "ir/Lower.h"
#include "ir/Parser.h"

namespace tegula::conformance {
namespace {

using namespace kt;

std::string example(const std::string& name) { return workload_kernel(name); }

/// `text` with every `from_dtype` (f16 or bf16) tensor and tile made `d`.
std::string with_dtype(std::string text, DType from_dtype, DType d) {
  const std::string from = std::string(dt(from_dtype)) + "[", to = std::string(dt(d)) + "[";
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
  DType from = DType::F16;          ///< the example's dtype that `dtypes` replace
  DType accumulator = DType::F32;   ///< whose unit roundoff the tolerance uses (the operand's when `from`)
  std::vector<int64_t> index_limits = {};  ///< per tensor: the bound of Values::Indices
};

int64_t symbol(const std::vector<std::pair<std::string, int64_t>>& s, const char* name) {
  for (const auto& [n, v] : s)
    if (n == name) return v;
  return 0;
}

// Sums of squares (and of deviations) over the row, then a reciprocal square root.
int64_t norm_depth(const std::vector<std::pair<std::string, int64_t>>& s) { return 2 * symbol(s, "N") + 8; }
int64_t gemm_depth(const std::vector<std::pair<std::string, int64_t>>& s) { return symbol(s, "K") + 1; }
// Attention rounds P to the operand dtype before P V, as every FlashAttention does, and the
// oracle (the same kernel in float64) rounds it too: outputs differ where a probability lies
// on a rounding boundary, by one rounding of that term, so the bound is one unit roundoff of
// the operand dtype (Workload::accumulator) over the terms' magnitude. A missing or extra key
// costs about 1/S of it, which the short sequences catch.
int64_t attention_depth(const std::vector<std::pair<std::string, int64_t>>&) { return 1; }

const std::vector<std::pair<std::string, std::vector<std::pair<std::string, int64_t>>>> kAttentionShapes = {
    {"seq1", {{"B", 1}, {"H", 2}, {"S", 1}}},
    {"seq7", {{"B", 2}, {"H", 1}, {"S", 7}}},
    {"seq130", {{"B", 1}, {"H", 1}, {"S", 130}}}};

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

// MLA decode rounds P to bf16 before the values gemm, as attention does: one unit roundoff of
// bf16 over the terms' magnitude (the oracle rounds P too). The combine sums NS weighted f32
// partials.
int64_t mla_depth(const std::vector<std::pair<std::string, int64_t>>&) { return 1; }
int64_t combine_depth(const std::vector<std::pair<std::string, int64_t>>& s) { return symbol(s, "NS") + 8; }

/// The MLA decode rows (examples/mla), as written in bf16 (the combine's partials in f32).
std::vector<Workload> mla_workloads() {
  using Shapes = std::vector<std::pair<std::string, std::vector<std::pair<std::string, int64_t>>>>;
  // Few rows: each shape is a compile of a large kernel on the CPU device (CI time); the
  // split rows cover L = 7 and more shapes, the tests (ir/tests/examples_mla_test.cpp) more.
  const Shapes whole = {{"seq1", {{"B", 1}, {"H", 4}, {"L", 1}}}, {"seq130", {{"B", 2}, {"H", 3}, {"L", 130}}}};
  // L = 7 over 3 splits leaves two empty; 130 over 2 splits is two blocks and a tail block.
  const Shapes split = {{"seq7_empty_splits", {{"B", 1}, {"H", 4}, {"L", 7}, {"NS", 3}}},
                        {"seq130", {{"B", 2}, {"H", 5}, {"L", 130}, {"NS", 2}}}};
  // 5 pages of 64, up to 3 a sequence; lengths random in [0, 192].
  const Shapes paged = {{"pages", {{"B", 3}, {"H", 4}, {"NP", 5}, {"MP", 3}, {"NS", 2}}}};
  const Shapes combine = {{"heads17", {{"B", 2}, {"H", 17}, {"NS", 3}}}};
  // The scale is a parameter too (an Input row that carries the scalar).
  const std::vector<Role> dense = {Role::Input, Role::Input, Role::Output, Role::Output, Role::Input};
  const std::vector<Role> pages = {Role::Input,  Role::Input,  Role::Input, Role::Input,
                                   Role::Output, Role::Output, Role::Input};
  const std::vector<Role> partials = {Role::Input, Role::Input, Role::Output, Role::Output};
  const std::vector<Values> table = {Values::Random, Values::Random, Values::Indices, Values::Indices};
  const double scale = 0.0417;  // 1 / sqrt(576)
  const DType bf16 = DType::BF16;
  return {{"mla/mla_decode",
           "workload mla decode",
           dense,
           {bf16},
           true,
           {0, 0, 0, 0, scale},
           whole,
           mla_depth,
           {},
           {},
           bf16,
           bf16},
          {"mla/mla_decode_split",
           "workload mla decode split",
           dense,
           {bf16},
           true,
           {0, 0, 0, 0, scale},
           split,
           mla_depth,
           {},
           {},
           bf16,
           bf16},
          {"mla/mla_decode_paged_split",
           "workload mla decode paged",
           pages,
           {bf16},
           true,
           {0, 0, 0, 0, 0, 0, scale},
           paged,
           mla_depth,
           table,
           {DType::I32},
           bf16,
           bf16,
           {0, 0, 5, 3 * 64 + 1}},
          {"mla/mla_combine",
           "workload mla combine",
           partials,
           {DType::F32},
           true,
           {},
           combine,
           combine_depth,
           {},
           {bf16}}};
}

// Mamba-2: (C B^T) o L, B scaled by its decay and the state entering a chunk are rounded to
// bf16 for their gemms (the oracle rounds them too): one bf16 rounding per term, as attention's
// P. State passing is f32 adds, one a chunk.
int64_t mamba2_depth(const std::vector<std::pair<std::string, int64_t>>&) { return 1; }
int64_t passing_depth(const std::vector<std::pair<std::string, int64_t>>& s) { return (symbol(s, "L") + 63) / 64 + 1; }

/// The Mamba-2 rows (examples/mamba2), as written.
std::vector<Workload> mamba2_workloads() {
  using Shapes = std::vector<std::pair<std::string, std::vector<std::pair<std::string, int64_t>>>>;
  auto shape = [](int64_t l, bool groups, bool states) {
    std::vector<std::pair<std::string, int64_t>> s = {{"B", 1}, {"H", 2}, {"L", l}};
    if (groups) s.push_back({"G", 1});
    if (states) s.push_back({"CN", (l + 63) / 64 * 128});
    return s;
  };
  // Few rows: each is a compile on the CPU device (CI time). L = 7 is one partial chunk; 130 is
  // two chunks and a tail; the tests (ir/tests/examples_mamba2_test.cpp) run more shapes.
  const Shapes state = {{"seq7", shape(7, true, true)}};
  const Shapes passing = {{"seq130", shape(130, false, true)}};
  const Shapes scan = {{"seq130", shape(130, true, true)}};
  const Shapes fused = {{"seq1", shape(1, true, false)}, {"seq130", shape(130, true, false)}};
  const Role in = Role::Input, out = Role::Output;
  const Values r = Values::Random, zeros = Values::SignedZeros;
  const DType bf16 = DType::BF16;
  return {{"mamba2/mamba2_chunk_state", "workload mamba2 chunk state", {in, in, in, out}, {bf16}, true, {}, state,
           mamba2_depth, {r, zeros, r}, {}, bf16, bf16},
          {"mamba2/mamba2_state_passing", "workload mamba2 state passing", {in, in, out, out}, {DType::F32}, true, {},
           passing, passing_depth, {r, zeros}},
          {"mamba2/mamba2_chunk_scan", "workload mamba2 chunk scan", {in, in, in, in, in, out}, {bf16}, true, {}, scan,
           mamba2_depth, {r, zeros, r, r, r}, {}, bf16, bf16},
          {"mamba2/mamba2_ssd", "workload mamba2 ssd fused", {in, in, in, in, out, out}, {bf16}, true, {}, fused,
           mamba2_depth, {r, zeros, r, r}, {}, bf16, bf16}};
}

}  // namespace

void add_workload_cases(Generator& g) {
  const std::vector<Role> in2out1 = {Role::Input, Role::Input, Role::Output};
  const std::vector<Role> int4 = {Role::Input, Role::Input, Role::Input, Role::Output};
  const std::vector<Role> int4_zp = {Role::Input, Role::Input, Role::Input, Role::Input, Role::Output};
  const std::vector<Values> int4_values = {Values::Random, Values::Bits, Values::Random, Values::Random,
                                           Values::Random};
  const std::vector<DType> int4_needs = {DType::I32, DType::U8};
  const std::vector<Role> attention = {Role::Input, Role::Input, Role::Input, Role::Output, Role::Output, Role::Input};
  const Workload workloads[] = {
      {"norm/rmsnorm", "workload rmsnorm", in2out1, {DType::F16, DType::BF16, DType::F32}, false, {}, kNormShapes,
       norm_depth},
      {"norm/layernorm", "workload layernorm", {Role::Input, Role::Input, Role::Input, Role::Output},
       {DType::F16, DType::BF16, DType::F32}, false, {}, kNormShapes, norm_depth},
      {"norm/rmsnorm_residual", "workload rmsnorm residual",
       {Role::Input, Role::Input, Role::Input, Role::Output, Role::Output}, {DType::F16, DType::BF16, DType::F32}, false,
       {}, kNormShapes, norm_depth},
      {"norm/layernorm_residual", "workload layernorm residual",
       {Role::Input, Role::Input, Role::Input, Role::Input, Role::Output, Role::Output},
       {DType::F16, DType::BF16, DType::F32}, false, {}, kNormShapes, norm_depth},
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
      {"attention/flash_attn_d64", "workload attention d64", attention, {DType::BF16, DType::F16}, false,
       {0, 0, 0, 0, 0, 0.125}, kAttentionShapes, attention_depth, {}, {}, DType::BF16, DType::BF16},
      {"attention/flash_attn_causal_d64", "workload attention causal d64", attention, {DType::BF16, DType::F16}, false,
       {0, 0, 0, 0, 0, 0.125}, kAttentionShapes, attention_depth, {}, {}, DType::BF16, DType::BF16},
      {"attention/flash_attn_d128", "workload attention d128", attention, {DType::BF16}, false, {0, 0, 0, 0, 0, 0.0884},
       kAttentionShapes, attention_depth, {}, {}, DType::BF16, DType::BF16},
      {"attention/flash_attn_causal_d128", "workload attention causal d128", attention, {DType::BF16}, false,
       {0, 0, 0, 0, 0, 0.0884}, {{"seq1", {{"B", 1}, {"H", 1}, {"S", 1}}}, {"seq1000", {{"B", 1}, {"H", 1}, {"S", 1000}}}},
       attention_depth, {}, {}, DType::BF16, DType::BF16},
  };
  std::vector<Workload> rows(std::begin(workloads), std::end(workloads));
  for (Workload& w : mla_workloads()) rows.push_back(std::move(w));
  for (Workload& w : mamba2_workloads()) rows.push_back(std::move(w));
  for (const Workload& w : rows) {
    std::string text = example(w.file);
    std::string base = w.file;
    base = base.substr(base.find('/') + 1);
    for (DType d : w.dtypes) {
      std::string kernel = text.empty() || w.as_written ? text : with_dtype(text, w.from, d);
      std::string refused = kernel.empty() ? "" : lowering_refusal(kernel, g.target());
      for (const auto& [shape_name, symbols] : w.shapes) {
        CaseSpec c;
        c.name = "tegula.workload." + base + "." + dt(d) + "." + shape_name;
        c.row = w.row;
        c.kernel = kernel;
        c.symbols = symbols;
        for (size_t i = 0; i < w.roles.size(); ++i) {
          Values v = i < w.values.size() ? w.values[i] : Values::Random;
          int64_t limit = i < w.index_limits.size() ? w.index_limits[i] : 0;
          c.tensors.push_back(w.roles[i] == Role::Output ? output() : input(v, limit));
        }
        c.scalars = w.scalars;
        c.scalars.resize(c.tensors.size(), 0);
        c.check = Check::Accumulate;
        c.operand = d;
        c.accumulator = w.accumulator == DType::F32 ? DType::F32 : d;
        c.depth = w.depth(symbols);
        c.unsupported = text.empty() ? "examples/" + std::string(w.file) + ".tile is not compiled in" : g.needs({d, DType::F32});
        for (DType other : w.needs)
          if (c.unsupported.empty()) c.unsupported = g.needs({other});
        if (c.unsupported.empty()) c.unsupported = refused;
        g.add(std::move(c));
      }
    }
  }
}

}  // namespace tegula::conformance
