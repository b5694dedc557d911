/// \file
/// Checked integer folding and the bound on expression height. Every integer operation of
/// the IR on known values (constants in the verifier, symbols at launch) goes through
/// fold_int_binary, so nothing is ever computed from a wrapped value or trapped on
/// (INT64_MIN / -1 raises SIGFPE on x86).
#pragma once

#include <cstdint>
#include <optional>

#include "ir/IR.h"

namespace tegula::ir {

/// `a op b` on 64-bit integers with the IR's floor semantics; nullopt for a division by zero
/// or a result that does not fit (never a wrapped value).
std::optional<int64_t> fold_int_binary(BinaryOp op, int64_t a, int64_t b);
std::optional<int64_t> fold_int_neg(int64_t a);
/// True when `e` is an integer operation on constants whose result does not fit in 64 bits.
bool int_fold_overflows(const Expr& e);

/// The height of the tree `e` (a leaf is 1), counted at most to `cap + 1`: the recursion
/// stops at `cap`, so it is safe on trees of any depth.
int expr_height(const Expr& e, int cap);
/// The highest expression tree the parser and verifier accept. Every other walker (printer,
/// interpreter, lowering, code generators) recurses over verified trees, so this bound is
/// what keeps them inside the stack.
inline constexpr int kMaxExprHeight = 512;

}  // namespace tegula::ir
