/// \file
/// Compiling (for an open device, or offline for any CUDA target description), describing,
/// loading and freeing executables (Blob.h). Loading checks the executable's architecture
/// against the device's and sets the kernel's dynamic shared-memory limit once.
#include <cstring>
#include <string_view>

#include "plugins/support/StringBlob.h"
#include "plugins/cuda/Compile.h"
#include "plugins/cuda/Cuda.h"

namespace tegula::cuda {
namespace {

tg_error* check_request(const tg_compile_request* request, tg_blob* out_blob) {
  if (!request || !out_blob || request->struct_size < sizeof(tg_compile_request) || out_blob->struct_size < sizeof(tg_blob))
    return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: compile: bad argument");
  if (!request->ir_format || std::strcmp(request->ir_format, TG_IR_FORMAT_LOWERED_V1) != 0)
    return make_error(TG_ERR_UNSUPPORTED, "cuda: compile: IR format must be " TG_IR_FORMAT_LOWERED_V1);
  if (!request->ir_data && request->ir_size) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: compile: no IR");
  return nullptr;
}


tg_error* compile_for(const TargetDescription& target, const std::string& arch, const tg_compile_request* request, tg_blob* out_blob) {
  std::string_view text(static_cast<const char*>(request->ir_data), request->ir_size);
  // Options ("key=value" lines, codegen/CodeGen.h GenOptions); an unknown one is an error.
  Result<CompileOutput> out = compile_lowered(text, target, arch, request->options ? request->options : "");
  if (!out.is_ok()) return from_status(out.status(), "compile");
  plugin::give_string_blob(encode_executable(out->executable), out_blob);
  return nullptr;
}

}  // namespace

tg_error* compile(tg_device* device, const tg_compile_request* request, tg_blob* out_blob) {
  return guarded("compile", [&]() -> tg_error* {
    if (!device) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: compile: NULL device");
    if (tg_error* e = check_request(request, out_blob)) return e;
    return compile_for(device->target, device->info.arch, request, out_blob);
  });
}

tg_error* compile_offline(tg_plugin* plugin, const tg_target_description* target, const tg_compile_request* request, tg_blob* out_blob) {
  return guarded("compile_offline", [&]() -> tg_error* {
    if (!plugin || !target || target->struct_size < sizeof(tg_target_description) || (!target->data && target->size))
      return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: compile_offline: bad target");
    if (!target->format || std::strcmp(target->format, TG_TARGET_FORMAT_JSON_V1) != 0)
      return make_error(TG_ERR_UNSUPPORTED, "cuda: compile_offline: target format must be " TG_TARGET_FORMAT_JSON_V1);
    if (tg_error* e = check_request(request, out_blob)) return e;
    Result<TargetDescription> t = parse_target(std::string_view(target->data, target->size), "<compile_offline target>");
    if (!t.is_ok()) return from_status(t.status(), "compile_offline");
    Result<std::string> arch = arch_for_target(*t);
    if (!arch.is_ok()) return from_status(arch.status(), "compile_offline");
    return compile_for(*t, *arch, request, out_blob);
  });
}

void blob_release(tg_blob* blob) {
  guarded_void([&] { plugin::release_string_blob(blob); });
}

tg_error* executable_describe(tg_plugin* plugin, const void* data, size_t size, tg_blob* out_text) {
  return guarded("executable_describe", [&]() -> tg_error* {
    if (!plugin || !out_text || out_text->struct_size < sizeof(tg_blob))
      return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: executable_describe: bad argument");
    Result<Executable> e = decode_executable(data, size);
    if (!e.is_ok()) return from_status(e.status(), "executable_describe");
    std::string text = "// tegula cuda executable: kernel " + e->info.name + ", " + e->arch + ", " + std::to_string(e->info.threads) +
                       " threads, " + std::to_string(e->info.shared_bytes) + " bytes of dynamic shared memory, " +
                       std::to_string(e->info.tensor_maps.size()) + " tensor maps, " + std::to_string(e->cubin.size()) + " bytes of cubin\n";
    text += e->ptx;
    plugin::give_string_blob(std::move(text), out_text);
    return nullptr;
  });
}

tg_error* executable_load(tg_device* device, const void* data, size_t size, tg_executable** out) {
  return guarded("executable_load", [&]() -> tg_error* {
    if (!device || !out || (!data && size)) return make_error(TG_ERR_INVALID_ARGUMENT, "cuda: executable_load: bad argument");
    Result<Executable> e = decode_executable(data, size);
    if (!e.is_ok()) return from_status(e.status(), "executable_load");
    if (e->arch != device->info.arch)
      return make_error(TG_ERR_CORRUPT, "cuda: executable_load: compiled for " + e->arch + ", device " + std::to_string(device->index) + " is " +
                                            device->info.arch);
    if (tg_error* err = activate(device)) return err;
    const Driver& d = *device->plugin->driver;
    CUmodule module = nullptr;
    CUresult r = d.cuModuleLoadData(&module, e->cubin.data());
    if (r != kCudaSuccess) return driver_error(d, r, "cuModuleLoadData");
    CUfunction fn = nullptr;
    r = d.cuModuleGetFunction(&fn, module, e->info.name.c_str());
    if (r == kCudaSuccess && e->info.shared_bytes > 0)
      r = d.cuFuncSetAttribute(fn, kFuncAttrMaxDynamicSharedSizeBytes, int(e->info.shared_bytes));
    if (r != kCudaSuccess) {
      d.cuModuleUnload(module);
      return driver_error(d, r, "loading kernel " + e->info.name + " (" + std::to_string(e->info.shared_bytes) + " bytes of shared memory)");
    }
    tg_executable* exe = new tg_executable;
    exe->device = device;
    exe->module = module;
    exe->function = fn;
    exe->info = std::move(e->info);
    exe->signature = launch_signature_of(exe->info);
    {
      std::lock_guard<std::mutex> lock(device->executables_mu);
      device->executables.insert(exe);
    }
    *out = exe;
    return nullptr;
  });
}

void executable_free(tg_executable* executable) {
  guarded_void([&] {
    if (!executable) return;
    const Driver& d = *executable->device->plugin->driver;
    d.cuCtxSetCurrent(executable->device->context);
    d.cuModuleUnload(executable->module);
    {
      std::lock_guard<std::mutex> lock(executable->device->executables_mu);
      executable->device->executables.erase(executable);
    }
    delete executable;
  });
}

}  // namespace tegula::cuda
