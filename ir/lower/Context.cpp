#include "ir/lower/Context.h"

#include <functional>

namespace tegula::ir {

Stmt* LowerContext::find_alloc(const std::string& name) {
  for (Stmt& s : kernel.body.stmts)
    if (s.op == OpKind::Alloc && s.name == name) return &s;
  return nullptr;
}

void for_each_stmt(Block& b, const std::function<void(Stmt&)>& fn) {
  for (Stmt& s : b.stmts) {
    fn(s);
    for (Block& inner : s.blocks) for_each_stmt(inner, fn);
  }
}

void for_each_stmt(const Block& b, const std::function<void(const Stmt&)>& fn) {
  for (const Stmt& s : b.stmts) {
    fn(s);
    for (const Block& inner : s.blocks) for_each_stmt(inner, fn);
  }
}

std::string where(const Stmt& s) {
  std::string w = s.loc.str();
  return w.empty() ? std::string(op_info(s.op).keyword) + ": " : w + ": ";
}

}  // namespace tegula::ir
