/// \file
/// Launching a compiled kernel: the arguments are checked against the launch signature
/// (count, kinds, that every buffer is on the kernel's device and large enough for its
/// tensor at its offset, per ir::tensor_bytes), the grid is evaluated from the kernel's grid
/// expressions (ir::launch_grid), and the launch goes to the plugin. A grid with a zero
/// dimension is empty work and reaches no plugin. Otherwise the variant the launch runs
/// (Compile.h, kernel_variant) is recorded in the kernel with one pointer store, for
/// tegula_kernel_describe.
#pragma once

#include <cstddef>
#include <string>

#include "core/Status.h"
#include "runtime/Objects.h"

namespace tegula::runtime {

Status launch_kernel(tegula_kernel* kernel, const tegula_arg* args, size_t arg_count);

/// Compile, ahead of any launch, the variants launches with aligned tensors would select:
/// every combination of the divisors each shape symbol's mask names (bit b: 2^b; NULL or 0:
/// 16). See tegula_kernel_warm_up.
Status warm_up_kernel(tegula_kernel* kernel, const uint32_t* divisor_masks);

/// Compile the variant a launch at these shape-symbol values (signature order, `count` of
/// them) with aligned tensors would run. See tegula_kernel_warm_up_shape.
Status warm_up_shape(tegula_kernel* kernel, const int64_t* symbol_values, size_t count);

/// tegula_kernel_record_tuning: `binding` as the measured choice for the shape class of `args`.
Status record_tuning(tegula_kernel* kernel, const tegula_arg* args, size_t count, const std::string& binding,
                     double measured_ms);

}  // namespace tegula::runtime
