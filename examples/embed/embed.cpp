// Embedding tegula from C++: open the runtime, find the reference device, build a kernel
// with ir::KernelBuilder (Y = X * s + 1, row by row), run it and check the result.
#include <cstdio>
#include <vector>

#include "ir/Builder.h"
#include "tegula/tegula.hpp"

using namespace tegula;

static int fail(const char* what, const Status& st) {
  std::fprintf(stderr, "embed: %s: %s\n", what, st.message().c_str());
  return 1;
}

static Result<ir::Kernel> build_kernel() {
  ir::KernelBuilder b("scale_add");
  ir::Expr n = b.sym("N");
  ir::BufferRef x = b.tensor("X", DType::F32, {n});
  ir::BufferRef y = b.tensor("Y", DType::F32, {n});
  ir::Expr s = b.scalar("s", DType::F32);
  b.grid({ir::ceildiv(n, 128)});
  b.threads(128);
  ir::BufferRef t = b.alloc("t", ir::Scope::Fragment, DType::F32, {128});
  ir::Expr base = b.block_index(0) * 128;
  b.copy(x.at({base}), t);
  b.map(t, t.tile() * s + 1.0);
  b.copy(t, y.at({base}));
  return b.build();
}

int main() {
  auto rt = Runtime::open();
  if (!rt.is_ok()) return fail("open", rt.status());
  auto device = rt->find_device("reference");
  if (!device.is_ok()) return fail("find_device", device.status());

  auto ir_kernel = build_kernel();
  if (!ir_kernel.is_ok()) return fail("build", ir_kernel.status());
  auto kernel = device->compile(*ir_kernel);
  if (!kernel.is_ok()) return fail("compile", kernel.status());

  const int n = 1000;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = float(i) * 0.25f;
  auto bx = device->alloc(n * sizeof(float));
  auto by = device->alloc(n * sizeof(float));
  if (!bx.is_ok() || !by.is_ok()) return fail("alloc", bx.is_ok() ? by.status() : bx.status());
  if (Status st = bx->write(x); !st.is_ok()) return fail("write", st);
  Status st = kernel->launch({Arg::tensor(*bx), Arg::tensor(*by), Arg::number(3.0), Arg::integer(n)});
  if (!st.is_ok()) return fail("launch", st);
  if (Status sync = device->synchronize(); !sync.is_ok()) return fail("synchronize", sync);
  auto y = by->read<float>(n);
  if (!y.is_ok()) return fail("read", y.status());
  for (int i = 0; i < n; ++i) {
    float want = x[i] * 3.0f + 1.0f;
    if ((*y)[i] != want) {
      std::fprintf(stderr, "embed: Y[%d] = %g, expected %g\n", i, (*y)[i], want);
      return 1;
    }
  }
  auto info = device->info();
  std::printf("embed: ok (%s on %s, %d elements)\n", kernel->name().c_str(), info->name.c_str(), n);
  return 0;
}
