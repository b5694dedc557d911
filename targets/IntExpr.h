/// \file
/// Integer expressions over named symbols ("N/8", "64*N", "2*(K+1)"). Target descriptions
/// use them inside layout shapes and strides so that one catalogue entry with a range of N
/// (wgmma m64nNk16) carries a single layout that is valid for every N.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.h"

namespace tegula {

/// Values bound to the symbols of an expression, e.g. {{"M", 64}, {"N", 128}, {"K", 16}}.
using Symbols = std::map<std::string, int64_t, std::less<>>;

class IntExpr {
public:
  enum class Op : uint8_t { Const, Symbol, Add, Sub, Mul, Div, Mod };

  IntExpr() = default;  // the constant 0
  static IntExpr constant(int64_t value);
  static IntExpr symbol(std::string name);
  static IntExpr binary(Op op, IntExpr lhs, IntExpr rhs);

  Op op() const { return op_; }
  int64_t value() const { return value_; }            ///< Const only
  const std::string& name() const { return name_; }   ///< Symbol only
  const std::vector<IntExpr>& args() const { return args_; }  ///< binary ops: {lhs, rhs}

  /// The value under `symbols`. Fails on an unbound symbol, on overflow, on division or
  /// remainder by zero, and on a division that is not exact: a shape like N/8 with N=12
  /// is a mistake in the description, never something to round away.
  Result<int64_t> eval(const Symbols& symbols) const;

  /// Text with the fewest parentheses that parses back to the same tree.
  std::string to_string() const;

  /// Append the names of the symbols used (with repetitions).
  void collect_symbols(std::vector<std::string>& out) const;

  bool operator==(const IntExpr& other) const = default;

private:
  Op op_ = Op::Const;
  int64_t value_ = 0;
  std::string name_;
  std::vector<IntExpr> args_;
};

}  // namespace tegula
