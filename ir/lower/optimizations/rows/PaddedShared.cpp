// Row: padded shared layouts (one more 16-byte piece per row against bank conflicts).
#include "ir/lower/optimizations/Detect.h"
#include "ir/lower/optimizations/Optimizations.h"

namespace tegula::ir::optimizations {
namespace {

std::string not_applicable(const TargetDescription& t) {
  return t.shared_memory_banks ? "" : "the description declares no shared_memory_banks to avoid conflicts in";
}

Evidence detect(const LowerResult& r) {
  const Stmt* a =
      find_stmt(r.kernel, [](const Stmt& s) { return s.op == OpKind::Alloc && find_attr(s.attrs, "layout.pad"); });
  if (!a) return {false, absent(r, "no shared buffer has layout.pad", "shared 'T'")};
  return {true, marker(*a, "layout.pad") + " on '" + a->name + "'"};
}

}  // namespace

// Rows of 256 bytes are a multiple of the bank span (32 x 4 bytes on NVIDIA, 64 x 4 on gfx950):
// every row starts in bank 0.
const Optimization& padded_shared() {
  static const Optimization row = {"padded_shared",
                                   "padded shared layouts",
                                   "Shared tiles whose rows would all start in the same bank (or gemm register "
                                   "operands loaded 8 rows at once) get each "
                                   "row padded by 16 bytes, so column-wise accesses spread over the banks.",
                                   R"(kernel padded_shared(X: f32[64, 64], Y: f32[64, 64]) grid(1) threads(128) {
  alloc T: shared f32[64, 64]
  copy X, T
  copy T, Y
}
)",
                                   not_applicable,
                                   nullptr,
                                   detect};
  return row;
}

}  // namespace tegula::ir::optimizations
