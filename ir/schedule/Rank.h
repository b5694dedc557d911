/// \file
/// Ranking the candidates of a kernel's tune space (ir/Tunables.h) for one target and one
/// launch shape, without running anything.
///
/// Each binding is parsed, verified and lowered exactly as a compile would; a binding the
/// conditions, the verifier or lowering refuse is *dropped* with that reason (over the
/// shared or register budget, a tile no instruction fits, a thread count over the limit).
/// Each legal candidate gets a predicted time from the target description and what
/// lowering decided (cost model in Rank.cpp):
///   - occupancy: blocks resident per compute unit under the thread, shared-memory and
///     register limits (the register count estimated from the fragments' layouts);
///   - wave quantisation: the grid at this shape, in waves of CUs x resident blocks;
///   - compute: every gemm's FLOPs at the rate of the instruction lowering chose (the
///     catalogue's rate scaled to the description's peak), FMA fallbacks at the FMA rate;
///   - memory: every copy between a tensor and the block, at the L2 rate, capped by what the
///     resident blocks keep in flight (pipeline stages x bytes per iteration, Little's law
///     with the description's or a default latency), and the tensors' footprint at the DRAM
///     rate.
/// Equal predictions are ordered by DRAM bytes (a rasterised block order reads less), then by
/// space order. The ranking is what the runtime takes when nothing was measured, and what
/// `tegula tune` measures the top of.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.h"
#include "ir/Lower.h"
#include "ir/Tunables.h"
#include "targets/Target.h"

namespace tegula::ir {

/// What the model used and predicted for one legal candidate.
struct CandidateEstimate {
  int64_t threads = 0;
  int64_t shared_bytes = 0;
  int64_t registers = 0;       ///< estimated per thread
  int64_t blocks = 0;          ///< the grid at this shape
  int64_t resident = 0;        ///< blocks per compute unit
  std::string resident_limit;  ///< "threads", "shared memory", "registers", "blocks"
  int64_t waves = 0;
  double wave_efficiency = 0;  ///< blocks / (waves x CUs x resident)
  double flops = 0;            ///< whole launch
  double bytes = 0;            ///< between tensors and blocks, whole launch
  double dram_bytes = 0;       ///< of those, what crosses the DRAM interface (L2 misses)
  std::string instruction;     ///< the gemms' matrix instruction ("fma" when none)
  double compute_us = 0, memory_us = 0, dram_us = 0;
  double predicted_us = 0;
  std::string limiter;  ///< "compute", "memory", "latency", "dram"
};

struct Candidate {
  Binding binding;
  bool legal = false;
  std::string reason;  ///< why it was dropped (legal == false)
  CandidateEstimate estimate;
};

struct Ranking {
  std::vector<Candidate> legal;    ///< best (lowest predicted time, then fewest DRAM bytes) first
  std::vector<Candidate> dropped;  ///< in space order
  std::string model_notes;         ///< defaults the model assumed for this target
};

struct RankRequest {
  /// Every shape symbol's value at the launch ranked for.
  std::map<std::string, int64_t> shape;
  /// Lowering options the compile uses (divisibility of the shape, raster group, alignment).
  LowerOptions lower;
};

/// Rank every binding of the kernel `text` for `target`. An error only when the text has no
/// tune space, the space is too large, or the shape misses a symbol; a refused binding is a
/// dropped candidate, never an error. No legal candidate is not an error either (the
/// caller says so with the reasons).
Result<Ranking> rank_candidates(std::string_view text, const std::string& file, const TargetDescription& target,
                                const RankRequest& request);

/// The ranking as a table, one line per candidate (legal ones first, then `dropped_shown`
/// dropped ones with their reasons), for `tegula lower --explain` and `tegula tune`.
std::string ranking_table(const Ranking& r, size_t legal_shown, size_t dropped_shown);

}  // namespace tegula::ir
