// ABI negotiation: a plugin older than the host is refused with a clear reason (by its
// manifest before dlopen, or by the library itself); a newer one that also speaks the
// host's version is negotiated down and works, its larger table accepted.
#include <doctest/doctest.h>

#include <cstdint>

#include "runtime/tests/TestSupport.h"

namespace abi_negotiation_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("an ABI-0-only plugin is refused before loading, by its manifest") {
  CapturedLog log;
  auto rt = open_runtime({test_manifest("abi_older"), reference_manifest()}, &log);
  REQUIRE(rt.is_ok());
  CHECK(skip_reason(*rt, "abi_older") == "the manifest says the library speaks ABI 0..0, the host speaks 1..1; not loaded");
  CHECK(log.contains("refusing plugin 'abi_older'"));
  CHECK(device_names(*rt) == std::vector<std::string>{"reference:0"});
}

TEST_CASE("an ABI-0-only plugin whose manifest overstates its range refuses the host's offer") {
  std::string dir = scratch_dir("abi_older_lies");
  write_manifest(dir, "abi_older", plugin_library("abi_older"), "", 0, 1);
  auto rt = open_runtime({dir, reference_manifest()});
  REQUIRE(rt.is_ok());
  CHECK(skip_reason(*rt, "abi_older") ==
        "the plugin refused the host's ABI versions 1..1: this plugin speaks only tegula plugin ABI 0");
  CHECK(device_names(*rt) == std::vector<std::string>{"reference:0"});
}

TEST_CASE("an ABI 1..2 plugin is negotiated down to 1 and works") {
  CapturedLog log;
  auto rt = open_runtime({test_manifest("abi_newer")}, &log);
  REQUIRE(rt.is_ok());
  REQUIRE(device_names(*rt) == std::vector<std::string>{"abi_newer:0"});
  tegula_plugin_info info;
  info.struct_size = sizeof(info);
  REQUIRE(tegula_runtime_get_plugin(rt->handle(), 0, &info) == nullptr);
  CHECK(info.abi_version == 1);
  CHECK(log.contains("plugin 'abi_newer': negotiated ABI 1 (table of " + std::to_string(sizeof(tg_plugin_api) + 8)));
  // Its log line reached the runtime's log through the host callback.
  CHECK(log.contains("plugin abi_newer: hello from abi_newer"));

  auto device = rt->find_device("abi_newer");
  REQUIRE(device.is_ok());
  auto buffer = device->alloc(16);
  REQUIRE(buffer.is_ok());
  std::vector<uint32_t> in = {1, 2, 3, 4};
  REQUIRE(buffer->write(in).is_ok());
  auto out = buffer->read<uint32_t>(4);
  REQUIRE(out.is_ok());
  CHECK(*out == in);
}

TEST_CASE("a table that ends before the optional trailing entries loads; those count as absent") {
  auto rt = open_runtime({test_manifest("short_table")});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("short_table");
  REQUIRE(d.is_ok());
  auto a = d->create_event();
  auto b = d->create_event();
  REQUIRE(a->record().is_ok());
  REQUIRE(b->record().is_ok());
  // The entry past struct_size aborts if called: the host must report "unimplemented".
  CHECK(Event::elapsed_ms(*a, *b).status().code() == ErrorCode::Unimplemented);
}

}  // namespace abi_negotiation_test
