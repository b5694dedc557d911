/// \file
/// The lowering passes, in pipeline order (ir/Lower.cpp runs them as one list).
/// Each rewrites the kernel in the context and records its decisions with reasons in the
/// log; each lives in its own file, whose header comment says what it does and why.
#pragma once

#include "core/Status.h"

#include <cstdint>
#include "ir/lower/Context.h"

namespace tegula::ir {

Status check_target_dtypes(LowerContext& ctx);   // CheckTargetDTypes.cpp
Status select_instructions(LowerContext& ctx);   // SelectInstructions.cpp
Status forward_operands(LowerContext& ctx);      // ForwardOperands.cpp
Status legalize_tiles(LowerContext& ctx);        // LegalizeTiles.cpp
Status assign_layouts(LowerContext& ctx);        // AssignLayouts.cpp
Status exchange_fragments(LowerContext& ctx);    // ExchangeFragments.cpp
Status stage_fragment_reads(LowerContext& ctx);  // StageFragmentReads.cpp
Status map_threads(LowerContext& ctx);           // MapThreads.cpp
Status lower_reductions(LowerContext& ctx);      // LowerReductions.cpp
Status prove_in_bounds(LowerContext& ctx);       // ProveInBounds.cpp
Status plan_pipelines(LowerContext& ctx);        // PlanPipelines.cpp
Status plan_register_prefetch(LowerContext& ctx);  // PlanRegisterPrefetch.cpp
Status pack_shared_tiles(LowerContext& ctx);       // PackSharedTiles.cpp
Status place_shared(LowerContext& ctx);          // PlaceShared.cpp
Status insert_barriers(LowerContext& ctx);       // InsertBarriers.cpp
Status plan_mma_overlap(LowerContext& ctx);      // PlanMmaOverlap.cpp
Status rasterize(LowerContext& ctx);             // Rasterize.cpp

}  // namespace tegula::ir

namespace tegula::ir {
/// The block (bx, by) that launch position (bx, by) runs under lower.raster = group.
void raster_remap(int64_t group, int64_t gx, int64_t gy, int64_t& bx, int64_t& by);
}  // namespace tegula::ir
