// libFuzzer target: parse and verify arbitrary bytes; whatever verifies must print to a
// fixed point. Any crash, hang, sanitizer report or broken round trip is a bug.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ir/Parser.h"
#include "ir/Printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto k = tegula::ir::parse_and_verify(text, "fuzz.tile");
  if (!k.is_ok()) {
    if (k.status().message().empty()) std::abort();
    return 0;
  }
  std::string printed = tegula::ir::print_kernel(*k);
  auto again = tegula::ir::parse_and_verify(printed, "printed");
  if (!again.is_ok()) std::abort();
  if (tegula::ir::print_kernel(*again) != printed) std::abort();
  return 0;
}
