// The plugin ABI's layout on LP64 is pinned: the size of every struct, the offset and size
// of every field and the value of every enumerator must match the checked-in table
// (abi_layout_lp64.txt). A change here breaks every plugin built against the old header;
// if it is deliberate (fields appended in a new ABI version), update the table in the same
// commit and say so.
#include <doctest/doctest.h>

#include <cstddef>
#include <sstream>
#include <string>

#include "core/Files.h"
#include "plugins/abi/tegula_plugin.h"
#include "runtime/tests/AbiLayoutFields.h"

namespace abi_layout_test {

namespace {

std::string actual_layout() {
  std::ostringstream out;
#define TG_SIZE_LINE(s) out << "sizeof " #s " " << sizeof(s) << "\n";
  TG_ABI_STRUCTS(TG_SIZE_LINE)
#undef TG_SIZE_LINE
#define TG_FIELD_LINE(s, f) out << "field " #s "." #f " " << offsetof(s, f) << " " << sizeof(((s*)nullptr)->f) << "\n";
  TG_ABI_FIELDS(TG_FIELD_LINE)
#define TG_ENTRY_LINE(name, ret, params, args, since, optional) TG_FIELD_LINE(tg_plugin_api, name)
  TG_FOR_EACH_ABI_ENTRY(TG_ENTRY_LINE)
#undef TG_ENTRY_LINE
#undef TG_FIELD_LINE
#define TG_ENUM_LINE(e) out << "value " #e " " << (unsigned long long)(e) << "\n";
  TG_ABI_ENUMERATORS(TG_ENUM_LINE)
#undef TG_ENUM_LINE
  return out.str();
}

}  // namespace

TEST_CASE("the plugin ABI layout matches the golden table") {
  static_assert(sizeof(void*) == 8 && sizeof(long) == 8, "the golden table is for LP64");
  auto golden = tegula::read_file(std::string(TEGULA_SOURCE_DIR) + "/runtime/tests/abi_layout_lp64.txt");
  REQUIRE(golden.is_ok());
  // Comment lines in the table start with '#'.
  std::istringstream in(*golden);
  std::string line, expected;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') expected += line + "\n";
  std::string actual = actual_layout();
  if (actual != expected) MESSAGE("actual layout:\n" << actual);
  CHECK(actual == expected);
}

}  // namespace abi_layout_test
