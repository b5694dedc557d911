/// \file
/// Print the tile IR as .tile text. The output is canonical: parse(print(k)) prints the same
/// text again, which the round-trip tests check on every example. Lowering annotations are
/// attributes, so the same printer shows what a kernel became after each pass.
#pragma once

#include <string>

#include "ir/IR.h"

namespace tegula::ir {

std::string print_kernel(const Kernel& k);
std::string print_stmt(const Stmt& s, int indent = 0);
std::string print_expr(const Expr& e);
std::string print_tile(const TileRef& t);
std::string print_attr_value(const AttrValue& v);
/// The shortest decimal text that reads back as exactly `v` (always with '.' or 'e').
std::string print_float(double v);

}  // namespace tegula::ir
