// IR text -> compile for a device -> launch -> results, on the reference device; the example
// kernels pass their direct-computation checks when run through the runtime.
#include <doctest/doctest.h>

#include <cstdint>

#include "examples/checks/Checks.h"
#include "ir/Parser.h"
#include "runtime/tests/TestSupport.h"

namespace compile_launch_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("axpb over a ragged size") {
  auto rt = open_runtime({reference_manifest()});
  auto d = rt->find_device("reference");
  auto k = d->compile(axpb_ir());
  REQUIRE(k.is_ok());
  CHECK(k->name() == "axpb");
  CHECK(k->arg_count() == 5);
  const int n = 150;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = float(i);
  auto bx = d->alloc(n * 4);
  auto by = d->alloc(n * 4);
  REQUIRE(bx->write(x).is_ok());
  REQUIRE(k->launch({Arg::tensor(*bx), Arg::tensor(*by), Arg::number(2.0), Arg::integer(1), Arg::integer(n)}).is_ok());
  REQUIRE(d->synchronize().is_ok());
  auto y = by->read<float>(n);
  REQUIRE(y.is_ok());
  for (int i = 0; i < n; ++i) CHECK((*y)[i] == 2.0f * float(i) + 1.0f);
}

TEST_CASE("the launch signature is visible through the C API") {
  auto rt = open_runtime({reference_manifest()});
  auto k = rt->find_device("reference")->compile(axpb_ir());
  REQUIRE(k.is_ok());
  const char* expected_names[] = {"X", "Y", "a", "b", "N"};
  tegula_arg_kind expected_kinds[] = {TEGULA_ARG_TENSOR, TEGULA_ARG_TENSOR, TEGULA_ARG_FLOAT, TEGULA_ARG_FLOAT,
                                      TEGULA_ARG_INT};
  for (size_t i = 0; i < 5; ++i) {
    tegula_arg_kind kind;
    const char* name = nullptr;
    REQUIRE(tegula_kernel_arg(k->handle(), i, &kind, &name) == nullptr);
    CHECK(std::string(name) == expected_names[i]);
    CHECK(kind == expected_kinds[i]);
  }
}

TEST_CASE("the example kernels pass their checks through the runtime") {
  auto rt = open_runtime({reference_manifest()});
  auto d = rt->find_device("reference");
  struct Case {
    const char* file;
    const char* bind;
  } cases[] = {{"elementwise/silu_mul.tile", "N=3000"},
               {"reduce/row_sum.tile", "M=5,N=300"},
               {"softmax/softmax_rows.tile", "M=3,N=200"},
               {"gemm/gemm_f16.tile", "M=40,N=72,K=48"}};
  for (const Case& c : cases) {
    INFO(c.file);
    auto text = read_file(example(c.file));
    REQUIRE(text.is_ok());
    auto k = ir::parse_and_verify(*text, c.file);
    REQUIRE(k.is_ok());
    auto data = examples::make_launch_data(*k, examples::parse_bindings(c.bind).value(), 7);
    REQUIRE(data.is_ok());
    auto kernel = d->compile(*text);
    REQUIRE(kernel.is_ok());
    std::vector<Buffer> buffers;
    std::vector<Arg> args;
    for (size_t i = 0; i < k->params.size(); ++i) {
      if (!k->params[i].is_tensor) {
        args.push_back(Arg::number(data->scalars[i]));
        buffers.emplace_back();
        continue;
      }
      buffers.push_back(d->alloc(data->tensors[i].bytes.size()).value());
      REQUIRE(buffers.back().write(data->tensors[i].bytes).is_ok());
      args.push_back(Arg::tensor(buffers.back()));
    }
    for (int64_t s : data->symbols) args.push_back(Arg::integer(s));
    REQUIRE(kernel->launch(args).is_ok());
    for (size_t i : data->outputs) REQUIRE(buffers[i].read(data->tensors[i].bytes.data(), data->tensors[i].bytes.size()).is_ok());
    auto check = examples::check_outputs(*k, *data);
    REQUIRE(check.is_ok());
    CHECK(check->passed);
  }
}

TEST_CASE("IR errors come back with their location") {
  auto rt = open_runtime({reference_manifest()});
  auto d = rt->find_device("reference");
  CompileOptions o;
  o.source_name = "broken.tile";
  auto k = d->compile("kernel k(X: f32[N]) grid(1) threads(1) {\n  copy X, nowhere\n}\n", o);
  CHECK_FALSE(k.is_ok());
  CHECK(k.status().loc().file == "broken.tile");  // through the C API (tegula_error_get_location)
  CHECK(k.status().loc().line == 2);
  CHECK(k.status().message().find("nowhere") != std::string::npos);
  auto empty = d->compile("");
  CHECK(empty.status().code() == ErrorCode::Parse);
}

TEST_CASE("a device that cannot compile says so") {
  auto rt = open_runtime({test_manifest("abi_newer")});
  auto k = rt->find_device("abi_newer")->compile(axpb_ir());
  CHECK(k.status().code() == ErrorCode::Unimplemented);
  CHECK(k.status().message() == "abi_newer: compile: test plugins do not compile (TG_ERR_UNIMPLEMENTED)");
}

TEST_CASE("a kernel's executable in readable form") {
  auto rt = open_runtime({reference_manifest()});
  auto k = rt->find_device("reference")->compile(axpb_ir());
  REQUIRE(k.is_ok());
  auto text = k->describe();
  REQUIRE(text.is_ok());
  CHECK(text->find("kernel axpb(") == 0);  // the reference device's executable is the lowered IR
}

}  // namespace compile_launch_test
