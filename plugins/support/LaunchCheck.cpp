#include "plugins/support/LaunchCheck.h"

#include <algorithm>

#include "ir/Signature.h"
#include "ir/lower/Lowered.h"
#include "plugins/support/PluginErrors.h"

namespace tegula::plugin {
namespace {

const char* given_kind(uint32_t kind) {
  switch (kind) {
    case TG_ARG_BUFFER: return "a buffer";
    case TG_ARG_I64: return "an integer";
    case TG_ARG_F64: return "a float";
  }
  return "an unknown kind";
}

/// "argument 3 (N)", or "argument 3" where the plugin knows no names: built only when a
/// launch is refused.
std::string where(const LaunchSignature& sig, size_t i) {
  const std::string& name = sig.params[i].name;
  return "argument " + std::to_string(i) + (name.empty() ? "" : " (" + name + ")");
}

/// "shape symbol 'N'", or "this shape symbol".
std::string symbol_named(const LaunchParam& p) { return p.name.empty() ? "this shape symbol" : "shape symbol '" + p.name + "'"; }

Status refuse(const LaunchSignature& sig, size_t i, const std::string& what, ErrorCode code = ErrorCode::InvalidArgument) {
  return error(code, where(sig, i) + what);
}

/// Kind, buffer and offset of argument i, and a shape symbol's sign.
Status check_argument(const LaunchSignature& sig, size_t i, const tg_launch_arg& a, BufferLookup lookup,
                      const void* context, LaunchBuffer* buffer) {
  const LaunchParam& p = sig.params[i];
  if (a.kind > TG_ARG_F64) return refuse(sig, i, " has unknown kind " + std::to_string(a.kind));
  switch (p.kind) {
    case LaunchParam::Kind::Tensor: {
      if (a.kind != TG_ARG_BUFFER) return refuse(sig, i, " must be a buffer, given " + std::string(given_kind(a.kind)));
      *buffer = lookup(context, i, a.buffer);
      if (!buffer->held) return refuse(sig, i, ": not a buffer of this device");
      if (a.offset > buffer->size)
        return refuse(sig, i, ": offset " + std::to_string(a.offset) + " is past the end of a " +
                                  std::to_string(buffer->size) + "-byte buffer",
                      ErrorCode::OutOfRange);
      return Status::ok();
    }
    case LaunchParam::Kind::Scalar:
      if (a.kind == TG_ARG_BUFFER) return refuse(sig, i, " must be a number, given a buffer");
      return Status::ok();
    case LaunchParam::Kind::Symbol:
      if (a.kind != TG_ARG_I64)
        return refuse(sig, i, ": a shape symbol must be an integer, given " + std::string(given_kind(a.kind)));
      // The runtime's words since before this function: "shape symbol N is negative (-1)".
      if (a.i64 < 0)
        return error(ErrorCode::InvalidArgument, (p.name.empty() ? where(sig, i) + ": the shape symbol" : "shape symbol " + p.name) +
                                                     " is negative (" + std::to_string(a.i64) + ")");
      if (a.i64 % p.divisor != 0)
        return refuse(sig, i, ": kernel '" + sig.kernel + "' was lowered assuming " + symbol_named(p) + " is a multiple of " +
                                  std::to_string(p.divisor) + ", it is " + std::to_string(a.i64));
      return Status::ok();
  }
  return Status::ok();
}

/// The bytes tensor argument i needs, and its address's alignment.
Status check_tensor(const LaunchSignature& sig, size_t i, const tg_launch_params& params, const LaunchBuffer& buffer) {
  const LaunchParam& p = sig.params[i];
  const tg_launch_arg& a = params.args[i];
  uint64_t need = p.elem_bytes;
  for (const LaunchDim& d : p.dims) {
    // A symbol's sign was checked with its argument; a negative constant the verifier refuses.
    int64_t v = d.arg >= 0 ? params.args[d.arg].i64 : d.value;
    if (v < 0) return refuse(sig, i, ": a dimension is negative (" + std::to_string(v) + ")");
    if (v && need > (uint64_t(1) << 62) / uint64_t(v)) return refuse(sig, i, ": the tensor is more than 2^62 bytes");
    need *= uint64_t(v);
  }
  uint64_t have = buffer.size - a.offset;
  if (have < need)
    return refuse(sig, i, ": the tensor needs " + std::to_string(need) + " bytes, the buffer has " + std::to_string(have) +
                              " after offset " + std::to_string(a.offset),
                  ErrorCode::OutOfRange);
  uint64_t address = buffer.address + a.offset;
  if (p.align > 1 && address % p.align != 0)
    return refuse(sig, i, ": kernel '" + sig.kernel + "' was lowered for " + (p.name.empty() ? "this tensor" : "tensor '" + p.name + "'") + " aligned to " +
                              std::to_string(p.align) + " bytes; it starts " + std::to_string(address % p.align) +
                              " bytes past that (offset " + std::to_string(a.offset) + ")");
  return Status::ok();
}

/// The grid the kernel's grid expressions give for these (checked) arguments.
Result<std::vector<int64_t>> kernel_grid(const LaunchSignature& sig, const tg_launch_params& params,
                                         const LaunchBuffer* buffers) {
  std::vector<ir::Arg> args(params.arg_count);
  for (size_t i = 0; i < params.arg_count; ++i) {
    const tg_launch_arg& a = params.args[i];
    if (a.kind == TG_ARG_BUFFER) args[i] = ir::Arg::tensor(nullptr, buffers[i].size - a.offset);
    else if (a.kind == TG_ARG_I64) args[i] = ir::Arg::integer(a.i64);
    else args[i] = ir::Arg::number(a.f64);
  }
  return ir::launch_grid(*sig.grid_of, args);
}

}  // namespace

LaunchSignature launch_signature(const ir::Kernel& k) {
  LaunchSignature sig;
  sig.kernel = k.name;
  sig.grid_of = &k;
  std::vector<std::string> symbols = k.symbols();
  for (const ir::Param& p : k.params) {
    LaunchParam lp;
    lp.name = p.name;
    lp.kind = p.is_tensor ? LaunchParam::Kind::Tensor : LaunchParam::Kind::Scalar;
    if (p.is_tensor) {
      lp.elem_bytes = uint32_t(dtype_size(p.dtype));
      for (const ir::Expr& d : p.shape) {
        // The verifier allows a constant or a shape symbol, nothing else.
        LaunchDim dim;
        if (d->kind == ir::ExprKind::Var) {
          auto it = std::find(symbols.begin(), symbols.end(), d->name);
          dim.arg = int32_t(k.params.size() + size_t(it - symbols.begin()));
        } else {
          dim.value = d->int_value;
        }
        lp.dims.push_back(dim);
      }
    }
    sig.params.push_back(std::move(lp));
  }
  for (const std::string& s : symbols) {
    LaunchParam lp;
    lp.name = s;
    lp.kind = LaunchParam::Kind::Symbol;
    sig.params.push_back(std::move(lp));
  }
  return sig;
}

Result<LaunchSignature> lowered_launch_signature(const ir::Kernel& k) {
  LaunchSignature sig = launch_signature(k);
  TG_ASSIGN_OR_RETURN(ir::KernelPlan plan, ir::get_kernel_plan(k));
  for (const ir::Assumption& a : plan.assume) {
    auto it = std::find_if(sig.params.begin() + ptrdiff_t(k.params.size()), sig.params.end(),
                           [&](const LaunchParam& p) { return p.name == a.symbol; });
    // An assumption about a symbol the kernel does not have constrains no launch.
    if (it != sig.params.end()) it->divisor = a.divisor;
  }
  if (plan.tensor_align > 1)
    for (LaunchParam& p : sig.params)
      if (p.kind == LaunchParam::Kind::Tensor) p.align = uint64_t(plan.tensor_align);
  return sig;
}

Result<std::array<uint32_t, 3>> validate_launch(const LaunchSignature& sig, const tg_launch_params& params,
                                                BufferLookup lookup, const void* context, GridCheck grid) {
  size_t expected = sig.params.size();
  if (params.arg_count != expected)
    return error(ErrorCode::InvalidArgument, "kernel '" + sig.kernel + "' takes " + std::to_string(expected) +
                                                 " arguments, given " + std::to_string(params.arg_count));
  if (expected && !params.args) return error(ErrorCode::InvalidArgument, "the arguments are NULL");
  // One lookup per tensor argument, kept for the size and alignment checks; on the stack for
  // the usual few arguments, so that a launch that is fine allocates nothing here.
  constexpr size_t kOnStack = 16;
  LaunchBuffer on_stack[kOnStack];
  std::vector<LaunchBuffer> on_heap(expected > kOnStack ? expected : 0);
  LaunchBuffer* buffers = expected > kOnStack ? on_heap.data() : on_stack;
  for (size_t i = 0; i < expected; ++i)
    TG_RETURN_IF_ERROR(check_argument(sig, i, params.args[i], lookup, context, &buffers[i]));
  for (size_t i = 0; i < expected; ++i)
    if (sig.params[i].kind == LaunchParam::Kind::Tensor) TG_RETURN_IF_ERROR(check_tensor(sig, i, params, buffers[i]));

  std::array<uint32_t, 3> blocks = {params.grid[0], params.grid[1], params.grid[2]};
  if (!sig.grid_of) {
    // The block limit launch_grid sets for every device, on the grid the plugin was handed.
    TG_RETURN_IF_ERROR(ir::check_grid_blocks({params.grid[0], params.grid[1], params.grid[2]}));
    return blocks;
  }
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> want, kernel_grid(sig, params, buffers));
  for (size_t d = 0; d < 3; ++d) {
    // launch_grid keeps every dimension within 2^31 and the product within 2^48.
    uint32_t w = d < want.size() ? uint32_t(want[d]) : 1;
    if (grid == GridCheck::Given && params.grid[d] != w)
      return error(ErrorCode::InvalidArgument, "grid[" + std::to_string(d) + "] is " + std::to_string(params.grid[d]) +
                                                   ", the kernel's grid gives " + std::to_string(w));
    blocks[d] = w;
  }
  return blocks;
}

uint64_t checked_tensor_bytes(const LaunchParam& p, const tg_launch_params& params) {
  uint64_t need = p.elem_bytes;
  for (const LaunchDim& d : p.dims) need *= uint64_t(d.arg >= 0 ? params.args[d.arg].i64 : d.value);
  return need;
}

tg_error* launch_error(const char* plugin, const Status& status) {
  return make_error(status_code_for(status), std::string(plugin) + ": launch: " + status.message());
}

}  // namespace tegula::plugin
