#include "ir/Signature.h"

#include <algorithm>
#include <string>

#include "ir/BitOps.h"
#include "ir/IntFold.h"
#include "ir/Printer.h"

namespace tegula::ir {
namespace {

/// Evaluate an expression over symbols and scalars only (grid and shapes).
Result<int64_t> eval_header_expr(const Kernel& k, const Expr& e, const std::vector<Arg>& args) {
  if (auto c = const_int(e)) return *c;
  std::vector<std::string> symbols = k.symbols();
  switch (e->kind) {
    case ExprKind::Var: {
      for (size_t i = 0; i < symbols.size(); ++i)
        if (symbols[i] == e->name && k.params.size() + i < args.size()) return args[k.params.size() + i].i;
      for (size_t i = 0; i < k.params.size() && i < args.size(); ++i)
        if (k.params[i].name == e->name && !k.params[i].is_tensor)
        {
          if (args[i].kind == Arg::Kind::Int) return args[i].i;
          // A float scalar outside int64 (or NaN) has no integer value; converting it is UB.
          if (!(args[i].f >= -9.2e18 && args[i].f <= 9.2e18))
            return error(ErrorCode::InvalidArgument, "scalar '" + e->name + "' has no 64-bit integer value", e->loc);
          return int64_t(args[i].f);
        }
      return error(ErrorCode::InvalidArgument, "'" + e->name + "' has no value", e->loc);
    }
    case ExprKind::Binary: {
      TG_ASSIGN_OR_RETURN(int64_t a, eval_header_expr(k, e->args[0], args));
      TG_ASSIGN_OR_RETURN(int64_t b, eval_header_expr(k, e->args[1], args));
      if (auto c = fold_int_binary(e->binary, a, b)) return *c;
      bool divides = e->binary == BinaryOp::Div || e->binary == BinaryOp::Mod || e->binary == BinaryOp::CeilDiv;
      std::string why = divides && b == 0 ? "divides by zero" : "does not fit in 64 bits";
      return error(ErrorCode::InvalidArgument, "'" + print_expr(e) + "' " + why + " (" + std::to_string(a) + " " +
                                                   binary_spelling(e->binary) + " " + std::to_string(b) + ")", e->loc);
    }
    case ExprKind::Unary:
      if (e->unary == UnaryOp::Neg) {
        TG_ASSIGN_OR_RETURN(int64_t a, eval_header_expr(k, e->args[0], args));
        if (auto c = fold_int_neg(a)) return *c;
        return error(ErrorCode::InvalidArgument, "'" + print_expr(e) + "' does not fit in 64 bits", e->loc);
      }
      if (e->unary == UnaryOp::BitNot) {
        TG_ASSIGN_OR_RETURN(int64_t a, eval_header_expr(k, e->args[0], args));
        return int64_t(bit_not(word_of(a)));
      }
      break;
    // Element values exist only inside a running block: never before launch.
    case ExprKind::IntImm:
    case ExprKind::FloatImm:
    case ExprKind::Load:
    case ExprKind::Tile:
    case ExprKind::ElemIndex:
    case ExprKind::Cast:
    case ExprKind::Bitcast:
    case ExprKind::Select: break;
  }
  return error(ErrorCode::InvalidArgument, "cannot evaluate '" + print_expr(e) + "' before launch", e->loc);
}

}  // namespace

Status check_grid_blocks(const std::vector<int64_t>& grid, SourceLoc loc) {
  bool empty = std::find(grid.begin(), grid.end(), int64_t(0)) != grid.end();
  int64_t total = 1;
  bool too_many = false;
  for (int64_t v : grid) too_many = too_many || __builtin_mul_overflow(total, v, &total) || total > kMaxGridBlocks;
  if (!too_many || empty) return Status::ok();
  std::string dims;
  for (int64_t v : grid) dims += (dims.empty() ? "" : " x ") + std::to_string(v);
  return error(ErrorCode::InvalidArgument,
               "a grid of " + dims + " blocks is more than the " + std::to_string(kMaxGridBlocks) + " one launch may run", loc);
}

Result<std::vector<int64_t>> launch_grid(const Kernel& k, const std::vector<Arg>& args) {
  std::vector<int64_t> grid;
  for (const Expr& g : k.grid) {
    TG_ASSIGN_OR_RETURN(int64_t v, eval_header_expr(k, g, args));
    if (v < 0) return error(ErrorCode::InvalidArgument, "grid dimension '" + print_expr(g) + "' is negative (" + std::to_string(v) + ")", g->loc);
    if (v > (int64_t(1) << 31)) return error(ErrorCode::InvalidArgument, "grid dimension '" + print_expr(g) + "' is too large", g->loc);
    grid.push_back(v);
  }
  TG_RETURN_IF_ERROR(check_grid_blocks(grid, k.grid.empty() ? SourceLoc{} : k.grid[0]->loc));
  return grid;
}

Result<uint64_t> tensor_bytes(const Kernel& k, size_t param_index, const std::vector<Arg>& args) {
  const Param& p = k.params[param_index];
  uint64_t n = dtype_size(p.dtype);
  for (const Expr& d : p.shape) {
    TG_ASSIGN_OR_RETURN(int64_t v, eval_header_expr(k, d, args));
    if (v < 0) return error(ErrorCode::InvalidArgument, "dimension of '" + p.name + "' is negative");
    if (v > 0 && n > (uint64_t(1) << 62) / uint64_t(v)) return error(ErrorCode::InvalidArgument, "tensor '" + p.name + "' is too large");
    n *= uint64_t(v);
  }
  return n;
}

}  // namespace tegula::ir
