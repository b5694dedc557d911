// libFuzzer target: arbitrary bytes that parse and verify are lowered for every built-in
// target, once as written and once with every shape symbol assumed divisible by 16, aligned
// tensors and rasterised blocks (what `tegula lower --assume` and the runtime's variants
// ask). Lowering may refuse a kernel, with a message; it must never crash, hang or trip a
// sanitizer. A kernel it accepts must print as lowered text that read_lowered() (the reader
// every backend uses) accepts again.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "targets/Target.h"

namespace {

const std::vector<tegula::TargetDescription>& targets() {
  static const std::vector<tegula::TargetDescription> all = [] {
    std::vector<tegula::TargetDescription> out;
    for (const std::string& name : tegula::builtin_target_names()) {
      auto t = tegula::builtin_target(name);
      if (!t.is_ok()) std::abort();  // the built-in descriptions always parse
      out.push_back(std::move(*t));
    }
    return out;
  }();
  return all;
}

void lower_checked(const tegula::ir::Kernel& k, const tegula::TargetDescription& t, const tegula::ir::LowerOptions& options) {
  auto lowered = tegula::ir::lower(k, t, options);
  if (!lowered.is_ok()) {
    if (lowered.status().message().empty()) std::abort();
    return;
  }
  std::string text = tegula::ir::print_kernel(lowered->kernel);
  if (!tegula::ir::read_lowered(text, "lowered").is_ok()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto k = tegula::ir::parse_and_verify(text, "fuzz.tile");
  if (!k.is_ok()) return 0;
  tegula::ir::LowerOptions assumed;
  for (const std::string& s : k->symbols()) assumed.divisibility[s] = 16;
  assumed.tensors_aligned = true;
  assumed.raster_group = 8;
  for (const tegula::TargetDescription& t : targets()) {
    lower_checked(*k, t, {});
    lower_checked(*k, t, assumed);
  }
  return 0;
}
