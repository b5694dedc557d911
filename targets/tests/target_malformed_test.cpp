// Malformed descriptions are rejected with a message that names the input, the JSON path
// and what is wrong. Each case mutates the small valid description in one place.
#include <doctest/doctest.h>

#include "targets/Target.h"
#include "targets/tests/TestDescriptions.h"

namespace target_malformed_test {

using namespace tegula;
using tegula::test::kSmallTarget;
using tegula::test::mutate;

// `expected` is the whole message, or its beginning when it ends in "...".
static void check_rejected(const std::string& text, std::string expected) {
  Result<TargetDescription> t = parse_target(text, "t.json");
  REQUIRE(!t.is_ok());
  CHECK(t.status().code() == ErrorCode::Parse);
  std::string message = t.status().message();
  if (expected.size() > 3 && expected.compare(expected.size() - 3, 3, "...") == 0) {
    expected.resize(expected.size() - 3);
    message = message.substr(0, expected.size());
  }
  CHECK(message == expected);
}

static std::string small_with(const std::string& from, const std::string& to) {
  return mutate(kSmallTarget, from, to);
}

TEST_CASE("the small description is valid") {
  Result<TargetDescription> t = parse_target(kSmallTarget, "t.json");
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  CHECK(t->matrix_instructions.size() == 3);
}

TEST_CASE("not JSON at all") {
  Result<TargetDescription> t = parse_target("{\"schema\": ", "t.json");
  REQUIRE(!t.is_ok());
  CHECK(t.status().code() == ErrorCode::Parse);
}

TEST_CASE("document-level mistakes") {
  check_rejected(small_with("\"tegula.target.v1\"", "\"tegula.target.v2\""),
                 "t.json: schema: unsupported schema 'tegula.target.v2' (expected tegula.target.v1)");
  check_rejected(small_with("\"vector_bytes\": 16,", "\"vector_bytes\": 16, \"colour\": 1,"),
                 "t.json: unknown field 'colour'");
  check_rejected(small_with("\"vector_bytes\": 16,", ""), "t.json: missing field 'vector_bytes'");
  check_rejected(small_with("\"subgroup_width\": 32", "\"subgroup_width\": \"32\""),
                 "t.json: subgroup_width: expected an integer, got a string");
  check_rejected(small_with("\"vector_bytes\": 16,", "\"vector_bytes\": 12,"),
                 "t.json: vector_bytes: must be a power of two");
  check_rejected(small_with("[\"mma_sync\", \"wgmma\", \"bf16\"]", "[\"mma_sync\", \"wgmma\", \"bf61\"]"),
                 "t.json: features[2]: unknown feature 'bf61' (allowed: async_copy ...");
  check_rejected(small_with("\"features\": [\"mma_sync\", \"wgmma\", \"bf16\"]",
                            "\"features\": [\"mma_sync\", \"wgmma\", \"bf16\", \"wgmma\"]"),
                 "t.json: features[3]: 'wgmma' is listed twice");
  check_rejected(small_with("{\"bf16\": 989}", "{\"bf16\": -989}"),
                 "t.json: peak.tflops.bf16: must be positive");
  check_rejected(small_with("\"name\": \"small\"", "\"name\": \"Small GPU\""),
                 "t.json: name: 'Small GPU' must be lower-case letters, digits and '_'");
}

TEST_CASE("instruction fields: unknown, missing, mistyped, out of the closed lists") {
  check_rejected(small_with("\"rate\": 512", "\"rate\": 512, \"latency\": 4"),
                 "t.json: matrix_instructions[0]: unknown field 'latency'");
  check_rejected(small_with("\"rate\": 4096", "\"rate\": \"fast\""),
                 "t.json: matrix_instructions[1].rate: expected a number, got a string");
  check_rejected(small_with("\"mnemonic\": \"fma.rn.f32\",", ""),
                 "t.json: matrix_instructions[2]: missing field 'mnemonic'");
  check_rejected(small_with("\"a\": [\"f32\", \"bf16\"]", "\"a\": [\"f32\", \"bf17\"]"),
                 "t.json: matrix_instructions[2].dtypes.a[1]: unknown dtype 'bf17' (allowed: f64 f32 ...");
  check_rejected(small_with("\"a\": [\"f32\", \"bf16\"]", "\"a\": [\"f32\", \"f16\"]"),
                 "t.json: matrix_instructions[2].dtypes.a: dtype 'f16' is not among the target's dtypes");
  check_rejected(small_with("\"requires\": [\"mma_sync\", \"bf16\"]", "\"requires\": [\"mma_sync\", \"bf16\", \"fp8\"]"),
                 "t.json: matrix_instructions[0].requires[2]: feature 'fp8' is not among the target's features");
  check_rejected(small_with("\"kind\": \"wgmma\"", "\"kind\": \"wgmma2\""),
                 "t.json: matrix_instructions[1].kind: unknown instruction kind 'wgmma2' (allowed: mma_sync ...");
  check_rejected(small_with("\"min\": 8, \"max\": 256, \"step\": 8", "\"min\": 8, \"max\": 250, \"step\": 8"),
                 "t.json: matrix_instructions[1].n: max - min (242) is not a multiple of step 8");
  check_rejected(small_with("\"m\": 64, \"n\": {\"min\": 8, \"max\": 256, \"step\": 8}, \"k\": 16",
                            "\"m\": {\"min\": 64, \"max\": 8256, \"step\": 64}, "
                            "\"n\": {\"min\": 8, \"max\": 256, \"step\": 8}, \"k\": 16"),
                 "t.json: matrix_instructions[1]: allows 4128 shapes; at most 4096 are supported");
  check_rejected(small_with("\"id\": \"wgmma.m64nNk16.bf16_f32\"", "\"id\": \"mma_sync.m16n8k16.bf16_f32\""),
                 "t.json: matrix_instructions[1].id: 'mma_sync.m16n8k16.bf16_f32' repeats matrix_instructions[0]");
  check_rejected(small_with("\"id\": \"fma.scalar\"", "\"id\": \"fma scalar\""),
                 "t.json: matrix_instructions[2].id: 'fma scalar' is not a dotted id like \"mma_sync.m16n8k16.bf16_f32\"");
}

TEST_CASE("issuing groups must agree with the kind and the target") {
  check_rejected(small_with("\"scope\": \"warp\"", "\"scope\": \"wave\""),
                 "t.json: matrix_instructions[0].scope: scope 'wave' does not fit kind 'mma_sync'");
  check_rejected(small_with("\"group_threads\": 128, \"issue_threads\": 128",
                            "\"group_threads\": 64, \"issue_threads\": 64"),
                 "t.json: matrix_instructions[1].group_threads: 64 does not match scope 'warpgroup', "
                 "which means 128 threads on this target");
  check_rejected(small_with("\"group_threads\": 128, \"issue_threads\": 128",
                            "\"group_threads\": 128, \"issue_threads\": 1"),
                 "t.json: matrix_instructions[1].issue_threads: must be 128 for kind 'wgmma'");
}

TEST_CASE("locations and layout forms") {
  check_rejected(small_with("\"a\": {\"registers\": {\"layout\": \"((4,8),(2,2,2)):((32,1),(16,8,128))\"}}",
                            "\"a\": {\"registers\": {\"layout\": \"((4,8),(2,2,2)):((32,1),(16,8,128))\"}, "
                            "\"shared\": {\"layout\": \"opaque\", \"swizzles\": [], \"alignment_bytes\": 16}}"),
                 "t.json: matrix_instructions[0].layouts.a: has a layout for 'shared', which is not among its locations");
  check_rejected(small_with("\"acc\": [\"registers\"]},\n      \"scope\": \"warpgroup\"",
                            "\"acc\": [\"registers\", \"tensor_memory\"]},\n      \"scope\": \"warpgroup\""),
                 "t.json: matrix_instructions[1].layouts.acc: missing field 'tensor_memory'");
  check_rejected(small_with("\"acc\": {\"registers\": {\"layout\": \"((4,8),(2,2)):((32,1),(16,8))\"}}",
                            "\"acc\": {\"registers\": {\"layout\": \"free\"}}"),
                 "t.json: matrix_instructions[0].layouts.acc.registers.layout: \"free\" is only for the fma fallback");
  check_rejected(small_with("\"b\": {\"shared\": {\"layout\": \"opaque\", \"swizzles\": [\"none\", \"128B\"]",
                            "\"b\": {\"shared\": {\"layout\": \"opaque\", \"swizzles\": [\"none\", \"256B\"]"),
                 "t.json: matrix_instructions[1].layouts.b.shared.swizzles[1]: unknown swizzle '256B' "
                 "(allowed: none 32B 64B 128B 128B_base32B)");
}

TEST_CASE("global operands: only A and B of a cta-scope cooperative matrix") {
  // The wgmma entry (warpgroup scope) offered B from global memory as well.
  const std::string b_global = mutate(
      small_with("\"b\": [\"shared\"], \"acc\": [\"registers\"]},\n      \"scope\": \"warpgroup\"",
                 "\"b\": [\"shared\", \"global\"], \"acc\": [\"registers\"]},\n      \"scope\": \"warpgroup\""),
      "\"b\": {\"shared\": {\"layout\": \"opaque\", \"swizzles\": [\"none\", \"128B\"], \"alignment_bytes\": 16}},",
      "\"b\": {\"shared\": {\"layout\": \"opaque\", \"swizzles\": [\"none\", \"128B\"], \"alignment_bytes\": 16}, "
      "\"global\": {\"layout\": \"opaque\"}},");
  check_rejected(b_global,
                 "t.json: matrix_instructions[1].locations.b: only the A and B operands of a cta-scope coopmat entry can be "
                 "loaded from global memory");
  // A global layout must be opaque.
  check_rejected(mutate(b_global, "\"global\": {\"layout\": \"opaque\"}", "\"global\": {\"layout\": \"(4,8):(1,4)\"}"),
                 "t.json: matrix_instructions[1].layouts.b.global.layout: must be \"opaque\": this location is not held per lane");
}

TEST_CASE("layouts that are malformed, mis-sized or not bijective") {
  check_rejected(small_with("((32,1),(16,8,128))\"", "((32,1),(16,8,128)\""),
                 "t.json: matrix_instructions[0].layouts.a.registers.layout: layout "
                 "\"((4,8),(2,2,2)):((32,1),(16,8,128)\": expected ',' or ')' at column 35 (found end of text)");
  check_rejected(small_with("\"((4,8),(2,2)):((32,1),(16,8))\"", "\"((8,8),(2,2)):((32,1),(16,8))\""),
                 "t.json: matrix_instructions[0].layouts.acc.registers.layout: thread mode has 64 threads "
                 "but the group has 32 (at m16n8k16)");
  check_rejected(small_with("\"((4,8),(2,2)):((16,1),(8,64))\"", "\"((4,8),(2,2,2)):((16,1),(8,64,128))\""),
                 "t.json: matrix_instructions[0].layouts.b.registers.layout: value mode has 8 values per "
                 "thread but a 8x16 tile over 32 threads needs 4 (at m16n8k16)");
  check_rejected(small_with("((32,1),(16,8,128))\"", "((32,1),(16,8,64))\""),
                 "t.json: matrix_instructions[0].layouts.a.registers.layout: element (row 0, col 4) of the "
                 "16x16 tile is covered twice: by (t=0, v=4) and (t=2, v=0) (at m16n8k16)");
  check_rejected(small_with("(2,2,N/8)):((128,1,16),(64,8,512))", "(2,2,N/16)):((128,1,16),(64,8,512))"),
                 "t.json: matrix_instructions[1].layouts.acc.registers.layout: 'N/16' is not an exact "
                 "division (8/16) (at m64n8k16)");
  check_rejected(small_with("(2,2,N/8)):((128,1,16),(64,8,512))", "(2,2,Q/8)):((128,1,16),(64,8,512))"),
                 "t.json: matrix_instructions[1].layouts.acc.registers.layout: layout uses unknown symbol "
                 "'Q' (allowed: M N K)");
}

TEST_CASE("every target needs the fma fallback") {
  std::string text = kSmallTarget;
  size_t fma = text.find(",\n    {\n      \"id\": \"fma.scalar\"");
  REQUIRE(fma != std::string::npos);
  check_rejected(text.substr(0, fma) + "\n  ]\n}", "t.json: matrix_instructions: every target needs an entry of kind 'fma'");
}

TEST_CASE("an instruction's shared-memory reserve is a byte count") {
  Result<TargetDescription> t = parse_target(small_with("\"rate\": 512", "\"rate\": 512, \"shared_reserve\": 8192"), "t.json");
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  CHECK(t->matrix_instructions[0].shared_reserve == 8192);
  CHECK(t->matrix_instructions[1].shared_reserve == 0);
  check_rejected(small_with("\"rate\": 512", "\"rate\": 512, \"shared_reserve\": -1"), "t.json: matrix_instructions[0].shared_reserve: ...");
  check_rejected(small_with("\"rate\": 512", "\"rate\": 512, \"shared_reserve\": \"8K\""),
                 "t.json: matrix_instructions[0].shared_reserve: expected an integer, got a string");
}

TEST_CASE("an instruction's async_groups and any_pointee are booleans, false when absent") {
  Result<TargetDescription> t = parse_target(
      small_with("\"rate\": 512", "\"rate\": 512, \"async_groups\": true, \"any_pointee\": true"), "t.json");
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  CHECK(t->matrix_instructions[0].async_groups);
  CHECK(t->matrix_instructions[0].any_pointee);
  CHECK_FALSE(t->matrix_instructions[1].async_groups);
  CHECK_FALSE(t->matrix_instructions[1].any_pointee);
  check_rejected(small_with("\"rate\": 512", "\"rate\": 512, \"async_groups\": 1"),
                 "t.json: matrix_instructions[0].async_groups: expected true or false, got a number");
  check_rejected(small_with("\"rate\": 512", "\"rate\": 512, \"any_pointee\": \"yes\""),
                 "t.json: matrix_instructions[0].any_pointee: expected true or false, got a string");
}

}  // namespace target_malformed_test
