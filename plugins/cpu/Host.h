/// \file
/// What the CPU plugin knows about the machine it runs on: the CPU LLVM should generate code
/// for (name and feature flags), the brand string for humans, the core count for the thread
/// pool, and the vector width the code generator targets. The same facts become the device's
/// target description (tegula.target.v1 JSON), so lowering sees the real CPU.
#pragma once

#include <cstdint>
#include <string>

namespace tegula::cpu {

struct HostCpu {
  std::string brand;     ///< "Intel(R) Xeon(R) ..." from /proc/cpuinfo, or the LLVM name
  std::string vendor;    ///< "GenuineIntel", "AuthenticAMD", ... or "unknown"
  std::string triple;    ///< the LLVM target triple of the process
  std::string cpu_name;  ///< llvm::sys::getHostCPUName(), e.g. "sapphirerapids"
  std::string features;  ///< every LLVM feature flag, sorted: "+avx,+avx2,-avx512fp16,..."
  uint32_t cores = 1;    ///< usable cores (the affinity mask)
  uint64_t memory_bytes = 0;
  uint64_t l2_bytes = 0;      ///< per core, 0 if unknown
  uint32_t vector_bytes = 16; ///< 64 with AVX-512F, 32 with AVX2, else 16
  bool avx2 = false;
  bool fma = false;
  bool avx512 = false;        ///< AVX-512 F+BW+DQ+VL
  /// The clock the description's peaks assume (MHz; 0 when unknown) and where it came from:
  /// cpufreq's cpuinfo_max_freq, the brand string's "@ 2.20GHz", or, under a hypervisor
  /// without cpufreq, /proc/cpuinfo's "cpu MHz" (the constant nominal clock there). Never a
  /// clock that moves from run to run: it is part of the description, hence of cache keys.
  uint32_t clock_mhz = 0;
  std::string clock_source;

  /// Object code compiled for one HostCpu runs on another when this string is equal.
  std::string identity() const { return triple + "|" + cpu_name + "|" + features; }
  /// f32 lanes of one vector register.
  uint32_t f32_lanes() const { return vector_bytes / 4; }
  /// f32 FMAs a core completes per clock: two FMA pipes of f32_lanes (every x86 core with FMA3
  /// since Haswell and Zen 2; a part with one AVX-512 FMA unit reaches half and shows it).
  uint32_t fma_lanes() const { return fma ? 2 * f32_lanes() : f32_lanes(); }
};

/// Detect the host (reads /proc and asks LLVM; never fails: missing facts get defaults).
HostCpu detect_host();

/// The device's target description, named "host_cpu" like the built-in one but with the
/// detected vector width, cores, cache and features.
std::string host_target_json(const HostCpu& host);

}  // namespace tegula::cpu
