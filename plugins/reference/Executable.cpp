/// \file
/// Compiling, loading and launching on the reference device. "Compiling" validates the
/// lowered IR with the reader every backend uses (ir::read_lowered) and keeps its text; the
/// executable is that text in the SDK's container (plugins/support/Container.h: magic
/// "tgrefexe", version, size, SHA-256; one field, the lowered IR text), so that bytes from a
/// stale cache, another plugin or a damaged disk are refused with TG_ERR_CORRUPT instead of
/// being misread.
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/Interpreter.h"
#include "ir/Lower.h"
#include "plugins/reference/Reference.h"
#include "plugins/support/Container.h"
#include "plugins/support/StringBlob.h"

namespace tegula::reference {
namespace {

constexpr char kMagic[8] = {'t', 'g', 'r', 'e', 'f', 'e', 'x', 'e'};
// 2: the SDK's container (1 was a bare 24-byte header before the text, with no digest).
constexpr uint32_t kFormatVersion = 2;

/// The reference plugin takes no compile options; an unknown one is an error rather than
/// silently ignored, so a typo does not go unnoticed.
tg_error* check_options(const char* options) {
  if (!options) return nullptr;
  std::string_view text(options);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty())
      return make_error(TG_ERR_INVALID_ARGUMENT, "reference: unknown compile option '" + std::string(line) + "'");
    start = end + 1;
  }
  return nullptr;
}

ir::Arg to_interpreter_arg(const tg_launch_arg& a) {
  switch (a.kind) {
    case TG_ARG_BUFFER: return ir::Arg::tensor(a.buffer->data + a.offset, a.buffer->size - a.offset);
    case TG_ARG_I64: return ir::Arg::integer(a.i64);
    default: return ir::Arg::number(a.f64);
  }
}

/// A buffer of this device, for validate_launch.
plugin::LaunchBuffer buffer_of(const void* device, size_t, const tg_buffer* buffer) {
  if (!plugin::host_owns(static_cast<tg_device*>(const_cast<void*>(device)), buffer)) return {};
  return {true, buffer->size, uint64_t(reinterpret_cast<uintptr_t>(buffer->data))};
}

/// compile and compile_offline: the executable does not depend on the device.
tg_error* compile_to_blob(const char* entry, const tg_compile_request* request, tg_blob* out_blob) {
  return guarded(entry, [&]() -> tg_error* {
    if (!request || !out_blob || request->struct_size < sizeof(tg_compile_request) ||
        out_blob->struct_size < sizeof(tg_blob))
      return make_error(TG_ERR_INVALID_ARGUMENT, std::string("reference: ") + entry + ": bad argument");
    if (!request->ir_format || std::strcmp(request->ir_format, TG_IR_FORMAT_LOWERED_V1) != 0)
      return make_error(TG_ERR_UNSUPPORTED, "reference: compile: IR format must be " TG_IR_FORMAT_LOWERED_V1);
    if (!request->ir_data && request->ir_size) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: compile: no IR");
    if (tg_error* e = check_options(request->options)) return e;
    std::string_view text(static_cast<const char*>(request->ir_data), request->ir_size);
    Result<ir::Kernel> kernel = ir::read_lowered(text, "<lowered>");
    if (!kernel.is_ok()) return from_status(kernel.status(), entry);

    std::string bytes = plugin::ContainerWriter(std::string_view(kMagic, sizeof kMagic), kFormatVersion).field(text).finish();
    plugin::give_string_blob(std::move(bytes), out_blob);
    return nullptr;
  });
}

/// The IR text of an executable, after checking its container; TG_ERR_CORRUPT otherwise.
tg_error* executable_text(const char* entry, const void* data, size_t size, std::string_view* text) {
  std::string where = std::string("reference: ") + entry + ": ";
  auto reader = plugin::ContainerReader::open(data, size, std::string_view(kMagic, sizeof kMagic), kFormatVersion,
                                              "reference executable");
  if (!reader.is_ok()) return make_error(TG_ERR_CORRUPT, where + reader.status().message());
  auto field = reader->field("lowered IR");
  if (!field.is_ok()) return make_error(TG_ERR_CORRUPT, where + field.status().message());
  if (Status end = reader->finish(); !end.is_ok()) return make_error(TG_ERR_CORRUPT, where + end.message());
  *text = *field;
  return nullptr;
}

}  // namespace

void blob_release(tg_blob* blob) {
  guarded_void([&] { plugin::release_string_blob(blob); });
}

tg_error* compile(tg_device* device, const tg_compile_request* request, tg_blob* out_blob) {
  if (!device) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: compile: NULL device");
  return compile_to_blob("compile", request, out_blob);
}

// The reference target needs no device to compile for; any target description is accepted,
// since the executable (the IR text) is the same for all.
tg_error* compile_offline(tg_plugin* plugin, const tg_target_description* target, const tg_compile_request* request,
                          tg_blob* out_blob) {
  if (!plugin || !target) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: compile_offline: NULL argument");
  return compile_to_blob("compile_offline", request, out_blob);
}

tg_error* executable_describe(tg_plugin* plugin, const void* data, size_t size, tg_blob* out_text) {
  return guarded("executable_describe", [&]() -> tg_error* {
    if (!plugin || !out_text || out_text->struct_size < sizeof(tg_blob))
      return make_error(TG_ERR_INVALID_ARGUMENT, "reference: executable_describe: bad argument");
    std::string_view text;
    if (tg_error* e = executable_text("executable_describe", data, size, &text)) return e;
    plugin::give_string_blob(std::string(text), out_text);
    return nullptr;
  });
}

tg_error* executable_load(tg_device* device, const void* data, size_t size, tg_executable** out) {
  return guarded("executable_load", [&]() -> tg_error* {
    if (!device || !out || (!data && size)) return make_error(TG_ERR_INVALID_ARGUMENT, "reference: executable_load: bad argument");
    std::string_view text;
    if (tg_error* e = executable_text("executable_load", data, size, &text)) return e;
    Result<ir::Kernel> kernel = ir::read_lowered(text, "<executable>");
    if (!kernel.is_ok())
      return make_error(TG_ERR_CORRUPT, "reference: executable_load: the IR does not read back: " + kernel.status().str());
    auto exe = std::make_unique<tg_executable>();
    exe->device = device;
    exe->kernel = std::move(kernel).value();
    Result<plugin::LaunchSignature> signature = plugin::lowered_launch_signature(exe->kernel);
    if (!signature.is_ok())
      return make_error(TG_ERR_CORRUPT, "reference: executable_load: " + signature.status().str());
    exe->signature = std::move(signature).value();
    plugin::host_add_executable(device, exe.get());
    *out = exe.release();
    return nullptr;
  });
}

void executable_free(tg_executable* executable) {
  guarded_void([&] {
    if (!executable) return;
    plugin::host_remove_executable(executable->device, executable);
    delete executable;
  });
}

tg_error* launch(tg_queue* queue, tg_executable* executable, const tg_launch_params* params) {
  return guarded("launch", [&]() -> tg_error* {
    if (!queue || !executable || !params || params->struct_size < sizeof(tg_launch_params) ||
        (!params->args && params->arg_count) || executable->device != queue->device)
      return make_error(TG_ERR_INVALID_ARGUMENT, "reference: launch: bad argument");
    Result<std::array<uint32_t, 3>> grid =
        plugin::validate_launch(executable->signature, *params, buffer_of, queue->device);
    if (!grid.is_ok()) return plugin::launch_error(TG_REFERENCE_NAME, grid.status());
    std::vector<ir::Arg> args;
    for (size_t i = 0; i < params->arg_count; ++i) args.push_back(to_interpreter_arg(params->args[i]));
    Status status = ir::interpret(executable->kernel, args);
    if (!status.is_ok()) return from_status(status, "launch");
    return nullptr;
  });
}

}  // namespace tegula::reference
