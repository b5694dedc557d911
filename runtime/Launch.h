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

#include "core/Status.h"
#include "runtime/Objects.h"

namespace tegula::runtime {

Status launch_kernel(tegula_kernel* kernel, const tegula_arg* args, size_t arg_count);

}  // namespace tegula::runtime
