// to_string() is canonical: it re-parses to the same layout, and printing twice is stable.
#include <doctest/doctest.h>

#include "targets/Layout.h"

namespace layout_round_trip_test {

using namespace tegula;

static void check_round_trip(const char* text, const char* canonical) {
  CAPTURE(text);
  Result<Layout> l = Layout::parse(text);
  REQUIRE(l.is_ok());
  std::string printed = l->to_string();
  CHECK(printed == canonical);
  Result<Layout> again = Layout::parse(printed);
  REQUIRE(again.is_ok());
  CHECK(*again == *l);
  CHECK(again->to_string() == printed);
}

TEST_CASE("canonical text round-trips") {
  check_round_trip("((4,8),(2,2,2)):((32,1),(16,8,128))", "((4,8),(2,2,2)):((32,1),(16,8,128))");
  check_round_trip(" ( 32 , 4 ) : ( 1 , 32 ) ", "(32,4):(1,32)");
  check_round_trip("((4,8,4),(2,2,(N/8))):((128,1,16),(64,8,512))",
                   "((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))");
  check_round_trip("(128,N):(1,M)", "(128,N):(1,M)");
  check_round_trip("(((16,4)),N):(((65536,2097152)),1)", "((16,4),N):((65536,2097152),1)");
}

TEST_CASE("expressions keep exactly the parentheses they need") {
  check_round_trip("(a-(b-c)):1", "a-(b-c):1");
  check_round_trip("((a-b)-c):1", "a-b-c:1");
  check_round_trip("(a*(b+c)):(N/(2*K))", "a*(b+c):N/(2*K)");
  check_round_trip("(a+b*c):((a+b)*c)", "a+b*c:(a+b)*c");
  check_round_trip("(N%8*2):(64*N/8)", "N%8*2:64*N/8");
}

}  // namespace layout_round_trip_test
