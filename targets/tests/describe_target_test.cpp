// describe_target() prints identity, limits, features and one line per instruction.
#include <doctest/doctest.h>

#include "targets/Target.h"

namespace describe_target_test {

using namespace tegula;

static int count_lines_starting_with(const std::string& text, const std::string& prefix) {
  int n = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (text.compare(start, prefix.size(), prefix) == 0) ++n;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return n;
}

TEST_CASE("the summary of sm_90a") {
  Result<TargetDescription> t = builtin_target("sm_90a");
  REQUIRE(t.is_ok());
  std::string text = describe_target(*t);
  CHECK(text.rfind("sm_90a (version 2): nvidia hopper, backend cuda\n", 0) == 0);
  CHECK(text.find("subgroup 32, max 1024 threads/block, shared memory 232448 B/block (32 banks x 4 B), vector 16 B") !=
        std::string::npos);
  CHECK(text.find("132 compute units") != std::string::npos);
  CHECK(text.find("peak: bf16 989 TFLOPS") != std::string::npos);
  CHECK(text.find("4800 GB/s, 1830 MHz, 4 subgroups/CU, 128 FMA lanes/CU\n") != std::string::npos);
  CHECK(text.find(" wgmma") != std::string::npos);
  CHECK(text.find("    wgmma.m64nNk16.bf16_f32  wgmma  m64 n8..256/8 k16  bf16 x bf16 + f32 -> f32  "
                  "warpgroup/128  a:registers|shared b:shared acc:registers  rate 4096\n") != std::string::npos);
  CHECK(count_lines_starting_with(text, "    ") == int(t->matrix_instructions.size()));
}

TEST_CASE("every built-in has a summary with one line per instruction") {
  for (const std::string& name : builtin_target_names()) {
    CAPTURE(name);
    Result<TargetDescription> t = builtin_target(name);
    REQUIRE(t.is_ok());
    std::string text = describe_target(*t);
    CHECK(text.rfind(name + " (version ", 0) == 0);
    CHECK(count_lines_starting_with(text, "    ") == int(t->matrix_instructions.size()));
  }
}

}  // namespace describe_target_test
