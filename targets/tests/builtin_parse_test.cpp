// Every built-in description parses and validates, is named after its file, and the
// embedded set is exactly the set of files in targets/descriptions/.
#include <algorithm>
#include <filesystem>

#include <doctest/doctest.h>

#include "targets/Target.h"

namespace builtin_parse_test {

using namespace tegula;

TEST_CASE("the built-in names are the description files, sorted") {
  std::vector<std::string> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(TEGULA_SOURCE_DIR) + "/targets/descriptions")) {
    if (entry.path().extension() == ".json") files.push_back(entry.path().stem().string());
  }
  std::sort(files.begin(), files.end());
  CHECK(builtin_target_names() == files);
  std::vector<std::string> required = {"gfx942", "gfx950", "host_cpu", "sm_100a",
                                       "sm_80",  "sm_89",  "sm_90a",   "vulkan_generic"};
  for (const std::string& name : required) {
    CAPTURE(name);
    CHECK(std::find(files.begin(), files.end(), name) != files.end());
  }
}

TEST_CASE("every built-in parses and validates") {
  for (const std::string& name : builtin_target_names()) {
    CAPTURE(name);
    Result<TargetDescription> t = builtin_target(name);
    REQUIRE_MESSAGE(t.is_ok(), t.status().str());
    CHECK(t->name == name);
    CHECK(t->source == name + ".json");
    CHECK(t->version >= 1);
    CHECK(!t->matrix_instructions.empty());
    CHECK(!t->canonical_json.empty());
  }
}

TEST_CASE("an unknown built-in is NotFound and lists the known ones") {
  Result<TargetDescription> t = builtin_target("sm_999");
  REQUIRE(!t.is_ok());
  CHECK(t.status().code() == ErrorCode::NotFound);
  CHECK(t.status().message().find("sm_90a") != std::string::npos);
}

TEST_CASE("subgroup widths and catalogue families per target") {
  struct Expect {
    const char* name;
    int subgroup;
    InstructionKind family;
  };
  const Expect expects[] = {
      {"sm_80", 32, InstructionKind::MmaSync},   {"sm_89", 32, InstructionKind::MmaSync},
      {"sm_90a", 32, InstructionKind::Wgmma},    {"sm_100a", 32, InstructionKind::Tcgen05},
      {"gfx942", 64, InstructionKind::Mfma},     {"gfx950", 64, InstructionKind::Mfma},
      {"vulkan_generic", 32, InstructionKind::Fma}, {"host_cpu", 8, InstructionKind::Fma},
  };
  for (const Expect& e : expects) {
    CAPTURE(e.name);
    Result<TargetDescription> t = builtin_target(e.name);
    REQUIRE(t.is_ok());
    CHECK(t->subgroup_width == e.subgroup);
    bool has_family = std::any_of(t->matrix_instructions.begin(), t->matrix_instructions.end(),
                                  [&](const MatrixInstruction& mi) { return mi.kind == e.family; });
    CHECK(has_family);
    bool has_fma = std::any_of(t->matrix_instructions.begin(), t->matrix_instructions.end(),
                               [](const MatrixInstruction& mi) { return mi.kind == InstructionKind::Fma; });
    CHECK(has_fma);
  }
  Result<TargetDescription> vk = builtin_target("vulkan_generic");
  REQUIRE(vk.is_ok());
  CHECK(vk->shared_memory_per_block == 48 * 1024);
  CHECK(vk->matrix_instructions.size() == 1);
}

TEST_CASE("sm_90a carries the measured H200 sizes") {
  Result<TargetDescription> t = builtin_target("sm_90a");
  REQUIRE(t.is_ok());
  CHECK(t->shared_memory_per_block == 232448);
  CHECK(t->registers_per_block == 65536);
  CHECK(t->compute_units == 132);
  CHECK(t->l2_bytes == 62914560);
}

}  // namespace builtin_parse_test
