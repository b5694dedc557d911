/// \file
/// Helpers for the C API's struct_size convention: a caller's struct may be older (smaller)
/// or newer (larger) than this library's.
#pragma once

#include <algorithm>
#include <cstring>

#include "runtime/include/tegula/tegula.h"

namespace tegula::runtime {

/// The error returned when memory for an error (or anything else) ran out; static, so
/// tegula_error_free leaves it alone.
tegula_error* out_of_memory_error();

/// Run a C entry point's body. Nothing in tegula throws, but the standard library may
/// (std::bad_alloc); that must not unwind into C code.
template <typename F>
tegula_error* c_guard(F&& body) noexcept {
  try {
    return body();
  } catch (...) {
    return out_of_memory_error();
  }
}

/// Copy the caller's input struct into a zeroed full-size one: fields the caller's version
/// lacks stay zero (their defaults).
template <typename T>
T read_input_struct(const T* in) {
  T out;
  std::memset(&out, 0, sizeof(out));
  if (in) std::memcpy(&out, in, std::min(in->struct_size, sizeof(T)));
  out.struct_size = sizeof(T);
  return out;
}

/// Write `value` into the caller's output struct, no further than its struct_size.
template <typename T>
void write_output_struct(T* out, const T& value) {
  size_t n = std::min(out->struct_size, sizeof(T));
  std::memcpy(out, &value, n);
  out->struct_size = n;
}

}  // namespace tegula::runtime
