// Misuse of buffers: ranges outside the buffer (including offsets that overflow), bad fill
// patterns and NULL arguments are errors before anything reaches a plugin.
#include <doctest/doctest.h>

#include <cstdint>

#include "runtime/tests/TestSupport.h"

namespace buffer_misuse_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("out-of-range transfers") {
  auto rt = open_runtime({reference_manifest()});
  auto d = rt->find_device("reference");
  auto b = d->alloc(16);
  auto other = d->alloc(16);
  REQUIRE(b.is_ok());
  uint8_t data[32] = {0};
  Status st = b->write(data, 17);
  CHECK(st.code() == ErrorCode::OutOfRange);
  CHECK(st.message() == "tegula_buffer_write: range [0, +17) is outside a buffer of 16 bytes");
  CHECK(b->write(data, 8, 9).code() == ErrorCode::OutOfRange);
  CHECK(b->read(data, 2, UINT64_MAX).code() == ErrorCode::OutOfRange);
  CHECK(b->copy_from(*other, 8, 12, 0).code() == ErrorCode::OutOfRange);
  CHECK(b->copy_from(*other, 8, 0, 12).code() == ErrorCode::OutOfRange);
  CHECK(b->fill<uint32_t>(0, 12, 8).code() == ErrorCode::OutOfRange);
}

TEST_CASE("bad fill patterns") {
  auto rt = open_runtime({reference_manifest()});
  auto b = rt->find_device("reference")->alloc(16);
  uint8_t pattern[8] = {0};
  tegula_error* e = tegula_buffer_fill(b->handle(), 0, 16, pattern, 3);
  CHECK(std::string(tegula_error_message(e)) == "tegula_buffer_fill: pattern_size must be 1, 2, 4 or 8, given 3");
  tegula_error_free(e);
  e = tegula_buffer_fill(b->handle(), 0, 6, pattern, 4);
  CHECK(std::string(tegula_error_message(e)) == "tegula_buffer_fill: size 6 is not a multiple of the pattern size 4");
  tegula_error_free(e);
}

TEST_CASE("NULL arguments") {
  auto rt = open_runtime({reference_manifest()});
  tegula_device* d = tegula_device_get(rt->handle(), 0);
  tegula_error* e = tegula_buffer_alloc(d, 8, nullptr);
  CHECK(tegula_error_get_code(e) == TEGULA_ERROR_INVALID_ARGUMENT);
  tegula_error_free(e);
  e = tegula_buffer_write(nullptr, 0, "x", 1);
  CHECK(tegula_error_get_code(e) == TEGULA_ERROR_INVALID_ARGUMENT);
  tegula_error_free(e);
  tegula_buffer* b = nullptr;
  REQUIRE(tegula_buffer_alloc(d, 8, &b) == nullptr);
  e = tegula_buffer_read(b, 0, nullptr, 4);
  CHECK(tegula_error_get_code(e) == TEGULA_ERROR_INVALID_ARGUMENT);
  tegula_error_free(e);
  tegula_buffer_free(b);
  tegula_buffer_free(nullptr);
}

TEST_CASE("an allocation the device cannot satisfy is an out-of-memory error") {
  auto rt = open_runtime({reference_manifest()});
  auto b = rt->find_device("reference")->alloc(UINT64_MAX / 4);
  CHECK(b.status().code() == ErrorCode::OutOfMemory);
  CHECK(b.status().message().find("TG_ERR_OUT_OF_MEMORY") != std::string::npos);
  // Through the C API: its own code, named.
  tegula_device* d = tegula_device_get(rt->handle(), 0);
  tegula_buffer* huge = nullptr;
  tegula_error* e = tegula_buffer_alloc(d, UINT64_MAX / 4, &huge);
  CHECK(tegula_error_get_code(e) == TEGULA_ERROR_OUT_OF_MEMORY);
  CHECK(huge == nullptr);
  CHECK(std::string(tegula_error_code_name(tegula_error_get_code(e))) == "out of memory");
  tegula_error_free(e);
}

}  // namespace buffer_misuse_test
