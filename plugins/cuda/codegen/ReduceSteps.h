/// \file
/// The plan half of a reduce (Reduce.cpp): what emit_reduce decides before it writes a line
/// (Emitter::plan_reduce, which emits nothing), kept apart from the emission so that it can
/// be tested on its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/IR.h"
#include "plugins/cuda/codegen/Emitter.h"

namespace tegula::cuda::gen {

struct ReduceSteps {
  ir::ReduceKind kind = ir::ReduceKind::Sum;
  int axis = 0;
  bool clear = true;
  bool keep = false;  ///< the destination keeps the reduced axis (of size 1)
  int rank = 0;
  Rep rep = Rep::F32;  ///< the partials' representation
  int64_t V = 0;       ///< values per thread of the plan's distribution
  int64_t K = 0;       ///< partials per thread (ir::ReducePlan::partials)
  std::vector<std::vector<int64_t>> keys;  ///< partial k -> its off-axis coordinate in thread 0
  std::vector<int64_t> key_of;             ///< value v -> its partial
  std::vector<int64_t> src_slot;           ///< a fragment source: value v -> its slot (-1: none)
  std::vector<int64_t> slot_key;           ///< a fragment destination: slot -> the partial it takes (< 0: padding)
  std::vector<std::string> writer;         ///< another destination: the conditions of the one writer per output
  // Names the emission gives (emit_reduce).
  std::string tp;  ///< the thread part's coordinate variables, tp_d
  std::string P;   ///< the partials array
};

}  // namespace tegula::cuda::gen
