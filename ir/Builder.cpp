#include "ir/Builder.h"

#include <cstdint>
#include <functional>

#include "ir/Verifier.h"

namespace tegula::ir {

Expr operator+(Expr a, Expr b) { return binary(BinaryOp::Add, std::move(a), std::move(b)); }
Expr operator-(Expr a, Expr b) { return binary(BinaryOp::Sub, std::move(a), std::move(b)); }
Expr operator*(Expr a, Expr b) { return binary(BinaryOp::Mul, std::move(a), std::move(b)); }
Expr operator/(Expr a, Expr b) { return binary(BinaryOp::Div, std::move(a), std::move(b)); }
Expr operator%(Expr a, Expr b) { return binary(BinaryOp::Mod, std::move(a), std::move(b)); }
Expr operator-(Expr a) {
  // Match the parser, which folds a minus into a literal.
  if (a->kind == ExprKind::IntImm) return int_imm(-a->int_value);
  if (a->kind == ExprKind::FloatImm) return float_imm(-a->float_value);
  return unary(UnaryOp::Neg, std::move(a));
}
Expr lt(Expr a, Expr b) { return binary(BinaryOp::Lt, std::move(a), std::move(b)); }
Expr le(Expr a, Expr b) { return binary(BinaryOp::Le, std::move(a), std::move(b)); }
Expr gt(Expr a, Expr b) { return binary(BinaryOp::Gt, std::move(a), std::move(b)); }
Expr ge(Expr a, Expr b) { return binary(BinaryOp::Ge, std::move(a), std::move(b)); }
Expr eq(Expr a, Expr b) { return binary(BinaryOp::Eq, std::move(a), std::move(b)); }
Expr ne(Expr a, Expr b) { return binary(BinaryOp::Ne, std::move(a), std::move(b)); }
Expr logical_and(Expr a, Expr b) { return binary(BinaryOp::And, std::move(a), std::move(b)); }
Expr logical_or(Expr a, Expr b) { return binary(BinaryOp::Or, std::move(a), std::move(b)); }
Expr ceildiv(Expr a, Expr b) { return binary(BinaryOp::CeilDiv, std::move(a), std::move(b)); }
Expr max(Expr a, Expr b) { return binary(BinaryOp::Max, std::move(a), std::move(b)); }
Expr min(Expr a, Expr b) { return binary(BinaryOp::Min, std::move(a), std::move(b)); }
Expr exp(Expr x) { return unary(UnaryOp::Exp, std::move(x)); }
Expr exp2(Expr x) { return unary(UnaryOp::Exp2, std::move(x)); }
Expr log(Expr x) { return unary(UnaryOp::Log, std::move(x)); }
Expr sqrt(Expr x) { return unary(UnaryOp::Sqrt, std::move(x)); }
Expr rsqrt(Expr x) { return unary(UnaryOp::Rsqrt, std::move(x)); }
Expr tanh(Expr x) { return unary(UnaryOp::Tanh, std::move(x)); }
Expr abs(Expr x) { return unary(UnaryOp::Abs, std::move(x)); }
Expr log2(Expr x) { return unary(UnaryOp::Log2, std::move(x)); }
Expr log1p(Expr x) { return unary(UnaryOp::Log1p, std::move(x)); }
Expr erf(Expr x) { return unary(UnaryOp::Erf, std::move(x)); }
Expr sigmoid(Expr x) { return unary(UnaryOp::Sigmoid, std::move(x)); }
Expr bit_and(Expr a, Expr b) { return binary(BinaryOp::BitAnd, std::move(a), std::move(b)); }
Expr bit_or(Expr a, Expr b) { return binary(BinaryOp::BitOr, std::move(a), std::move(b)); }
Expr bit_xor(Expr a, Expr b) { return binary(BinaryOp::BitXor, std::move(a), std::move(b)); }
Expr bit_not(Expr a) { return unary(UnaryOp::BitNot, std::move(a)); }
Expr shl(Expr a, Expr count) { return binary(BinaryOp::Shl, std::move(a), std::move(count)); }
Expr shr(Expr a, Expr count) { return binary(BinaryOp::Shr, std::move(a), std::move(count)); }
Expr shr_logical(Expr a, Expr count) { return binary(BinaryOp::ShrLogical, std::move(a), std::move(count)); }

KernelBuilder::KernelBuilder(std::string name) {
  k_.name = std::move(name);
  stack_.push_back(&k_.body);
}

BufferRef KernelBuilder::tensor(const std::string& name, DType dtype, std::vector<Expr> shape) {
  Param p;
  p.name = name;
  p.dtype = dtype;
  p.is_tensor = true;
  p.shape = std::move(shape);
  k_.params.push_back(std::move(p));
  return BufferRef{name};
}

Expr KernelBuilder::scalar(const std::string& name, DType dtype) {
  Param p;
  p.name = name;
  p.dtype = dtype;
  k_.params.push_back(std::move(p));
  return var(name);
}

Stmt& KernelBuilder::emit(OpKind op) {
  Stmt s;
  s.op = op;
  stack_.back()->stmts.push_back(std::move(s));
  return stack_.back()->stmts.back();
}

void KernelBuilder::nested(Stmt& s, const std::function<void()>& body) {
  s.blocks.emplace_back();
  stack_.push_back(&s.blocks.back());
  body();
  stack_.pop_back();
}

BufferRef KernelBuilder::alloc(const std::string& name, Scope scope, DType dtype, std::vector<int64_t> shape) {
  Stmt& s = emit(OpKind::Alloc);
  s.name = name;
  s.type = BufferType{scope, dtype, std::move(shape)};
  return BufferRef{name};
}

void KernelBuilder::copy(TileRef src, TileRef dst, std::vector<Attr> attrs) {
  Stmt& s = emit(OpKind::Copy);
  s.tiles = {std::move(src), std::move(dst)};
  s.attrs = std::move(attrs);
}

void KernelBuilder::fill(TileRef dst, Expr value) {
  Stmt& s = emit(OpKind::Fill);
  s.tiles = {std::move(dst)};
  s.exprs = {std::move(value)};
}

void KernelBuilder::gemm(TileRef a, TileRef b, TileRef c, GemmOptions o) {
  Stmt& s = emit(OpKind::Gemm);
  s.tiles = {std::move(a), std::move(b), std::move(c)};
  if (o.accumulate) set_attr(s.attrs, "accumulate", AttrValue::of_bool(true));
  if (o.trans_a) set_attr(s.attrs, "trans_a", AttrValue::of_bool(true));
  if (o.trans_b) set_attr(s.attrs, "trans_b", AttrValue::of_bool(true));
}

void KernelBuilder::reduce(TileRef src, TileRef dst, ReduceKind kind, int64_t axis, bool clear) {
  Stmt& s = emit(OpKind::Reduce);
  s.tiles = {std::move(src), std::move(dst)};
  set_attr(s.attrs, "op", AttrValue::of_ident(reduce_name(kind)));
  set_attr(s.attrs, "axis", AttrValue::of_int(axis));
  if (!clear) set_attr(s.attrs, "clear", AttrValue::of_bool(false));
}

void KernelBuilder::map(TileRef dst, Expr value) {
  Stmt& s = emit(OpKind::Map);
  s.tiles = {std::move(dst)};
  s.exprs = {std::move(value)};
}

void KernelBuilder::store(TileRef element, Expr value) {
  Stmt& s = emit(OpKind::Store);
  s.tiles = {std::move(element)};
  s.exprs = {std::move(value)};
}

void KernelBuilder::atomic_add(TileRef src, TileRef dst) {
  Stmt& s = emit(OpKind::AtomicAdd);
  s.tiles = {std::move(src), std::move(dst)};
}

void KernelBuilder::barrier() { emit(OpKind::Barrier); }

void KernelBuilder::for_(const std::string& v, Expr lo, Expr hi, const std::function<void(Expr)>& body) {
  Stmt& s = emit(OpKind::For);
  s.vars = {v};
  s.exprs = {std::move(lo), std::move(hi)};
  nested(s, [&] { body(var(v)); });
}

void KernelBuilder::pipelined(const std::string& v, Expr lo, Expr hi, int64_t stages,
                              const std::function<void(Expr)>& body) {
  Stmt& s = emit(OpKind::Pipelined);
  s.vars = {v};
  s.exprs = {std::move(lo), std::move(hi)};
  set_attr(s.attrs, "stages", AttrValue::of_int(stages));
  nested(s, [&] { body(var(v)); });
}

void KernelBuilder::parallel(std::vector<std::string> vars, std::vector<int64_t> extents,
                             const std::function<void(std::vector<Expr>)>& body) {
  Stmt& s = emit(OpKind::Parallel);
  std::vector<Expr> vs;
  for (const std::string& v : vars) vs.push_back(var(v));
  for (int64_t e : extents) s.exprs.push_back(int_imm(e));
  s.vars = std::move(vars);
  nested(s, [&] { body(vs); });
}

void KernelBuilder::if_(Expr cond, const std::function<void()>& then_body, const std::function<void()>& else_body) {
  Stmt& s = emit(OpKind::If);
  s.exprs = {std::move(cond)};
  nested(s, then_body);
  if (else_body) nested(s, else_body);
}

Result<Kernel> KernelBuilder::build() {
  Kernel k = k_;
  TG_RETURN_IF_ERROR(verify(k));
  return k;
}

}  // namespace tegula::ir
