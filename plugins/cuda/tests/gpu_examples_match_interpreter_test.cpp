// On a CUDA device: every example, through the public runtime API on "cuda" (lowered as the
// runtime lowers it) and through the plugin with the divisibility and rasterisation a tuned
// launch gives, matches the reference interpreter at shapes that are and are not multiples
// of the tiles. Skips without a device.
#include "plugins/cuda/tests/CudaTest.h"

#include <cstdint>
#include "runtime/include/tegula/tegula.hpp"

namespace gpu_examples_match_interpreter_test {

using namespace tegula;
using namespace tegula::cuda::testing;

namespace {

struct Case {
  const char* file;
  std::vector<std::map<std::string, int64_t>> shapes;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"elementwise/silu_mul.tile", {{{"N", 4096}}, {{"N", 5001}}, {{"N", 7}}}},
      {"elementwise/silu_mul_parallel.tile", {{{"N", 2048}}, {{"N", 3333}}}},
      {"gemm/gemm_bf16.tile", {{{"M", 256}, {"N", 256}, {"K", 64}}, {{"M", 131}, {"N", 257}, {"K", 67}}, {{"M", 300}, {"N", 144}, {"K", 96}}}},
      {"gemm/gemm_f16.tile", {{{"M", 128}, {"N", 384}, {"K", 96}}, {{"M", 77}, {"N", 130}, {"K", 35}}}},
      {"reduce/row_sum.tile", {{{"M", 64}, {"N", 1024}}, {{"M", 33}, {"N", 1000}}, {{"M", 5}, {"N", 3}}}},
      {"softmax/softmax_rows.tile", {{{"M", 64}, {"N", 1024}}, {{"M", 17}, {"N", 1500}}, {{"M", 3}, {"N", 9}}}},
      {"norm/rmsnorm.tile", {{{"M", 64}, {"N", 1024}}, {{"M", 17}, {"N", 1500}}, {{"M", 1}, {"N", 1}}}},
      {"norm/layernorm.tile", {{{"M", 64}, {"N", 1024}}, {{"M", 17}, {"N", 1500}}}},
      {"norm/layernorm_residual.tile", {{{"M", 33}, {"N", 2048}}, {{"M", 5}, {"N", 700}}}},
      {"norm/rmsnorm_residual.tile", {{{"M", 33}, {"N", 2048}}, {{"M", 5}, {"N", 700}}}},
      {"quant/gemm_fp8.tile", {{{"M", 256}, {"N", 256}, {"K", 256}}, {{"M", 67}, {"N", 131}, {"K", 257}}}},
      {"quant/gemv_int4.tile",
       {{{"M", 1}, {"N", 256}, {"K", 1024}, {"KW", 128}, {"G", 8}},
        {{"M", 3}, {"N", 37}, {"K", 300}, {"KW", 38}, {"G", 3}}}},
      {"quant/gemv_int4_zp.tile", {{{"M", 1}, {"N", 131}, {"K", 300}, {"KW", 38}, {"G", 3}}}},
      {"quant/gemm_int4.tile",
       {{{"M", 128}, {"N", 256}, {"K", 256}, {"KW", 32}, {"G", 2}},
        {{"M", 67}, {"N", 131}, {"K", 300}, {"KW", 38}, {"G", 3}}}},
      {"quant/gemm_int4_zp.tile", {{{"M", 67}, {"N", 131}, {"K", 300}, {"KW", 38}, {"G", 3}}}},
  };
  return c;
}

}  // namespace

TEST_CASE("examples through the runtime on cuda:0 match the interpreter") {
  TG_REQUIRE_GPU(gpu);
  if (!gpu->device) return;  // offline check of the tests: nothing to compile here
  RuntimeOptions o;
  o.manifest_paths = std::vector<std::string>{std::string(TEGULA_BINARY_DIR) + "/share/tegula/plugins.d/cuda.json"};
  o.ignore_environment = true;
  o.cache_dir = "off";
  auto rt = Runtime::open(o);
  REQUIRE_MESSAGE(rt.is_ok(), rt.status().str());
  auto dev = rt->find_device("cuda");
  REQUIRE_MESSAGE(dev.is_ok(), dev.status().str());
  for (const Case& c : cases()) {
    std::string text = example(c.file);
    auto k = ir::parse_and_verify(text, c.file);
    REQUIRE(k.is_ok());
    auto kernel = dev->compile(text);
    REQUIRE_MESSAGE(kernel.is_ok(), kernel.status().str());
    for (const auto& shape : c.shapes) {
      for (uint64_t seed : {1, 2}) {
        CAPTURE(c.file);
        CAPTURE(seed);
        auto data = examples::make_launch_data(*k, shape, seed);
        REQUIRE(data.is_ok());
        examples::LaunchData before = *data;
        examples::LaunchData ref = *data;
        auto iargs = examples::interpreter_args(*k, ref);
        REQUIRE(ir::interpret(*k, iargs).is_ok());
        std::vector<Buffer> buffers(k->params.size());
        std::vector<Arg> args;
        for (size_t i = 0; i < k->params.size(); ++i) {
          // Scalars (the FP8 gemm's scales) as the interpreter got them.
          if (!k->params[i].is_tensor) {
            args.push_back(dtype_is_float(k->params[i].dtype) ? Arg::number(data->scalars[i]) : Arg::integer(int64_t(data->scalars[i])));
            continue;
          }
          auto b = dev->alloc(data->tensors[i].bytes.size());
          REQUIRE(b.is_ok());
          buffers[i] = std::move(*b);
          REQUIRE(buffers[i].write(data->tensors[i].bytes).is_ok());
          args.push_back(Arg::tensor(buffers[i]));
        }
        for (int64_t s : data->symbols) args.push_back(Arg::integer(s));
        Status st = kernel->launch(args);
        REQUIRE_MESSAGE(st.is_ok(), st.str());
        REQUIRE(dev->synchronize().is_ok());
        for (size_t i = 0; i < k->params.size(); ++i) {
          if (!k->params[i].is_tensor) continue;
          REQUIRE(buffers[i].read(data->tensors[i].bytes.data(), data->tensors[i].bytes.size()).is_ok());
        }
        auto check = examples::check_outputs(*k, *data);
        REQUIRE(check.is_ok());
        CHECK_MESSAGE(check->passed, examples::format_check(*check));
        // and the same elements as the interpreter, to the output dtype's rounding (four times
        // the relative part of the default tolerance), with the inputs left alone
        Status same = plugin_testing::compare_launch(*k, before, *data, ref, [](DType d) {
          Tolerance t = default_tolerance(d);
          return Tolerance{.abs = t.abs, .rel = 4 * t.rel};
        });
        CHECK_MESSAGE(same.is_ok(), same.str());
      }
    }
  }
}

TEST_CASE("examples lowered with divisibility and rasterisation match the interpreter") {
  TG_REQUIRE_GPU(gpu);
  for (const Case& c : cases()) {
    for (const auto& shape : c.shapes) {
      RunOptions o;
      bool divisible = true;
      for (const auto& [sym, v] : shape) divisible = divisible && v % 16 == 0;
      if (divisible)
        for (const auto& [sym, v] : shape) o.lower.divisibility[sym] = 16;
      o.lower.raster_group = 2;
      o.bindings = shape;
      CAPTURE(c.file);
      CAPTURE(divisible);
      Status st = run_and_compare(*gpu, example(c.file), o);
      CHECK_MESSAGE(st.is_ok(), st.str());
    }
  }
}

}  // namespace gpu_examples_match_interpreter_test
