// The read and write sets (ir/Analysis.h) come from the op list's roles column: for every op,
// a statement of it reads and writes exactly the buffers its semantics (ir/OpList.h) say,
// gemm's accumulate and reduce's clear deciding whether the destination is read too. The
// expected sets are written here by hand from the semantics, independently of the roles; a
// new op fails "every op has a row" until it has a row here.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "ir/Analysis.h"
#include "ir/Parser.h"

namespace op_roles_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

using Names = std::set<std::string>;

struct Row {
  OpKind op;
  const char* stmt;  ///< the statement, at the top of the kernel body after the allocs
  Names reads;
  Names writes;
  bool element = false;  ///< an element-level op: written inside `parallel i in 16`
};

// Tensors G, H; shared S, T; fragments F (16x16), R (16); shared C (1x16, a scan carry).
const char* kHeader =
    "kernel k(G: f32[64, 64], H: f32[64, 64]) grid(2) threads(64) {\n"
    "  alloc S: shared f32[16, 16]\n"
    "  alloc T: shared f32[16, 16]\n"
    "  alloc F: fragment f32[16, 16]\n"
    "  alloc R: fragment f32[16]\n"
    "  alloc C: shared f32[1, 16]\n";

const std::vector<Row>& rows() {
  static const std::vector<Row> r = {
      {OpKind::Alloc, "alloc U: shared f32[4]", {}, {}},
      {OpKind::Copy, "copy G[16, 0], S", {"G"}, {"S"}},
      {OpKind::Copy, "copy F, H[0, 16]", {"F"}, {"H"}},
      {OpKind::Fill, "fill S, 1.0", {}, {"S"}},
      {OpKind::Gemm, "gemm S, T, F", {"S", "T"}, {"F"}},
      {OpKind::Gemm, "gemm S, T, F, accumulate=false", {"S", "T"}, {"F"}},
      {OpKind::Gemm, "gemm S, T, F, accumulate=true", {"S", "T", "F"}, {"F"}},
      {OpKind::Reduce, "reduce F, R, op=sum, axis=1", {"F"}, {"R"}},
      {OpKind::Reduce, "reduce F, R, op=max, axis=1, clear=true", {"F"}, {"R"}},
      {OpKind::Reduce, "reduce F, R, op=max, axis=1, clear=false", {"F", "R"}, {"R"}},
      {OpKind::Scan, "scan S, T, C, op=sum, axis=0", {"S", "C"}, {"T", "C"}},
      {OpKind::Scan, "scan S, T, C, op=max, axis=0, reverse=true, exclusive=true", {"S", "C"}, {"T", "C"}},
      {OpKind::Map, "map F = S * T + 1.0", {"S", "T"}, {"F"}},
      {OpKind::Map, "map F = F * 2.0", {"F"}, {"F"}},
      {OpKind::Store, "store R[i] = F[i, 15 - i] * S[0, i]", {"F", "S"}, {"R"}, true},
      {OpKind::AtomicAdd, "atomic_add F, G[0, 16]", {"F", "G"}, {"G"}},
      {OpKind::Barrier, "barrier", {}, {}},
      {OpKind::For, "for j in 0 .. 4 {\n    copy G[j * 16, 0], S\n  }", {"G"}, {"S"}},
      {OpKind::Pipelined,
       "pipelined j in 0 .. 4, stages=2 {\n    copy G[j * 16, 0], S\n    gemm S, T, F, accumulate=true\n  }",
       {"G", "S", "T", "F"},
       {"S", "F"}},
      // The store is an element-level op; the parallel loop's sets are its body's.
      {OpKind::Parallel, "parallel (i, j) in (16, 16) {\n    store S[i, j] = T[j, i] + G[i, j]\n  }", {"T", "G"}, {"S"}},
      {OpKind::If, "if bx == 0 {\n    fill S, 0.0\n  } else {\n    copy S, H[0, 0]\n  }", {"S"}, {"S", "H"}},
  };
  return r;
}

/// The statement the row is about: the first after the kernel's own allocs (or the first of
/// the parallel loop there).
/// The statement under test: the first after the header's five allocs.
const Stmt& subject(const Kernel& k, bool element) { return element ? k.body.stmts[5].body().stmts[0] : k.body.stmts[5]; }

}  // namespace

TEST_CASE("every op has a row") {
  std::vector<OpKind> all = {
#define TG_OP_KIND(e, kw, fmt, roles, level, attrs, blocks) OpKind::e,
      TG_FOR_EACH_OP(TG_OP_KIND)
#undef TG_OP_KIND
  };
  for (OpKind op : all) {
    bool found = false;
    for (const Row& r : rows()) found = found || r.op == op;
    CHECK_MESSAGE(found, "op '" << std::string(op_info(op).keyword) << "' has no row: write its expected read and write sets here");
  }
}

TEST_CASE("each statement reads and writes what its op's semantics say") {
  for (const Row& r : rows()) {
    std::string stmt = r.element ? std::string("parallel i in 16 {\n    ") + r.stmt + "\n  }" : std::string(r.stmt);
    std::string text = std::string(kHeader) + "  " + stmt + "\n}\n";
    auto k = parse_and_verify(text, "roles.tile");
    REQUIRE_MESSAGE(k.is_ok(), r.stmt << ": " << k.status().str());
    const Stmt& s = subject(*k, r.element);
    REQUIRE(s.op == r.op);
    CHECK_MESSAGE(read_buffers(s) == r.reads, r.stmt);
    CHECK_MESSAGE(written_buffers(s) == r.writes, r.stmt);
    CHECK_MESSAGE(written_buffers(k->body) == r.writes, r.stmt);
    // The outputs: the tensors among the written buffers.
    std::vector<size_t> outputs;
    if (r.writes.count("G")) outputs.push_back(0);
    if (r.writes.count("H")) outputs.push_back(1);
    CHECK_MESSAGE(written_params(*k) == outputs, r.stmt);
  }
}

TEST_CASE("an operand's access follows its role and the attribute that conditions it") {
  auto k = parse_and_verify(std::string(kHeader) +
                            "  gemm S, T, F, accumulate=true\n"
                            "  gemm S, T, F\n"
                            "  reduce F, R, op=sum, axis=1, clear=false\n"
                            "  reduce F, R, op=sum, axis=1\n"
                            "  atomic_add F, G[0, 0]\n"
                            "  copy G[0, 0], S\n"
                            "}\n");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  const std::vector<Stmt>& b = k->body.stmts;
  CHECK(operand_access(b[5], 0) == Access::Read);
  CHECK(operand_access(b[5], 1) == Access::Read);
  CHECK(operand_access(b[5], 2) == Access::ReadWrite);
  CHECK(operand_access(b[6], 2) == Access::Write);
  CHECK(operand_access(b[7], 1) == Access::ReadWrite);
  CHECK(operand_access(b[8], 1) == Access::Write);
  CHECK(operand_access(b[9], 0) == Access::Read);
  CHECK(operand_access(b[9], 1) == Access::ReadWrite);
  CHECK(operand_access(b[10], 0) == Access::Read);
  CHECK(operand_access(b[10], 1) == Access::Write);
}

TEST_CASE("the roles column has one role per tile operand of the format") {
  // IR.cpp checks this at compile time; the table it built says the same at run time.
#define TG_OP_COUNT(e, kw, fmt, roles, level, attrs, blocks)                                      \
  {                                                                                               \
    std::string f = fmt;                                                                          \
    size_t n = 0;                                                                                 \
    for (size_t p = f.find('%'); p != std::string::npos; p = f.find('%', p + 1))                  \
      n += f.compare(p, 5, "%tile") == 0 || f.compare(p, 5, "%elem") == 0;                        \
    CHECK_MESSAGE(op_roles(OpKind::e).count == n, kw);                                            \
  }
  TG_FOR_EACH_OP(TG_OP_COUNT)
#undef TG_OP_COUNT
}

}  // namespace op_roles_test
