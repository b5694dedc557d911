/// \file
/// NumPy .npy files (format versions 1.0 to 3.0): the header dictionary ('descr',
/// 'fortran_order', 'shape') and the raw data after it. Only what tegula's dtypes can hold
/// is accepted: little-endian (or byte-sized) bool, int8, uint8, int32, float16, float32 and
/// float64, in C order. Every malformed header is an error naming the file and what is
/// wrong; nothing is guessed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/DType.h"
#include "core/Status.h"

namespace tegula {

struct NpyArray {
  std::string descr;            ///< "<f4", "|u1", ...
  std::vector<int64_t> shape;   ///< () is a scalar: one element
  std::string data;             ///< the element bytes, C order

  int64_t numel() const;
};

/// Parse the bytes of a .npy file; `name` (the file) prefixes every error.
Result<NpyArray> parse_npy(const std::string& bytes, const std::string& name);
/// The bytes of a version 1.0 .npy file (header padded to 64 bytes, as NumPy writes it).
std::string format_npy(const std::string& descr, const std::vector<int64_t>& shape, const std::string& data);

/// The descr NumPy uses for `t` ("<f4"), or nullopt for dtypes NumPy lacks (bf16, tf32, the
/// FP8 formats).
std::optional<std::string> npy_descr(DType t);

}  // namespace tegula
