// The public C API, used from a C11 translation unit (c_api_c11.c), runs a kernel end to end.
#include <doctest/doctest.h>

#include <cstring>

#include "runtime/tests/TestSupport.h"

namespace c_api_test {

extern "C" const char* c_api_c11_run(const char* reference_manifest);

TEST_CASE("the C API from C11") {
  std::string manifest = tegula::testing::reference_manifest();
  const char* failure = c_api_c11_run(manifest.c_str());
  CHECK(failure == nullptr);
  if (failure) MESSAGE(failure);
}

TEST_CASE("error helpers accept NULL") {
  CHECK(tegula_error_get_code(nullptr) == TEGULA_OK);
  CHECK(std::string(tegula_error_message(nullptr)) == "");
  CHECK(std::string(tegula_error_code_name(TEGULA_ERROR_NOT_FOUND)) == "not found");
  CHECK(std::string(tegula_error_code_name(tegula_error_code(99))) == "unknown error");
  CHECK(std::string(tegula_version()) == "0.1.0");
}

TEST_CASE("options with an unset struct_size are refused") {
  tegula_runtime_options o;
  std::memset(&o, 0, sizeof(o));
  tegula_runtime* rt = nullptr;
  tegula_error* e = tegula_runtime_open(&o, &rt);
  CHECK(tegula_error_get_code(e) == TEGULA_ERROR_INVALID_ARGUMENT);
  tegula_error_free(e);
  CHECK(rt == nullptr);
}

}  // namespace c_api_test
