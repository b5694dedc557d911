// Every example, run on the reference interpreter at several shapes (including sizes that
// are not multiples of its tiles, and single elements), matches its direct computation.
#include <doctest/doctest.h>

#include <cstdint>
#include <iterator>
#include <vector>

#include "examples/checks/Checks.h"
#include "ir/Parser.h"
#include "ir/tests/TestUtil.h"

namespace examples_reference_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

struct Shape {
  const char* file;
  const char* bindings;
};

const Shape kShapes[] = {
    {"gemm/gemm_bf16.tile", "M=128,N=128,K=32"},   {"gemm/gemm_bf16.tile", "M=1,N=1,K=1"},
    {"gemm/gemm_bf16.tile", "M=131,N=257,K=67"},   {"gemm/gemm_f16.tile", "M=97,N=8,K=101"},
    {"gemm/gemm_f16.tile", "M=256,N=136,K=96"},    {"softmax/softmax_rows.tile", "M=1,N=1"},
    {"softmax/softmax_rows.tile", "M=13,N=1031"},  {"softmax/softmax_rows.tile", "M=4,N=512"},
    {"reduce/row_sum.tile", "M=1,N=1"},            {"reduce/row_sum.tile", "M=17,N=1537"},
    {"elementwise/silu_mul.tile", "N=1"},          {"elementwise/silu_mul.tile", "N=4099"},
    {"elementwise/silu_mul_parallel.tile", "N=7"}, {"elementwise/silu_mul_parallel.tile", "N=2048"},
    {"norm/rmsnorm.tile", "M=1,N=1"},              {"norm/rmsnorm.tile", "M=7,N=1031"},
    {"norm/layernorm.tile", "M=1,N=1"},            {"norm/layernorm.tile", "M=9,N=1031"},
    {"norm/rmsnorm_residual.tile", "M=1,N=1"},     {"norm/rmsnorm_residual.tile", "M=6,N=1536"},
    {"norm/layernorm_residual.tile", "M=1,N=1"},   {"norm/layernorm_residual.tile", "M=5,N=1031"},
    {"quant/gemm_fp8.tile", "M=1,N=1,K=1"},        {"quant/gemm_fp8.tile", "M=67,N=131,K=257"},
    {"attention/flash_attn_d64.tile", "B=1,H=1,S=1"},           {"attention/flash_attn_d64.tile", "B=2,H=1,S=70"},
    {"attention/flash_attn_causal_d64.tile", "B=1,H=2,S=7"},    {"attention/flash_attn_causal_d64.tile", "B=1,H=1,S=130"},
    {"attention/flash_attn_d128.tile", "B=1,H=1,S=65"},         {"attention/flash_attn_causal_d128.tile", "B=1,H=1,S=70"},
};

// MLA decode (examples/mla): one key and a tail block, fewer heads than a head group (masked
// by the views), empty splits (L = 7 over 3 splits), and the combine on its own inputs; the
// split pair against the final output and the paged split are in examples_mla_test.cpp.
const Shape kMlaShapes[] = {
    {"mla/mla_decode.tile", "B=1,H=4,L=1"},
    {"mla/mla_decode.tile", "B=2,H=16,L=130"},
    {"mla/mla_decode_split.tile", "B=1,H=4,L=7,NS=3"},
    {"mla/mla_decode_split.tile", "B=2,H=5,L=130,NS=2"},
    {"mla/mla_combine.tile", "B=2,H=17,NS=3"},
};

// The int4 kernels: one element (a word and a group of one value), K with word and group tails.
const Shape kInt4Shapes[] = {
    {"quant/gemv_int4.tile", "M=1,N=1,K=1,KW=1,G=1"},    {"quant/gemv_int4.tile", "M=2,N=37,K=300,KW=38,G=3"},
    {"quant/gemv_int4_zp.tile", "M=1,N=1,K=1,KW=1,G=1"}, {"quant/gemv_int4_zp.tile", "M=2,N=37,K=300,KW=38,G=3"},
    {"quant/gemm_int4.tile", "M=1,N=1,K=1,KW=1,G=1"},    {"quant/gemm_int4.tile", "M=67,N=131,K=136,KW=17,G=2"},
    {"quant/gemm_int4_zp.tile", "M=1,N=1,K=1,KW=1,G=1"}, {"quant/gemm_int4_zp.tile", "M=67,N=131,K=136,KW=17,G=2"},
};

Result<examples::CheckResult> run_example(const std::string& text, const std::string& bindings, uint64_t seed) {
  TG_ASSIGN_OR_RETURN(Kernel k, parse_and_verify(text, "example"));
  TG_ASSIGN_OR_RETURN(auto b, examples::parse_bindings(bindings));
  TG_ASSIGN_OR_RETURN(examples::LaunchData data, examples::make_launch_data(k, b, seed));
  std::vector<Arg> args = examples::interpreter_args(k, data);
  TG_RETURN_IF_ERROR(interpret(k, args));
  return examples::check_outputs(k, data);
}

}  // namespace

TEST_CASE("examples match their direct computations") {
  std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
  shapes.insert(shapes.end(), std::begin(kInt4Shapes), std::end(kInt4Shapes));
  shapes.insert(shapes.end(), std::begin(kMlaShapes), std::end(kMlaShapes));
  for (const Shape& s : shapes) {
    CAPTURE(s.file);
    CAPTURE(s.bindings);
    std::string text = testing::read_example(std::string(TEGULA_SOURCE_DIR) + "/examples/" + s.file);
    for (uint64_t seed : {1, 2}) {
      auto r = run_example(text, s.bindings, seed);
      REQUIRE_MESSAGE(r.is_ok(), r.status().str());
      INFO(examples::format_check(*r));
      CHECK(r->passed);
    }
  }
}

TEST_CASE("the check catches a wrong kernel: a gemm that skips the last K tile") {
  std::string text = testing::read_example(std::string(TEGULA_SOURCE_DIR) + "/examples/gemm/gemm_bf16.tile");
  std::string wrong = text;
  auto pos = wrong.find("ceildiv(K, 32)");
  REQUIRE(pos != std::string::npos);
  wrong.replace(pos, 14, "K / 32");
  auto r = run_example(wrong, "M=64,N=64,K=40", 3);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK_FALSE(r->passed);
  CHECK(r->outputs[0].mismatches > 0);
}

TEST_CASE("the check catches unwritten outputs: softmax that skips its last row block") {
  std::string text = testing::read_example(std::string(TEGULA_SOURCE_DIR) + "/examples/softmax/softmax_rows.tile");
  auto pos = text.find("grid(ceildiv(M, 4))");
  REQUIRE(pos != std::string::npos);
  text.replace(pos, 19, "grid(M / 4)");
  auto r = run_example(text, "M=6,N=100", 1);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK_FALSE(r->passed);
  CHECK(r->outputs[0].mismatches == 200);
}

/// Runs a two-output example (H, then Y) on the interpreter, checks it passes, moves one
/// element of output `moved` (the parameter at `param`) by `delta`, and checks that exactly
/// that output reports exactly that one mismatch.
void check_one_wrong_element(const char* file, const char* bind, size_t param, int64_t element, double delta,
                             size_t moved) {
  std::string text = testing::read_example(std::string(TEGULA_SOURCE_DIR) + "/examples/" + file);
  auto k = parse_and_verify(text, "example");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  auto b = examples::parse_bindings(bind);
  REQUIRE(b.is_ok());
  auto data = examples::make_launch_data(*k, *b, 1);
  REQUIRE(data.is_ok());
  std::vector<Arg> args = examples::interpreter_args(*k, *data);
  REQUIRE(interpret(*k, args).is_ok());
  auto good = examples::check_outputs(*k, *data);
  REQUIRE(good.is_ok());
  CHECK(good->passed);
  examples::HostTensor& t = data->tensors[param];
  store_element(t.dtype, t.at(element) + delta, t.bytes.data() + size_t(element) * dtype_size(t.dtype));
  auto r = examples::check_outputs(*k, *data);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  REQUIRE(r->outputs.size() == 2);
  CHECK(r->outputs[0].name == "H");
  CHECK(r->outputs[1].name == "Y");
  CHECK(r->outputs[moved].mismatches == 1);
  CHECK(r->outputs[1 - moved].mismatches == 0);
  CHECK_FALSE(r->passed);
}

TEST_CASE("the check compares every output: one wrong element of the residual RMSNorm's H") {
  // H is the fourth parameter; its element 17 moves by 1 (Y, computed already, stays right).
  check_one_wrong_element("norm/rmsnorm_residual.tile", "M=5,N=300", 3, 17, 1.0, 0);
}

TEST_CASE("the check compares both outputs of the residual LayerNorm: one wrong element of Y") {
  // Y is the sixth parameter; its element 701 (row 1, column 1) moves by 0.5.
  check_one_wrong_element("norm/layernorm_residual.tile", "M=5,N=700", 5, 701, 0.5, 1);
}

TEST_CASE("the check catches a LayerNorm that counts padded columns in its variance") {
  std::string text = testing::read_example(std::string(TEGULA_SOURCE_DIR) + "/examples/norm/layernorm.tile");
  const std::string masked = "select(j * 512 + idx(1) < N, (xs - mean) * (xs - mean), 0.0)";
  auto pos = text.find(masked);
  REQUIRE(pos != std::string::npos);
  text.replace(pos, masked.size(), "(xs - mean) * (xs - mean)");
  auto r = run_example(text, "M=4,N=1000", 1);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK_FALSE(r->passed);
}

TEST_CASE("the int4 check catches swapped nibbles, an ignored zero point and a skipped group scale") {
  struct Wrong {
    const char* file;
    const char* from;
    const char* to;
  };
  const Wrong wrongs[] = {{"quant/gemv_int4.tile", "4 * j)", "4 * (j ^ 1))"},
                          {"quant/gemv_int4_zp.tile", "8388608.0 + zs[w / 16, n]", "8388616.0 + 0.0 * zs[w / 16, n]"},
                          {"quant/gemm_int4.tile", "S[c / 2, bx * 128]", "S[0, bx * 128]"}};
  for (const Wrong& w : wrongs) {
    CAPTURE(w.file);
    std::string text = testing::read_example(std::string(TEGULA_SOURCE_DIR) + "/examples/" + w.file);
    auto pos = text.find(w.from);
    REQUIRE(pos != std::string::npos);
    text.replace(pos, std::string(w.from).size(), w.to);
    auto r = run_example(text, "M=2,N=37,K=300,KW=38,G=3", 4);
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    CHECK_FALSE(r->passed);
  }
}

TEST_CASE("the H200 int4 tiles match their direct computations") {
  // The GEMV over two chunks of 8192 with a tail; the GEMMs over two row blocks and tails.
  const Shape tiles[] = {{"gemv_int4_h200.tile", "M=2,N=40,K=9000,KW=1125,G=71"},
                         {"gemm_int4_h200.tile", "M=130,N=131,K=300,KW=38,G=3"},
                         {"gemm_int4_f16w_h200.tile", "M=257,N=20,K=136,KW=17,G=2"}};
  for (const Shape& s : tiles) {
    CAPTURE(s.file);
    std::string text = testing::read_example(std::string(TEGULA_SOURCE_DIR) + "/bench/cuda/" + s.file);
    auto r = run_example(text, s.bindings, 1);
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    INFO(examples::format_check(*r));
    CHECK(r->passed);
  }
}

TEST_CASE("the H200 norm tiles match their direct computations") {
  // Rows of 8192 held in registers (bench/cuda); the lean variants apply W and B by separate
  // maps after the reductions, and must agree with the float64 LayerNorm as the others do.
  for (const char* file : {"rmsnorm_h200.tile", "layernorm_h200.tile", "layernorm_lean_h200.tile",
                           "layernorm_residual_h200.tile", "layernorm_residual_lean_h200.tile"}) {
    CAPTURE(file);
    std::string text = testing::read_example(std::string(TEGULA_SOURCE_DIR) + "/bench/cuda/" + file);
    auto r = run_example(text, "M=3", 1);
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    INFO(examples::format_check(*r));
    CHECK(r->passed);
  }
}

TEST_CASE("the lean H200 LayerNorm tile's check catches a bias applied twice") {
  std::string text = testing::read_example(std::string(TEGULA_SOURCE_DIR) + "/bench/cuda/layernorm_lean_h200.tile");
  const std::string from = "map x = x + d", to = "map x = x + d + d";
  auto pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  text.replace(pos, from.size(), to);
  auto r = run_example(text, "M=3", 1);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK_FALSE(r->passed);
}

TEST_CASE("the attention check catches an unmasked tail, a missing causal mask and a dropped key block") {
  struct Mutation {
    const char* file;
    std::string from, to;
    const char* bindings;
  };
  const Mutation mutations[] = {
      // Keys past S (zero padding) take part in the softmax.
      {"attention/flash_attn_d64.tile", "select(j * 64 + idx(1) < S, Sc * (scale * 1.4426950408889634), -inf)",
       "Sc * (scale * 1.4426950408889634)", "B=1,H=2,S=7"},
      // Queries see keys after them on the diagonal block.
      {"attention/flash_attn_causal_d64.tile", "select(idx(1) <= idx(0), Sc * (scale * 1.4426950408889634), -inf)",
       "Sc * (scale * 1.4426950408889634)", "B=1,H=1,S=70"},
      // The last whole key block is skipped.
      {"attention/flash_attn_d128.tile", "pipelined j in 0 .. S / 64", "pipelined j in 0 .. S / 64 - 1", "B=1,H=1,S=130"},
  };
  for (const Mutation& m : mutations) {
    CAPTURE(m.file);
    std::string text = testing::read_example(std::string(TEGULA_SOURCE_DIR) + "/examples/" + m.file);
    size_t at = text.find(m.from);
    REQUIRE(at != std::string::npos);
    text.replace(at, m.from.size(), m.to);
    auto r = run_example(text, m.bindings, 5);
    REQUIRE_MESSAGE(r.is_ok(), r.status().str());
    CHECK_FALSE(r->passed);
  }
}

}  // namespace examples_reference_test
