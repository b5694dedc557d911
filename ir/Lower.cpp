#include "ir/Lower.h"

#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "ir/lower/Context.h"
#include "ir/lower/Lowered.h"
#include "ir/lower/Passes.h"
#include "ir/lower/SharedPlacement.h"
#include "targets/Target.h"

namespace tegula::ir {
namespace {

struct Pass {
  const char* name;
  Status (*run)(LowerContext&);
};

// The pipeline, in order. Dtype legality comes first: nothing is planned for a kernel the
// target cannot hold. Each pass is one file in ir/lower/ whose header says what it
// does and why; the order matters: layouts need the instruction choice and the padded
// shapes, fragment exchange and staging add copies that thread mapping, pipelining, placement and barriers
// must see, thread mapping needs layouts, in-bounds facts need the final tile offsets and
// extents, pipelining needs vector widths, register prefetching takes the loops pipelining
// left, tiles are packed into words once their copies' engines and stages are known, shared memory is placed once stages and copy engines are known, and barriers go in
// last, once every access and every copy's engine is known; whether a gemm stays in flight
// is decided on the final loop bodies, barriers included (plan.inflight indexes the body).
const Pass kPipeline[] = {
    {"check_target_dtypes", check_target_dtypes},
    {"select_instructions", select_instructions},
    {"forward_operands", forward_operands},
    {"legalize_tiles", legalize_tiles},
    {"assign_layouts", assign_layouts},
    {"exchange_fragments", exchange_fragments},
    {"stage_fragment_reads", stage_fragment_reads},
    {"map_threads", map_threads},
    {"lower_reductions", lower_reductions},
    {"prove_in_bounds", prove_in_bounds},
    {"plan_pipelines", plan_pipelines},
    {"plan_register_prefetch", plan_register_prefetch},
    {"pack_shared_tiles", pack_shared_tiles},
    {"place_shared", place_shared},
    {"insert_barriers", insert_barriers},
    {"plan_mma_overlap", plan_mma_overlap},
    {"rasterize", rasterize},
};

}  // namespace

const std::vector<std::string>& pass_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Pass& p : kPipeline) n.push_back(p.name);
    return n;
  }();
  return names;
}

Result<LowerResult> lower(const Kernel& k, const TargetDescription& target, const LowerOptions& options) {
  if (!options.stop_after.empty()) {
    bool known = false;
    for (const Pass& p : kPipeline) known = known || options.stop_after == p.name;
    if (!known) return error(ErrorCode::NotFound, "unknown pass '" + options.stop_after + "'");
  }
  if (k.threads > target.max_threads_per_block)
    return error(ErrorCode::Unsupported, "kernel '" + k.name + "' uses " + std::to_string(k.threads) + " threads; target '" +
                                             target.name + "' allows " + std::to_string(target.max_threads_per_block) + " per block",
                 k.loc);
  LowerContext ctx(k, target, options);
  set_attr(ctx.kernel.attrs, "lower.target", AttrValue::of_string(target.name));
  set_attr(ctx.kernel.attrs, "lower.target_hash", AttrValue::of_string(target_hash(target)));
  set_attr(ctx.kernel.attrs, "lower.subgroup", AttrValue::of_int(target.subgroup_width));
  if (options.tensors_aligned) set_attr(ctx.kernel.attrs, "lower.tensor_align", AttrValue::of_int(16));
  VerifyOptions vo;
  vo.allow_lowering_attrs = true;
  for (const Pass& p : kPipeline) {
    TG_RETURN_IF_ERROR(p.run(ctx));
    // Every pass must leave a valid kernel; a failure here is a bug in the pass.
    Status st = verify(ctx.kernel, vo);
    if (!st.is_ok()) return error(ErrorCode::Internal, std::string("pass ") + p.name + " produced an invalid kernel: " + st.str());
    if (options.stop_after == p.name) return LowerResult{std::move(ctx.kernel), std::move(ctx.log)};
  }
  // What backends will be handed must pass their reader; a failure is a bug in a pass.
  Status st = verify_lowered(ctx.kernel);
  if (st.is_ok()) st = check_shared_placement(ctx.kernel, ctx.target);
  if (!st.is_ok()) return error(ErrorCode::Internal, "lowering produced a kernel the lowered-form reader refuses: " + st.str());
  return LowerResult{std::move(ctx.kernel), std::move(ctx.log)};
}

Result<Kernel> read_lowered(std::string_view text, const std::string& source) {
  TG_ASSIGN_OR_RETURN(Kernel k, parse_kernel(text, source));
  VerifyOptions opts;
  opts.allow_lowering_attrs = true;
  TG_RETURN_IF_ERROR(verify(k, opts));
  TG_RETURN_IF_ERROR(verify_lowered(k));
  return k;
}

Result<Kernel> read_lowered(std::string_view text, const TargetDescription& target, const std::string& source) {
  return read_lowered(text, target, target_hash(target), source);
}

Result<Kernel> read_lowered(std::string_view text, const TargetDescription& target, const std::string& hash, const std::string& source) {
  TG_ASSIGN_OR_RETURN(Kernel k, read_lowered(text, source));
  TG_RETURN_IF_ERROR(verify_lowered_for(k, target, hash));
  return k;
}

}  // namespace tegula::ir
