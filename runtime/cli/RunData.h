/// \file
/// tegula run's data: `--bind` split into shape symbols and scalars, tensors read from and
/// written to .npy / raw .bin files against the kernel's signature, outputs printed, and
/// two runs' outputs compared.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/Status.h"
#include "examples/checks/Checks.h"
#include "ir/IR.h"
#include "tegula/tegula.hpp"

namespace tegula::cli {

struct Bindings {
  std::map<std::string, int64_t> symbols;
  std::map<std::string, double> scalars;
};

/// "M=64,alpha=2.5": names the kernel's shape symbols take integers, its scalar parameters
/// numbers (an integer scalar an integer). Any other name is an error listing the names.
Result<Bindings> parse_run_bindings(const ir::Kernel& k, const std::string& text);

/// A tensor named on the command line: "NAME=FILE", FILE ending in .npy or .bin.
struct TensorFile {
  std::string param;
  std::string path;
  size_t index = 0;  ///< into Kernel::params
};
Result<TensorFile> parse_tensor_file(const ir::Kernel& k, const std::string& text, const char* option);

/// Binds the shape symbols each .npy input's shape fixes (checking those already bound) and
/// checks dtype and rank; reads nothing else. Raw .bin files fix no symbol.
Status bind_symbols_from_inputs(const ir::Kernel& k, const std::vector<TensorFile>& inputs, Bindings& b);

/// Replaces the random contents of each input's tensor in `data` with the file's.
Status load_inputs(const ir::Kernel& k, const std::vector<TensorFile>& inputs, examples::LaunchData& data);

/// Writes tensors atomically: .npy in the tensor's dtype (float32 for dtypes NumPy lacks),
/// .bin raw in the dtype's encoding.
Status write_outputs(const ir::Kernel& k, const std::vector<TensorFile>& outputs, const examples::LaunchData& data);

/// "Y: f32[2, 3] = [1, 2, ...]" for every output, at most `limit` elements each.
std::string format_outputs(const ir::Kernel& k, const examples::LaunchData& data, int64_t limit);

/// Compares the outputs of `got` with those of `want` (the same inputs run on the reference
/// device). Equal bits match; NaN matches only NaN; infinities and integers only themselves;
/// a float may differ by 4 units in the last place of its dtype at the expected value plus
/// 64 float32 roundoffs (2^-24) of the tensor's largest magnitude, the slack a reordered
/// float32 accumulation needs. (The conformance suite's table is finer: it knows each case's
/// function and reduction length, which an arbitrary kernel does not state.)
examples::CheckResult compare_runs(const ir::Kernel& k, const examples::LaunchData& got,
                                   const examples::LaunchData& want);

struct DeviceRun {
  double ms_per_launch = -1;  ///< < 0: not timed
  std::string binding;        ///< a tunable kernel's binding, and how it was chosen
  std::string chosen_by;
};

/// Copies `data` to device buffers, compiles and launches, waits and reads the outputs back;
/// with `repeat`, launches that many times more between two events and reports the mean.
Result<DeviceRun> run_on_device(const Device& device, const std::string& text, const CompileOptions& options,
                                const ir::Kernel& k, examples::LaunchData& data, int64_t repeat);

/// run_on_device for a kernel compiled already (`k` is its parse, for the signature).
Result<DeviceRun> run_compiled(const Device& device, Kernel& kernel, const ir::Kernel& k, examples::LaunchData& data,
                               int64_t repeat);

}  // namespace tegula::cli
