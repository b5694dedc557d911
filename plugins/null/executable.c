/*
 * executable.c: loading executables and launching them (compiling is C++: compile.cpp).
 */
#include "null_plugin.h"

void null_blob_release(tg_blob* blob) {
  (void)blob;
  /* TODO(null): free what compile allocated for the blob. */
}

tg_error* null_executable_load(tg_device* device, const void* data, size_t size,
                               tg_executable** out_executable) {
  (void)device;
  (void)data;
  (void)size;
  (void)out_executable;
  /* TODO(null): validate the bytes (TG_ERR_CORRUPT when they do not check out: the host
   * then rebuilds them) and load the module. */
  return null_unimplemented("executable_load");
}

void null_executable_free(tg_executable* executable) {
  (void)executable;
  /* TODO(null): unload the module. */
}

tg_error* null_launch(tg_queue* queue, tg_executable* executable, const tg_launch_params* params) {
  (void)queue;
  (void)executable;
  (void)params;
  /* TODO(null): enqueue params->grid blocks with params->args (launch signature order). */
  return null_unimplemented("launch");
}

tg_error* null_compile_offline(tg_plugin* plugin, const tg_target_description* target,
                               const tg_compile_request* request, tg_blob* out_blob) {
  (void)plugin;
  (void)target;
  (void)request;
  (void)out_blob;
  /* TODO(null): (optional) compile for `target` without a device, so code generation can be
   * checked on a machine without the hardware; the blob must equal what compile would give
   * on a device of that target. Or set the table entry to NULL. */
  return null_unimplemented("compile_offline");
}

tg_error* null_executable_describe(tg_plugin* plugin, const void* data, size_t size, tg_blob* out_text) {
  (void)plugin;
  (void)data;
  (void)size;
  (void)out_text;
  /* TODO(null): (optional) the executable in readable form (PTX, SPIR-V assembly, LLVM IR),
   * released with blob_release. Or set the table entry to NULL. */
  return null_unimplemented("executable_describe");
}
