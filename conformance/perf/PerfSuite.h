/// \file
/// The performance section's figures (`tegula conformance --perf`): what is measured on a
/// device, built from its target description like the cases are, as plain data that the
/// parent and its worker build alike.
///
/// Figures, names dotted like case names:
///   tegula.perf.copy.<route>          global memory bandwidth by copy path: registers
///                                     (vectorised; `scalar`: the same, no vector width
///                                     provable), shared memory, a pipelined loop (the
///                                     lowering's copy engine: cp.async or TMA where the
///                                     description offers them; `loop`: the same loop not
///                                     pipelined)
///   tegula.perf.reduce.rows           a row sum, bandwidth-bound
///   tegula.perf.map.exp_chain         four dependent exps per element: the transcendental rate
///   tegula.perf.atomic_add.contended  every block adds into the same 1024 floats
///   tegula.perf.launch                host time per launch of a one-block kernel, back to back
///   tegula.perf.compile.<kernel>      a cold compile and first launch (the cache is off)
///   tegula.perf.gemm.<instruction>    each catalogue entry forced onto a tunable gemm (the
///                                     ranking's first schedule) at a shape that saturates it
///   tegula.perf.example.<file>        each shipped kernel of examples/ at a production shape
///
/// Each is set against what the description declares (targets/Peak.h): memory-bound figures
/// against peak.memory_gbps, gemms against their instruction's peak, compute-bound examples
/// against the best instruction for their dtype. What has no declared peak is a figure with
/// no percentage; a figure that cannot run on the device says why ("not measured").
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "conformance/Case.h"
#include "core/Status.h"
#include "ir/IR.h"
#include "targets/Target.h"

namespace tegula::conformance {

enum class PerfKind : unsigned char {
  Kernel,   ///< launches timed with device events
  Launch,   ///< host wall time per launch, back to back, then one synchronisation
  Compile,  ///< a cold compile and the first launch, wall time
};

/// What a figure's value is, and the peak it is set against.
enum class PerfBound : unsigned char {
  Memory,   ///< GB/s against peak.memory_gbps
  Compute,  ///< TFLOP/s against `instruction`'s peak (or the best for `dtype`)
  Rate,     ///< `items` per second, no declared peak (atomics, transcendentals)
  Time,     ///< microseconds or milliseconds, no peak (launch, compile)
};

struct PerfSpec {
  std::string name;
  std::string what;  ///< one line for a reader
  std::string kernel;
  std::vector<std::pair<std::string, int64_t>> symbols;  ///< in the kernel's launch order
  std::vector<double> scalars;                           ///< per parameter (0 for tensors)
  std::vector<Values> values;                            ///< per parameter: how inputs are filled
  PerfKind kind = PerfKind::Kernel;
  PerfBound bound = PerfBound::Memory;
  double bytes = 0;  ///< bytes that must move per launch (each input read, each output written once)
  double flops = 0;  ///< per launch
  double items = 0;  ///< Rate: per launch
  std::string item_unit;
  std::string instruction;  ///< Compute: the forced catalogue entry ("" for an example)
  DType dtype = DType::F32;  ///< Compute without an instruction: the operand dtype
  std::string unsupported;  ///< non-empty: not measured, and why
};

/// The figures for `target`. `large`: accelerator sizes (hundreds of MiB, 4096^3 gemms);
/// otherwise sizes a CPU or a software device takes in a few seconds.
std::vector<PerfSpec> build_perf_suite(const TargetDescription& target, bool large);

/// The figures whose names `filter` (Glob.h's comma-separated globs; "" selects all) selects.
std::vector<PerfSpec> select_figures(std::vector<PerfSpec> specs, const std::string& filter);

/// The kernel of `spec`, parsed and verified (a tunable one as its first instance: the
/// parameters are the same in every instance).
Result<ir::Kernel> parse_perf_kernel(const PerfSpec& spec);

}  // namespace tegula::conformance
