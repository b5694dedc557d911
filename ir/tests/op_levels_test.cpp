// Where an op may appear follows its level in the op list (ir/OpList.h): a block-level op is
// refused inside a parallel loop, an element-level op outside one, and a control op is
// accepted at both levels. Every op has a row, so a new op fails "every op has a row" until
// its placement is tested here.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "ir/Parser.h"

namespace op_levels_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

struct Row {
  OpKind op;
  const char* at_block;    ///< the op written outside any parallel loop
  const char* in_element;  ///< the op written inside `parallel i in 16`
};

const char* kHeader =
    "kernel k(G: f32[64, 64]) grid(1) threads(64) {\n"
    "  alloc S: shared f32[16, 16]\n"
    "  alloc T: shared f32[16, 16]\n"
    "  alloc F: fragment f32[16, 16]\n"
    "  alloc R: fragment f32[16]\n"
    "  alloc C: shared f32[1, 16]\n";

const std::vector<Row>& rows() {
  static const std::vector<Row> r = {
      {OpKind::Alloc, "alloc U: shared f32[4]", "alloc U: local f32[4]"},
      {OpKind::Copy, "copy G[0, 0], S", "copy G[0, 0], S"},
      {OpKind::Fill, "fill S, 1.0", "fill S, 1.0"},
      {OpKind::Gemm, "gemm S, T, F", "gemm S, T, F"},
      {OpKind::Reduce, "reduce F, R, op=sum, axis=1", "reduce F, R, op=sum, axis=1"},
      {OpKind::Scan, "scan S, T, C, op=sum, axis=0", "scan S, T, C, op=sum, axis=0"},
      {OpKind::Map, "map F = F * 2.0", "map F = F * 2.0"},
      {OpKind::Store, "store S[0, 0] = 1.0", "store S[i, 0] = 1.0"},
      {OpKind::AtomicAdd, "atomic_add F, G[0, 0]", "atomic_add F, G[0, 0]"},
      {OpKind::Barrier, "barrier", "barrier"},
      {OpKind::For, "for j in 0 .. 2 {\n  }", "for j in 0 .. 2 {\n  }"},
      {OpKind::Pipelined, "pipelined j in 0 .. 2, stages=2 {\n  }", "pipelined j in 0 .. 2, stages=2 {\n  }"},
      {OpKind::Parallel, "parallel j in 4 {\n  }", "parallel j in 4 {\n  }"},
      {OpKind::If, "if bx == 0 {\n  }", "if bx == 0 {\n  }"},
  };
  return r;
}

Status check(const std::string& body) {
  auto k = parse_and_verify(std::string(kHeader) + body + "}\n", "levels.tile");
  return k.is_ok() ? Status::ok() : k.status();
}

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
    CHECK_MESSAGE(found, "op '" << std::string(op_info(op).keyword) << "' has no row: test where it may appear here");
  }
}

TEST_CASE("the verifier places each op by its level") {
  for (const Row& r : rows()) {
    std::string keyword = op_info(r.op).keyword;
    OpLevel level = op_info(r.op).level;
    Status at_block = check(std::string("  ") + r.at_block + "\n");
    Status in_element = check(std::string("  parallel i in 16 {\n    ") + r.in_element + "\n  }\n");
    switch (level) {
      case OpLevel::Block:
        CHECK_MESSAGE(at_block.is_ok(), keyword << ": " << at_block.str());
        REQUIRE_MESSAGE(!in_element.is_ok(), keyword << " was accepted inside a parallel loop");
        CHECK_MESSAGE(in_element.loc().line == 8, in_element.str());
        if (r.op == OpKind::Parallel) {
          CHECK(in_element.message().find("parallel loops cannot nest") != std::string::npos);
        } else {
          CHECK_MESSAGE(in_element.message().find(std::string("'") + keyword + "' is a block-level op and cannot appear inside a parallel loop") !=
                            std::string::npos,
                        in_element.str());
        }
        break;
      case OpLevel::Element:
        CHECK_MESSAGE(in_element.is_ok(), keyword << ": " << in_element.str());
        REQUIRE_MESSAGE(!at_block.is_ok(), keyword << " was accepted outside a parallel loop");
        CHECK_MESSAGE(at_block.loc().line == 7, at_block.str());
        CHECK_MESSAGE(at_block.message().find("is only allowed inside a parallel loop") != std::string::npos, at_block.str());
        break;
      case OpLevel::Control:
        CHECK_MESSAGE(at_block.is_ok(), keyword << ": " << at_block.str());
        CHECK_MESSAGE(in_element.is_ok(), keyword << ": " << in_element.str());
        break;
    }
  }
}

}  // namespace op_levels_test
