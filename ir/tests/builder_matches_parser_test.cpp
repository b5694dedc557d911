// The C++ builder produces the same IR as the text format: the printed forms are equal.
#include <doctest/doctest.h>

#include "ir/Builder.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/tests/TestUtil.h"

namespace builder_matches_parser_test {

using namespace tegula;
using namespace tegula::ir;

static std::string printed_example(const char* rel) {
  std::string path = std::string(TEGULA_SOURCE_DIR) + "/examples/" + rel;
  auto k = parse_and_verify(testing::read_example(path), path);
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  return print_kernel(*k);
}

TEST_CASE("builder: the pipelined bf16 gemm") {
  KernelBuilder b("gemm_bf16");
  Expr M = b.sym("M"), N = b.sym("N"), K = b.sym("K");
  BufferRef A = b.tensor("A", DType::BF16, {M, K});
  BufferRef B = b.tensor("B", DType::BF16, {K, N});
  BufferRef C = b.tensor("C", DType::BF16, {M, N});
  b.grid({ceildiv(N, 128), ceildiv(M, 128)});
  b.threads(256);
  b.attr("reference", AttrValue::of_ident("matmul"));
  Expr bx = b.block_index(0), by = b.block_index(1);
  BufferRef As = b.alloc("As", Scope::Shared, DType::BF16, {128, 32});
  BufferRef Bs = b.alloc("Bs", Scope::Shared, DType::BF16, {32, 128});
  BufferRef Acc = b.alloc("Acc", Scope::Fragment, DType::F32, {128, 128});
  b.fill(Acc, float_imm(0.0));
  b.pipelined("k", int_imm(0), ceildiv(K, 32), 3, [&](Expr k) {
    b.copy(A.at({by * 128, k * 32}), As);
    b.copy(B.at({k * 32, bx * 128}), Bs);
    b.gemm(As, Bs, Acc, {.accumulate = true});
  });
  b.copy(Acc, C.at({by * 128, bx * 128}));
  auto k = b.build();
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  CHECK(print_kernel(*k) == printed_example("gemm/gemm_bf16.tile"));
}

TEST_CASE("builder: the parallel silu_mul with a local temporary") {
  KernelBuilder b("silu_mul_parallel");
  Expr N = b.sym("N");
  BufferRef X = b.tensor("X", DType::BF16, {N});
  BufferRef Z = b.tensor("Z", DType::BF16, {N});
  BufferRef Y = b.tensor("Y", DType::BF16, {N});
  b.grid({ceildiv(N, 1024)});
  b.threads(256);
  b.attr("reference", AttrValue::of_ident("silu_mul"));
  Expr bx = b.block_index(0);
  b.parallel({"i"}, {1024}, [&](std::vector<Expr> iv) {
    Expr i = iv[0];
    BufferRef t = b.alloc("t", Scope::Local, DType::F32, {1});
    Expr g = bx * 1024 + i;
    b.if_(lt(g, N), [&] {
      b.store(t.at({int_imm(0)}), cast(DType::F32, X({g})));
      Expr tv = t({int_imm(0)});
      b.store(Y.at({g}), tv / (1.0 + exp(-tv)) * Z({g}));
    });
  });
  auto k = b.build();
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  CHECK(print_kernel(*k) == printed_example("elementwise/silu_mul_parallel.tile"));
}

TEST_CASE("builder: a misuse is reported by build(), not at construction") {
  KernelBuilder b("bad");
  BufferRef A = b.tensor("A", DType::F32, {int_imm(16), int_imm(16)});
  b.grid({int_imm(1)});
  b.threads(32);
  BufferRef S = b.alloc("S", Scope::Shared, DType::F32, {16, 16});
  b.gemm(S, S, A);  // accumulating into global memory
  auto k = b.build();
  REQUIRE(!k.is_ok());
  CHECK(k.status().message().find("global") != std::string::npos);
}

}  // namespace builder_matches_parser_test
