// Every field of every struct in plugins/abi/tegula_plugin.h, and every enumerator, for the
// golden layout test. X(struct, field) / E(enumerator); tg_plugin_api's entries come from the
// entry list. Adding a field to the header without
// adding it here still fails the test: the struct's size changes.
#pragma once

#include "plugins/abi/tegula_abi_entries.h"

#define TG_ABI_STRUCTS(S) \
  S(tg_extension)         \
  S(tg_host_info)         \
  S(tg_plugin_info)       \
  S(tg_device_properties) \
  S(tg_target_description) \
  S(tg_compile_request)   \
  S(tg_blob)              \
  S(tg_launch_arg)        \
  S(tg_launch_params)     \
  S(tg_plugin_api)

#define TG_ABI_FIELDS(X)                                                                          \
  X(tg_extension, struct_size) X(tg_extension, next) X(tg_extension, type) X(tg_extension, reserved) \
  X(tg_host_info, struct_size) X(tg_host_info, next) X(tg_host_info, abi_version)                 \
  X(tg_host_info, reserved) X(tg_host_info, host_version) X(tg_host_info, log)                    \
  X(tg_host_info, log_user)                                                                       \
  X(tg_plugin_info, struct_size) X(tg_plugin_info, next) X(tg_plugin_info, name)                  \
  X(tg_plugin_info, vendor) X(tg_plugin_info, version) X(tg_plugin_info, description)             \
  X(tg_plugin_info, concurrency) X(tg_plugin_info, reserved)                                      \
  X(tg_device_properties, struct_size) X(tg_device_properties, next) X(tg_device_properties, name) \
  X(tg_device_properties, vendor) X(tg_device_properties, target)                                 \
  X(tg_device_properties, driver_version) X(tg_device_properties, toolkit_version)               \
  X(tg_device_properties, memory_bytes) X(tg_device_properties, compute_units)                   \
  X(tg_device_properties, device_type) X(tg_device_properties, out_of_range)                         \
  X(tg_target_description, struct_size) X(tg_target_description, next)                           \
  X(tg_target_description, format) X(tg_target_description, data) X(tg_target_description, size) \
  X(tg_compile_request, struct_size) X(tg_compile_request, next) X(tg_compile_request, ir_format) \
  X(tg_compile_request, ir_data) X(tg_compile_request, ir_size) X(tg_compile_request, options)    \
  X(tg_blob, struct_size) X(tg_blob, next) X(tg_blob, data) X(tg_blob, size) X(tg_blob, opaque)   \
  X(tg_launch_arg, struct_size) X(tg_launch_arg, next) X(tg_launch_arg, kind)                     \
  X(tg_launch_arg, reserved) X(tg_launch_arg, buffer) X(tg_launch_arg, offset)                    \
  X(tg_launch_arg, i64) X(tg_launch_arg, f64)                                                     \
  X(tg_launch_params, struct_size) X(tg_launch_params, next) X(tg_launch_params, grid)            \
  X(tg_launch_params, reserved) X(tg_launch_params, args) X(tg_launch_params, arg_count)          \
  X(tg_plugin_api, struct_size) X(tg_plugin_api, next) X(tg_plugin_api, abi_version)              \
  X(tg_plugin_api, reserved)

// The function pointers of tg_plugin_api come after these, from the one entry list
// (TG_FOR_EACH_ABI_ENTRY in plugins/abi/tegula_abi_entries.h).

#define TG_ABI_ENUMERATORS(E)                                                                     \
  E(TG_OK) E(TG_ERR_INVALID_ARGUMENT) E(TG_ERR_UNIMPLEMENTED) E(TG_ERR_UNSUPPORTED)               \
  E(TG_ERR_OUT_OF_MEMORY) E(TG_ERR_DEVICE) E(TG_ERR_NOT_FOUND) E(TG_ERR_COMPILE) E(TG_ERR_CORRUPT) \
  E(TG_ERR_TIMEOUT) E(TG_ERR_INTERNAL) E(TG_LOG_ERROR) E(TG_LOG_WARN) E(TG_LOG_INFO)              \
  E(TG_LOG_DEBUG) E(TG_ARG_BUFFER) E(TG_ARG_I64) E(TG_ARG_F64) E(TG_ABI_VERSION_1)                \
  E(TG_ABI_VERSION_MIN) E(TG_ABI_VERSION_CURRENT) E(TG_OUT_OF_RANGE_UNDECLARED)                  \
  E(TG_OUT_OF_RANGE_DETECTED) E(TG_OUT_OF_RANGE_SILENT) E(TG_OUT_OF_RANGE_UNDEFINED)              \
  E(TG_DEVICE_PROPERTIES_SIZE_1) E(TG_PLUGIN_INFO_SIZE_1) E(TG_CONCURRENT_COMPILE)
