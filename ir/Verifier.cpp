#include "ir/Verifier.h"

#include <cstdint>
#include <map>
#include <set>

#include "ir/Analysis.h"
#include "ir/BlockLoads.h"
#include "ir/AxisOpRules.h"
#include "ir/TileRules.h"
#include "ir/IntFold.h"
#include "ir/Printer.h"

namespace tegula::ir {

bool is_reserved_name(std::string_view name) {
  static const std::set<std::string, std::less<>> kReserved = [] {
    std::set<std::string, std::less<>> s = {"kernel", "grid",  "threads", "else",  "in",
                                            "cast",   "select", "inf",    "nan",   "true",
                                            "false",  "bx",    "by",      "bz"};
#define TG_RESERVE_OP(e, kw, fmt, roles, level, attrs, blocks) s.insert(kw);
    TG_FOR_EACH_OP(TG_RESERVE_OP)
#undef TG_RESERVE_OP
#define TG_RESERVE_UNARY(e, sp) s.insert(sp);
    TG_FOR_EACH_UNARY(TG_RESERVE_UNARY)
#undef TG_RESERVE_UNARY
#define TG_RESERVE_BINARY(e, sp, p) \
  if (p == 0) s.insert(sp);
    TG_FOR_EACH_BINARY(TG_RESERVE_BINARY)
#undef TG_RESERVE_BINARY
#define TG_RESERVE_SCOPE(e, sp) s.insert(sp);
    TG_FOR_EACH_SCOPE(TG_RESERVE_SCOPE)
#undef TG_RESERVE_SCOPE
#define TG_RESERVE_DTYPE(e, sp, b) s.insert(sp);
    TG_FOR_EACH_DTYPE(TG_RESERVE_DTYPE)
#undef TG_RESERVE_DTYPE
    return s;
  }();
  return kReserved.count(name) != 0;
}

namespace {

constexpr int64_t kMaxThreads = 1024;
constexpr int64_t kMaxBufferElements = int64_t(1) << 24;
constexpr size_t kMaxRank = 4;

/// What a name refers to.
struct Entity {
  enum class Kind : uint8_t { Buffer, Symbol, Scalar, LoopVar, BlockIndex };
  Kind kind = Kind::Symbol;
  BufferInfo buffer;    // Buffer
  const Param* param = nullptr;  // Buffer (global) and Scalar
  DType dtype = DType::I32;      // Scalar
};

std::string shape_str(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += shape[i] < 0 ? std::string("?") : std::to_string(shape[i]);
  }
  return s + "]";
}

Type value_type_of(DType d) {
  if (d == DType::Bool) return Type::boolean();
  if (dtype_is_int(d)) return Type::integer(d);
  return Type::floating(d);
}

/// The dtype whose bits bitcast reads from a value of type `t` (ir/OpList.h).
DType bits_dtype(const Type& t) { return t.is_bool() ? DType::Bool : t.dtype; }

/// The dtype in which float arithmetic over these operands is computed.
DType compute_dtype(const Type& a, const Type& b) {
  if ((a.is_float() && a.dtype == DType::F64) || (b.is_float() && b.dtype == DType::F64))
    return DType::F64;
  return DType::F32;
}

class Verifier {
public:
  Verifier(Kernel& k, const VerifyOptions& o) : k_(k), opts_(o) {}

  Status run() {
    TG_RETURN_IF_ERROR(check_kernel_header());
    scopes_.emplace_back();
    for (int i = 0; i < 3; ++i) {
      Entity e;
      e.kind = Entity::Kind::BlockIndex;
      scopes_.back()[kBlockIndexNames[i]] = e;
    }
    TG_RETURN_IF_ERROR(declare_params());
    TG_RETURN_IF_ERROR(check_grid());
    buffers_ = kernel_buffers(k_);
    written_ = written_buffers(k_.body);
    return check_block(k_.body, /*top_level=*/true);
  }

private:
  // --- helpers ----------------------------------------------------------------------
  static Status fail(const SourceLoc& loc, std::string msg) {
    return error(ErrorCode::Verify, std::move(msg), loc);
  }

  const Entity* lookup(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto f = it->find(name);
      if (f != it->end()) return &f->second;
    }
    return nullptr;
  }

  Status declare(const std::string& name, const SourceLoc& loc, Entity e, const char* what) {
    if (name.empty()) return fail(loc, std::string("empty ") + what + " name");
    if (is_reserved_name(name)) return fail(loc, "'" + name + "' is a reserved name and cannot name a " + what);
    if (lookup(name)) return fail(loc, "'" + name + "' is already defined");
    scopes_.back()[name] = std::move(e);
    return Status::ok();
  }

  Status check_attrs(const std::vector<Attr>& attrs, const char* spec, const std::string& owner) {
    for (const Attr& a : attrs) {
      if (a.name.find('.') != std::string::npos) {
        if (opts_.allow_lowering_attrs) continue;
        return fail(a.loc, "attribute '" + a.name + "' is a lowering annotation and cannot appear in a source kernel");
      }
      std::string type = spec_type(spec, a.name);
      if (type.empty()) return fail(a.loc, owner + " has no attribute '" + a.name + "'");
      if (!value_matches(a.value, type))
        return fail(a.loc, "attribute '" + a.name + "' of " + owner + " must be " + describe_type(type) +
                               ", found " + print_attr_value(a.value));
    }
    // Required attributes (no default) must be present.
    std::string_view rest(spec);
    while (!rest.empty()) {
      size_t end = rest.find(' ');
      std::string_view item = rest.substr(0, end);
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
      if (item.find('=') != std::string_view::npos) continue;
      std::string name(item.substr(0, item.find(':')));
      if (!find_attr(attrs, name)) missing_attr_ = name;
    }
    return Status::ok();
  }

  static std::string spec_type(std::string_view spec, std::string_view name) {
    while (!spec.empty()) {
      size_t end = spec.find(' ');
      std::string_view item = spec.substr(0, end);
      spec = end == std::string_view::npos ? std::string_view() : spec.substr(end + 1);
      size_t colon = item.find(':');
      if (item.substr(0, colon) != name) continue;
      size_t eq = item.find('=');
      return std::string(item.substr(colon + 1, eq == std::string_view::npos ? std::string_view::npos : eq - colon - 1));
    }
    return "";
  }

  static bool value_matches(const AttrValue& v, const std::string& type) {
    using K = AttrValue::Kind;
    if (type == "bool") return v.kind == K::Bool;
    if (type == "int") return v.kind == K::Int;
    if (type == "float") return v.kind == K::Float || v.kind == K::Int;
    if (type == "ident") return v.kind == K::Ident || v.kind == K::String;
    if (type == "ints") {
      if (v.kind != K::List) return false;
      for (const AttrValue& x : v.list)
        if (x.kind != K::Int) return false;
      return true;
    }
    return false;
  }

  static std::string describe_type(const std::string& type) {
    if (type == "bool") return "true or false";
    if (type == "int") return "an integer";
    if (type == "float") return "a number";
    if (type == "ident") return "a name";
    if (type == "ints") return "a list of integers";
    return type;
  }

  // --- kernel header ----------------------------------------------------------------
  Status check_kernel_header() {
    if (is_reserved_name(k_.name)) return fail(k_.loc, "'" + k_.name + "' is a reserved name and cannot name a kernel");
    if (k_.threads < 1 || k_.threads > kMaxThreads)
      return fail(k_.loc, "threads(" + std::to_string(k_.threads) + ") is outside 1.." + std::to_string(kMaxThreads));
    if (k_.grid.empty() || k_.grid.size() > 3)
      return fail(k_.loc, "grid takes 1 to 3 dimensions, found " + std::to_string(k_.grid.size()));
    missing_attr_.clear();
    TG_RETURN_IF_ERROR(check_attrs(k_.attrs, "reference:ident raster:int=1 saturate:bool=true", "kernel"));
    // raster=G: launch a 2-D grid's blocks in groups of G rows (ir/lower/Rasterize.cpp), a
    // schedule choice the kernel may leave to a tunable; backends index blocks in 32 bits.
    if (const Attr* r = find_attr(k_.attrs, "raster"); r && (r->value.i < 1 || r->value.i > 65535))
      return fail(r->loc, "raster must be 1 to 65535, found " + std::to_string(r->value.i));
    return Status::ok();
  }

  Status declare_params() {
    std::set<std::string> symbols;
    for (const Param& p : k_.params) {
      Entity e;
      e.param = &p;
      if (p.is_tensor) {
        e.kind = Entity::Kind::Buffer;
        e.buffer.scope = Scope::Global;
        e.buffer.dtype = p.dtype;
        if (p.shape.empty() || p.shape.size() > kMaxRank)
          return fail(p.loc, "tensor '" + p.name + "' must have 1 to 4 dimensions");
        for (const Expr& d : p.shape) {
          if (d->kind == ExprKind::IntImm) {
            if (d->int_value < 1) return fail(d->loc, "dimension of '" + p.name + "' must be positive, found " + std::to_string(d->int_value));
            e.buffer.shape.push_back(d->int_value);
            continue;
          }
          e.buffer.shape.push_back(-1);
          d->type = Type::index();
          symbols.insert(d->name);
        }
      } else {
        e.kind = Entity::Kind::Scalar;
        e.dtype = p.dtype;
      }
      TG_RETURN_IF_ERROR(declare(p.name, p.loc, e, p.is_tensor ? "tensor" : "scalar"));
    }
    for (const Param& p : k_.params) {
      for (const Expr& d : p.shape) {
        if (d->kind != ExprKind::Var || lookup(d->name)) continue;
        Entity e;
        e.kind = Entity::Kind::Symbol;
        TG_RETURN_IF_ERROR(declare(d->name, d->loc, e, "shape symbol"));
      }
    }
    for (const Param& p : k_.params) {
      for (const Expr& d : p.shape) {
        if (d->kind != ExprKind::Var) continue;
        if (lookup(d->name)->kind != Entity::Kind::Symbol)
          return fail(d->loc, "'" + d->name + "' is a parameter and cannot also be a shape symbol");
      }
    }
    return Status::ok();
  }

  Status check_grid() {
    ExprCtx ctx;
    ctx.uniform = true;
    ctx.no_block_index = true;
    for (const Expr& g : k_.grid) {
      TG_ASSIGN_OR_RETURN(Type t, infer(g, ctx));
      if (!t.is_index()) return fail(g->loc, "grid dimensions must be integer expressions");
    }
    return Status::ok();
  }

  // --- expressions ------------------------------------------------------------------
  struct ExprCtx {
    bool uniform = false;         // block level: no element loads
    bool no_block_index = false;  // the grid itself
    bool tiles = false;           // a map expression: bare buffer names allowed
    const BufferInfo* map_dst = nullptr;
  };

  Result<Type> infer(const Expr& e, const ExprCtx& ctx) {
    // One bounded walk at the root of each expression, before anything recurses over it:
    // a tree built by the C++ builder has no parser limit in front of it.
    if (infer_depth_ == 0 && expr_height(e, kMaxExprHeight) > kMaxExprHeight)
      return fail(e->loc, "expression is nested too deeply (more than " + std::to_string(kMaxExprHeight) +
                              " operators deep)");
    ++infer_depth_;
    Result<Type> t = infer_inner(e, ctx);
    --infer_depth_;
    if (!t.is_ok()) return t;
    if (int_fold_overflows(e))
      return fail(e->loc, "integer overflow: '" + print_expr(e) + "' does not fit in 64 bits");
    e->type = *t;
    return t;
  }

  Result<Type> numeric(const Expr& e, const ExprCtx& ctx, const char* what) {
    TG_ASSIGN_OR_RETURN(Type t, infer(e, ctx));
    if (t.is_bool()) return fail(e->loc, std::string("'") + what + "' needs a number, found a boolean");
    return t;
  }

  Result<Type> infer_inner(const Expr& e, const ExprCtx& ctx) {
    switch (e->kind) {
      case ExprKind::IntImm: return Type::index();
      case ExprKind::FloatImm: return Type::floating(DType::F32);
      case ExprKind::Var: return infer_var(e, ctx);
      case ExprKind::Load: return infer_load(e, ctx);
      case ExprKind::Tile: return infer_tile(e, ctx);
      case ExprKind::ElemIndex: return infer_elem_index(e, ctx);
      case ExprKind::Cast: {
        TG_ASSIGN_OR_RETURN(Type x, infer(e->args[0], ctx));
        (void)x;
        return value_type_of(e->cast_to);
      }
      case ExprKind::Bitcast: return infer_bitcast(e, ctx);
      case ExprKind::Select: {
        TG_ASSIGN_OR_RETURN(Type c, infer(e->args[0], ctx));
        if (!c.is_bool()) return fail(e->args[0]->loc, "select's condition must be a boolean");
        TG_ASSIGN_OR_RETURN(Type a, infer(e->args[1], ctx));
        TG_ASSIGN_OR_RETURN(Type b, infer(e->args[2], ctx));
        if (a.is_bool() != b.is_bool()) return fail(e->loc, "select's branches must both be booleans or both numbers");
        if (a.is_bool()) return Type::boolean();
        if (a.is_index() && b.is_index()) return Type::index();
        return Type::floating(compute_dtype(a, b));
      }
      case ExprKind::Unary: {
        UnaryOp op = e->unary;
        if (op == UnaryOp::Not) {
          TG_ASSIGN_OR_RETURN(Type x, infer(e->args[0], ctx));
          if (!x.is_bool()) return fail(e->loc, std::string("'!' needs a boolean") + (x.is_index() ? " (for the bits of an integer, '~')" : ""));
          return Type::boolean();
        }
        if (op == UnaryOp::BitNot) {
          TG_ASSIGN_OR_RETURN(Type x, infer(e->args[0], ctx));
          if (!x.is_index()) return fail(e->loc, "'~' needs an integer, found " + type_words(x) + (x.is_bool() ? " (did you mean '!'?)" : ""));
          return Type::index();
        }
        TG_ASSIGN_OR_RETURN(Type x, numeric(e->args[0], ctx, unary_spelling(op)));
        if ((op == UnaryOp::Neg || op == UnaryOp::Abs) && x.is_index()) return Type::index();
        return Type::floating(compute_dtype(x, x));
      }
      case ExprKind::Binary: return infer_binary(e, ctx);
    }
    return fail(e->loc, "unknown expression");
  }

  Result<Type> infer_binary(const Expr& e, const ExprCtx& ctx) {
    BinaryOp op = e->binary;
    if (is_logical(op)) {
      TG_ASSIGN_OR_RETURN(Type a, infer(e->args[0], ctx));
      TG_ASSIGN_OR_RETURN(Type b, infer(e->args[1], ctx));
      if (!a.is_bool() || !b.is_bool())
        return fail(e->loc, std::string("'") + binary_spelling(op) + "' needs boolean operands");
      return Type::boolean();
    }
    if (is_bitwise(op)) return infer_bitwise(e, ctx);
    TG_ASSIGN_OR_RETURN(Type a, numeric(e->args[0], ctx, binary_spelling(op)));
    TG_ASSIGN_OR_RETURN(Type b, numeric(e->args[1], ctx, binary_spelling(op)));
    if (is_comparison(op)) return Type::boolean();
    bool ints = a.is_index() && b.is_index();
    if ((op == BinaryOp::Mod || op == BinaryOp::CeilDiv) && !ints)
      return fail(e->loc, std::string("'") + binary_spelling(op) + "' needs integer operands");
    if (ints && (op == BinaryOp::Div || op == BinaryOp::Mod || op == BinaryOp::CeilDiv)) {
      auto d = const_int(e->args[1]);
      if (d && *d == 0) return fail(e->args[1]->loc, "division by zero");
    }
    if (ints) return Type::index();
    return Type::floating(compute_dtype(a, b));
  }

  /// `& | ^ << >> >>>` take integers only, and give a word (ir/OpList.h).
  Result<Type> infer_bitwise(const Expr& e, const ExprCtx& ctx) {
    const char* op = binary_spelling(e->binary);
    TG_ASSIGN_OR_RETURN(Type a, infer(e->args[0], ctx));
    TG_ASSIGN_OR_RETURN(Type b, infer(e->args[1], ctx));
    for (const Type* t : {&a, &b}) {
      if (t->is_index()) continue;
      std::string hint;
      if (t->is_bool() && (e->binary == BinaryOp::BitAnd || e->binary == BinaryOp::BitOr))
        hint = std::string(" (did you mean '") + op + op + "'?)";
      if (t->is_float() && t->dtype == DType::F32) hint = " (bitcast<i32>(x) gives the bits of an f32)";
      return fail(e->loc, std::string("'") + op + "' needs integer operands, found " + type_words(*t) + hint);
    }
    return Type::index();
  }

  /// bitcast<D>(x): x's dtype and D have the same size, and neither is bool.
  Result<Type> infer_bitcast(const Expr& e, const ExprCtx& ctx) {
    TG_ASSIGN_OR_RETURN(Type x, infer(e->args[0], ctx));
    DType from = bits_dtype(x), to = e->cast_to;
    std::string what = std::string("bitcast<") + dtype_name(to) + ">";
    if (from == DType::Bool || to == DType::Bool)
      return fail(e->loc, what + " of " + type_words(x) + ": bool is a truth value, not a bit pattern (use select or cast)");
    if (dtype_size(from) != dtype_size(to))
      return fail(e->loc, what + " needs an operand of " + std::to_string(dtype_size(to)) + " byte" +
                              (dtype_size(to) == 1 ? "" : "s") + ", found " + type_words(x) + " of " +
                              std::to_string(dtype_size(from)) + " byte" + (dtype_size(from) == 1 ? "" : "s"));
    return value_type_of(to);
  }

  static std::string type_words(const Type& t) {
    if (t.is_bool()) return "a boolean";
    if (t.is_index()) return std::string("an integer (") + dtype_name(t.dtype) + ")";
    return std::string("a float (") + dtype_name(t.dtype) + ")";
  }

  Result<Type> infer_var(const Expr& e, const ExprCtx& ctx) {
    const Entity* ent = lookup(e->name);
    if (!ent) return fail(e->loc, "undefined name '" + e->name + "'");
    switch (ent->kind) {
      case Entity::Kind::Buffer:
        return fail(e->loc, "'" + e->name + "' is a buffer; index it as " + e->name + "[...]" +
                                (ctx.uniform ? "" : " or use it whole in a map"));
      case Entity::Kind::BlockIndex:
        if (ctx.no_block_index) return fail(e->loc, "the grid cannot depend on the block index '" + e->name + "'");
        return Type::index();
      case Entity::Kind::Symbol:
      case Entity::Kind::LoopVar: return Type::index();
      case Entity::Kind::Scalar: return value_type_of(ent->dtype);
    }
    return Type::index();
  }

  Result<Type> infer_load(const Expr& e, const ExprCtx& ctx) {
    const Entity* ent = lookup(e->name);
    if (!ent) return fail(e->loc, "undefined buffer '" + e->name + "'");
    if (ent->kind != Entity::Kind::Buffer) return fail(e->loc, "'" + e->name + "' is not a buffer and cannot be indexed");
    if (ctx.tiles)
      return fail(e->loc, "element load '" + e->name + "[...]' cannot appear in a map (a map reads whole tiles); use a "
                              "parallel loop, or read the value into a loop bound, an if or an offset");
    if (ctx.uniform) TG_RETURN_IF_ERROR(check_block_load(e, ent->buffer, ctx.no_block_index, written_));
    if (e->args.size() != ent->buffer.shape.size())
      return fail(e->loc, "'" + e->name + "' has " + std::to_string(ent->buffer.shape.size()) + " dimensions, indexed with " +
                              std::to_string(e->args.size()));
    for (const Expr& i : e->args) {
      TG_ASSIGN_OR_RETURN(Type t, infer(i, ctx));
      if (!t.is_index()) return fail(i->loc, "index into '" + e->name + "' must be an integer");
    }
    return value_type_of(ent->buffer.dtype);
  }

  Result<Type> infer_tile(const Expr& e, const ExprCtx& ctx) {
    const Entity* ent = lookup(e->name);
    if (!ent || ent->kind != Entity::Kind::Buffer) return fail(e->loc, "undefined buffer '" + e->name + "'");
    if (!ctx.tiles || !ctx.map_dst)
      return fail(e->loc, "buffer '" + e->name + "' used whole outside a map; index it as " + e->name + "[...]");
    const BufferInfo& b = ent->buffer;
    if (b.scope == Scope::Global)
      return fail(e->loc, "map operand '" + e->name + "' is a global tensor; copy it into a shared or fragment tile first");
    const std::vector<int64_t>& dst = ctx.map_dst->shape;
    if (b.shape.size() > dst.size())
      return fail(e->loc, "map operand '" + e->name + "' " + shape_str(b.shape) + " has rank " +
                              std::to_string(b.shape.size()) + ", more than the destination " + shape_str(dst) +
                              " (rank " + std::to_string(dst.size()) + ")");
    // Right-aligned (numpy's rule): a lower-rank operand broadcasts along the leading axes.
    size_t lead = dst.size() - b.shape.size();
    for (size_t i = 0; i < b.shape.size(); ++i) {
      if (b.shape[i] == dst[i + lead] || b.shape[i] == 1) continue;
      return fail(e->loc, "map operand '" + e->name + "' " + shape_str(b.shape) +
                              " does not broadcast to the destination " + shape_str(dst) + " (its dimension " +
                              std::to_string(i) + " against the destination's " + std::to_string(i + lead) +
                              ", shapes aligned at the trailing axes)");
    }
    return value_type_of(b.dtype);
  }

  /// idx(a): only a map has an element being written; its axis must be one of the
  /// destination's.
  Result<Type> infer_elem_index(const Expr& e, const ExprCtx& ctx) {
    std::string spelled = "idx(" + std::to_string(e->int_value) + ")";
    if (!ctx.tiles || !ctx.map_dst)
      return fail(
          e->loc,
          spelled + " is the index of the element a map writes, and this expression is not a map's" +
              (parallel_depth_ > 0 ? " (inside a parallel loop the loop variables are the element's indices)" : ""));
    int64_t rank = int64_t(ctx.map_dst->shape.size());
    if (e->int_value < 0 || e->int_value >= rank)
      return fail(e->loc, spelled + " names axis " + std::to_string(e->int_value) + ", and the map's destination " +
                              shape_str(ctx.map_dst->shape) + " has axes 0.." + std::to_string(rank - 1));
    return Type::index();
  }

  // --- tiles ------------------------------------------------------------------------
  Result<const BufferInfo*> resolve_buffer(const TileRef& t) {
    const Entity* ent = lookup(t.buffer);
    if (!ent) return fail(t.loc, "undefined buffer '" + t.buffer + "'");
    if (ent->kind != Entity::Kind::Buffer) return fail(t.loc, "'" + t.buffer + "' is not a buffer");
    return &ent->buffer;
  }

  Status check_offsets(const TileRef& t, const BufferInfo& b, bool uniform, const char* what = "offset") {
    if (t.offsets.empty()) return Status::ok();
    if (t.offsets.size() != b.shape.size())
      return fail(t.loc, "'" + t.buffer + "' has " + std::to_string(b.shape.size()) + " dimensions, given " +
                             std::to_string(t.offsets.size()) + " offsets");
    ExprCtx ctx;
    ctx.uniform = uniform;
    for (const Expr& o : t.offsets) {
      TG_ASSIGN_OR_RETURN(Type ty, infer(o, ctx));
      if (!ty.is_index()) return fail(o->loc, std::string(what) + " into '" + t.buffer + "' must be an integer");
      if (uniform) TG_RETURN_IF_ERROR(check_loaded_offset(t, b, o));
    }
    return Status::ok();
  }

  Result<const BufferInfo*> whole_buffer(const TileRef& t, const char* role, bool allow_global) {
    TG_ASSIGN_OR_RETURN(const BufferInfo* b, resolve_buffer(t));
    if (!t.offsets.empty()) return fail(t.loc, std::string(role) + " '" + t.buffer + "' must be a whole buffer, without offsets");
    if (!allow_global && b->scope == Scope::Global)
      return fail(t.loc, std::string(role) + " '" + t.buffer + "' is a global tensor; copy it into a shared or fragment tile first");
    return b;
  }

  // --- statements -------------------------------------------------------------------
  Status check_block(const Block& b, bool top_level) {
    for (const Stmt& s : b.stmts) {
      missing_attr_.clear();
      TG_RETURN_IF_ERROR(check_attrs(s.attrs, op_info(s.op).attrs, std::string("'") + op_info(s.op).keyword + "'"));
      if (!missing_attr_.empty())
        return fail(s.loc, std::string("'") + op_info(s.op).keyword + "' needs the attribute '" + missing_attr_ + "'");
      TG_RETURN_IF_ERROR(check_level(s));
      TG_RETURN_IF_ERROR(check_stmt(s, top_level));
    }
    return Status::ok();
  }

  /// The op list's level decides where an op may run: block-level ops never inside a
  /// parallel loop (which is itself one), element-level ops only inside one.
  Status check_level(const Stmt& s) {
    const char* keyword = op_info(s.op).keyword;
    switch (op_info(s.op).level) {
      case OpLevel::Block:
        if (parallel_depth_ == 0) return Status::ok();
        if (s.op == OpKind::Parallel) return fail(s.loc, "parallel loops cannot nest; give one parallel loop several variables");
        return fail(s.loc, std::string("'") + keyword + "' is a block-level op and cannot appear inside a parallel loop");
      case OpLevel::Element:
        if (parallel_depth_ > 0) return Status::ok();
        return fail(s.loc, std::string("'") + keyword + "' is an element-level op and is only allowed inside a parallel loop");
      case OpLevel::Control: return Status::ok();
    }
    return fail(s.loc, "unknown op level");
  }

  Status check_stmt(const Stmt& s, bool top_level) {
    switch (s.op) {
      case OpKind::Alloc: return check_alloc(s, top_level);
      case OpKind::Copy: return check_copy(s);
      case OpKind::Fill: return check_fill(s);
      case OpKind::Gemm: return check_gemm(s);
      case OpKind::Reduce: return check_reduce(s);
      case OpKind::Scan: return check_scan(s);
      case OpKind::Map: return check_map(s);
      case OpKind::Store: return check_store(s);
      case OpKind::AtomicAdd: return check_atomic(s);
      case OpKind::Barrier: return Status::ok();
      case OpKind::For:
      case OpKind::Pipelined: return check_for(s);
      case OpKind::Parallel: return check_parallel(s);
      case OpKind::If: return check_if(s);
    }
    return fail(s.loc, "unknown op");
  }

  Status check_alloc(const Stmt& s, bool top_level) {
    const BufferType& t = s.type;
    if (t.scope == Scope::Global)
      return fail(s.loc, "cannot alloc a global buffer; global tensors are kernel parameters");
    if (t.scope == Scope::Local && parallel_depth_ == 0)
      return fail(s.loc, "local buffer '" + s.name + "' must be allocated inside a parallel loop (it is per thread)");
    if (t.scope != Scope::Local && !top_level)
      return fail(s.loc, std::string(scope_name(t.scope)) + " buffer '" + s.name +
                             "' must be allocated at the top of the kernel body, not inside a loop or if");
    if (t.shape.empty() || t.shape.size() > kMaxRank)
      return fail(s.loc, "buffer '" + s.name + "' must have 1 to 4 dimensions");
    int64_t n = 1;
    for (int64_t d : t.shape) {
      if (d < 1) return fail(s.loc, "dimension of '" + s.name + "' must be positive, found " + std::to_string(d));
      if (d > kMaxBufferElements || n * d > kMaxBufferElements)
        return fail(s.loc, "buffer '" + s.name + "' " + shape_str(t.shape) + " is too large (more than 2^24 elements)");
      n *= d;
    }
    Entity e;
    e.kind = Entity::Kind::Buffer;
    e.buffer = BufferInfo{t.scope, t.dtype, t.shape, s.loc};
    return declare(s.name, s.loc, e, "buffer");
  }

  /// Checks shared by copy, fill and atomic_add: offsets, the extent, and the bounds of
  /// every tile operand.
  Status check_tile_op(const Stmt& s, const std::vector<const BufferInfo*>& bufs) {
    for (size_t i = 0; i < s.tiles.size(); ++i) TG_RETURN_IF_ERROR(check_offsets(s.tiles[i], *bufs[i], true));
    BufferMap visible;
    for (size_t i = 0; i < s.tiles.size(); ++i) visible[s.tiles[i].buffer] = *bufs[i];
    TG_RETURN_IF_ERROR(check_extent_attr(s, bufs));
    TG_ASSIGN_OR_RETURN(std::vector<int64_t> extent, tile_op_extent(s, visible));
    for (size_t i = 0; i < s.tiles.size(); ++i) TG_RETURN_IF_ERROR(check_tile_bounds(s.tiles[i], *bufs[i], extent));
    return Status::ok();
  }

  Status check_copy(const Stmt& s) {
    TG_ASSIGN_OR_RETURN(const BufferInfo* src, resolve_buffer(s.copy_src()));
    TG_ASSIGN_OR_RETURN(const BufferInfo* dst, resolve_buffer(s.copy_dst()));
    if (src->scope == Scope::Local || dst->scope == Scope::Local)
      return fail(s.loc, "copy cannot move local buffers; they exist per thread inside parallel loops");
    // Operands of different rank: a view of the higher-rank global one (ir/TileRules.cpp).
    return check_tile_op(s, {src, dst});
  }

  Status check_fill(const Stmt& s) {
    TG_ASSIGN_OR_RETURN(const BufferInfo* dst, resolve_buffer(s.target()));
    if (dst->scope == Scope::Local) return fail(s.loc, "fill cannot write a local buffer; use store inside the parallel loop");
    ExprCtx ctx;
    ctx.uniform = true;
    TG_ASSIGN_OR_RETURN(Type t, infer(s.value(), ctx));
    (void)t;
    return check_tile_op(s, {dst});
  }

  Status check_gemm(const Stmt& s) {
    TG_ASSIGN_OR_RETURN(const BufferInfo* a, whole_buffer(s.gemm_a(), "gemm operand", false));
    TG_ASSIGN_OR_RETURN(const BufferInfo* b, whole_buffer(s.gemm_b(), "gemm operand", false));
    TG_ASSIGN_OR_RETURN(const BufferInfo* c, resolve_buffer(s.gemm_c()));
    const std::string& cn = s.gemm_c().buffer;
    if (c->scope == Scope::Global)
      return fail(s.gemm_c().loc, "gemm accumulates into '" + cn + "', a global tensor; accumulate into a fragment and copy it out");
    if (c->scope != Scope::Fragment)
      return fail(s.gemm_c().loc, std::string("gemm accumulator '") + cn + "' must be a fragment, not " + scope_name(c->scope));
    if (!s.gemm_c().offsets.empty()) return fail(s.gemm_c().loc, "gemm accumulator '" + cn + "' must be a whole buffer");
    if (a->scope == Scope::Local || b->scope == Scope::Local)
      return fail(s.loc, "gemm operands must be shared or fragment buffers, not local");
    for (const auto* x : {a, b, c})
      if (x->shape.size() != 2) return fail(s.loc, "gemm operands must be 2-dimensional");
    bool ta = stmt_attr_bool(s, "trans_a"), tb = stmt_attr_bool(s, "trans_b");
    int64_t m = ta ? a->shape[1] : a->shape[0], ka = ta ? a->shape[0] : a->shape[1];
    int64_t kb = tb ? b->shape[1] : b->shape[0], n = tb ? b->shape[0] : b->shape[1];
    if (ka != kb)
      return fail(s.loc, "gemm operands do not fit: A " + shape_str(a->shape) + (ta ? " (transposed)" : "") + " has K = " +
                             std::to_string(ka) + ", B " + shape_str(b->shape) + (tb ? " (transposed)" : "") + " has K = " +
                             std::to_string(kb));
    if (c->shape[0] != m || c->shape[1] != n)
      return fail(s.gemm_c().loc, "gemm accumulator '" + cn + "' " + shape_str(c->shape) + " must be [" + std::to_string(m) + ", " +
                             std::to_string(n) + "] to hold A*B");
    bool a_float = dtype_is_float(a->dtype), b_float = dtype_is_float(b->dtype);
    if (a->dtype == DType::Bool || b->dtype == DType::Bool || c->dtype == DType::Bool)
      return fail(s.loc, "gemm does not take bool operands");
    if (a_float != b_float)
      return fail(s.loc, std::string("gemm mixes a float and an integer operand (") + dtype_name(a->dtype) + " and " +
                             dtype_name(b->dtype) + ")");
    if (!a_float && c->dtype != DType::I32)
      return fail(s.gemm_c().loc, std::string("an integer gemm accumulates into i32, not ") + dtype_name(c->dtype));
    if (a_float && !dtype_is_float(c->dtype))
      return fail(s.gemm_c().loc, std::string("a float gemm accumulates into a float dtype, not ") + dtype_name(c->dtype));
    return Status::ok();
  }

  /// reduce src, dst: the rules are in ir/AxisOpRules.cpp.
  Status check_reduce(const Stmt& s) {
    TG_ASSIGN_OR_RETURN(const BufferInfo* src, whole_buffer(s.reduce_src(), "reduce source", false));
    TG_ASSIGN_OR_RETURN(const BufferInfo* dst, whole_buffer(s.reduce_dst(), "reduce destination", false));
    return check_reduce_operands(s, *src, *dst);
  }

  /// scan src, dst, carry: the rules are in ir/AxisOpRules.cpp.
  Status check_scan(const Stmt& s) {
    const TileRef* names[] = {&s.scan_src(), &s.scan_dst(), &s.scan_carry()};
    const char* roles[] = {"scan source", "scan destination", "scan carry"};
    const BufferInfo* bufs[3];
    for (int i = 0; i < 3; ++i) {
      TG_ASSIGN_OR_RETURN(bufs[i], whole_buffer(*names[i], roles[i], false));
    }
    return check_scan_operands(s, *bufs[0], *bufs[1], *bufs[2]);
  }

  Status check_map(const Stmt& s) {
    TG_ASSIGN_OR_RETURN(const BufferInfo* dst, whole_buffer(s.target(), "map destination", false));
    if (dst->scope == Scope::Local) return fail(s.loc, "map writes shared or fragment tiles; use store for local buffers");
    ExprCtx ctx;
    ctx.tiles = true;
    ctx.map_dst = dst;
    TG_ASSIGN_OR_RETURN(Type t, infer(s.value(), ctx));
    (void)t;
    return Status::ok();
  }

  Status check_store(const Stmt& s) {
    TG_ASSIGN_OR_RETURN(const BufferInfo* b, resolve_buffer(s.target()));
    const TileRef& t = s.target();
    if (t.offsets.size() != b->shape.size())
      return fail(t.loc, "'" + t.buffer + "' has " + std::to_string(b->shape.size()) + " dimensions, indexed with " +
                             std::to_string(t.offsets.size()));
    TG_RETURN_IF_ERROR(check_offsets(t, *b, false, "index"));
    for (size_t i = 0; i < t.offsets.size(); ++i) {
      auto c = const_int(t.offsets[i]);
      if (c && b->shape[i] > 0 && (*c < 0 || *c >= b->shape[i]))
        return fail(t.offsets[i]->loc, "index " + std::to_string(*c) + " is outside '" + t.buffer + "' (dimension " +
                                           std::to_string(i) + " has size " + std::to_string(b->shape[i]) + ")");
    }
    ExprCtx ctx;
    TG_ASSIGN_OR_RETURN(Type v, infer(s.value(), ctx));
    (void)v;
    return Status::ok();
  }

  Status check_atomic(const Stmt& s) {
    TG_ASSIGN_OR_RETURN(const BufferInfo* src, resolve_buffer(s.atomic_src()));
    TG_ASSIGN_OR_RETURN(const BufferInfo* dst, resolve_buffer(s.atomic_dst()));
    if (dst->scope != Scope::Global)
      return fail(s.atomic_dst().loc, "atomic_add adds into a global tensor, and '" + s.atomic_dst().buffer + "' is " +
                                          scope_name(dst->scope));
    if (src->scope == Scope::Global || src->scope == Scope::Local)
      return fail(s.atomic_src().loc, "atomic_add's source must be a shared or fragment tile");
    if (dst->dtype != DType::F32 && dst->dtype != DType::F64 && dst->dtype != DType::F16 && dst->dtype != DType::BF16 &&
        dst->dtype != DType::I32)
      return fail(s.atomic_dst().loc, std::string("atomic_add does not support ") + dtype_name(dst->dtype) + " tensors");
    return check_tile_op(s, {src, dst});
  }

  Status check_for(const Stmt& s) {
    if (s.op == OpKind::Pipelined) {
      int64_t stages = stmt_attr_int(s, "stages");
      if (stages < 1 || stages > 16)
        return fail(find_attr(s.attrs, "stages")->loc, "stages must be 1 to 16, found " + std::to_string(stages));
    }
    ExprCtx ctx;
    ctx.uniform = parallel_depth_ == 0;
    for (const Expr& e : s.exprs) {
      TG_ASSIGN_OR_RETURN(Type t, infer(e, ctx));
      if (!t.is_index()) return fail(e->loc, "loop bounds must be integer expressions");
    }
    scopes_.emplace_back();
    Entity v;
    v.kind = Entity::Kind::LoopVar;
    Status st = declare(s.vars[0], s.loc, v, "loop variable");
    if (st.is_ok()) st = check_block(s.body(), false);
    scopes_.pop_back();
    return st;
  }

  Status check_parallel(const Stmt& s) {
    if (s.vars.size() > kMaxRank) return fail(s.loc, "a parallel loop takes at most 4 variables");
    for (const Expr& e : s.exprs) {
      auto c = const_int(e);
      if (!c) return fail(e->loc, "parallel loop extents must be constant integers (tile sizes)");
      if (*c < 1) return fail(e->loc, "parallel loop extent must be positive, found " + std::to_string(*c));
      e->type = Type::index();
    }
    scopes_.emplace_back();
    ++parallel_depth_;
    Status st = Status::ok();
    for (const std::string& name : s.vars) {
      Entity v;
      v.kind = Entity::Kind::LoopVar;
      st = declare(name, s.loc, v, "loop variable");
      if (!st.is_ok()) break;
    }
    if (st.is_ok()) st = check_block(s.body(), false);
    --parallel_depth_;
    scopes_.pop_back();
    return st;
  }

  Status check_if(const Stmt& s) {
    ExprCtx ctx;
    ctx.uniform = parallel_depth_ == 0;
    TG_ASSIGN_OR_RETURN(Type t, infer(s.cond(), ctx));
    if (!t.is_bool()) return fail(s.cond()->loc, "if needs a boolean condition, found " + std::string(t.is_index() ? "an integer" : "a number"));
    for (const Block& b : s.blocks) {
      scopes_.emplace_back();
      Status st = check_block(b, false);
      scopes_.pop_back();
      TG_RETURN_IF_ERROR(st);
    }
    return Status::ok();
  }

  Kernel& k_;
  VerifyOptions opts_;
  std::vector<std::map<std::string, Entity, std::less<>>> scopes_;
  BufferMap buffers_;
  std::set<std::string> written_;  // tensors the kernel writes: no block-level loads of them
  int parallel_depth_ = 0;
  int infer_depth_ = 0;  // > 0 inside an expression: the height check runs at roots only
  std::string missing_attr_;
};

}  // namespace

Status verify(Kernel& k, const VerifyOptions& options) { return Verifier(k, options).run(); }

}  // namespace tegula::ir
