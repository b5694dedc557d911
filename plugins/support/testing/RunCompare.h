/// \file
/// A kernel run on a plugin's device through the C ABI and on the reference interpreter
/// (ir::interpret, float64 arithmetic) from the same random inputs (examples::make_launch_data:
/// floats uniform in [-1, 1), small integers; outputs poisoned with 0xff bytes, a NaN in every
/// float encoding, on both sides), then compared (OutputCompare.h): every output within its
/// tolerance, NaN matching NaN, every input back unchanged, the first mismatch described.
///
/// Part of the plugin test harness (tegula::plugin_testing, installed with the SDK).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "examples/checks/Checks.h"
#include "ir/IR.h"
#include "ir/Lower.h"
#include "plugins/support/testing/OutputCompare.h"
#include "plugins/support/testing/PluginHarness.h"

namespace tegula::plugin_testing {

struct RunSpec {
  std::string source;                     ///< the kernel's text (.tile)
  std::string source_name = "test.tile";  ///< for error locations
  std::map<std::string, int64_t> bindings;  ///< shape symbols (and scalars, if wanted)
  uint64_t seed = 1;
  ir::LowerOptions lower;
  CompileRequest compile;
  /// An executable to load instead of lowering and compiling `source` (one compiled
  /// beforehand; for this kernel's signature).
  std::string executable;
  /// One tolerance for every output; default_tolerance of each output's dtype when unset.
  std::optional<Tolerance> tolerance;
  /// Edit the launch data before both runs (custom inputs, initial outputs).
  std::function<void(const ir::Kernel&, examples::LaunchData&)> prepare;
};

/// A kernel's text lowered for a target and printed, as a host hands it to compile.
Result<std::string> lower_source(const std::string& source, const TargetDescription& target,
                                 const ir::LowerOptions& options = {}, const std::string& source_name = "test.tile");

/// The description a host would compile for on device `index`: its own (device_target), or
/// the built-in one its properties name when it gives none.
Result<TargetDescription> resolve_target(const Plugin& plugin, uint32_t index);

/// Launch arguments in the kernel's launch signature order: a buffer per tensor parameter
/// (`buffers`, indexed like the parameters), a number per scalar and one integer per shape
/// symbol, from `data`.
Result<std::vector<tg_launch_arg>> launch_args(const ir::Kernel& k, const examples::LaunchData& data,
                                               const std::vector<Buffer>& buffers);

/// The grid the kernel's grid expressions give for `data` (missing dimensions 1).
Result<std::array<uint32_t, 3>> launch_grid(const ir::Kernel& k, const examples::LaunchData& data);

/// Copy every tensor of `data` to the device, launch `exe` and read every tensor back into
/// `data`.
Status run_on_device(Device& device, const Executable& exe, const ir::Kernel& k, examples::LaunchData& data);

/// The interpreter's run of `k` on `data` (in place).
Status run_reference(const ir::Kernel& k, examples::LaunchData& data);

/// Make the launch data for `spec` (inputs, poisoned outputs, then `prepare`).
Result<examples::LaunchData> make_data(const ir::Kernel& k, const RunSpec& spec);

/// Run `spec` on the device (lowered for `target`, compiled there, or spec.executable loaded)
/// and on the interpreter, and compare (compare_launch).
Status run_and_compare(Device& device, const TargetDescription& target, const RunSpec& spec);

}  // namespace tegula::plugin_testing
