// Events time work on a device; a device that cannot time says so.
#include <doctest/doctest.h>

#include "runtime/tests/TestSupport.h"

namespace events_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("timing a launch on the reference device") {
  auto rt = open_runtime({reference_manifest()});
  auto d = rt->find_device("reference");
  auto k = d->compile(axpb_ir());
  auto x = d->alloc(4096);
  auto y = d->alloc(4096);
  auto start = d->create_event();
  auto end = d->create_event();
  REQUIRE(start.is_ok());
  REQUIRE(end.is_ok());
  REQUIRE(start->record().is_ok());
  REQUIRE(k->launch({Arg::tensor(*x), Arg::tensor(*y), Arg::number(1), Arg::number(0), Arg::integer(1024)}).is_ok());
  REQUIRE(end->record().is_ok());
  REQUIRE(end->synchronize().is_ok());
  auto ms = Event::elapsed_ms(*start, *end);
  REQUIRE(ms.is_ok());
  CHECK(*ms >= 0.0);
}

TEST_CASE("misuse: unrecorded events, events of two devices, a device without timing") {
  auto rt = open_runtime({reference_manifest(), test_manifest("abi_newer")});
  auto ref = rt->find_device("reference");
  auto a = ref->create_event();
  auto b = ref->create_event();
  CHECK(Event::elapsed_ms(*a, *b).status().code() == ErrorCode::InvalidArgument);
  auto other = rt->find_device("abi_newer");
  auto c = other->create_event();
  REQUIRE(c.is_ok());
  CHECK(Event::elapsed_ms(*a, *c).status().message() == "tegula_event_elapsed_ms: the events are on different devices");
  auto d = other->create_event();
  REQUIRE(c->record().is_ok());
  REQUIRE(d->record().is_ok());
  CHECK(Event::elapsed_ms(*c, *d).status().code() == ErrorCode::Unimplemented);
}

}  // namespace events_test
