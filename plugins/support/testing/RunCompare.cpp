#include "plugins/support/testing/RunCompare.h"

#include "core/DType.h"
#include "ir/Interpreter.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/Signature.h"

namespace tegula::plugin_testing {

Result<std::string> lower_source(const std::string& source, const TargetDescription& target,
                                 const ir::LowerOptions& options, const std::string& source_name) {
  TG_ASSIGN_OR_RETURN(ir::Kernel k, ir::parse_and_verify(source, source_name));
  TG_ASSIGN_OR_RETURN(ir::LowerResult r, ir::lower(k, target, options));
  return ir::print_kernel(r.kernel);
}

Result<TargetDescription> resolve_target(const Plugin& plugin, uint32_t index) {
  Result<std::string> own = plugin.device_target_json(index);
  if (own.is_ok()) return parse_target(*own, "device_target of device " + std::to_string(index));
  if (own.status().code() != ErrorCode::Unimplemented) return own.status();
  TG_ASSIGN_OR_RETURN(DeviceProperties props, plugin.device_properties(index));
  return builtin_target(props.target);
}

Result<std::vector<tg_launch_arg>> launch_args(const ir::Kernel& k, const examples::LaunchData& data,
                                               const std::vector<Buffer>& buffers) {
  if (data.scalars.size() < k.params.size() || buffers.size() < k.params.size())
    return error(ErrorCode::InvalidArgument, "launch data for kernel '" + k.name + "' does not cover its " +
                                                 std::to_string(k.params.size()) + " parameters");
  std::vector<tg_launch_arg> args;
  for (size_t i = 0; i < k.params.size(); ++i) {
    const ir::Param& p = k.params[i];
    if (p.is_tensor) args.push_back(buffer_arg(buffers[i].handle()));
    else args.push_back(dtype_is_float(p.dtype) ? float_arg(data.scalars[i]) : int_arg(int64_t(data.scalars[i])));
  }
  for (int64_t s : data.symbols) args.push_back(int_arg(s));
  return args;
}

Result<std::array<uint32_t, 3>> launch_grid(const ir::Kernel& k, const examples::LaunchData& data) {
  examples::LaunchData copy = data;  // interpreter_args points into it
  TG_ASSIGN_OR_RETURN(std::vector<int64_t> grid, ir::launch_grid(k, examples::interpreter_args(k, copy)));
  std::array<uint32_t, 3> out = {1, 1, 1};
  for (size_t d = 0; d < grid.size() && d < 3; ++d) out[d] = uint32_t(grid[d]);
  return out;
}

Status run_on_device(Device& device, const Executable& exe, const ir::Kernel& k, examples::LaunchData& data) {
  if (data.tensors.size() < k.params.size())
    return error(ErrorCode::InvalidArgument, "launch data for kernel '" + k.name + "' does not cover its parameters");
  std::vector<Buffer> buffers(k.params.size());
  for (size_t i = 0; i < k.params.size(); ++i) {
    if (!k.params[i].is_tensor) continue;
    const std::vector<uint8_t>& bytes = data.tensors[i].bytes;
    TG_ASSIGN_OR_RETURN(buffers[i], device.alloc(bytes.size()));
    if (!bytes.empty()) TG_RETURN_IF_ERROR(device.write(buffers[i], bytes.data(), bytes.size()));
  }
  TG_ASSIGN_OR_RETURN(std::vector<tg_launch_arg> args, launch_args(k, data, buffers));
  TG_ASSIGN_OR_RETURN(auto grid, launch_grid(k, data));
  TG_RETURN_IF_ERROR(device.launch(exe, grid, args));
  TG_RETURN_IF_ERROR(device.synchronize());
  for (size_t i = 0; i < k.params.size(); ++i) {
    if (!k.params[i].is_tensor) continue;
    std::vector<uint8_t>& bytes = data.tensors[i].bytes;
    if (!bytes.empty()) TG_RETURN_IF_ERROR(device.read(buffers[i], bytes.data(), bytes.size()));
  }
  return Status::ok();
}

Status run_reference(const ir::Kernel& k, examples::LaunchData& data) {
  return ir::interpret(k, examples::interpreter_args(k, data)).with_context("reference interpreter");
}

Result<examples::LaunchData> make_data(const ir::Kernel& k, const RunSpec& spec) {
  TG_ASSIGN_OR_RETURN(examples::LaunchData data, examples::make_launch_data(k, spec.bindings, spec.seed));
  if (spec.prepare) spec.prepare(k, data);
  return data;
}

Status run_and_compare(Device& device, const TargetDescription& target, const RunSpec& spec) {
  TG_ASSIGN_OR_RETURN(ir::Kernel k, ir::parse_and_verify(spec.source, spec.source_name));
  TG_ASSIGN_OR_RETURN(examples::LaunchData before, make_data(k, spec));
  examples::LaunchData want = before;
  TG_RETURN_IF_ERROR(run_reference(k, want));
  std::string bytes = spec.executable;
  if (bytes.empty()) {
    TG_ASSIGN_OR_RETURN(std::string lowered, lower_source(spec.source, target, spec.lower, spec.source_name));
    TG_ASSIGN_OR_RETURN(bytes, device.compile(lowered, spec.compile));
  }
  TG_ASSIGN_OR_RETURN(Executable exe, device.load(bytes));
  examples::LaunchData got = before;
  TG_RETURN_IF_ERROR(run_on_device(device, exe, k, got));
  if (spec.tolerance) return compare_launch(k, before, got, want, *spec.tolerance);
  return compare_launch(k, before, got, want, default_tolerance);
}

}  // namespace tegula::plugin_testing
