// The driver types and constants the plugin declares itself (DriverApi.h, so that it builds
// without the toolkit) are the ones in cuda.h, where the toolkit is installed.
#include <doctest/doctest.h>

#include "plugins/cuda/DriverApi.h"

#if __has_include(<cuda.h>)
#include <cuda.h>

#define TG_HAVE_CUDA_H 1
#endif

namespace driver_types_match_cuda_h_test {

TEST_CASE("DriverApi.h agrees with cuda.h") {
#ifdef TG_HAVE_CUDA_H
  using namespace tegula::cuda;
  static_assert(kCudaErrorNoDevice == CUDA_ERROR_NO_DEVICE);
  static_assert(kCudaErrorNotInitialized == CUDA_ERROR_NOT_INITIALIZED);
  static_assert(kAttrMaxThreadsPerBlock == CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  static_assert(kAttrMultiprocessorCount == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  static_assert(kAttrL2CacheSize == CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  static_assert(kAttrComputeCapabilityMajor == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  static_assert(kAttrComputeCapabilityMinor == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  static_assert(kAttrMaxSharedMemoryPerBlockOptin == CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  static_assert(kFuncAttrNumRegs == CU_FUNC_ATTRIBUTE_NUM_REGS);
  static_assert(kFuncAttrLocalSizeBytes == CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  static_assert(kFuncAttrMaxDynamicSharedSizeBytes == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
  static_assert(kStreamNonBlocking == CU_STREAM_NON_BLOCKING);
  static_assert(kEventDefault == CU_EVENT_DEFAULT);
  static_assert(kTensorMapUint8 == CU_TENSOR_MAP_DATA_TYPE_UINT8);
  static_assert(kTensorMapUint16 == CU_TENSOR_MAP_DATA_TYPE_UINT16);
  static_assert(kTensorMapUint32 == CU_TENSOR_MAP_DATA_TYPE_UINT32);
  static_assert(kTensorMapUint64 == CU_TENSOR_MAP_DATA_TYPE_UINT64);
  static_assert(kTensorMapFloat16 == CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  static_assert(kTensorMapFloat32 == CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  static_assert(kTensorMapFloat64 == CU_TENSOR_MAP_DATA_TYPE_FLOAT64);
  static_assert(9 == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  static_assert(kTensorMapInterleaveNone == CU_TENSOR_MAP_INTERLEAVE_NONE);
  static_assert(kTensorMapSwizzleNone == CU_TENSOR_MAP_SWIZZLE_NONE && 1 == CU_TENSOR_MAP_SWIZZLE_32B && 2 == CU_TENSOR_MAP_SWIZZLE_64B &&
                3 == CU_TENSOR_MAP_SWIZZLE_128B);
  static_assert(kTensorMapL2Promotion128B == CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
  static_assert(kTensorMapOobFillNone == CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  static_assert(kTensorMapOobFillNan == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
  static_assert(sizeof(tegula::cuda::CUtensorMap) == sizeof(::CUtensorMap) && alignof(tegula::cuda::CUtensorMap) >= 64);
  static_assert(sizeof(tegula::cuda::CUlaunchConfig) == sizeof(::CUlaunchConfig));
  CHECK(true);
#else
  MESSAGE("skipped: cuda.h is not installed here");
#endif
}

}  // namespace driver_types_match_cuda_h_test
