#include "ir/Interpreter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>

#include "ir/Analysis.h"
#include "ir/BitOps.h"
#include "ir/IntFold.h"
#include "ir/Printer.h"
#include "ir/interp/Machine.h"
#include "ir/lower/Distribution.h"
#include "ir/lower/GemmPlan.h"
#include "ir/lower/Passes.h"
#include "targets/Target.h"

namespace tegula::ir {
namespace {

using interp::Buf;
using interp::ExprFn;
using interp::Partial;
using interp::StmtFn;

double floor_div(double a, double b) { return std::floor(a / b); }

/// 1 / (1 + e^-x) through t = e^-|x|, which never overflows (so the subnormal results of
/// very negative x are kept): 1 / (1 + t) for x >= 0, t / (1 + t) below.
double sigmoid(double x) {
  double t = std::exp(-std::fabs(x));
  return (x >= 0 ? 1.0 : t) / (1.0 + t);
}

class Interp {
public:
  Interp(const Kernel& k, const std::vector<Arg>& args) : k_(k), args_(args) {}

  Status run(const InterpretOptions& opts) {
    // A lowered kernel runs as its decisions say: fragments per thread and register, gemms
    // by instruction atoms, reductions by their plans, blocks in rasterised order.
    if (const Attr* t = find_attr(k_.attrs, "lower.target")) {
      lowered_ = true;
      if (opts.target) {
        target_ = opts.target;
      } else if (auto builtin = builtin_target(t->value.s); builtin.is_ok()) {
        owned_target_ = std::make_unique<TargetDescription>(std::move(*builtin));
        target_ = owned_target_.get();
      }
      if (const Attr* r = find_attr(k_.attrs, "lower.raster"); r && r->value.kind == AttrValue::Kind::Int) raster_ = r->value.i;
    }
    TG_RETURN_IF_ERROR(bind_args());
    TG_ASSIGN_OR_RETURN(std::vector<int64_t> grid, launch_grid(k_, args_));
    grid.resize(3, 1);
    for (int i = 0; i < 3; ++i) block_idx_[i] = &slots_.emplace_back(0);
    for (int i = 0; i < 3; ++i) scope_vars_.front()[kBlockIndexNames[i]] = block_idx_[i];
    TG_ASSIGN_OR_RETURN(StmtFn body, compile_block(k_.body, true));
    int64_t total = grid[0] * grid[1] * grid[2];
    auto run_block = [&](int64_t flat) -> Status {
      int64_t bx = flat % grid[0], by = (flat / grid[0]) % grid[1];
      raster_remap(raster_, grid[0], grid[1], bx, by);
      *block_idx_[0] = double(bx);
      *block_idx_[1] = double(by);
      *block_idx_[2] = double(flat / (grid[0] * grid[1]));
      for (Buf* b : block_buffers_) b->poison();
      return body();
    };
    if (!opts.blocks.empty()) {
      for (int64_t flat : opts.blocks) {
        if (flat < 0 || flat >= total) return error(ErrorCode::OutOfRange, "block " + std::to_string(flat) + " is outside the grid");
        TG_RETURN_IF_ERROR(run_block(flat));
      }
      return Status::ok();
    }
    for (int64_t flat = 0; flat < total; ++flat) TG_RETURN_IF_ERROR(run_block(flat));
    return Status::ok();
  }

private:
  // --- arguments --------------------------------------------------------------------
  Status bind_args() {
    std::vector<std::string> symbols = k_.symbols();
    size_t expected = k_.params.size() + symbols.size();
    if (args_.size() != expected)
      return error(ErrorCode::InvalidArgument, "kernel '" + k_.name + "' takes " + std::to_string(expected) +
                                                   " arguments (parameters, then shape symbols), given " +
                                                   std::to_string(args_.size()));
    scope_vars_.emplace_back();
    scope_bufs_.emplace_back();
    for (size_t i = 0; i < symbols.size(); ++i) {
      const Arg& a = args_[k_.params.size() + i];
      if (a.kind != Arg::Kind::Int)
        return error(ErrorCode::InvalidArgument, "shape symbol '" + symbols[i] + "' needs an integer argument");
      if (a.i < 0) return error(ErrorCode::InvalidArgument, "shape symbol '" + symbols[i] + "' is negative (" + std::to_string(a.i) + ")");
      scope_vars_.front()[symbols[i]] = &slots_.emplace_back(double(a.i));
    }
    for (size_t i = 0; i < k_.params.size(); ++i) {
      const Param& p = k_.params[i];
      const Arg& a = args_[i];
      if (!p.is_tensor) {
        if (a.kind == Arg::Kind::Tensor)
          return error(ErrorCode::InvalidArgument, "parameter '" + p.name + "' is a scalar, given a tensor");
        double v = a.kind == Arg::Kind::Int ? double(a.i) : a.f;
        scope_vars_.front()[p.name] = &slots_.emplace_back(round_to_dtype(p.dtype, v));
        continue;
      }
      if (a.kind != Arg::Kind::Tensor)
        return error(ErrorCode::InvalidArgument, "parameter '" + p.name + "' is a tensor, given a scalar");
      TG_ASSIGN_OR_RETURN(uint64_t need, tensor_bytes(k_, i, args_));
      if (a.size < need || (need > 0 && !a.data))
        return error(ErrorCode::InvalidArgument, "tensor '" + p.name + "' needs " + std::to_string(need) + " bytes, given " +
                                                     std::to_string(a.size));
      Buf& b = bufs_.emplace_back();
      b.name = p.name;
      b.scope = Scope::Global;
      b.dtype = p.dtype;
      b.mode = store_mode(k_);
      std::vector<int64_t> shape;
      for (const Expr& d : p.shape)
        shape.push_back(d->kind == ExprKind::IntImm ? d->int_value : int64_t(*scope_vars_.front()[d->name]));
      b.set_shape(shape);
      b.bytes = static_cast<uint8_t*>(a.data);
      scope_bufs_.front()[p.name] = &b;
    }
    return Status::ok();
  }

  // --- name resolution during compilation -------------------------------------------
  double* find_var(const std::string& name) {
    for (auto it = scope_vars_.rbegin(); it != scope_vars_.rend(); ++it) {
      auto f = it->find(name);
      if (f != it->end()) return f->second;
    }
    return nullptr;
  }
  Buf* find_buf(const std::string& name) {
    for (auto it = scope_bufs_.rbegin(); it != scope_bufs_.rend(); ++it) {
      auto f = it->find(name);
      if (f != it->end()) return f->second;
    }
    return nullptr;
  }
  void push_scope() {
    scope_vars_.emplace_back();
    scope_bufs_.emplace_back();
  }
  void pop_scope() {
    scope_vars_.pop_back();
    scope_bufs_.pop_back();
  }

  Status runtime_error(const SourceLoc& loc, std::string msg) {
    if (err_.is_ok()) err_ = error(ErrorCode::OutOfRange, std::move(msg), loc);
    return err_;
  }

  // --- expressions ------------------------------------------------------------------
  Result<ExprFn> compile_expr(const Expr& e) {
    switch (e->kind) {
      case ExprKind::IntImm: {
        double v = double(e->int_value);
        return ExprFn([v] { return v; });
      }
      case ExprKind::FloatImm: {
        double v = e->float_value;
        return ExprFn([v] { return v; });
      }
      case ExprKind::Var: {
        double* slot = find_var(e->name);
        if (!slot) return error(ErrorCode::Internal, "unbound name '" + e->name + "' (was the kernel verified?)", e->loc);
        return ExprFn([slot] { return *slot; });
      }
      case ExprKind::Load: return compile_load(e);
      case ExprKind::Tile: return compile_tile_use(e);
      case ExprKind::ElemIndex: {
        const std::vector<int64_t>* index = &map_index_;
        size_t axis = size_t(e->int_value);
        return ExprFn([index, axis] { return double((*index)[axis]); });
      }
      case ExprKind::Cast: {
        TG_ASSIGN_OR_RETURN(ExprFn x, compile_expr(e->args[0]));
        DType to = e->cast_to;
        Fp8Mode mode = store_mode(k_);
        return ExprFn([x, to, mode] { return round_to_dtype(to, x(), mode); });
      }
      case ExprKind::Bitcast: {
        TG_ASSIGN_OR_RETURN(ExprFn x, compile_expr(e->args[0]));
        const Type& t = e->args[0]->type;
        DType from = t.dtype, to = e->cast_to;
        return ExprFn([x, from, to] { return bitcast_value(from, to, x()); });
      }
      case ExprKind::Select: {
        TG_ASSIGN_OR_RETURN(ExprFn c, compile_expr(e->args[0]));
        TG_ASSIGN_OR_RETURN(ExprFn a, compile_expr(e->args[1]));
        TG_ASSIGN_OR_RETURN(ExprFn b, compile_expr(e->args[2]));
        return ExprFn([c, a, b] { return c() != 0 ? a() : b(); });
      }
      case ExprKind::Unary: return compile_unary(e);
      case ExprKind::Binary: return compile_binary(e);
    }
    return error(ErrorCode::Internal, "unknown expression", e->loc);
  }

  Result<ExprFn> compile_unary(const Expr& e) {
    TG_ASSIGN_OR_RETURN(ExprFn x, compile_expr(e->args[0]));
    switch (e->unary) {
      case UnaryOp::Neg: return ExprFn([x] { return -x(); });
      case UnaryOp::Not: return ExprFn([x] { return x() == 0 ? 1.0 : 0.0; });
      case UnaryOp::BitNot: return ExprFn([x] { return double(bit_not(word_of_double(x()))); });
      case UnaryOp::Abs: return ExprFn([x] { return std::fabs(x()); });
      case UnaryOp::Exp: return ExprFn([x] { return std::exp(x()); });
      case UnaryOp::Exp2: return ExprFn([x] { return std::exp2(x()); });
      case UnaryOp::Log: return ExprFn([x] { return std::log(x()); });
      case UnaryOp::Log2: return ExprFn([x] { return std::log2(x()); });
      case UnaryOp::Log1p: return ExprFn([x] { return std::log1p(x()); });
      case UnaryOp::Erf: return ExprFn([x] { return std::erf(x()); });
      case UnaryOp::Sigmoid: return ExprFn([x] { return sigmoid(x()); });
      case UnaryOp::Sqrt: return ExprFn([x] { return std::sqrt(x()); });
      case UnaryOp::Rsqrt: return ExprFn([x] { return 1.0 / std::sqrt(x()); });
      case UnaryOp::Tanh: return ExprFn([x] { return std::tanh(x()); });
    }
    return error(ErrorCode::Internal, "unknown unary op", e->loc);
  }

  Result<ExprFn> compile_binary(const Expr& e) {
    TG_ASSIGN_OR_RETURN(ExprFn a, compile_expr(e->args[0]));
    TG_ASSIGN_OR_RETURN(ExprFn b, compile_expr(e->args[1]));
    bool ints = e->args[0]->type.is_index() && e->args[1]->type.is_index();
    SourceLoc loc = e->loc;
    auto checked = [this, loc](double d) {
      if (d != 0) return true;
      (void)runtime_error(loc, "integer division by zero");
      return false;
    };
    switch (e->binary) {
      case BinaryOp::Add: return ExprFn([a, b] { return a() + b(); });
      case BinaryOp::Sub: return ExprFn([a, b] { return a() - b(); });
      case BinaryOp::Mul: return ExprFn([a, b] { return a() * b(); });
      case BinaryOp::Div:
        if (!ints) return ExprFn([a, b] { return a() / b(); });
        return ExprFn([a, b, checked] {
          double x = a(), y = b();
          return checked(y) ? floor_div(x, y) : 0.0;
        });
      case BinaryOp::Mod:
        return ExprFn([a, b, checked] {
          double x = a(), y = b();
          return checked(y) ? x - y * floor_div(x, y) : 0.0;
        });
      case BinaryOp::CeilDiv:
        return ExprFn([a, b, checked] {
          double x = a(), y = b();
          return checked(y) ? -floor_div(-x, y) : 0.0;
        });
      case BinaryOp::Max: return ExprFn([a, b] { return maximum_number(a(), b()); });
      case BinaryOp::Min: return ExprFn([a, b] { return minimum_number(a(), b()); });
      case BinaryOp::Lt: return ExprFn([a, b] { return a() < b() ? 1.0 : 0.0; });
      case BinaryOp::Le: return ExprFn([a, b] { return a() <= b() ? 1.0 : 0.0; });
      case BinaryOp::Gt: return ExprFn([a, b] { return a() > b() ? 1.0 : 0.0; });
      case BinaryOp::Ge: return ExprFn([a, b] { return a() >= b() ? 1.0 : 0.0; });
      case BinaryOp::Eq: return ExprFn([a, b] { return a() == b() ? 1.0 : 0.0; });
      case BinaryOp::Ne: return ExprFn([a, b] { return a() != b() ? 1.0 : 0.0; });
      case BinaryOp::And: return ExprFn([a, b] { return (a() != 0 && b() != 0) ? 1.0 : 0.0; });
      case BinaryOp::Or: return ExprFn([a, b] { return (a() != 0 || b() != 0) ? 1.0 : 0.0; });
      case BinaryOp::BitAnd:
      case BinaryOp::BitOr:
      case BinaryOp::BitXor:
      case BinaryOp::Shl:
      case BinaryOp::Shr:
      case BinaryOp::ShrLogical: {
        BinaryOp op = e->binary;
        return ExprFn([a, b, op] { return double(bit_binary(op, word_of_double(a()), word_of_double(b()))); });
      }
    }
    return error(ErrorCode::Internal, "unknown binary op", e->loc);
  }

  /// The linear index of an element, or -1 (after recording an error) when outside.
  int64_t checked_linear(const Buf& b, const std::vector<ExprFn>& idx, const SourceLoc& loc) {
    int64_t linear = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      double v = idx[d]();
      if (!err_.is_ok()) return -1;
      if (v < 0 || v >= double(b.shape[d])) {
        (void)runtime_error(loc, "index " + std::to_string(int64_t(v)) + " is outside '" + b.name + "' (dimension " +
                               std::to_string(d) + " has size " + std::to_string(b.shape[d]) + ")");
        return -1;
      }
      linear += int64_t(v) * b.strides[d];
    }
    return linear;
  }

  Result<ExprFn> compile_load(const Expr& e) {
    Buf* b = find_buf(e->name);
    if (!b) return error(ErrorCode::Internal, "unbound buffer '" + e->name + "'", e->loc);
    std::vector<ExprFn> idx;
    for (const Expr& i : e->args) {
      TG_ASSIGN_OR_RETURN(ExprFn f, compile_expr(i));
      idx.push_back(std::move(f));
    }
    SourceLoc loc = e->loc;
    return ExprFn([this, b, idx, loc] {
      int64_t linear = checked_linear(*b, idx, loc);
      return linear < 0 ? 0.0 : b->get(linear);
    });
  }

  Result<ExprFn> compile_tile_use(const Expr& e) {
    Buf* b = find_buf(e->name);
    if (!b) return error(ErrorCode::Internal, "unbound buffer '" + e->name + "'", e->loc);
    const std::vector<int64_t>* index = &map_index_;
    return ExprFn([b, index] {
      // Shapes align at the trailing axes: a lower-rank operand broadcasts along the leading ones.
      size_t lead = index->size() - b->shape.size();
      int64_t linear = 0;
      for (size_t d = 0; d < b->shape.size(); ++d)
        if (b->shape[d] != 1) linear += (*index)[d + lead] * b->strides[d];
      return b->get(linear);
    });
  }

  // --- statements -------------------------------------------------------------------
  Result<StmtFn> compile_block(const Block& block, bool top_level) {
    if (!top_level) push_scope();
    std::vector<StmtFn> fns;
    for (const Stmt& s : block.stmts) {
      auto f = compile_stmt(s);
      if (!f.is_ok()) {
        if (!top_level) pop_scope();
        return f.status();
      }
      if (*f) fns.push_back(std::move(*f));
    }
    if (!top_level) pop_scope();
    return StmtFn([fns = std::move(fns), this]() -> Status {
      for (const StmtFn& f : fns) {
        TG_RETURN_IF_ERROR(f());
        if (!err_.is_ok()) return err_;
      }
      return Status::ok();
    });
  }

  Result<StmtFn> compile_stmt(const Stmt& s) {
    switch (s.op) {
      case OpKind::Alloc: return compile_alloc(s);
      case OpKind::Copy: return compile_copy(s, false);
      case OpKind::AtomicAdd: return compile_copy(s, true);
      case OpKind::Fill: return compile_fill(s);
      case OpKind::Gemm: return compile_gemm(s);
      case OpKind::Reduce: return compile_reduce(s);
      case OpKind::Scan: return compile_scan(s);
      case OpKind::Map: return compile_map(s);
      case OpKind::Store: return compile_store(s);
      case OpKind::Barrier: return StmtFn();
      case OpKind::For:
      case OpKind::Pipelined: return compile_for(s);
      case OpKind::Parallel: return compile_parallel(s);
      case OpKind::If: return compile_if(s);
    }
    return error(ErrorCode::Internal, "unknown op", s.loc);
  }

  Result<StmtFn> compile_alloc(const Stmt& s) {
    Buf& b = bufs_.emplace_back();
    b.name = s.name;
    b.scope = s.type.scope;
    b.dtype = s.type.dtype;
    b.mode = store_mode(k_);
    b.set_shape(s.type.shape);
    b.poison();
    if (lowered_ && b.scope == Scope::Fragment && find_attr(s.attrs, "layout.threads")) {
      TG_ASSIGN_OR_RETURN(Distribution d, get_distribution(s.attrs, "layout"));
      if (d.thread_count() != k_.threads)
        return error(ErrorCode::Verify, "fragment '" + s.name + "' is laid out over " + std::to_string(d.thread_count()) +
                                            " threads; the block has " + std::to_string(k_.threads), s.loc);
      b.make_physical(d);
    }
    scope_bufs_.back()[s.name] = &b;
    if (b.scope != Scope::Local) {
      block_buffers_.push_back(&b);
      return StmtFn();
    }
    Buf* p = &b;
    return StmtFn([p]() -> Status {
      p->poison();
      return Status::ok();
    });
  }

  BufferMap visible_buffers(const Stmt& s) {
    BufferMap m;
    for (const TileRef& t : s.tiles) {
      Buf* b = find_buf(t.buffer);
      if (b) m[t.buffer] = BufferInfo{b->scope, b->dtype, b->shape, {}};
    }
    return m;
  }

  struct TileAccess {
    Buf* buf = nullptr;
    std::vector<ExprFn> offsets;
  };

  Result<TileAccess> compile_tile(const TileRef& t) {
    TileAccess a;
    a.buf = find_buf(t.buffer);
    if (!a.buf) return error(ErrorCode::Internal, "unbound buffer '" + t.buffer + "'", t.loc);
    for (const Expr& o : t.offsets) {
      TG_ASSIGN_OR_RETURN(ExprFn f, compile_expr(o));
      a.offsets.push_back(std::move(f));
    }
    return a;
  }

  /// Evaluate a tile's offsets; a non-global tile must lie wholly inside its buffer. The
  /// origin has the buffer's rank: a global tile may be a view of lower rank than its tensor
  /// (leading_axes), whose leading offsets are single indices.
  Status tile_origin(const TileAccess& a, const std::vector<int64_t>& extent, const SourceLoc& loc, std::vector<int64_t>& origin) {
    origin.assign(std::max(extent.size(), a.buf->shape.size()), 0);
    for (size_t d = 0; d < a.offsets.size(); ++d) origin[d] = int64_t(a.offsets[d]());
    if (!err_.is_ok()) return err_;
    if (a.buf->scope == Scope::Global) return Status::ok();
    for (size_t d = 0; d < extent.size(); ++d) {
      if (origin[d] >= 0 && origin[d] + extent[d] <= a.buf->shape[d]) continue;
      return runtime_error(loc, "tile at offset " + std::to_string(origin[d]) + " with extent " + std::to_string(extent[d]) +
                                    " in dimension " + std::to_string(d) + " is outside '" + a.buf->name + "'");
    }
    return Status::ok();
  }

  /// Linear index of origin + idx in a buffer, or -1 if outside (only globals are masked).
  /// idx aligns to the buffer's trailing axes; along the leading ones of a view the element
  /// is at the origin itself, masked there too (an index past a head is no element).
  static int64_t tile_linear(const Buf& b, const std::vector<int64_t>& origin, const std::vector<int64_t>& idx) {
    size_t lead = leading_axes(b.shape.size(), idx.size());
    int64_t linear = 0;
    for (size_t d = 0; d < b.shape.size(); ++d) {
      int64_t c = origin[d] + (d < lead ? 0 : idx[d - lead]);
      if (c < 0 || c >= b.shape[d]) return -1;
      linear += c * b.strides[d];
    }
    return linear;
  }

  static bool next_index(std::vector<int64_t>& idx, const std::vector<int64_t>& extent) {
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < extent[d]) return true;
      idx[d] = 0;
    }
    return false;
  }

  Result<StmtFn> compile_copy(const Stmt& s, bool atomic) {
    TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, tile_op_extent(s, visible_buffers(s)));
    TG_ASSIGN_OR_RETURN(TileAccess src, compile_tile(s.tiles[0]));
    TG_ASSIGN_OR_RETURN(TileAccess dst, compile_tile(s.tiles[1]));
    double pad = atomic ? 0.0 : stmt_attr_float(s, "pad");
    SourceLoc loc = s.loc;
    // A lowered copy's in-bounds claims (plan.inbounds) are checked on every run.
    interp::InBoundsClaims claims;
    if (lowered_) {
      TG_ASSIGN_OR_RETURN(claims, interp::in_bounds_claims(s));
    }
    return StmtFn([this, extent, src, dst, pad, loc, atomic, claims]() -> Status {
      std::vector<int64_t> so, dso;
      TG_RETURN_IF_ERROR(tile_origin(src, extent, loc, so));
      TG_RETURN_IF_ERROR(tile_origin(dst, extent, loc, dso));
      TG_RETURN_IF_ERROR(claims.check(loc, *src.buf, so, *dst.buf, dso, extent));
      // Read the whole tile before writing, so overlapping tiles behave like a copy.
      std::vector<double> values;
      std::vector<int64_t> idx(extent.size(), 0);
      do {
        int64_t l = tile_linear(*src.buf, so, idx);
        values.push_back(l < 0 ? pad : src.buf->get(l));
      } while (next_index(idx, extent));
      idx.assign(extent.size(), 0);
      size_t n = 0;
      do {
        int64_t l = tile_linear(*dst.buf, dso, idx);
        double v = values[n++];
        if (l < 0) continue;
        dst.buf->set(l, atomic ? dst.buf->get(l) + v : v);
      } while (next_index(idx, extent));
      return Status::ok();
    });
  }

  Result<StmtFn> compile_fill(const Stmt& s) {
    TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, tile_op_extent(s, visible_buffers(s)));
    TG_ASSIGN_OR_RETURN(TileAccess dst, compile_tile(s.target()));
    TG_ASSIGN_OR_RETURN(ExprFn value, compile_expr(s.value()));
    SourceLoc loc = s.loc;
    return StmtFn([this, extent, dst, value, loc]() -> Status {
      std::vector<int64_t> o;
      TG_RETURN_IF_ERROR(tile_origin(dst, extent, loc, o));
      double v = value();
      if (!err_.is_ok()) return err_;
      std::vector<int64_t> idx(extent.size(), 0);
      do {
        int64_t l = tile_linear(*dst.buf, o, idx);
        if (l >= 0) dst.buf->set(l, v);
      } while (next_index(idx, extent));
      return Status::ok();
    });
  }

  Result<StmtFn> compile_gemm(const Stmt& s) {
    Buf* a = find_buf(s.gemm_a().buffer);
    Buf* b = find_buf(s.gemm_b().buffer);
    Buf* c = find_buf(s.gemm_c().buffer);
    if (!a || !b || !c) return error(ErrorCode::Internal, "unbound gemm operand", s.loc);
    bool ta = stmt_attr_bool(s, "trans_a"), tb = stmt_attr_bool(s, "trans_b");
    bool acc = stmt_attr_bool(s, "accumulate");
    if (c->physical && find_attr(s.attrs, "mma.inst")) {
      TG_ASSIGN_OR_RETURN(GemmPlan plan, get_gemm_plan(s));
      if (!plan.is_fma()) return interp::compile_gemm_atoms(s, target_, plan, a, b, c, ta, tb, acc);
    }
    return StmtFn([a, b, c, ta, tb, acc]() -> Status {
      int64_t m_size = c->shape[0], n_size = c->shape[1];
      int64_t k_size = ta ? a->shape[0] : a->shape[1];
      // (row, k) -> linear for A; (k, col) -> linear for B.
      int64_t a_m = ta ? 1 : a->strides[0], a_k = ta ? a->strides[0] : 1;
      int64_t b_k = tb ? 1 : b->strides[0], b_n = tb ? b->strides[0] : 1;
      std::vector<double> row(static_cast<size_t>(n_size));
      for (int64_t m = 0; m < m_size; ++m) {
        for (int64_t n = 0; n < n_size; ++n) row[size_t(n)] = acc ? c->get(m * n_size + n) : 0.0;
        for (int64_t k = 0; k < k_size; ++k) {
          double av = a->get(m * a_m + k * a_k);
          for (int64_t n = 0; n < n_size; ++n) row[size_t(n)] += av * b->get(k * b_k + n * b_n);
        }
        for (int64_t n = 0; n < n_size; ++n) c->set(m * n_size + n, row[size_t(n)]);
      }
      return Status::ok();
    });
  }

  Result<StmtFn> compile_reduce(const Stmt& s) {
    Buf* src = find_buf(s.reduce_src().buffer);
    Buf* dst = find_buf(s.reduce_dst().buffer);
    if (!src || !dst) return error(ErrorCode::Internal, "unbound reduce operand", s.loc);
    ReduceKind kind = *parse_reduce(stmt_attr_ident(s, "op"));
    int64_t axis = stmt_attr_int(s, "axis");
    bool clear = stmt_attr_bool(s, "clear");
    if (lowered_ && find_attr(s.attrs, "plan.kind")) return interp::compile_reduce_plan(s, src, dst, kind, axis, clear);
    return StmtFn([src, dst, kind, axis, clear]() -> Status {
      int64_t outer = 1, inner = 1, len = src->shape[size_t(axis)];
      for (int64_t d = 0; d < axis; ++d) outer *= src->shape[size_t(d)];
      for (size_t d = size_t(axis) + 1; d < src->shape.size(); ++d) inner *= src->shape[d];
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          int64_t out = o * inner + i;  // dst is src's shape without (or with 1 at) the axis
          Partial p = Partial::identity(kind);
          for (int64_t r = 0; r < len; ++r) p.add(kind, src->get((o * len + r) * inner + i));
          dst->set(out, p.finish(kind, clear, clear ? 0.0 : dst->get(out)));
        }
      }
      return Status::ok();
    });
  }

  /// The oracle of scan (ir/OpList.h): each line in scan order, the running value in
  /// float64, each element and the carry rounded once (Buf::set rounds to the dtype). The
  /// lowered form (a free plan over the lines, MapThreads.cpp) computes the same values; its
  /// plan is checked here to give every line to exactly one thread.
  Result<StmtFn> compile_scan(const Stmt& s) {
    Buf* src = find_buf(s.scan_src().buffer);
    Buf* dst = find_buf(s.scan_dst().buffer);
    Buf* carry = find_buf(s.scan_carry().buffer);
    if (!src || !dst || !carry) return error(ErrorCode::Internal, "unbound scan operand", s.loc);
    ReduceKind kind = *parse_reduce(stmt_attr_ident(s, "op"));
    int64_t axis = stmt_attr_int(s, "axis");
    bool reverse = stmt_attr_bool(s, "reverse"), exclusive = stmt_attr_bool(s, "exclusive");
    if (lowered_ && find_attr(s.attrs, "plan.kind")) TG_RETURN_IF_ERROR(interp::check_scan_plan(s, carry->shape, axis));
    return StmtFn([src, dst, carry, kind, axis, reverse, exclusive]() -> Status {
      int64_t outer = 1, inner = 1, len = src->shape[size_t(axis)];
      for (int64_t d = 0; d < axis; ++d) outer *= src->shape[size_t(d)];
      for (size_t d = size_t(axis) + 1; d < src->shape.size(); ++d) inner *= src->shape[d];
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          int64_t line = o * inner + i;  // carry is src's shape with 1 at the axis
          double a = carry->get(line);
          for (int64_t step = 0; step < len; ++step) {
            int64_t r = reverse ? len - 1 - step : step;
            int64_t at = (o * len + r) * inner + i;
            double x = src->get(at);
            if (exclusive) dst->set(at, a);
            a = scan_combine(kind, a, x);
            if (!exclusive) dst->set(at, a);
          }
          carry->set(line, a);
        }
      }
      return Status::ok();
    });
  }

  static double scan_combine(ReduceKind kind, double a, double x) {
    switch (kind) {
      case ReduceKind::Sum: return a + x;
      case ReduceKind::Max: return maximum_number(a, x);
      case ReduceKind::Min: return minimum_number(a, x);
      case ReduceKind::AbsMax: return maximum_number(a, std::fabs(x));  // refused by the verifier
    }
    return a;
  }

  Result<StmtFn> compile_map(const Stmt& s) {
    Buf* dst = find_buf(s.target().buffer);
    if (!dst) return error(ErrorCode::Internal, "unbound map destination", s.loc);
    TG_ASSIGN_OR_RETURN(ExprFn value, compile_expr(s.value()));
    return StmtFn([this, dst, value]() -> Status {
      map_index_.assign(dst->shape.size(), 0);
      int64_t linear = 0;
      do {
        double v = value();
        if (!err_.is_ok()) return err_;
        dst->set(linear++, v);
      } while (next_index(map_index_, dst->shape));
      return Status::ok();
    });
  }

  Result<StmtFn> compile_store(const Stmt& s) {
    Buf* b = find_buf(s.target().buffer);
    if (!b) return error(ErrorCode::Internal, "unbound store target", s.loc);
    std::vector<ExprFn> idx;
    for (const Expr& i : s.target().offsets) {
      TG_ASSIGN_OR_RETURN(ExprFn f, compile_expr(i));
      idx.push_back(std::move(f));
    }
    TG_ASSIGN_OR_RETURN(ExprFn value, compile_expr(s.value()));
    SourceLoc loc = s.target().loc;
    return StmtFn([this, b, idx, value, loc]() -> Status {
      double v = value();
      int64_t linear = checked_linear(*b, idx, loc);
      if (!err_.is_ok()) return err_;
      b->set(linear, v);
      return Status::ok();
    });
  }

  Result<StmtFn> compile_for(const Stmt& s) {
    TG_ASSIGN_OR_RETURN(ExprFn lo, compile_expr(s.lo()));
    TG_ASSIGN_OR_RETURN(ExprFn hi, compile_expr(s.hi()));
    push_scope();
    double* slot = &slots_.emplace_back(0);
    scope_vars_.back()[s.vars[0]] = slot;
    auto body = compile_block(s.body(), false);
    pop_scope();
    if (!body.is_ok()) return body.status();
    StmtFn b = std::move(*body);
    return StmtFn([this, lo, hi, slot, b]() -> Status {
      double l = lo(), h = hi();
      if (!err_.is_ok()) return err_;
      for (double i = l; i < h; ++i) {
        *slot = i;
        TG_RETURN_IF_ERROR(b());
      }
      return Status::ok();
    });
  }

  Result<StmtFn> compile_parallel(const Stmt& s) {
    std::vector<int64_t> extent;
    for (const Expr& e : s.exprs) extent.push_back(*const_int(e));
    push_scope();
    std::vector<double*> slots;
    for (const std::string& v : s.vars) {
      slots.push_back(&slots_.emplace_back(0));
      scope_vars_.back()[v] = slots.back();
    }
    auto body = compile_block(s.body(), false);
    pop_scope();
    if (!body.is_ok()) return body.status();
    StmtFn b = std::move(*body);
    return StmtFn([extent, slots, b]() -> Status {
      std::vector<int64_t> idx(extent.size(), 0);
      do {
        for (size_t d = 0; d < idx.size(); ++d) *slots[d] = double(idx[d]);
        TG_RETURN_IF_ERROR(b());
      } while (next_index(idx, extent));
      return Status::ok();
    });
  }

  Result<StmtFn> compile_if(const Stmt& s) {
    TG_ASSIGN_OR_RETURN(ExprFn cond, compile_expr(s.cond()));
    TG_ASSIGN_OR_RETURN(StmtFn then_fn, compile_block(s.blocks[0], false));
    StmtFn else_fn;
    if (s.blocks.size() > 1) {
      TG_ASSIGN_OR_RETURN(else_fn, compile_block(s.blocks[1], false));
    }
    return StmtFn([this, cond, then_fn, else_fn]() -> Status {
      double c = cond();
      if (!err_.is_ok()) return err_;
      if (c != 0) return then_fn();
      return else_fn ? else_fn() : Status::ok();
    });
  }

  const Kernel& k_;
  const std::vector<Arg>& args_;
  std::deque<double> slots_;
  std::deque<Buf> bufs_;
  std::vector<Buf*> block_buffers_;
  std::vector<std::map<std::string, double*>> scope_vars_;
  std::vector<std::map<std::string, Buf*>> scope_bufs_;
  double* block_idx_[3] = {nullptr, nullptr, nullptr};
  std::vector<int64_t> map_index_;
  Status err_;
  bool lowered_ = false;
  const TargetDescription* target_ = nullptr;
  std::unique_ptr<TargetDescription> owned_target_;
  int64_t raster_ = 0;
};

}  // namespace

Status interpret(const Kernel& k, const std::vector<Arg>& args, const InterpretOptions& options) {
  Interp interp(k, args);
  return interp.run(options);
}

}  // namespace tegula::ir
