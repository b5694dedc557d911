#include "ir/lower/Context.h"

#include <functional>

namespace tegula::ir {

Stmt* LowerContext::find_alloc(const std::string& name) {
  for (Stmt& s : kernel.body.stmts)
    if (s.op == OpKind::Alloc && s.name == name) return &s;
  return nullptr;
}

std::string where(const Stmt& s) {
  std::string w = s.loc.str();
  return w.empty() ? std::string(op_info(s.op).keyword) + ": " : w + ": ";
}

}  // namespace tegula::ir
