/// \file
/// The values cases run on, and the byte patterns that detect what a kernel must not touch.
///
/// Exact lattices make results independent of summation order, so they must match bit for
/// bit (the Vulkan CTS cooperative-matrix lattice ((r & 15) - 4) / 2, or a smaller set where
/// the dtype cannot hold it); random values exercise realistic magnitudes under the
/// tolerance table; special values (inf, NaN, max normal, subnormals, -0, rounding ties and
/// the boundaries of every other dtype) exercise conversions and elementwise functions.
///
/// Poison fills outputs before each run. For float dtypes it is a signalling NaN with a
/// payload no computation produces (stores give the canonical quiet NaN); for the rest a
/// value the comparison treats as "must stay untouched" wherever the reference leaves it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/Case.h"
#include "core/DType.h"

namespace tegula::conformance {

/// `count` elements of dtype `dtype`, encoded. `phase` decorrelates the special values of
/// several tensors of one case, so binary ops meet every pair of specials.
std::vector<uint8_t> make_values(DType dtype, Values values, int64_t count, uint64_t seed, int phase,
                                 int64_t index_limit = 0);

/// The special values of a dtype, as float64 before rounding to it.
std::vector<double> special_values(DType dtype);

/// Where the reference's result is a NaN, an output starts at this finite value instead of
/// the NaN poison (Oracle.cpp), so an element the device leaves unwritten cannot pass as NaN.
/// Exact in every float dtype, e4m3 and e5m2 included.
inline constexpr double kNanResultSentinel = -0.75;

/// One element of poison, dtype_size(dtype) bytes.
std::vector<uint8_t> poison_element(DType dtype);
std::vector<uint8_t> poison(DType dtype, int64_t count);

/// The guard bytes around every device buffer, repeating.
inline constexpr uint8_t kCanary[8] = {0xc3, 0x5a, 0x96, 0x3c, 0xe1, 0x1e, 0x87, 0x78};
inline constexpr uint64_t kGuardBytes = 4096;

/// The smallest positive normal and subnormal of a float dtype.
double min_normal(DType dtype);
double min_subnormal(DType dtype);

/// A 64-bit seed for one case and tensor from the run's seed and the case name.
uint64_t case_seed(uint64_t run_seed, const std::string& case_name, int tensor);

}  // namespace tegula::conformance
