// Shared-memory placement: give every shared buffer, every set of completion barriers and the
// tensor-memory address slot its byte offset in the block's shared memory, and record the
// total a launch must request (SharedPlacement.h has the rules).
//
// Placement used to happen in each backend, each with its own alignment and its own extras,
// while `lower.shared_bytes` was an estimate nobody read: a kernel the lowering accepted
// could then be refused by a backend whose real footprint was larger. Here it is decided
// once, after pipeline planning has fixed the stages and copy engines: backends read the
// offsets (layout.offset, plan.barriers, lower.tmem_slot), request exactly
// lower.shared_bytes, and a kernel that does not fit the target is refused here, with the
// byte counts and the regions that take them.
#include <string>

#include "ir/lower/Passes.h"
#include "ir/lower/SharedLayout.h"
#include "ir/lower/SharedPlacement.h"

namespace tegula::ir {

Status place_shared(LowerContext& ctx) {
  TG_ASSIGN_OR_RETURN(std::vector<SharedRegion> regions, shared_regions(ctx.kernel, ctx.target));
  SharedPlacement placed = place_regions(regions);
  std::string reserved_by;
  int64_t limit = shared_limit(ctx.kernel, ctx.target, &reserved_by);
  if (placed.bytes > limit) {
    std::string parts;
    for (size_t i = 0; i < regions.size() && i < 8; ++i) {
      const SharedRegion& r = regions[i];
      std::string what = r.kind == SharedRegion::Kind::Buffer ? "'" + r.stmt->name + "'"
                         : r.kind == SharedRegion::Kind::Barriers ? "barriers"
                         : r.kind == SharedRegion::Kind::OpaqueStaging ? "opaque staging"
                                                                  : "tmem slot";
      parts += (i ? ", " : "") + what + " " + std::to_string(r.bytes);
    }
    return error(ErrorCode::Unsupported, "kernel '" + ctx.kernel.name + "' needs " + std::to_string(placed.bytes) +
                                             " bytes of shared memory (" + parts + ", with alignment); target '" + ctx.target.name +
                                             "' offers " + std::to_string(limit) + " per block" +
                                             (reserved_by.empty() ? std::string() : " beside what its instruction " + reserved_by + " keeps"),
                 ctx.kernel.loc);
  }
  for (size_t i = 0; i < regions.size(); ++i) {
    const SharedRegion& r = regions[i];
    int64_t offset = placed.offsets[i];
    // The regions point into ctx.kernel, which this pass owns and rewrites.
    Stmt* s = const_cast<Stmt*>(r.stmt);
    switch (r.kind) {
      case SharedRegion::Kind::Buffer: {
        TG_ASSIGN_OR_RETURN(SharedLayout l, get_shared_layout(s->attrs));
        l.offset = offset;
        set_shared_layout(s->attrs, l);
        ctx.note(where(*s) + "shared buffer '" + s->name + "': " + std::to_string(r.bytes) + " bytes at byte " + std::to_string(offset));
        break;
      }
      case SharedRegion::Kind::Barriers:
        set_attr(s->attrs, "plan.barriers", AttrValue::of_int(offset));
        ctx.note(where(*s) + std::to_string(r.count) + " completion barrier(s) at byte " + std::to_string(offset));
        break;
      case SharedRegion::Kind::TensorMemorySlot:
        set_attr(ctx.kernel.attrs, "lower.tmem_slot", AttrValue::of_int(offset));
        ctx.note("tensor-memory address slot at byte " + std::to_string(offset));
        break;
      case SharedRegion::Kind::OpaqueStaging:
        set_attr(ctx.kernel.attrs, "lower.opaque_staging", AttrValue::of_int(offset));
        ctx.note("opaque fragments' staging tile: " + std::to_string(r.bytes) + " bytes at byte " + std::to_string(offset));
        break;
    }
  }
  set_attr(ctx.kernel.attrs, "lower.shared_bytes", AttrValue::of_int(placed.bytes));
  if (placed.bytes) ctx.note("kernel '" + ctx.kernel.name + "' requests " + std::to_string(placed.bytes) + " bytes of shared memory");
  return Status::ok();
}

}  // namespace tegula::ir
