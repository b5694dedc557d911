/// \file
/// The HIP runtime as the plugin sees it: the few types it needs, declared here rather than
/// taken from hip_runtime_api.h (so the plugin builds without ROCm; tests/hip_types_test
/// checks the values against Debian's libamdhip64-dev 5.2 headers where they exist), and one
/// X-macro table of entry points, loaded from libamdhip64.so.6, .so.5 or .so with dlopen at
/// init. The runtime is never linked: a machine without it loads the plugin, 0 devices.
///
/// Device properties are read one attribute at a time (hipDeviceGetAttribute), never through
/// hipDeviceProp_t: that struct's layout changed between ROCm 5 and 6 (hipGetDeviceProperties
/// became hipGetDevicePropertiesR0600), and a plugin compiled against one read garbage, or
/// wrote past the struct, on the other. The attribute numbers below sit in the
/// CUDA-compatible range of hipDeviceAttribute_t, which both generations keep.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tegula::hip {

using hipError_t = int;
using hipDevice_t = int;
using hipDeviceptr_t = void*;
using hipModule_t = struct ihipModule_t*;
using hipFunction_t = struct ihipModuleSymbol_t*;
using hipStream_t = struct ihipStream_t*;
using hipEvent_t = struct ihipEvent_t*;

// Values from hip_runtime_api.h (checked by tests/hip_types_test.cpp where it is installed).
constexpr hipError_t kHipSuccess = 0;
constexpr hipError_t kHipErrorOutOfMemory = 2;
constexpr hipError_t kHipErrorNoDevice = 100;
constexpr hipError_t kHipErrorInvalidDevice = 101;  ///< what ROCm 5's hipInit answers on a machine without a GPU
constexpr int kAttrComputeCapabilityMajor = 23;
constexpr int kAttrMaxThreadsPerBlock = 56;
constexpr int kAttrComputeCapabilityMinor = 61;
constexpr int kAttrMultiprocessorCount = 63;
constexpr int kAttrMaxSharedMemoryPerBlock = 74;
constexpr int kAttrWarpSize = 87;
constexpr unsigned kStreamNonBlocking = 1;
// hipModuleLaunchKernel's `extra`: the kernel arguments as one buffer.
inline void* const kLaunchParamBufferPointer = reinterpret_cast<void*>(0x01);
inline void* const kLaunchParamBufferSize = reinterpret_cast<void*>(0x02);
inline void* const kLaunchParamEnd = reinterpret_cast<void*>(0x03);

/// X(name, exported symbol, return type, parameter list, required). A missing required
/// symbol makes the runtime unusable (0 devices, with the reason logged).
#define TG_HIP_SYMBOLS(X)                                                                                           \
  X(hipInit, "hipInit", hipError_t, (unsigned flags), true)                                                         \
  X(hipRuntimeGetVersion, "hipRuntimeGetVersion", hipError_t, (int* version), true)                                 \
  X(hipGetErrorName, "hipGetErrorName", const char*, (hipError_t error), true)                                      \
  X(hipGetErrorString, "hipGetErrorString", const char*, (hipError_t error), true)                                  \
  X(hipGetDeviceCount, "hipGetDeviceCount", hipError_t, (int* count), true)                                         \
  X(hipSetDevice, "hipSetDevice", hipError_t, (int device), true)                                                   \
  X(hipDeviceGetName, "hipDeviceGetName", hipError_t, (char* name, int len, hipDevice_t device), true)              \
  X(hipDeviceGetAttribute, "hipDeviceGetAttribute", hipError_t, (int* value, int attribute, int device), true)      \
  X(hipDeviceTotalMem, "hipDeviceTotalMem", hipError_t, (size_t * bytes, hipDevice_t device), true)                 \
  X(hipDeviceSynchronize, "hipDeviceSynchronize", hipError_t, (void), true)                                         \
  X(hipMalloc, "hipMalloc", hipError_t, (void** ptr, size_t bytes), true)                                           \
  X(hipFree, "hipFree", hipError_t, (void* ptr), true)                                                              \
  X(hipMemcpyHtoDAsync, "hipMemcpyHtoDAsync", hipError_t,                                                           \
    (hipDeviceptr_t dst, void* src, size_t bytes, hipStream_t stream), true)                                        \
  X(hipMemcpyDtoHAsync, "hipMemcpyDtoHAsync", hipError_t,                                                           \
    (void* dst, hipDeviceptr_t src, size_t bytes, hipStream_t stream), true)                                        \
  X(hipMemcpyDtoDAsync, "hipMemcpyDtoDAsync", hipError_t,                                                           \
    (hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes, hipStream_t stream), true)                               \
  X(hipMemsetD8Async, "hipMemsetD8Async", hipError_t,                                                               \
    (hipDeviceptr_t dst, unsigned char value, size_t count, hipStream_t stream), true)                              \
  X(hipMemsetD16Async, "hipMemsetD16Async", hipError_t,                                                             \
    (hipDeviceptr_t dst, unsigned short value, size_t count, hipStream_t stream), true)                             \
  X(hipMemsetD32Async, "hipMemsetD32Async", hipError_t,                                                             \
    (hipDeviceptr_t dst, int value, size_t count, hipStream_t stream), true)                                        \
  X(hipModuleLoadData, "hipModuleLoadData", hipError_t, (hipModule_t * module, const void* image), true)            \
  X(hipModuleUnload, "hipModuleUnload", hipError_t, (hipModule_t module), true)                                     \
  X(hipModuleGetFunction, "hipModuleGetFunction", hipError_t,                                                       \
    (hipFunction_t * function, hipModule_t module, const char* name), true)                                         \
  X(hipModuleLaunchKernel, "hipModuleLaunchKernel", hipError_t,                                                     \
    (hipFunction_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,                 \
     unsigned shared_bytes, hipStream_t stream, void** params, void** extra),                                       \
    true)                                                                                                           \
  X(hipStreamCreateWithFlags, "hipStreamCreateWithFlags", hipError_t, (hipStream_t * stream, unsigned flags), true) \
  X(hipStreamDestroy, "hipStreamDestroy", hipError_t, (hipStream_t stream), true)                                   \
  X(hipStreamSynchronize, "hipStreamSynchronize", hipError_t, (hipStream_t stream), true)                           \
  X(hipEventCreate, "hipEventCreate", hipError_t, (hipEvent_t * event), true)                                       \
  X(hipEventDestroy, "hipEventDestroy", hipError_t, (hipEvent_t event), true)                                       \
  X(hipEventRecord, "hipEventRecord", hipError_t, (hipEvent_t event, hipStream_t stream), true)                     \
  X(hipEventSynchronize, "hipEventSynchronize", hipError_t, (hipEvent_t event), true)                               \
  X(hipEventElapsedTime, "hipEventElapsedTime", hipError_t, (float* ms, hipEvent_t start, hipEvent_t end), true)

/// The loaded runtime: one function pointer per symbol.
struct Runtime {
#define TG_HIP_FIELD(name, symbol, ret, params, required) ret(*name) params = nullptr;
  TG_HIP_SYMBOLS(TG_HIP_FIELD)
#undef TG_HIP_FIELD
  void* library = nullptr;
  std::string path;  ///< the library that was opened
  int version = 0;   ///< hipRuntimeGetVersion
};

/// Load the HIP runtime ($TEGULA_HIP_RUNTIME, else libamdhip64.so.6, .so.5, .so) and
/// initialise it, once per process. Null with `why` set when there is none, or no GPU: that
/// is not an error for the plugin.
const Runtime* load_runtime(std::string* why);

/// "hipErrorX: text" for a runtime result.
std::string runtime_error_text(const Runtime& r, hipError_t e);

/// The built-in description for a device's gfx version (hipDeviceAttributeComputeCapability
/// major and minor: 9.4 is gfx942, 9.5 gfx950), or "" for a part tegula does not describe.
std::string target_for_gfx(int major, int minor);

}  // namespace tegula::hip
