// Misused scans (ir/OpList.h) are refused by the verifier with their location and cause:
// shapes (destination, carry), the axis, the reduction, dtypes, scopes and a shared carry.
#include <doctest/doctest.h>

#include <string>

#include "ir/Parser.h"

namespace scan_misuse_test {

using namespace tegula;
using namespace tegula::ir;

namespace {

struct Bad {
  const char* what;
  const char* body;  ///< after the header's allocs, on line 6
  int column;
  const char* message;
};

// S, T: shared f32[4, 8]; R: shared f32[4, 1]; F: fragment f32[4, 8]; on lines 2..5.
const char* kHeader =
    "kernel k(G: f32[4, 8]) grid(1) threads(32) {\n"
    "  alloc S: shared f32[4, 8]\n"
    "  alloc T: shared f32[4, 8]\n"
    "  alloc R: shared f32[4, 1]\n"
    "  alloc F: fragment f32[4, 8]\n";

const Bad kCases[] = {
    {"axis past the rank", "  scan S, T, R, op=sum, axis=2\n", 0, "axis 2 is outside 0..1 for 'S'"},
    {"carry of the wrong shape", "  scan S, T, R, op=sum, axis=0\n", 14, "scan carry 'R' [4, 1] must be [1, 8]"},
    {"destination of another shape", "  alloc U: shared f32[4, 4]\n  scan S, U, R, op=sum, axis=1\n", 11,
     "scan destination 'U' [4, 4] must have the shape [4, 8]"},
    {"absmax", "  scan S, T, R, op=absmax, axis=1\n", 0, "unknown scan 'absmax' (expected sum, max or min)"},
    {"unknown op", "  scan S, T, R, op=prod, axis=1\n", 0, "unknown scan 'prod'"},
    {"negative axis", "  scan S, T, R, op=sum, axis=-1\n", 0, "axis -1 is outside 0..1 for 'S'"},
    {"fragment source", "  scan F, T, R, op=sum, axis=1\n", 8, "scan source 'F' is a fragment buffer; scan works on shared tiles"},
    {"global destination", "  scan S, G, R, op=sum, axis=1\n", 11, "scan destination 'G' is a global tensor"},
    {"integer carry", "  alloc U: shared i32[4, 1]\n  scan S, T, U, op=sum, axis=1\n", 14, "scan carry 'U' is i32; scan takes float buffers"},
    {"offsets", "  scan S[0, 0], T, R, op=sum, axis=1\n", 8, "scan source 'S' must be a whole buffer, without offsets"},
    {"carry is the destination", "  alloc U: shared f32[1, 1]\n  alloc V: shared f32[1, 1]\n  scan U, V, V, op=sum, axis=1\n", 14,
     "scan carry 'V' must be a buffer of its own"},
    {"inside a parallel loop", "  parallel i in 4 {\n    scan S, T, R, op=sum, axis=1\n  }\n", 5, "parallel"},
    {"missing axis", "  scan S, T, R, op=sum\n", 0, "axis"},
    {"two operands", "  scan S, T, op=sum, axis=1\n", 0, ""},
};

}  // namespace

TEST_CASE("misused scans are refused with location and cause") {
  for (const Bad& c : kCases) {
    CAPTURE(c.what);
    auto k = parse_and_verify(std::string(kHeader) + c.body + "}\n", "bad.tile");
    REQUIRE_FALSE(k.is_ok());
    const Status& st = k.status();
    CHECK_MESSAGE(st.message().find(c.message) != std::string::npos, st.str());
    CHECK(st.loc().file == "bad.tile");
    CHECK(st.loc().line >= 6);
    if (c.column > 0) CHECK_MESSAGE(st.loc().column == c.column, st.str());
  }
}

TEST_CASE("a well-formed scan verifies, in every direction and mode") {
  for (const char* mode : {"", ", reverse=true", ", exclusive=true", ", reverse=true, exclusive=true"}) {
    for (const char* op : {"sum", "max", "min"}) {
      std::string body = std::string("  scan S, T, R, op=") + op + ", axis=1" + mode + "\n";
      auto k = parse_and_verify(std::string(kHeader) + body + "}\n", "ok.tile");
      CHECK_MESSAGE(k.is_ok(), body, k.status().str());
    }
  }
}

}  // namespace scan_misuse_test
