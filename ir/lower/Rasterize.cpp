// Block rasterisation: launch the blocks of a 2-D grid in groups of G rows, so blocks
// running at the same time share rows of one operand and columns of the other in L2. G is the
// kernel's `raster=G` when it has one (written by its author, or a tunable: `raster=R` with
// `R in [1, 8]`), else the compile option `raster_group`; 1 keeps the launch order.
//
// The remap is a bijection of the grid, so results never change (the interpreter applies it
// too, and the tests compare): with pid = bx + gx * by, group = pid / (G * gx),
// first = group * G, size = min(gy - first, G), the block runs as
// by' = first + (pid mod (G * gx)) mod size and bx' = (pid mod (G * gx)) / size.
#include "ir/lower/Passes.h"

#include <algorithm>
#include <cstdint>

namespace tegula::ir {

constexpr int64_t kMaxRasterGroup = 65535;

Status rasterize(LowerContext& ctx) {
  const Attr* own = find_attr(ctx.kernel.attrs, "raster");
  int64_t g = own && own->value.kind == AttrValue::Kind::Int ? own->value.i : ctx.options.raster_group;
  if (g <= 1) return Status::ok();
  // Backends compute the remap in 32-bit block indices; a group beyond any grid's rows is
  // a mistake, not a request.
  if (g > kMaxRasterGroup)
    return error(ErrorCode::InvalidArgument, "raster group " + std::to_string(g) + " is larger than " + std::to_string(kMaxRasterGroup));
  if (ctx.kernel.grid.size() != 2) {
    ctx.note("rasterisation skipped: the grid is not 2-D");
    return Status::ok();
  }
  set_attr(ctx.kernel.attrs, "lower.raster", AttrValue::of_int(g));
  ctx.note("blocks rasterised in groups of " + std::to_string(g) + " rows of the grid");
  return Status::ok();
}

/// The block a launch position runs after rasterisation (see above); also used by the
/// interpreter.
void raster_remap(int64_t group, int64_t gx, int64_t gy, int64_t& bx, int64_t& by) {
  if (group <= 1 || gx <= 0 || gy <= 0) return;
  int64_t pid = bx + gx * by;
  int64_t per_group = group * gx;
  int64_t first = (pid / per_group) * group;
  int64_t size = std::min(gy - first, group);
  int64_t in_group = pid % per_group;
  by = first + in_group % size;
  bx = in_group / size;
}

}  // namespace tegula::ir
