/// \file
/// Compiling, loading, launching and describing CPU executables. compile() generates LLVM
/// IR from the lowered kernel, optimises it for the host and emits an object file, which
/// goes into a blob (Blob.h) with the lowered IR text; executable_load() checks the blob,
/// re-reads the IR for the launch signature and links the object into the JIT without
/// compiling anything. launch() runs the grid on the thread pool and returns when it is
/// done.
#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/DType.h"
#include "ir/Lower.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "plugins/cpu/Blob.h"
#include "plugins/cpu/Cpu.h"
#include "plugins/cpu/Jit.h"
#include "plugins/cpu/ThreadPool.h"
#include "plugins/cpu/codegen/Codegen.h"
#include "plugins/support/LaunchCheck.h"
#include "plugins/support/StringBlob.h"

namespace tegula::cpu {
namespace {

/// The value of a "key=value" option: a whole decimal number, or -1 when there is none or
/// anything follows its digits.
long option_value(const std::string& line, size_t eq) {
  if (eq == std::string::npos) return -1;
  const char* begin = line.data() + eq + 1;
  const char* end = line.data() + line.size();
  long value = -1;
  auto [stop, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || stop != end) return -1;
  return value;
}

/// Compile options, "key=value" lines: gemm_mr (microkernel rows, 1-16) and gemm_nv
/// (microkernel columns in vectors, 1-4). Anything else is an error.
Result<CodegenOptions> parse_options(const HostCpu& host, const char* options) {
  CodegenOptions o;
  o.cpu_name = host.cpu_name;
  o.cpu_features = host.features;
  o.f32_lanes = host.f32_lanes() >= 8 ? host.f32_lanes() : 8;
  o.vector_bits = host.vector_bytes * 8;
  std::string_view text = options ? options : "";
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(start, end - start));
    start = end + 1;
    if (line.empty()) continue;
    size_t eq = line.find('=');
    std::string key = line.substr(0, eq);
    long value = option_value(line, eq);
    if (key == "gemm_mr" && value >= 1 && value <= 16) {
      o.gemm_mr = uint32_t(value);
    } else if (key == "gemm_nv" && value >= 1 && value <= 4) {
      o.gemm_nr_vectors = uint32_t(value);
    } else {
      return error(ErrorCode::InvalidArgument, "unknown or out-of-range compile option '" + line +
                                                   "' (known: gemm_mr=1..16, gemm_nv=1..4)");
    }
  }
  return o;
}

struct Generated {
  std::string entry;
  uint64_t arena_bytes = 0;
  std::string code;
  std::string optimized_ir;
};

Result<Generated> generate_code(const HostCpu& host, const ir::Kernel& kernel, const char* options, EmitKind kind,
                                bool keep_ir) {
  TG_ASSIGN_OR_RETURN(CodegenOptions o, parse_options(host, options));
  llvm::LLVMContext context;
  TG_ASSIGN_OR_RETURN(CodegenResult gen, generate(kernel, o, context));
  Generated out;
  out.entry = gen.entry;
  out.arena_bytes = gen.arena_bytes;
  TG_ASSIGN_OR_RETURN(out.code, optimize_and_emit(*gen.module, host, kind, keep_ir ? &out.optimized_ir : nullptr));
  return out;
}

/// A buffer of this device, for validate_launch.
plugin::LaunchBuffer buffer_of(const void* device, size_t, const tg_buffer* buffer) {
  tg_device* d = static_cast<tg_device*>(const_cast<void*>(device));
  if (!plugin::host_owns(d, buffer)) return {};
  return {true, buffer->size, uint64_t(reinterpret_cast<uintptr_t>(buffer->data))};
}

const char* runtime_error_text(int32_t code) {
  switch (code) {
    case kRuntimeIndexOutOfRange: return "an element index is outside its buffer";
    case kRuntimeDivisionByZero: return "integer division by zero";
    case kRuntimeTileOutOfRange: return "a tile with these offsets lies outside its shared or fragment buffer";
    default: return "unknown runtime error";
  }
}

}  // namespace

void destroy_executable(tg_executable* executable) { delete executable; }

tg_error* compile(tg_device* device, const tg_compile_request* request, tg_blob* out_blob) {
  return guarded("compile", [&]() -> tg_error* {
    if (!device || !request || !out_blob || request->struct_size < sizeof(tg_compile_request) ||
        out_blob->struct_size < sizeof(tg_blob))
      return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: compile: bad argument");
    if (!request->ir_format || std::strcmp(request->ir_format, TG_IR_FORMAT_LOWERED_V1) != 0)
      return make_error(TG_ERR_UNSUPPORTED, "cpu: compile: IR format must be " TG_IR_FORMAT_LOWERED_V1);
    if (!request->ir_data && request->ir_size) return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: compile: no IR");
    const HostCpu& host = device->plugin->host;
    std::string_view text(static_cast<const char*>(request->ir_data), request->ir_size);
    Result<ir::Kernel> kernel = ir::read_lowered(text, device->plugin->target, device->plugin->target_hash, "<lowered>");
    if (!kernel.is_ok()) return from_status(kernel.status(), "compile");
    Result<Generated> gen = generate_code(host, *kernel, request->options, EmitKind::Object, false);
    if (!gen.is_ok()) return from_status(gen.status(), "compile");
    BlobContents c;
    c.host_identity = host.identity();
    c.host_brand = host.brand;
    c.entry = gen->entry;
    c.options = request->options ? request->options : "";
    c.arena_bytes = gen->arena_bytes;
    c.ir_text = std::string(text);
    c.object = std::move(gen->code);
    plugin::give_string_blob(write_blob(c), out_blob);
    return nullptr;
  });
}

void blob_release(tg_blob* blob) {
  guarded_void([&] { plugin::release_string_blob(blob); });
}

tg_error* executable_load(tg_device* device, const void* data, size_t size, tg_executable** out) {
  return guarded("executable_load", [&]() -> tg_error* {
    if (!device || !out || (!data && size)) return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: executable_load: bad argument");
    tg_plugin* plugin = device->plugin;
    std::string_view bytes(static_cast<const char*>(data), size);
    Result<BlobContents> blob = read_blob(bytes, plugin->host.identity());
    if (!blob.is_ok()) return make_error(TG_ERR_CORRUPT, "cpu: executable_load: " + blob.status().message());
    Result<ir::Kernel> kernel = ir::read_lowered(blob->ir_text, "<executable>");
    if (!kernel.is_ok())
      return make_error(TG_ERR_CORRUPT, "cpu: executable_load: the IR does not read back: " + kernel.status().str());
    Jit* jit = nullptr;
    {
      std::lock_guard<std::mutex> lock(plugin->jit_mu);
      if (!plugin->jit) {
        Result<std::unique_ptr<Jit>> made = Jit::create();
        if (!made.is_ok()) return from_status(made.status(), "executable_load");
        plugin->jit = std::move(made).value();
      }
      jit = plugin->jit.get();
    }
    void* address = nullptr;
    Result<std::unique_ptr<JitHandle>> code = jit->load(blob->object, blob->entry, &address);
    if (!code.is_ok()) return from_status(code.status(), "executable_load");
    auto exe = std::make_unique<tg_executable>();
    exe->device = device;
    exe->kernel = std::move(kernel).value();
    Result<plugin::LaunchSignature> signature = plugin::lowered_launch_signature(exe->kernel);
    if (!signature.is_ok())
      return make_error(TG_ERR_CORRUPT, "cpu: executable_load: " + signature.status().str());
    exe->signature = std::move(signature).value();
    exe->entry = reinterpret_cast<TgCpuEntry>(address);
    exe->arena_bytes = blob->arena_bytes;
    exe->code = std::move(code).value();
    plugin::host_add_executable(device, exe.get());
    *out = exe.release();
    return nullptr;
  });
}

void executable_free(tg_executable* executable) {
  guarded_void([&] {
    if (!executable) return;
    plugin::host_remove_executable(executable->device, executable);
    destroy_executable(executable);
  });
}

tg_error* launch(tg_queue* queue, tg_executable* executable, const tg_launch_params* params) {
  return guarded("launch", [&]() -> tg_error* {
    if (!queue || !executable || !params || params->struct_size < sizeof(tg_launch_params) ||
        (!params->args && params->arg_count) || executable->device != queue->device)
      return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: launch: bad argument");
    const ir::Kernel& k = executable->kernel;
    Result<std::array<uint32_t, 3>> grid =
        plugin::validate_launch(executable->signature, *params, buffer_of, queue->device);
    if (!grid.is_ok()) return plugin::launch_error("cpu", grid.status());
    int64_t g[3] = {(*grid)[0], (*grid)[1], (*grid)[2]};
    // validate_launch keeps the product within 2^48 blocks: far from where the pool's counters
    // (which run up to a few chunks past the total) could overflow.
    int64_t total = g[0] * g[1] * g[2];
    if (total == 0) return nullptr;
    size_t np = k.params.size();
    std::vector<void*> ptrs(np, nullptr);
    std::vector<int64_t> ints(params->arg_count, 0);
    std::vector<double> floats(np, 0.0);
    for (size_t i = 0; i < params->arg_count; ++i) {
      const tg_launch_arg& a = params->args[i];
      if (a.kind == TG_ARG_BUFFER) {
        ptrs[i] = a.buffer->data ? a.buffer->data + a.offset : nullptr;
        continue;
      }
      if (i >= np) {
        ints[i] = a.i64;
        continue;
      }
      // Scalars take their parameter's dtype, rounded as a store would.
      DType d = k.params[i].dtype;
      double rounded = round_to_dtype(d, a.kind == TG_ARG_I64 ? double(a.i64) : a.f64);
      floats[i] = rounded;
      ints[i] = dtype_is_float(d) ? 0 : int64_t(rounded);
    }
    int32_t status = 0;
    TgCpuLaunch l{ptrs.data(), ints.data(), floats.data(), {g[0], g[1], g[2]}, &status};
    ThreadPool& pool = *queue->device->plugin->pool;
    int64_t chunk = std::max<int64_t>(1, total / (int64_t(pool.size()) * 16));
    TgCpuEntry entry = executable->entry;
    bool ran = pool.run(total, chunk, executable->arena_bytes,
                        [&](int64_t begin, int64_t end, uint8_t* arena) { entry(&l, begin, end, arena); });
    if (!ran)
      return make_error(TG_ERR_OUT_OF_MEMORY, "cpu: launch: cannot allocate " + std::to_string(executable->arena_bytes) +
                                                  " bytes of scratch per core");
    if (status != 0)
      return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: launch: kernel '" + k.name + "': " + runtime_error_text(status));
    return nullptr;
  });
}

tg_error* executable_describe(tg_plugin* plugin, const void* data, size_t size, tg_blob* out_text) {
  return guarded("executable_describe", [&]() -> tg_error* {
    if (!plugin || !out_text || (!data && size) || out_text->struct_size < sizeof(tg_blob))
      return make_error(TG_ERR_INVALID_ARGUMENT, "cpu: executable_describe: bad argument");
    Result<BlobContents> blob = read_blob(std::string_view(static_cast<const char*>(data), size), plugin->host.identity());
    if (!blob.is_ok()) return make_error(TG_ERR_CORRUPT, "cpu: executable_describe: " + blob.status().message());
    Result<ir::Kernel> kernel = ir::read_lowered(blob->ir_text, "<executable>");
    if (!kernel.is_ok()) return make_error(TG_ERR_CORRUPT, "cpu: executable_describe: " + kernel.status().str());
    // The object holds no IR: generate it again, the same way compile did.
    Result<Generated> gen = generate_code(plugin->host, *kernel, blob->options.c_str(), EmitKind::Assembly, true);
    if (!gen.is_ok()) return from_status(gen.status(), "executable_describe");
    std::string text = "; tegula cpu executable: kernel " + kernel->name + ", entry " + blob->entry + ", " +
                       std::to_string(blob->arena_bytes) + " bytes of scratch per core\n";
    text += "; host " + blob->host_brand + "\n\n; ---- optimised LLVM IR ----\n";
    text += gen->optimized_ir;
    text += "\n; ---- assembly ----\n";
    text += gen->code;
    plugin::give_string_blob(std::move(text), out_text);
    return nullptr;
  });
}

}  // namespace tegula::cpu
