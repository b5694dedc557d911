/// \file
/// Erroneous kernels: a store past the end of its tensor and a load past the end of one,
/// judged not against the oracle (the reference model refuses them) but against what the
/// device declares it does with accesses outside a tensor (tg_out_of_range): a device that
/// declares them detected must fail the launch, one that declares them silent must drop the
/// stores and read zeros, leaving every guard region intact; devices that declare nothing,
/// or undefined behaviour, do not run them (OutOfRange.cpp).
#include <optional>
#include <string>
#include <vector>

#include "conformance/cases/Generator.h"

namespace tegula::conformance {

void add_out_of_range_cases(Generator& g) {
  auto add = [&](const std::string& name, const std::string& kernel, std::vector<TensorSpec> tensors,
                 std::optional<double> silent_value) {
    CaseSpec c;
    c.name = "tegula.out_of_range." + name;
    c.row = "out_of_range";
    c.kernel = kernel;
    c.symbols = {{"N", 40}};
    c.tensors = std::move(tensors);
    c.scalars.assign(c.tensors.size(), 0.0);
    c.out_of_range = true;
    c.silent_value = silent_value;
    c.unsupported = g.needs({DType::F32});
    g.add(std::move(c));
  };
  // Elements N .. N + 63 of Y: all past its end, inside the 4 KiB guard region after it.
  add("store",
      "kernel oob_store(X: f32[N], Y: f32[N]) grid(1) threads(64) {\n  parallel i in 64 {\n"
      "    store Y[i + N] = X[i % N] + 1.0\n  }\n}\n",
      {{Role::Input, Values::Lattice, 0}, {Role::Output, Values::Lattice, 0}}, std::nullopt);
  // Every Y[i] reads X[i + N], past X's end: a silent device reads 0, so Y is 2.
  add("load",
      "kernel oob_load(X: f32[N], Y: f32[N]) grid(1) threads(64) {\n  parallel i in 64 {\n"
      "    if i < N {\n      store Y[i] = X[i + N] + 2.0\n    }\n  }\n}\n",
      {{Role::Input, Values::Lattice, 0}, {Role::Output, Values::Lattice, 0}}, 2.0);
}

}  // namespace tegula::conformance
