/// \file
/// Whether an expression or a statement's own operands name a buffer, for the lowering rules
/// that ask who may touch a tile (forwarding, register prefetching, the lowered-form check).
#pragma once

#include <string_view>

#include "ir/IR.h"

namespace tegula::ir {

/// Whether `e` loads from or takes a tile of buffer `name`, at any depth.
inline bool expr_mentions(const Expr& e, std::string_view name) {
  if ((e->kind == ExprKind::Load || e->kind == ExprKind::Tile) && e->name == name) return true;
  for (const Expr& a : e->args)
    if (expr_mentions(a, name)) return true;
  return false;
}

/// Whether a statement's own operands (its tiles, their offsets and its expressions; not its
/// nested blocks) name buffer `name`.
inline bool stmt_names_buffer(const Stmt& s, std::string_view name) {
  for (const TileRef& t : s.tiles) {
    if (t.buffer == name) return true;
    for (const Expr& o : t.offsets)
      if (expr_mentions(o, name)) return true;
  }
  for (const Expr& e : s.exprs)
    if (expr_mentions(e, name)) return true;
  return false;
}

}  // namespace tegula::ir
