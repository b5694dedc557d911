/// \file
/// Compiling (for an open device, or offline for any AMD description), describing, loading,
/// freeing and launching executables (Compile.h). A launch passes its arguments as one
/// kernel-argument buffer of 8-byte slots, one per launch argument in order: a tensor's
/// address (buffer and offset), a scalar rounded to its dtype (as a double, or an i64 for
/// integer and bool scalars), a shape symbol as an i64. codegen/Kernel.cpp reads them so.
#include <cstring>
#include <string_view>

#include "core/DType.h"
#include "ir/Lower.h"
#include "plugins/hip/Hip.h"
#include "plugins/support/StringBlob.h"

namespace tegula::hip {
namespace {

tg_error* check_request(const tg_compile_request* request, tg_blob* out_blob) {
  if (!request || !out_blob || request->struct_size < sizeof(tg_compile_request) ||
      out_blob->struct_size < sizeof(tg_blob))
    return make_error(TG_ERR_INVALID_ARGUMENT, "hip: compile: bad argument");
  if (!request->ir_format || std::strcmp(request->ir_format, TG_IR_FORMAT_LOWERED_V1) != 0)
    return make_error(TG_ERR_UNSUPPORTED, "hip: compile: IR format must be " TG_IR_FORMAT_LOWERED_V1);
  if (!request->ir_data && request->ir_size) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: compile: no IR");
  return nullptr;
}

tg_error* compile_for(const TargetDescription& target, const tg_compile_request* request, tg_blob* out_blob) {
  std::string_view text(static_cast<const char*>(request->ir_data), request->ir_size);
  Result<Executable> exe = compile_lowered(text, target, request->options ? request->options : "");
  if (!exe.is_ok()) return from_status(exe.status(), "compile");
  plugin::give_string_blob(encode_executable(*exe), out_blob);
  return nullptr;
}

plugin::LaunchBuffer buffer_of(const void* device, size_t, const tg_buffer* buffer) {
  const tg_device* d = static_cast<const tg_device*>(device);
  if (!d->buffers.count(const_cast<tg_buffer*>(buffer))) return {};
  return {true, buffer->size, uint64_t(uintptr_t(buffer->ptr))};
}

}  // namespace

tg_error* compile(tg_device* device, const tg_compile_request* request, tg_blob* out_blob) {
  if (!device) return make_error(TG_ERR_INVALID_ARGUMENT, "hip: compile: NULL device");
  if (tg_error* e = check_request(request, out_blob)) return e;
  return compile_for(device->target, request, out_blob);
}

tg_error* compile_offline(tg_plugin* plugin, const tg_target_description* target, const tg_compile_request* request,
                          tg_blob* out_blob) {
  if (!plugin || !target || target->struct_size < sizeof(tg_target_description) || (!target->data && target->size))
    return make_error(TG_ERR_INVALID_ARGUMENT, "hip: compile_offline: bad target");
  if (!target->format || std::strcmp(target->format, TG_TARGET_FORMAT_JSON_V1) != 0)
    return make_error(TG_ERR_UNSUPPORTED, "hip: compile_offline: target format must be " TG_TARGET_FORMAT_JSON_V1);
  if (tg_error* e = check_request(request, out_blob)) return e;
  Result<TargetDescription> t = parse_target(std::string_view(target->data, target->size), "<compile_offline target>");
  if (!t.is_ok()) return from_status(t.status(), "compile_offline");
  return compile_for(*t, request, out_blob);
}

void blob_release(tg_blob* blob) { plugin::release_string_blob(blob); }

tg_error* executable_describe(tg_plugin* plugin, const void* data, size_t size, tg_blob* out_text) {
  if (!plugin || !out_text || out_text->struct_size < sizeof(tg_blob))
    return make_error(TG_ERR_INVALID_ARGUMENT, "hip: executable_describe: bad argument");
  Result<Executable> e = decode_executable(data, size);
  if (!e.is_ok()) return from_status(e.status(), "executable_describe");
  Result<std::string> assembly = executable_assembly(*e);
  if (!assembly.is_ok()) return from_status(assembly.status(), "executable_describe");
  std::string text = "// tegula hip executable: kernel " + e->kernel_name + ", " + e->target + ", " +
                     std::to_string(e->code_object.size()) + " bytes of code object\n" + *assembly +
                     "\n// LLVM IR after O3\n" + e->llvm_ir;
  plugin::give_string_blob(std::move(text), out_text);
  return nullptr;
}

tg_error* executable_load(tg_device* device, const void* data, size_t size, tg_executable** out) {
  if (!device || !out || (!data && size))
    return make_error(TG_ERR_INVALID_ARGUMENT, "hip: executable_load: bad argument");
  Result<Executable> e = decode_executable(data, size);
  if (!e.is_ok()) return from_status(e.status(), "executable_load");
  if (e->target != device->target.name)
    return make_error(TG_ERR_CORRUPT, "hip: executable_load: compiled for " + e->target + ", device " +
                                          std::to_string(device->index) + " is " + device->target.name);
  Result<ir::Kernel> kernel = ir::read_lowered(e->lowered, device->target, "<hip executable>");
  if (!kernel.is_ok())
    return make_error(TG_ERR_CORRUPT,
                      "hip: executable_load: the lowered kernel does not read back: " + kernel.status().message());
  if (tg_error* err = activate(device)) return err;
  const Runtime& r = *device->plugin->runtime;
  hipModule_t module = nullptr;
  hipError_t rc = r.hipModuleLoadData(&module, e->code_object.data());
  if (rc != kHipSuccess) return runtime_error(r, rc, "hipModuleLoadData");
  hipFunction_t fn = nullptr;
  rc = r.hipModuleGetFunction(&fn, module, e->kernel_name.c_str());
  if (rc != kHipSuccess) {
    r.hipModuleUnload(module);
    return runtime_error(r, rc, "hipModuleGetFunction " + e->kernel_name);
  }
  auto* exe = new tg_executable;
  exe->device = device;
  exe->module = module;
  exe->function = fn;
  exe->exe = std::move(*e);
  exe->kernel = std::move(*kernel);
  Result<plugin::LaunchSignature> sig = plugin::lowered_launch_signature(exe->kernel);
  if (!sig.is_ok()) {
    r.hipModuleUnload(module);
    delete exe;
    return from_status(sig.status(), "executable_load");
  }
  exe->signature = std::move(*sig);
  exe->signature.grid_of = &exe->kernel;
  device->executables.insert(exe);
  *out = exe;
  return nullptr;
}

void executable_free(tg_executable* executable) {
  if (!executable) return;
  const Runtime& r = *executable->device->plugin->runtime;
  r.hipSetDevice(executable->device->info.ordinal);
  r.hipModuleUnload(executable->module);
  executable->device->executables.erase(executable);
  delete executable;
}

tg_error* launch(tg_queue* queue, tg_executable* exe, const tg_launch_params* params) {
  if (!queue || !exe || !params || params->struct_size < sizeof(tg_launch_params) ||
      (!params->args && params->arg_count) || exe->device != queue->device)
    return make_error(TG_ERR_INVALID_ARGUMENT, "hip: launch: bad argument");
  Result<std::array<uint32_t, 3>> grid = plugin::validate_launch(exe->signature, *params, buffer_of, queue->device);
  if (!grid.is_ok()) return plugin::launch_error("hip", grid.status());
  for (int d = 0; d < 3; ++d)
    if ((*grid)[d] == 0) return nullptr;  // an empty grid runs nothing
  using Kind = plugin::LaunchParam::Kind;
  std::vector<uint64_t> slots(exe->signature.params.size(), 0);
  for (size_t i = 0; i < slots.size(); ++i) {
    const tg_launch_arg& a = params->args[i];
    const plugin::LaunchParam& p = exe->signature.params[i];
    if (p.kind == Kind::Tensor) {
      slots[i] = uint64_t(uintptr_t(a.buffer->ptr)) + a.offset;
    } else if (p.kind == Kind::Symbol) {
      slots[i] = uint64_t(a.i64);
    } else {
      if (i >= exe->kernel.params.size())
        return make_error(TG_ERR_INTERNAL, "hip: launch: argument " + std::to_string(i) + " is no parameter");
      const ir::Param& param = exe->kernel.params[i];
      double x = a.kind == TG_ARG_I64 ? double(a.i64) : a.f64;
      double rounded = round_to_dtype(param.dtype, x);
      if (dtype_is_float(param.dtype)) {
        std::memcpy(&slots[i], &rounded, 8);
      } else {
        int64_t v = int64_t(rounded);
        std::memcpy(&slots[i], &v, 8);
      }
    }
  }
  if (tg_error* e = activate(queue->device)) return e;
  const Runtime& r = *queue->device->plugin->runtime;
  size_t bytes = slots.size() * 8;
  void* extra[] = {kLaunchParamBufferPointer, slots.data(), kLaunchParamBufferSize, &bytes, kLaunchParamEnd};
  hipError_t rc = r.hipModuleLaunchKernel(exe->function, (*grid)[0], (*grid)[1], (*grid)[2],
                                          unsigned(exe->kernel.threads), 1, 1, 0, queue->stream, nullptr, extra);
  return rc == kHipSuccess ? nullptr : runtime_error(r, rc, "hipModuleLaunchKernel " + exe->exe.kernel_name);
}

}  // namespace tegula::hip
