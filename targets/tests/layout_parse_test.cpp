// Layout text parses into the intended trees, and evaluation follows CuTe's rules:
// colexicographic split of each mode's coordinate, symbols bound at evaluation time.
#include <doctest/doctest.h>

#include <cstdint>

#include "targets/Layout.h"

namespace layout_parse_test {

using namespace tegula;

TEST_CASE("a flat layout evaluates as coordinate times stride") {
  Result<Layout> l = Layout::parse("(8,4):(1,8)");
  REQUIRE(l.is_ok());
  CHECK(l->rank() == 2);
  Result<BoundLayout> b = l->bind({});
  REQUIRE(b.is_ok());
  CHECK(b->mode_size(0) == 8);
  CHECK(b->mode_size(1) == 4);
  CHECK(b->index(3, 2) == 3 + 16);
}

TEST_CASE("a hierarchical mode splits its coordinate first-element-fastest") {
  // The mma.sync m16n8k16 A fragment: thread t = t0 + 4*t1, value v = v0 + 2*v1 + 4*v2.
  Result<Layout> l = Layout::parse("((4,8),(2,2,2)):((32,1),(16,8,128))");
  REQUIRE(l.is_ok());
  Result<BoundLayout> b = l->bind({});
  REQUIRE(b.is_ok());
  CHECK(b->thread_size() == 32);
  CHECK(b->value_size() == 8);
  // lane 5: t0 = 1, t1 = 1 -> 32 + 1; value 7: v0 = v1 = v2 = 1 -> 16 + 8 + 128.
  CHECK(b->index(5, 7) == 33 + 152);
}

TEST_CASE("symbols are bound at evaluation and may appear in shapes and strides") {
  Result<Layout> l = Layout::parse("((4,8,4),(2,2,N/8)):((128,1,16),(64,8,8*M))");
  REQUIRE(l.is_ok());
  CHECK(l->symbols() == std::vector<std::string>{"M", "N"});
  Result<BoundLayout> b = l->bind({{"M", 64}, {"N", 32}});
  REQUIRE(b.is_ok());
  CHECK(b->mode_size(1) == 2 * 2 * 4);
  CHECK(b->index(0, 4) == 512);
  Result<int64_t> i = l->index({{"M", 64}, {"N", 32}}, 1, 1);
  REQUIRE(i.is_ok());
  CHECK(*i == 128 + 64);
}

TEST_CASE("a parenthesised single element is an expression, not a tuple") {
  Result<Layout> l = Layout::parse("((N/8)):((2*(K+1)))");
  REQUIRE(l.is_ok());
  CHECK(l->rank() == 1);
  CHECK(l->shape().is_leaf());
  Result<BoundLayout> b = l->bind({{"N", 16}, {"K", 3}});
  REQUIRE(b.is_ok());
  CHECK(b->mode_size(0) == 2);
  CHECK(b->mode_offset(0, 1) == 8);
}

TEST_CASE("operators follow the usual precedence and associate to the left") {
  Result<Layout> l = Layout::parse("1:(20-6-4+2*3%4)");
  REQUIRE(l.is_ok());
  Result<BoundLayout> b = l->bind({});
  REQUIRE(b.is_ok());
  CHECK(b->mode(0)[0].stride == 20 - 6 - 4 + 2 * 3 % 4);
}

TEST_CASE("spaces between tokens are ignored") {
  Result<Layout> a = Layout::parse(" ( (4 , 8) , 2 ) : ( (16, 1) , 8 ) ");
  Result<Layout> b = Layout::parse("((4,8),2):((16,1),8)");
  REQUIRE(a.is_ok());
  REQUIRE(b.is_ok());
  CHECK(*a == *b);
}

TEST_CASE("evaluation errors: unbound symbol, inexact division, non-positive shape") {
  Result<Layout> l = Layout::parse("(N/8,2):(1,N)");
  REQUIRE(l.is_ok());
  Result<BoundLayout> unbound = l->bind({});
  REQUIRE(!unbound.is_ok());
  CHECK(unbound.status().message() == "unbound symbol 'N'");
  Result<BoundLayout> inexact = l->bind({{"N", 12}});
  REQUIRE(!inexact.is_ok());
  CHECK(inexact.status().message() == "'N/8' is not an exact division (12/8)");
  Result<BoundLayout> zero = l->bind({{"N", 0}});
  REQUIRE(!zero.is_ok());
  CHECK(zero.status().message() == "shape 'N/8' evaluates to 0; shapes must be positive");
  Result<Layout> by_zero = Layout::parse("4:(1/(N-N))");
  REQUIRE(by_zero.is_ok());
  Result<BoundLayout> b = by_zero->bind({{"N", 3}});
  REQUIRE(!b.is_ok());
  CHECK(b.status().message() == "'1/(N-N)' divides by zero");
}

TEST_CASE("index() checks the coordinate range") {
  Result<Layout> l = Layout::parse("(32,4):(1,32)");
  REQUIRE(l.is_ok());
  Result<int64_t> i = l->index({}, 32, 0);
  REQUIRE(!i.is_ok());
  CHECK(i.status().code() == ErrorCode::OutOfRange);
}

}  // namespace layout_parse_test
