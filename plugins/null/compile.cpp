// compile.cpp: compiling lowered IR, the one entry that needs C++.
//
// The host hands compile the kernel as lowered tile IR text (TG_IR_FORMAT_LOWERED_V1). Read it
// with tegula's C++ reader, ir::read_lowered (ir/Lower.h), from the installed IR library that
// tegula::plugin_sdk links: it parses and verifies the kernel and gives an ir::Kernel whose
// statements carry the lowering's decisions. Everything else in this plugin stays C.
//
// No C++ exception may leave this file: compile catches them and answers an error.
#include <exception>
#include <new>
#include <string>
#include <string_view>

#include "ir/Lower.h"
#include "null_plugin.h"

namespace {

tg_error* compile_lowered(const tg_compile_request* request, tg_blob* out_blob) {
  if (!request || !out_blob || (!request->ir_data && request->ir_size))
    return null_error(TG_ERR_INVALID_ARGUMENT, "null: compile: NULL argument");
  if (!request->ir_format || std::string_view(request->ir_format) != TG_IR_FORMAT_LOWERED_V1)
    return null_error(TG_ERR_UNSUPPORTED, "null: compile: IR format \"%s\" (this plugin reads %s)",
                      request->ir_format ? request->ir_format : "", TG_IR_FORMAT_LOWERED_V1);
  std::string_view text(static_cast<const char*>(request->ir_data), request->ir_size);
  tegula::Result<tegula::ir::Kernel> kernel = tegula::ir::read_lowered(text, "<compile request>");
  if (!kernel.is_ok()) return null_error(TG_ERR_COMPILE, "null: compile: %s", kernel.status().str().c_str());
  /* TODO(null): generate code for kernel->body (its statements carry the lowering's decisions),
   * and return bytes that executable_load accepts in another process: wrap them in the SDK's
   * container (plugins/support/Container.h: magic, version, XXH64) so stale or foreign bytes
   * are caught. */
  return null_error(TG_ERR_UNIMPLEMENTED, "null: compile is not implemented (read kernel %s)",
                    kernel->name.c_str());
}

}  // namespace

extern "C" tg_error* null_compile(tg_device* device, const tg_compile_request* request, tg_blob* out_blob) {
  (void)device;
  try {
    return compile_lowered(request, out_blob);
  } catch (const std::bad_alloc&) {
    return null_error(TG_ERR_OUT_OF_MEMORY, "null: compile: out of memory");
  } catch (...) {
    return null_error(TG_ERR_INTERNAL, "null: compile: unexpected exception");
  }
}
