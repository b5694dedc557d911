// Pipelines, shared-memory budgets, barriers and rasterisation.
#include "ir/lower/Passes.h"

#include <cstdint>
#include <map>
#include "ir/lower/SharedLayout.h"
#include "ir/lower/tests/LowerCases.h"

namespace pipelines_barriers_test {

using namespace tegula;
using namespace tegula::ir;
using namespace tegula::ir::testing;

TEST_CASE("a pipelined gemm prefetches both operand copies into staged buffers") {
  LowerOptions o;
  o.divisibility = {{"K", 16}, {"N", 16}};
  auto r = lower_text(example_text("gemm/gemm_f16.tile"), "sm_80", o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  const Stmt* loop = first_op(r->kernel.body, OpKind::Pipelined);
  CHECK(stmt_attr_ints(*loop, "plan.prefetch") == std::vector<int64_t>{0, 1});
  CHECK(stmt_attr_int(*loop, "plan.stages") == 3);
  CHECK(get_shared_layout(alloc_of(r->kernel, "As")->attrs)->stages == 3);
  CHECK(stmt_attr_ident(loop->body().stmts[0], "plan.engine") == "async");
  r = lower_text(example_text("gemm/gemm_f16.tile"), "sm_90a", o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(stmt_attr_ident(first_op(r->kernel.body, OpKind::Pipelined)->body().stmts[0], "plan.engine") == "bulk");
}

TEST_CASE("stages shrink to fit shared memory, and a kernel that cannot fit is refused") {
  LowerOptions o;
  o.divisibility = {{"K", 16}, {"N", 16}};
  // 3 stages of 128x128 + 128x128 f16 (rows padded) = 204 KiB; sm_80 offers 163 KiB: two fit.
  std::string text = example_text("gemm/gemm_f16.tile");
  auto pos = text.find("alloc As: shared f16[128, 32]");
  REQUIRE(pos != std::string::npos);
  std::string big = text;
  for (auto [from, to] : {std::pair<std::string, std::string>{"[128, 32]", "[128, 128]"}, {"[32, 128]", "[128, 128]"},
                          {"k * 32", "k * 128"}, {"ceildiv(K, 32)", "ceildiv(K, 128)"}}) {
    for (size_t p = big.find(from); p != std::string::npos; p = big.find(from, p + to.size())) big.replace(p, from.size(), to);
  }
  auto r = lower_text(big, "sm_80", o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(stmt_attr_int(*first_op(r->kernel.body, OpKind::Pipelined), "plan.stages") == 2);
  CHECK(log_has(*r, "pipeline shortened to 2 stages"));
  std::string huge = "kernel g(A: f32[8]) grid(1) threads(32) {\n  alloc S: shared f32[256, 256]\n  fill S, 0.0\n}\n";
  auto bad = lower_text(huge, "sm_80");
  REQUIRE_FALSE(bad.is_ok());
  CHECK(bad.status().message().find("needs 266240 bytes of shared memory") != std::string::npos);
  CHECK(bad.status().message().find("target 'sm_80' offers") != std::string::npos);
}

TEST_CASE("a barrier separates a shared write from a read by other threads, also across iterations") {
  std::string text =
      "kernel g(A: f32[N], B: f32[N]) grid(1) threads(64) {\n"
      "  alloc S: shared f32[64]\n  alloc F: fragment f32[64]\n"
      "  for i in 0 .. ceildiv(N, 64) {\n"
      "    copy A[i * 64], S\n"
      "    map S = S * 2.0\n"
      "    copy S, F\n"
      "    copy F, B[i * 64]\n"
      "  }\n}\n";
  auto r = lower_text(text, "sm_80");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  const auto& body = first_op(r->kernel.body, OpKind::For)->body().stmts;
  std::vector<OpKind> ops;
  for (const Stmt& s : body) ops.push_back(s.op);
  // copy, barrier, map, barrier, copy, copy ... and a barrier before the next iteration's
  // copy overwrites S while others may still read it.
  std::vector<OpKind> want = {OpKind::Barrier, OpKind::Copy, OpKind::Barrier, OpKind::Map, OpKind::Barrier, OpKind::Copy, OpKind::Copy};
  CHECK(ops == want);
  auto k = parse_and_verify(text, "case");
  CHECK(*run_bytes(r->kernel, "N=130", 1) == *run_bytes(*k, "N=130", 1));
}

TEST_CASE("element stores to a global tensor repeated by a serial loop lower and keep their results") {
  // The stores' writer has no destination tile; the write-after-write check must not read one.
  std::string text =
      "kernel g(X: f32[M, N], Y: f32[M, N]) grid(ceildiv(N, 64), ceildiv(M, 16)) threads(128) {\n"
      "  alloc F: fragment f32[16, 64]\n"
      "  for r in 0 .. 2 {\n"
      "    copy X[by * 16, bx * 64 + r], F, pad=1\n"
      "    parallel (i, j) in (16, 64) {\n      if by * 16 + i < M && bx * 64 + j < N {\n"
      "        store Y[by * 16 + i, bx * 64 + j] = F[15 - i, 63 - j] * 3\n      }\n    }\n"
      "  }\n}\n";
  auto r = lower_text(text, "vulkan_generic");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  auto k = parse_and_verify(text, "case");
  CHECK(*run_bytes(r->kernel, "M=21,N=100", 1) == *run_bytes(*k, "M=21,N=100", 1));
}

TEST_CASE("fragment-only kernels need no barriers") {
  auto r = lower_text(example_text("elementwise/silu_mul.tile"), "sm_90a");
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(first_op(r->kernel.body, OpKind::Barrier) == nullptr);
}

TEST_CASE("rasterisation is a bijection of the grid and changes no result") {
  for (int64_t gx : {1, 3, 8, 13})
    for (int64_t gy : {1, 2, 7, 16})
      for (int64_t g : {2, 4, 8}) {
        std::vector<int> seen(size_t(gx * gy), 0);
        for (int64_t y = 0; y < gy; ++y)
          for (int64_t x = 0; x < gx; ++x) {
            int64_t bx = x, by = y;
            raster_remap(g, gx, gy, bx, by);
            REQUIRE(bx >= 0);
            REQUIRE(bx < gx);
            REQUIRE(by >= 0);
            REQUIRE(by < gy);
            ++seen[size_t(by * gx + bx)];
          }
        for (int s : seen) CHECK(s == 1);
      }
  LowerOptions o;
  o.raster_group = 4;
  auto r = lower_text(example_text("gemm/gemm_bf16.tile"), "sm_90a", o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  CHECK(attr_text(r->kernel, "lower.raster") == "4");
  auto k = parse_and_verify(example_text("gemm/gemm_bf16.tile"), "gemm");
  CHECK(*run_bytes(r->kernel, "M=700,N=300,K=40", 8) == *run_bytes(*k, "M=700,N=300,K=40", 8));
}

TEST_CASE("misuse: more threads than the target allows, and an unknown pass name") {
  std::string text = "kernel g(A: f32[8]) grid(1) threads(1024) {\n}\n";
  auto r = lower_text(text, "vulkan_generic");
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().message().find("uses 1024 threads; target 'vulkan_generic' allows 256") != std::string::npos);
  LowerOptions o;
  o.stop_after = "no_such_pass";
  r = lower_text(text, "sm_80", o);
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().message().find("unknown pass 'no_such_pass'") != std::string::npos);
}

TEST_CASE("the tensor copy engine is chosen only for layouts it can write") {
  LowerOptions o;
  o.divisibility = {{"K", 16}, {"N", 16}};
  // mma.sync reads its operands from bank-padded rows, which the copy engine cannot write.
  std::string text = example_text("gemm/gemm_f16.tile");
  auto pos = text.find("gemm As, Bs, Acc, accumulate=true");
  REQUIRE(pos != std::string::npos);
  text.insert(pos + std::string("gemm As, Bs, Acc, accumulate=true").size(), ", inst=\"mma_sync.m16n8k16.f16_f32\"");
  auto r = lower_text(text, "sm_90a", o);
  REQUIRE_MESSAGE(r.is_ok(), r.status().str());
  const Stmt* loop = first_op(r->kernel.body, OpKind::Pipelined);
  for (int64_t i : stmt_attr_ints(*loop, "plan.prefetch")) {
    const Stmt& copy = loop->body().stmts[size_t(i)];
    auto l = get_shared_layout(alloc_of(r->kernel, copy.copy_dst().buffer)->attrs);
    CHECK(stmt_attr_ident(copy, "plan.engine") == (l->pad ? "async" : "bulk"));
  }
}

TEST_CASE("plan.prefetch still names the prefetched copies after barriers are inserted in front of them") {
  // With N % 2 == 0 but K odd only B's copy is prefetched (statement 1); the barrier that
  // guards A's unpipelined copy against the previous iteration's gemm goes in front of it.
  for (const char* file : {"gemm/gemm_bf16.tile", "gemm/gemm_f16.tile"}) {
    for (const char* target : {"sm_80", "sm_90a"}) {
      for (const std::map<std::string, int64_t>& div :
           {std::map<std::string, int64_t>{{"N", 2}}, {{"K", 2}}, {{"K", 16}, {"N", 16}}, {{"M", 4}, {"N", 8}, {"K", 1}}}) {
        CAPTURE(file);
        CAPTURE(target);
        CAPTURE(div.size());
        LowerOptions o;
        o.divisibility = div;
        auto r = lower_text(example_text(file), target, o);
        REQUIRE_MESSAGE(r.is_ok(), r.status().str());
        const Stmt* loop = first_op(r->kernel.body, OpKind::Pipelined);
        REQUIRE(loop != nullptr);
        if (!find_attr(loop->attrs, "plan.prefetch")) continue;
        const std::vector<Stmt>& body = loop->body().stmts;
        for (int64_t i : stmt_attr_ints(*loop, "plan.prefetch")) {
          REQUIRE(i >= 0);
          REQUIRE(size_t(i) < body.size());
          REQUIRE(body[size_t(i)].op == OpKind::Copy);
          const Stmt* dst = alloc_of(r->kernel, body[size_t(i)].copy_dst().buffer);
          REQUIRE(dst != nullptr);
          CHECK(get_shared_layout(dst->attrs)->stages == stmt_attr_int(*loop, "plan.stages"));
          CHECK(find_attr(body[size_t(i)].attrs, "plan.engine") != nullptr);
        }
      }
    }
  }
}

}  // namespace pipelines_barriers_test
