/// \file
/// Tunables: the schedule parameters a kernel leaves open (tile extents, thread counts,
/// stages, raster groups), each with its candidate values, and the conditions between them.
///
///   kernel gemm(A: bf16[M, K], B: bf16[K, N], C: bf16[M, N])
///       tune(BM in [64, 128, 256], BN in [64, 128, 256], BK in [32, 64], S in 2 .. 6)
///       where(BM * BN >= 8192, BN % BM == 0 || BM % BN == 0)
///       grid(ceildiv(N, BN), ceildiv(M, BM)) threads(256) { ... stages=S ... }
///
/// A tunable is a compile-time integer. A kernel is parsed as one *instance*: every tunable
/// bound to one of its candidates, each use of its name read as that integer literal (so a
/// name may stand wherever a literal may: alloc shapes, the thread count, attribute values,
/// expressions). Nothing after the parser ever sees a tunable, which is the point: the
/// verifier, every lowering pass and every backend work on constants, so a schedule can
/// never be half-symbolic and no backend has to handle an open tile size. Triton's constexpr
/// meta-parameters make the same choice. `lo .. hi` is half-open, as in loops.
///
/// The scheduler (ir/schedule/) enumerates the candidates that satisfy the `where`
/// conditions, drops those the verifier or lowering refuse (with the reason), and ranks the
/// rest from the target description.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/Status.h"
#include "ir/IR.h"

namespace tegula::ir {

struct Tunable {
  std::string name;
  std::vector<int64_t> values;  ///< distinct, positive, in the order written
  SourceLoc loc;
};

/// One value per tunable, in declaration order.
using Binding = std::vector<std::pair<std::string, int64_t>>;

struct TuneSpace {
  std::vector<Tunable> tunables;
  std::vector<Expr> conditions;  ///< `where` conditions over tunables and integer literals
  bool empty() const { return tunables.empty(); }
  /// The number of bindings before the conditions (saturates at INT64_MAX).
  int64_t size() const;
};

/// The tune space of a kernel's text: empty for a kernel without `tune(...)`. Errors are
/// located (a duplicate name, a value that is not a positive integer, a condition naming
/// something other than a tunable).
Result<TuneSpace> parse_tune_space(std::string_view text, const std::string& file = "<input>");

/// The value of a condition with the tunables of `b` in place of their names (integers;
/// comparisons and logic give 0 or 1); nullopt when it names something else or overflows.
std::optional<int64_t> eval_condition(const Expr& condition, const Binding& b);

/// Whether `b` satisfies every condition; when not, *why names the first one it breaks.
bool satisfies(const TuneSpace& space, const Binding& b, std::string* why = nullptr);

/// A binding that skips the conditions' check, with its reason.
struct RejectedBinding {
  Binding binding;
  std::string reason;
};

/// Every binding of the space, in declaration order (the last tunable varies fastest), that
/// satisfies the conditions; the others go to *rejected when it is given. Spaces larger than
/// `limit` bindings are an error rather than a silent truncation.
Result<std::vector<Binding>> enumerate_bindings(const TuneSpace& space, std::vector<RejectedBinding>* rejected = nullptr,
                                                int64_t limit = 100000);

/// "BM=128 BN=256" (declaration order).
std::string binding_text(const Binding& b);
/// Read "BM=128,BN=256" or "BM=128 BN=256" against `space`: every tunable exactly once, each
/// value one of its candidates.
Result<Binding> parse_binding(std::string_view text, const TuneSpace& space);
/// Check that `b` binds every tunable of `space` once, in order, to one of its candidates.
Status check_binding(const TuneSpace& space, const Binding& b);

}  // namespace tegula::ir
