// The C++ layer compiles an ir::Kernel built with ir::KernelBuilder, not only IR text.
#include <doctest/doctest.h>

#include "ir/Builder.h"
#include "runtime/tests/TestSupport.h"

namespace kernel_builder_test {

using namespace tegula;
using namespace tegula::testing;

TEST_CASE("a KernelBuilder kernel runs on the reference device") {
  ir::KernelBuilder b("scale");
  ir::Expr n = b.sym("N");
  ir::BufferRef x = b.tensor("X", DType::F32, {n});
  ir::BufferRef y = b.tensor("Y", DType::F32, {n});
  ir::Expr s = b.scalar("s", DType::F32);
  b.grid({ir::ceildiv(n, 32)});
  b.threads(32);
  ir::BufferRef t = b.alloc("t", ir::Scope::Fragment, DType::F32, {32});
  ir::Expr base = b.block_index(0) * 32;
  b.copy(x.at({base}), t);
  b.map(t, t.tile() * s);
  b.copy(t, y.at({base}));
  auto kernel = b.build();
  REQUIRE(kernel.is_ok());

  auto rt = open_runtime({reference_manifest()});
  auto d = rt->find_device("reference");
  auto k = d->compile(*kernel);
  REQUIRE(k.is_ok());
  std::vector<float> in = {1, 2, 3, 4, 5};
  auto bx = d->alloc(20);
  auto by = d->alloc(20);
  REQUIRE(bx->write(in).is_ok());
  REQUIRE(k->launch({Arg::tensor(*bx), Arg::tensor(*by), Arg::number(0.5), Arg::integer(5)}).is_ok());
  CHECK(by->read<float>(5).value() == std::vector<float>{0.5f, 1.0f, 1.5f, 2.0f, 2.5f});
}

}  // namespace kernel_builder_test
