/// \file
/// The rows of the optimization matrix, written once: X(id) for each, in the order the
/// matrix shows them. Row `id` is the function `const Optimization& id()` defined in
/// rows/<Id>.cpp (every file there is compiled in; optimizations_tests checks that each is
/// listed). Adding a row: one file under rows/ and one line here.
#pragma once

#define TG_FOR_EACH_OPTIMIZATION(X) \
  X(vector_access)                  \
  X(async_copy)                     \
  X(bulk_tensor_copy)               \
  X(swizzled_shared)                \
  X(padded_shared)                  \
  X(software_pipelining)            \
  X(register_prefetch)              \
  X(rasterised_order)               \
  X(split_k)                        \
  X(ldmatrix)                       \
  X(stmatrix)                       \
  X(mma_sync)                       \
  X(wgmma)                          \
  X(wgmma_register_a)               \
  X(wgmma_overlap)                  \
  X(warp_specialisation)            \
  X(subgroup_coopmat)               \
  X(workgroup_coopmat)              \
  X(mfma)                           \
  X(block_scaled_mma)               \
  X(tcgen05)                        \
  X(subgroup_reduce)                \
  X(bounds_elision)
