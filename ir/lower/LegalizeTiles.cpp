// Tile legalisation: make every gemm's tile a multiple of its chosen instruction.
//
// Instruction selection only picks an atom whose K divides the gemm's K and records the
// padded M x N it needs (mma.padded). Here the padded buffers grow to that shape: A's rows,
// B's columns and C's rows and columns. Every copy, fill or atomic_add that touched the whole
// buffer gets an explicit extent of the original shape, so no real element moves and no
// padding element ever reaches global memory; the padding rows of A and columns of B only
// feed padding elements of C. Selection has already refused padding for buffers that maps or
// reductions read whole, where padding would change results. A buffer that two gemms want
// padded differently (or one padded and one not) is rejected with both locations.
#include <cstdint>
#include <map>

#include "ir/lower/GemmPlan.h"
#include "ir/lower/Passes.h"

namespace tegula::ir {
namespace {

std::string shape_str(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

}  // namespace

Status legalize_tiles(LowerContext& ctx) {
  // buffer -> (padded shape, the gemm that asked)
  std::map<std::string, std::pair<std::vector<int64_t>, SourceLoc>> want;
  Status status;
  auto request = [&](const std::string& name, std::vector<int64_t> shape, const Stmt& gemm) {
    auto it = want.find(name);
    if (it == want.end()) {
      want[name] = {shape, gemm.loc};
      return;
    }
    if (it->second.first == shape || !status.is_ok()) return;
    status = error(ErrorCode::Unsupported,
                   "buffer '" + name + "' would need padding to " + shape_str(it->second.first) + " for the gemm at " +
                       it->second.second.str() + " and to " + shape_str(shape) + " for this one; use separate buffers",
                   gemm.loc);
  };
  BufferMap buffers = ctx.buffers();
  for_each_stmt(ctx.kernel.body, [&](Stmt& s) {
    if (s.op != OpKind::Gemm) return;
    auto plan = get_gemm_plan(s);
    if (!plan.is_ok()) {
      status = plan.status();
      return;
    }
    const GemmPlan& p = *plan;
    bool ta = stmt_attr_bool(s, "trans_a"), tb = stmt_attr_bool(s, "trans_b");
    // A gemm that needs no padding still states its shapes: another gemm that would pad a
    // buffer they share is refused, not allowed to grow it under this one.
    request(s.gemm_a().buffer, ta ? std::vector<int64_t>{p.Kp, p.Mp} : std::vector<int64_t>{p.Mp, p.Kp}, s);
    request(s.gemm_b().buffer, tb ? std::vector<int64_t>{p.Np, p.Kp} : std::vector<int64_t>{p.Kp, p.Np}, s);
    request(s.gemm_c().buffer, {p.Mp, p.Np}, s);
  });
  TG_RETURN_IF_ERROR(status);
  for (auto& [name, entry] : want) {
    Stmt* alloc = ctx.find_alloc(name);
    if (!alloc) return error(ErrorCode::Internal, "padded buffer '" + name + "' has no alloc");
    if (alloc->type.shape == entry.first) continue;
    std::vector<int64_t> original = alloc->type.shape;
    // Pin the extent of every tile op that relied on the buffer's (old) whole shape.
    for_each_stmt(ctx.kernel.body, [&](Stmt& s) {
      if (s.op != OpKind::Copy && s.op != OpKind::Fill && s.op != OpKind::AtomicAdd) return;
      if (!stmt_attr_ints(s, "extent").empty()) return;
      auto extent = tile_op_extent(s, buffers);
      if (!extent.is_ok()) return;
      set_attr(s.attrs, "extent", AttrValue::of_ints(*extent));
    });
    alloc->type.shape = entry.first;
    ctx.note("buffer '" + name + "' padded from " + shape_str(original) + " to " + shape_str(entry.first) +
             " for its gemm's instruction tiles");
  }
  return Status::ok();
}

}  // namespace tegula::ir
