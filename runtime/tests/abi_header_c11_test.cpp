// The plugin ABI header is plain C11, and a C compiler lays its structs out as C++ does.
#include <doctest/doctest.h>

#include <cstddef>

#include "plugins/abi/tegula_plugin.h"

namespace abi_header_c11_test {

extern "C" {
size_t abi_c11_sizeof_plugin_api(void);
size_t abi_c11_offsetof_event_elapsed_ms(void);
size_t abi_c11_sizeof_launch_arg(void);
size_t abi_c11_offsetof_launch_arg_f64(void);
size_t abi_c11_sizeof_device_properties(void);
size_t abi_c11_sizeof_launch_params(void);
size_t abi_c11_entry_count(void);
const tg_plugin_api* abi_c11_partial_table(void);
}

TEST_CASE("C and C++ agree on the ABI layout") {
  CHECK(abi_c11_sizeof_plugin_api() == sizeof(tg_plugin_api));
  CHECK(abi_c11_offsetof_event_elapsed_ms() == offsetof(tg_plugin_api, event_elapsed_ms));
  CHECK(abi_c11_sizeof_launch_arg() == sizeof(tg_launch_arg));
  CHECK(abi_c11_offsetof_launch_arg_f64() == offsetof(tg_launch_arg, f64));
  CHECK(abi_c11_sizeof_device_properties() == sizeof(tg_device_properties));
  CHECK(abi_c11_sizeof_launch_params() == sizeof(tg_launch_params));
  CHECK(abi_c11_entry_count() == 32);
  const tg_plugin_api* api = abi_c11_partial_table();
  CHECK(api->abi_version == TG_ABI_VERSION_1);
  CHECK((api->get_info != nullptr));
  CHECK((api->init == nullptr));
}

}  // namespace abi_header_c11_test
