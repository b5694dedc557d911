/// \file
/// What a GPU's data sheet says it reaches, for the devices Vulkan names: Vulkan reports no
/// clock, no memory bandwidth and no matrix rates, so the description of a device this table
/// knows (by PCI vendor and a prefix of its name) declares these, and the performance
/// section of `tegula conformance --perf` measures the device against them (targets/Peak.h).
/// A device the table does not know declares nothing, and its figures have no percentage.
/// The facts are those of the CUDA descriptions for the same chips (targets/descriptions/):
/// one chip is described the same whichever API reaches it.
#pragma once

#include <cstdint>
#include <string>

namespace tegula::vulkan {

struct DataSheetPeak {
  uint32_t vendor_id;
  const char* name_prefix;  ///< VkPhysicalDeviceProperties::deviceName starts with it
  double memory_gbps;
  double clock_mhz;          ///< the clock the dense matrix peaks assume
  int64_t subgroups_per_cu;  ///< schedulers per SM
  int64_t fma_lanes_per_cu;  ///< f32 FMAs per SM per clock
  double f16_tflops;         ///< dense f16/bf16 tensor-core peak
};

inline constexpr DataSheetPeak kDataSheetPeaks[] = {
    // sm_90a.json's facts: H200 SXM (4.8 TB/s HBM3e), H100 SXM (3.35 TB/s HBM3).
    {0x10DE, "NVIDIA H200", 4800, 1830, 4, 128, 989},
    {0x10DE, "NVIDIA H100 80GB HBM3", 3350, 1830, 4, 128, 989},
    // sm_80.json's facts: A100 SXM 80 GB.
    {0x10DE, "NVIDIA A100-SXM4-80GB", 2039, 1410, 4, 64, 312},
};

/// The table's entry for a device, or null.
inline const DataSheetPeak* data_sheet_peak(uint32_t vendor_id, const std::string& name) {
  for (const DataSheetPeak& p : kDataSheetPeaks)
    if (p.vendor_id == vendor_id && name.rfind(p.name_prefix, 0) == 0) return &p;
  return nullptr;
}

}  // namespace tegula::vulkan
