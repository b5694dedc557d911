/// \file
/// The C API for tools: cross-compilation for a target with no device present, and the
/// readable form of executable bytes, through a plugin's optional compile_offline and
/// executable_describe entries. The conformance suite uses these for its CompileOnly cases
/// and to check that a forced matrix instruction is really emitted.
#include <new>

#include "ir/Lower.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "runtime/CApiSupport.h"
#include "runtime/Compile.h"
#include "runtime/Objects.h"
#include "targets/Target.h"

using namespace tegula;
using namespace tegula::runtime;

struct tegula_blob {
  std::string bytes;
};

namespace {

tegula_error* invalid(const char* message) { return to_c_error(error(ErrorCode::InvalidArgument, message)); }

Result<PluginInstance*> find_plugin(tegula_runtime* rt, const std::string& name) {
  std::string known;
  for (const auto& p : rt->plugins) {
    if (p->name() == name) return p.get();
    known += (known.empty() ? "" : ", ") + p->name();
  }
  return error(ErrorCode::NotFound, "no plugin '" + name + "'; loaded: " + (known.empty() ? "none" : known));
}

/// A built-in description's name, or a description written as JSON.
Result<TargetDescription> resolve_target(const std::string& target) {
  size_t first = target.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && target[first] == '{') return parse_target(target, "<offline target>");
  return builtin_target(target);
}

tegula_error* make_blob(std::string bytes, tegula_blob** out) {
  tegula_blob* blob = new (std::nothrow) tegula_blob;
  if (!blob) return out_of_memory_error();
  blob->bytes = std::move(bytes);
  *out = blob;
  return nullptr;
}

tegula_error* compile_offline(tegula_runtime* rt, const char* plugin, const char* target, std::string_view ir_text,
                              const char* plugin_options, tegula_blob** out) {
  Result<PluginInstance*> p = find_plugin(rt, plugin);
  if (!p.is_ok()) return to_c_error(p.status());
  Result<TargetDescription> t = resolve_target(target);
  if (!t.is_ok()) return to_c_error(t.status());
  Result<ir::Kernel> kernel = ir::parse_and_verify(ir_text, "<kernel>");
  if (!kernel.is_ok()) return to_c_error(kernel.status());
  // The generic variant's options: the bytes tegula_kernel_compile would make up front.
  Result<ir::LowerResult> lowered = ir::lower(*kernel, *t, variant_lower_options());
  if (!lowered.is_ok()) return to_c_error(lowered.status());
  Result<std::string> bytes =
      (*p)->compile_offline(t->canonical_json, ir::print_kernel(lowered->kernel), plugin_options ? plugin_options : "");
  if (!bytes.is_ok()) return to_c_error(bytes.status());
  return make_blob(std::move(bytes).value(), out);
}

}  // namespace

extern "C" {

const void* tegula_blob_data(const tegula_blob* blob) { return blob ? blob->bytes.data() : nullptr; }

size_t tegula_blob_size(const tegula_blob* blob) { return blob ? blob->bytes.size() : 0; }

void tegula_blob_free(tegula_blob* blob) { delete blob; }

tegula_error* tegula_plugin_compile_offline(tegula_runtime* rt, const char* plugin, const char* target,
                                            const char* ir_text, size_t ir_size, const char* plugin_options,
                                            tegula_blob** out_executable) {
  if (!rt || !plugin || !target || (!ir_text && ir_size) || !out_executable)
    return invalid("tegula_plugin_compile_offline: bad argument");
  return c_guard([&]() -> tegula_error* {
    return compile_offline(rt, plugin, target, std::string_view(ir_text ? ir_text : "", ir_size), plugin_options,
                           out_executable);
  });
}

tegula_error* tegula_plugin_describe_executable(tegula_runtime* rt, const char* plugin, const void* data, size_t size,
                                                tegula_blob** out_text) {
  if (!rt || !plugin || (!data && size) || !out_text) return invalid("tegula_plugin_describe_executable: bad argument");
  return c_guard([&]() -> tegula_error* {
    Result<PluginInstance*> p = find_plugin(rt, plugin);
    if (!p.is_ok()) return to_c_error(p.status());
    Result<std::string> text = (*p)->describe_executable(size ? std::string(static_cast<const char*>(data), size) : std::string());
    if (!text.is_ok()) return to_c_error(text.status());
    return make_blob(std::move(text).value(), out_text);
  });
}

}  // extern "C"
