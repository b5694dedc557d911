/// \file
/// The CUDA driver API as the plugin sees it: the few types it needs, declared here rather
/// than taken from cuda.h (so the plugin builds without the toolkit; tests/driver_types_test
/// checks them against cuda.h where it exists), and one X-macro table of the entry points,
/// loaded from libcuda.so.1 with dlopen/dlsym at init. The driver is never linked: a machine
/// without it loads the plugin and reports 0 devices.
///
/// Symbol names are the exported ones (cuMemAlloc_v2, not the cuda.h macro cuMemAlloc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tegula::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;

/// CUtensorMap: 128 opaque bytes, 128-byte aligned in CUDA 13's cuda.h (64 is required).
struct alignas(128) CUtensorMap {
  uint64_t opaque[16];
};

struct CUlaunchConfig {
  unsigned grid[3];
  unsigned block[3];
  unsigned shared_bytes;
  CUstream stream;
  void* attrs;
  unsigned num_attrs;
};

// The enumerator values used, from cuda.h (checked by tests/driver_types_test.cpp).
constexpr CUresult kCudaSuccess = 0;
constexpr CUresult kCudaErrorNotInitialized = 3;
constexpr CUresult kCudaErrorNoDevice = 100;
constexpr int kAttrMaxThreadsPerBlock = 1;
constexpr int kAttrMultiprocessorCount = 16;
constexpr int kAttrL2CacheSize = 38;
constexpr int kAttrComputeCapabilityMajor = 75;
constexpr int kAttrComputeCapabilityMinor = 76;
constexpr int kAttrMaxSharedMemoryPerBlockOptin = 97;
constexpr int kFuncAttrNumRegs = 4;
constexpr int kFuncAttrLocalSizeBytes = 3;
constexpr int kFuncAttrMaxDynamicSharedSizeBytes = 8;
constexpr unsigned kStreamNonBlocking = 1;
constexpr unsigned kEventDefault = 0;
constexpr int kTensorMapUint8 = 0;
constexpr int kTensorMapUint16 = 1;
constexpr int kTensorMapUint32 = 2;
constexpr int kTensorMapUint64 = 4;
constexpr int kTensorMapFloat16 = 6;
constexpr int kTensorMapFloat32 = 7;
constexpr int kTensorMapFloat64 = 8;
constexpr int kTensorMapInterleaveNone = 0;
constexpr int kTensorMapSwizzleNone = 0;  // 32B = 1, 64B = 2, 128B = 3
constexpr int kTensorMapL2Promotion128B = 2;
constexpr int kTensorMapOobFillNone = 0;
constexpr int kTensorMapOobFillNan = 1;

/// X(name, exported symbol, return type, parameter list, required). A missing optional
/// symbol leaves its pointer null; a missing required one makes the driver unusable (0
/// devices, with the reason logged).
#define TG_CUDA_DRIVER_SYMBOLS(X)                                                                         \
  X(cuInit, "cuInit", CUresult, (unsigned flags), true)                                                   \
  X(cuDriverGetVersion, "cuDriverGetVersion", CUresult, (int* version), true)                             \
  X(cuGetErrorName, "cuGetErrorName", CUresult, (CUresult error, const char** name), true)                \
  X(cuGetErrorString, "cuGetErrorString", CUresult, (CUresult error, const char** text), true)            \
  X(cuDeviceGetCount, "cuDeviceGetCount", CUresult, (int* count), true)                                   \
  X(cuDeviceGet, "cuDeviceGet", CUresult, (CUdevice * device, int ordinal), true)                         \
  X(cuDeviceGetName, "cuDeviceGetName", CUresult, (char* name, int len, CUdevice device), true)           \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", CUresult, (int* value, int attribute, CUdevice device), \
    true)                                                                                                 \
  X(cuDeviceTotalMem, "cuDeviceTotalMem_v2", CUresult, (size_t * bytes, CUdevice device), true)           \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", CUresult, (CUcontext * ctx, CUdevice device),   \
    true)                                                                                                 \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", CUresult, (CUdevice device), true)         \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", CUresult, (CUcontext ctx), true)                                  \
  X(cuCtxSynchronize, "cuCtxSynchronize", CUresult, (void), true)                                         \
  X(cuMemAlloc, "cuMemAlloc_v2", CUresult, (CUdeviceptr * ptr, size_t bytes), true)                       \
  X(cuMemFree, "cuMemFree_v2", CUresult, (CUdeviceptr ptr), true)                                         \
  X(cuMemGetInfo, "cuMemGetInfo_v2", CUresult, (size_t * free_bytes, size_t * total_bytes), true)         \
  X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", CUresult,                                                  \
    (CUdeviceptr dst, const void* src, size_t bytes, CUstream stream), true)                              \
  X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", CUresult,                                                  \
    (void* dst, CUdeviceptr src, size_t bytes, CUstream stream), true)                                    \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", CUresult,                                                  \
    (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream), true)                              \
  X(cuMemsetD8Async, "cuMemsetD8Async", CUresult,                                                         \
    (CUdeviceptr dst, unsigned char value, size_t count, CUstream stream), true)                          \
  X(cuMemsetD16Async, "cuMemsetD16Async", CUresult,                                                       \
    (CUdeviceptr dst, unsigned short value, size_t count, CUstream stream), true)                         \
  X(cuMemsetD32Async, "cuMemsetD32Async", CUresult,                                                       \
    (CUdeviceptr dst, unsigned value, size_t count, CUstream stream), true)                               \
  X(cuModuleLoadData, "cuModuleLoadData", CUresult, (CUmodule * module, const void* image), true)         \
  X(cuModuleUnload, "cuModuleUnload", CUresult, (CUmodule module), true)                                  \
  X(cuModuleGetFunction, "cuModuleGetFunction", CUresult,                                                 \
    (CUfunction * function, CUmodule module, const char* name), true)                                     \
  X(cuFuncSetAttribute, "cuFuncSetAttribute", CUresult, (CUfunction function, int attribute, int value),  \
    true)                                                                                                 \
  X(cuFuncGetAttribute, "cuFuncGetAttribute", CUresult, (int* value, int attribute, CUfunction function), \
    true)                                                                                                 \
  X(cuLaunchKernel, "cuLaunchKernel", CUresult,                                                           \
    (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,          \
     unsigned shared_bytes, CUstream stream, void** params, void** extra),                                \
    true)                                                                                                 \
  X(cuLaunchKernelEx, "cuLaunchKernelEx", CUresult,                                                       \
    (const CUlaunchConfig* config, CUfunction f, void** params, void** extra), false)                     \
  X(cuStreamCreate, "cuStreamCreate", CUresult, (CUstream * stream, unsigned flags), true)                \
  X(cuStreamDestroy, "cuStreamDestroy_v2", CUresult, (CUstream stream), true)                             \
  X(cuStreamSynchronize, "cuStreamSynchronize", CUresult, (CUstream stream), true)                        \
  X(cuEventCreate, "cuEventCreate", CUresult, (CUevent * event, unsigned flags), true)                    \
  X(cuEventDestroy, "cuEventDestroy_v2", CUresult, (CUevent event), true)                                 \
  X(cuEventRecord, "cuEventRecord", CUresult, (CUevent event, CUstream stream), true)                     \
  X(cuEventSynchronize, "cuEventSynchronize", CUresult, (CUevent event), true)                            \
  X(cuEventElapsedTime, "cuEventElapsedTime_v2", CUresult, (float* ms, CUevent start, CUevent end), false) \
  X(cuEventElapsedTimeV1, "cuEventElapsedTime", CUresult, (float* ms, CUevent start, CUevent end), false) \
  X(cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled", CUresult,                                           \
    (CUtensorMap * map, int dtype, unsigned rank, void* address, const uint64_t* dims,                    \
     const uint64_t* strides, const unsigned* box, const unsigned* element_strides, int interleave,       \
     int swizzle, int l2_promotion, int oob_fill),                                                        \
    false)

/// The loaded driver: one function pointer per symbol, null when absent.
struct Driver {
#define TG_CUDA_DRIVER_FIELD(name, symbol, ret, params, required) ret(*name) params = nullptr;
  TG_CUDA_DRIVER_SYMBOLS(TG_CUDA_DRIVER_FIELD)
#undef TG_CUDA_DRIVER_FIELD
  void* library = nullptr;
  int version = 0;  ///< cuDriverGetVersion, e.g. 13000
};

/// Load libcuda.so.1 (or $TEGULA_CUDA_DRIVER) and initialise it, once per process. Returns
/// null with `why` set when there is no usable driver; that is not an error for the plugin.
const Driver* load_driver(std::string* why);

/// "CUDA_ERROR_X: text" for a driver result.
std::string driver_error_text(const Driver& d, CUresult r);

}  // namespace tegula::cuda
