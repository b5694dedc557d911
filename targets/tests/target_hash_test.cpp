// target_hash() digests the canonical document: it is stable under reparsing, whitespace and
// key order, and changes whenever a value changes.
#include <doctest/doctest.h>

#include "targets/Target.h"
#include "targets/tests/TestDescriptions.h"

namespace target_hash_test {

using namespace tegula;
using tegula::test::kSmallTarget;
using tegula::test::mutate;

static std::string hash_of(const std::string& text) {
  Result<TargetDescription> t = parse_target(text, "t.json");
  REQUIRE_MESSAGE(t.is_ok(), t.status().str());
  return target_hash(*t);
}

TEST_CASE("the hash is a SHA-256 hex digest and stable") {
  std::string h = hash_of(kSmallTarget);
  CHECK(h.size() == 64);
  CHECK(h.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(hash_of(kSmallTarget) == h);
}

TEST_CASE("formatting and key order do not change the hash") {
  std::string base = hash_of(kSmallTarget);
  std::string spaced = mutate(kSmallTarget, "\"name\": \"small\",", "\"name\"  :\n\n  \"small\" ,");
  CHECK(hash_of(spaced) == base);
  std::string reordered = mutate(kSmallTarget, "\"vendor\": \"nvidia\",\n  \"arch\": \"hopper\",",
                                 "\"arch\": \"hopper\",\n  \"vendor\": \"nvidia\",");
  CHECK(hash_of(reordered) == base);
}

TEST_CASE("any changed value changes the hash") {
  std::string base = hash_of(kSmallTarget);
  CHECK(hash_of(mutate(kSmallTarget, "\"version\": 1", "\"version\": 2")) != base);
  CHECK(hash_of(mutate(kSmallTarget, "\"rate\": 512", "\"rate\": 256")) != base);
  CHECK(hash_of(mutate(kSmallTarget, "\"shared_memory_per_block\": 232448",
                       "\"shared_memory_per_block\": 166912")) != base);
  CHECK(hash_of(mutate(kSmallTarget, "\"b\": {\"shared\": {\"layout\": \"opaque\", \"swizzles\": [\"none\", \"128B\"]",
                       "\"b\": {\"shared\": {\"layout\": \"opaque\", \"swizzles\": [\"128B\"]")) != base);
  CHECK(hash_of(mutate(kSmallTarget, "\"vector_bytes\": 16,",
                       "\"vector_bytes\": 16, \"notes\": [\"provenance counts too\"],")) != base);
}

TEST_CASE("built-in hashes are distinct and repeatable") {
  std::vector<std::string> hashes;
  for (const std::string& name : builtin_target_names()) {
    Result<TargetDescription> a = builtin_target(name);
    Result<TargetDescription> b = builtin_target(name);
    REQUIRE(a.is_ok());
    REQUIRE(b.is_ok());
    CHECK(target_hash(*a) == target_hash(*b));
    for (const std::string& h : hashes) CHECK(h != target_hash(*a));
    hashes.push_back(target_hash(*a));
  }
}

}  // namespace target_hash_test
