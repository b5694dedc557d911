// Launch by name: arguments in any order, each exactly once, through both APIs; so the
// shape symbols' order (M, K, N) is no trap. Unknown, repeated and missing names are errors.
#include <doctest/doctest.h>

#include "core/Files.h"
#include "runtime/tests/TestSupport.h"

namespace kernel_launch_named_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("named arguments in any order compute what the positional launch does") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  REQUIRE(d.is_ok());
  auto k = d->compile(axpb_ir());
  REQUIRE(k.is_ok());
  const int n = 100;
  std::vector<float> xs(n);
  for (int i = 0; i < n; ++i) xs[size_t(i)] = float(i);
  auto x = d->alloc(n * 4);
  auto y = d->alloc(n * 4);
  REQUIRE(x.is_ok());
  REQUIRE(y.is_ok());
  REQUIRE(x->write(xs).is_ok());
  Status st = k->launch({{"N", Arg::integer(n)}, {"b", Arg::number(1)}, {"Y", Arg::tensor(*y)},
                         {"a", Arg::number(3)}, {"X", Arg::tensor(*x)}});
  REQUIRE_MESSAGE(st.is_ok(), st.str());
  auto out = y->read<float>(n);
  REQUIRE(out.is_ok());
  for (int i = 0; i < n; ++i) CHECK((*out)[size_t(i)] == 3.0f * float(i) + 1);

  // The C call.
  tegula_named_arg args[] = {{"a", tegula_arg_float(-1)}, {"b", tegula_arg_float(0)}, {"N", tegula_arg_int(n)},
                             {"X", tegula_arg_tensor(x->handle(), 0)}, {"Y", tegula_arg_tensor(y->handle(), 0)}};
  REQUIRE(tegula_launch_named(k->handle(), args, 5) == nullptr);
  out = y->read<float>(n);
  REQUIRE(out.is_ok());
  CHECK((*out)[7] == -7.0f);
}

TEST_CASE("misuse: unknown, repeated and missing names; the usual launch checks still apply") {
  auto rt = open_runtime({reference_manifest()});
  REQUIRE(rt.is_ok());
  auto d = rt->find_device("reference");
  auto k = d->compile(axpb_ir());
  REQUIRE(k.is_ok());
  auto x = d->alloc(64);
  REQUIRE(x.is_ok());
  Status st = k->launch({{"X", Arg::tensor(*x)}, {"Q", Arg::integer(1)}});
  CHECK(st.code() == ErrorCode::InvalidArgument);
  CHECK(st.message() == "tegula_launch_named: kernel 'axpb' has no argument 'Q' (its arguments: X, Y, a, b, N)");
  st = k->launch({{"X", Arg::tensor(*x)}, {"X", Arg::tensor(*x)}});
  CHECK(st.message() == "tegula_launch_named: argument 'X' given twice");
  st = k->launch({{"X", Arg::tensor(*x)}, {"Y", Arg::tensor(*x)}, {"a", Arg::number(1)}});
  CHECK(st.message() == "tegula_launch_named: kernel 'axpb' needs b, N too");
  // All named, but N too large for the buffers: the positional launch's check.
  st = k->launch({{"X", Arg::tensor(*x)}, {"Y", Arg::tensor(*x)}, {"a", Arg::number(1)}, {"b", Arg::number(1)},
                  {"N", Arg::integer(1000)}});
  CHECK(st.code() == ErrorCode::OutOfRange);
  CHECK(st.message().find("argument 0 (X): the tensor needs 4000 bytes") != std::string::npos);
  tegula_named_arg nameless[] = {{nullptr, tegula_arg_int(1)}};
  CHECK(status_from(tegula_launch_named(k->handle(), nameless, 1)).message().find("has no argument ''") !=
        std::string::npos);
  CHECK(status_from(tegula_launch_named(nullptr, nameless, 1)).code() == ErrorCode::InvalidArgument);
  CHECK(status_from(tegula_launch_named(k->handle(), nullptr, 1)).message() == "tegula_launch_named: args is NULL");
}

}  // namespace kernel_launch_named_test
