// The launch signature through both APIs: names, kinds, dtypes, shapes (fixed extents and
// the shape symbol giving each other one), which tensors are written, and that the shape
// symbols come last in order of first appearance (M, K, N for a gemm).
#include <doctest/doctest.h>

#include "core/Files.h"
#include "runtime/tests/TestSupport.h"

namespace kernel_signature_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("the gemm's signature in C++ and C") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  auto text = read_file(example("gemm/gemm_bf16.tile"));
  REQUIRE(text.is_ok());
  auto k = d->compile(*text);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  auto sig = k->signature();
  REQUIRE(sig.is_ok());
  REQUIRE(sig->size() == 6);
  const char* names[] = {"A", "B", "C", "M", "K", "N"};
  for (size_t i = 0; i < 6; ++i) CHECK((*sig)[i].name == names[i]);
  const ArgInfo& a = (*sig)[0];
  CHECK(a.kind == TEGULA_ARG_TENSOR);
  CHECK(a.dtype == "bf16");
  CHECK_FALSE(a.written);
  CHECK(a.dims == std::vector<int64_t>{-1, -1});
  CHECK(a.dim_args == std::vector<int64_t>{3, 4});  // [M, K]
  CHECK((*sig)[1].dim_args == std::vector<int64_t>{4, 5});  // B[K, N]
  CHECK((*sig)[2].written);
  CHECK((*sig)[5].is_shape_symbol);
  CHECK((*sig)[5].kind == TEGULA_ARG_INT);
  CHECK((*sig)[5].dtype == "i64");
  CHECK((*sig)[5].dims.empty());

  // The C call, with a struct of the first release's size plus nothing more: fields past
  // struct_size are not written.
  tegula_kernel_arg_info info;
  std::memset(&info, 0xab, sizeof(info));
  info.struct_size = offsetof(tegula_kernel_arg_info, dtype);
  REQUIRE(tegula_kernel_get_arg_info(k->handle(), 1, &info) == nullptr);
  CHECK(std::string(info.name) == "B");
  CHECK(info.is_shape_symbol == 0);
  CHECK(info.struct_size == offsetof(tegula_kernel_arg_info, dtype));
  CHECK(info.rank == 0xabababab);  // untouched
}

TEST_CASE("fixed extents and scalars") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  auto k = d->compile("kernel s(X: f32[4, N], Y: f32[4, N], a: f32, n: i32) grid(1) threads(32) {\n"
                      "  alloc x: fragment f32[4, 8]\n"
                      "  copy X[0, 0], x\n"
                      "  map x = x * a\n"
                      "  copy x, Y[0, 0]\n"
                      "}\n");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  auto sig = k->signature();
  REQUIRE(sig.is_ok());
  REQUIRE(sig->size() == 5);
  CHECK((*sig)[0].dims == std::vector<int64_t>{4, -1});
  CHECK((*sig)[0].dim_args == std::vector<int64_t>{-1, 4});
  CHECK((*sig)[2].kind == TEGULA_ARG_FLOAT);
  CHECK((*sig)[2].dtype == "f32");
  CHECK((*sig)[3].kind == TEGULA_ARG_INT);
  CHECK((*sig)[3].dtype == "i32");
  CHECK((*sig)[4].name == "N");
}

TEST_CASE("misuse: out of range, NULL, no struct_size") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto k = rt->find_device("reference")->compile(axpb_ir());
  REQUIRE(k.is_ok());
  tegula_kernel_arg_info info;
  info.struct_size = sizeof(info);
  Status s = status_from(tegula_kernel_get_arg_info(k->handle(), 5, &info));
  CHECK(s.code() == ErrorCode::OutOfRange);
  CHECK(s.message() == "kernel 'axpb' has 5 arguments, asked for 5");
  CHECK(status_from(tegula_kernel_get_arg_info(nullptr, 0, &info)).code() == ErrorCode::InvalidArgument);
  info.struct_size = 0;
  CHECK(status_from(tegula_kernel_get_arg_info(k->handle(), 0, &info)).message().find("struct_size is not set") !=
        std::string::npos);
}

}  // namespace kernel_signature_test
