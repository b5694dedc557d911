// The values HipApi.h declares (so the plugin builds without ROCm) are those of
// hip_runtime_api.h, where Debian's libamdhip64-dev installs it; elsewhere the test says so.
#include <doctest/doctest.h>

#include "plugins/hip/HipApi.h"

#if TG_HIP_HEADER
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>

#endif

namespace hip_types_match_header_test {

TEST_CASE("HipApi.h's constants are hip_runtime_api.h's") {
#if TG_HIP_HEADER
  using namespace tegula::hip;
  CHECK(kHipSuccess == hipSuccess);
  CHECK(kHipErrorOutOfMemory == hipErrorOutOfMemory);
  CHECK(kHipErrorNoDevice == hipErrorNoDevice);
  CHECK(kHipErrorInvalidDevice == hipErrorInvalidDevice);
  CHECK(kAttrComputeCapabilityMajor == hipDeviceAttributeComputeCapabilityMajor);
  CHECK(kAttrComputeCapabilityMinor == hipDeviceAttributeComputeCapabilityMinor);
  CHECK(kAttrMaxThreadsPerBlock == hipDeviceAttributeMaxThreadsPerBlock);
  CHECK(kAttrMultiprocessorCount == hipDeviceAttributeMultiprocessorCount);
  CHECK(kAttrMaxSharedMemoryPerBlock == hipDeviceAttributeMaxSharedMemoryPerBlock);
  CHECK(kAttrWarpSize == hipDeviceAttributeWarpSize);
  CHECK(kStreamNonBlocking == hipStreamNonBlocking);
  CHECK(kLaunchParamBufferPointer == HIP_LAUNCH_PARAM_BUFFER_POINTER);
  CHECK(kLaunchParamBufferSize == HIP_LAUNCH_PARAM_BUFFER_SIZE);
  CHECK(kLaunchParamEnd == HIP_LAUNCH_PARAM_END);
#else
  MESSAGE("skipped: hip/hip_runtime_api.h is not installed (libamdhip64-dev)");
#endif
}

}  // namespace hip_types_match_header_test
