/// \file
/// The measured effect of an optimization (a row of the optimization matrix,
/// ir/lower/optimizations/) on a device: two figures of the device's performance section,
/// one where the lowering applies the optimization and one where it does not, and their
/// ratio. The pairs are data (PerfEffects.cpp), one per row that has one:
///   vector_access                       copy.registers against copy.scalar (no vector width)
///   async_copy, bulk_tensor_copy,
///   software_pipelining, register_prefetch  copy.pipelined against copy.loop (no stages)
///   mma_sync, mfma, tcgen05,
///   subgroup_coopmat, workgroup_coopmat the best gemm on the row's instructions against the
///                                       best on the FMA fallback
///   wgmma                               the best wgmma gemm against the best mma.sync one
/// Derived from the report's own figures (derive_optimizations), so a reader sees on the
/// matrix whether each optimization worked where it applies, and the text follows from the
/// figures it names.
#pragma once

#include <string>

#include "core/Json.h"

namespace tegula::conformance {

/// "on 2950 GB/s (tegula.perf.copy.pipelined), off 1810 GB/s (tegula.perf.copy.loop): 1.63x";
/// "not measured: ..." where the row has no pair or a figure of it is missing or not measured
/// on this device; "" when the device has no performance section.
std::string measured_effect(const std::string& row_id, const Json& device);

}  // namespace tegula::conformance
