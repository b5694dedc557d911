/// \file
/// The parsed form of a spec statement (ir/spec/Spec.h): an output reference, `=` or `+=`,
/// and an expression of tensor references, numbers, scalars, `+ - * /`, calls and casts.
/// Every node keeps its column in the spec string so that errors can point at it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/Status.h"

namespace tegula::ir::spec {

struct Expr {
  enum class Kind { Ref, Number, Name, Neg, Binary, Call, Cast };
  Kind kind = Kind::Number;
  std::string name;                  ///< Ref: tensor; Name: scalar or index; Call: function; Cast: dtype
  std::vector<std::string> indices;  ///< Ref
  std::vector<int> index_columns;    ///< Ref: the column of each index
  char op = 0;                       ///< Binary: + - * /
  std::string number;                ///< Number: as written
  std::vector<Expr> args;            ///< Neg: 1, Binary: 2, Call: its arguments, Cast: 1
  int column = 0;
};

struct Statement {
  Expr out;  ///< a Ref
  bool accumulate = false;
  Expr rhs;
};

/// A located error in the spec string.
Status spec_error(int column, const std::string& message);

Result<Statement> parse_statement(std::string_view text);

/// Every Ref under `e`, in order.
void collect_refs(const Expr& e, std::vector<const Expr*>* refs);

}  // namespace tegula::ir::spec
