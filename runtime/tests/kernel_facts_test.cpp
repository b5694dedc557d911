// A kernel's facts (launch header and written tensors, runtime/KernelFacts.h) round-trip
// through their text exactly, source positions included; damaged text is Corrupt, naming
// the line, and never a crash.
#include <doctest/doctest.h>

#include "core/Files.h"
#include "ir/Parser.h"
#include "runtime/KernelFacts.h"
#include "runtime/tests/TestSupport.h"

namespace kernel_facts_test {

using namespace tegula;
using namespace tegula::runtime;
using namespace tegula::testing;

namespace {

void check_round_trip(const ir::Kernel& k) {
  INFO(k.name);
  KernelFacts f = kernel_facts(k);
  auto text = encode_kernel_facts(f);
  REQUIRE_MESSAGE(text.is_ok(), text.status().str());
  auto back = decode_kernel_facts(*text, "file.tile");
  REQUIRE_MESSAGE(back.is_ok(), back.status().str());
  const ir::Kernel& h = back->header;
  CHECK(h.name == k.name);
  CHECK(h.threads == k.threads);
  CHECK(h.body.stmts.empty());
  CHECK(back->written == f.written);
  REQUIRE(h.params.size() == k.params.size());
  for (size_t i = 0; i < k.params.size(); ++i) {
    CHECK(h.params[i].name == k.params[i].name);
    CHECK(h.params[i].dtype == k.params[i].dtype);
    CHECK(h.params[i].is_tensor == k.params[i].is_tensor);
    REQUIRE(h.params[i].shape.size() == k.params[i].shape.size());
    for (size_t d = 0; d < k.params[i].shape.size(); ++d) CHECK(ir::same_expr(h.params[i].shape[d], k.params[i].shape[d]));
  }
  REQUIRE(h.grid.size() == k.grid.size());
  for (size_t g = 0; g < k.grid.size(); ++g) {
    CHECK(ir::same_expr(h.grid[g], k.grid[g]));
    CHECK(h.grid[g]->loc.line == k.grid[g]->loc.line);
    CHECK(h.grid[g]->loc.column == k.grid[g]->loc.column);
    CHECK(h.grid[g]->loc.file == "file.tile");
  }
  CHECK(h.symbols() == k.symbols());
}

}  // namespace

TEST_CASE("the examples' facts round-trip") {
  for (const char* path : {"reduce/row_sum.tile", "gemm/gemm_f16.tile", "softmax/softmax_rows.tile", "elementwise/silu_mul.tile"}) {
    auto k = ir::parse_and_verify(read_file(example(path)).value(), path);
    REQUIRE_MESSAGE(k.is_ok(), k.status().str());
    check_round_trip(*k);
  }
}

TEST_CASE("grids with negation, bit operators, scalars and nesting round-trip") {
  auto k = ir::parse_and_verify(
      "kernel g(X: f32[M, 4], n: i32) grid(max(ceildiv(M, 8), 1), -(~n) - 1 + (M >> 1), 2 * min(M, 3)) threads(32) {\n"
      "  alloc x: fragment f32[1, 4]\n"
      "  copy X[bx, 0], x\n"
      "}\n",
      "g.tile");
  REQUIRE_MESSAGE(k.is_ok(), k.status().str());
  check_round_trip(*k);
  KernelFacts f = kernel_facts(*k);
  CHECK(f.written == std::vector<bool>{false, false});
}

TEST_CASE("a packed payload gives the facts and the executable back") {
  auto k = ir::parse_and_verify(axpb_ir(), "axpb.tile");
  REQUIRE(k.is_ok());
  KernelFacts f = kernel_facts(*k);
  CHECK(f.written == std::vector<bool>{false, true, false, false});
  std::string exe("exe\0bytes\n", 10);
  auto payload = pack_cached_kernel(f, exe);
  REQUIRE(payload.is_ok());
  auto back = unpack_cached_kernel(*payload, "axpb.tile");
  REQUIRE_MESSAGE(back.is_ok(), back.status().str());
  CHECK(back->executable == exe);
  CHECK(back->facts.header.name == "axpb");
  CHECK(back->facts.written == f.written);
}

TEST_CASE("misuse: damaged facts are Corrupt and name the line") {
  auto k = ir::parse_and_verify(axpb_ir(), "axpb.tile");
  REQUIRE(k.is_ok());
  std::string good = encode_kernel_facts(kernel_facts(*k)).value();
  REQUIRE(decode_kernel_facts(good, "f").is_ok());
  auto refused = [](const std::string& text, const std::string& why) {
    auto r = decode_kernel_facts(text, "f");
    INFO(text);
    REQUIRE_FALSE(r.is_ok());
    CHECK(r.status().code() == ErrorCode::Corrupt);
    CHECK(r.status().message() == "kernel facts, " + why);
  };
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    size_t at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  refused("", "line 0: not kernel facts of format 1");
  refused("facts 2\n", "line 1: not kernel facts of format 1");
  refused(good.substr(0, good.find("grid")), "line 7: no grid");
  refused(replaced("param X tensor f32", "param X tensor f99"), "line 4: 'f99' is not a dtype");
  refused(replaced("param X tensor", "param X matrix"), "line 4: 'matrix' is neither tensor nor scalar");
  refused(replaced("param X", "param 9X"), "line 4: '9X' is not a name");
  refused(replaced("threads 64", "threads 6x4"), "line 3: '6x4' is not an integer");
  refused(replaced("grid 1", "grid 4"), "line 8: a grid of 4 dimensions");
  size_t grid_op = good.find("grid 1 b") + 7;
  refused(good.substr(0, grid_op) + "b99" + good.substr(good.find('@', grid_op)), "line 8: binary operator 99 does not exist");
  auto odd = decode_kernel_facts(replaced("grid 1 b", "grid 1 q"), "f");
  REQUIRE_FALSE(odd.is_ok());
  CHECK(odd.status().message().rfind("kernel facts, line 8: 'q", 0) == 0);
  CHECK(odd.status().message().find("' is not an expression token") != std::string::npos);
  refused(good.substr(0, good.size() - 1) + " i1@1:1\n", "line 8: more than expected on the line");
  refused(good + "name other\n", "line 9: 'name' after the grid");
  refused(replaced("name axpb\n", ""), "line 2: unexpected 'threads'");
  // A grid cut short: the expression's operand is missing.
  std::string cut = good.substr(0, good.rfind(" i")) + "\n";
  auto r = decode_kernel_facts(cut, "f");
  REQUIRE_FALSE(r.is_ok());
  CHECK(r.status().code() == ErrorCode::Corrupt);
  // Payloads too short for their length field.
  CHECK(unpack_cached_kernel("short", "f").status().message() == "kernel facts: the payload is 5 bytes");
  std::string lying(8, '\0');
  lying[0] = 100;
  CHECK(unpack_cached_kernel(lying + "abc", "f").status().message() == "kernel facts: 100 bytes said, 3 there");
}

}  // namespace kernel_facts_test
