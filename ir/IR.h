/// \file
/// The tile IR: kernels written at block level, with dataflow (tile ops) separated from
/// scheduling (loops and lowering decisions). The op list and the semantics of each op are
/// in ir/OpList.h; this header defines the node structures.
///
/// Expressions are shared, immutable trees (Expr) except for their `type`, which the verifier
/// fills in. Statements (Stmt) are values in blocks. A Stmt is uniform: its operands sit in
/// `tiles`, `exprs` and `vars` in the order the op's format lists them, which is what lets
/// one parser, one printer and one walker serve every op.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/DType.h"
#include "core/Status.h"
#include "ir/OpList.h"

namespace tegula::ir {

// ---------------------------------------------------------------------------------------
// Enumerations generated from the op list.

enum class OpKind : uint8_t {
#define TG_OP_ENUM(e, kw, fmt, roles, level, attrs, blocks) e,
  TG_FOR_EACH_OP(TG_OP_ENUM)
#undef TG_OP_ENUM
};

enum class UnaryOp : uint8_t {
#define TG_UNARY_ENUM(e, s) e,
  TG_FOR_EACH_UNARY(TG_UNARY_ENUM)
#undef TG_UNARY_ENUM
};

enum class BinaryOp : uint8_t {
#define TG_BINARY_ENUM(e, s, p) e,
  TG_FOR_EACH_BINARY(TG_BINARY_ENUM)
#undef TG_BINARY_ENUM
};

enum class Scope : uint8_t {
#define TG_SCOPE_ENUM(e, s) e,
  TG_FOR_EACH_SCOPE(TG_SCOPE_ENUM)
#undef TG_SCOPE_ENUM
};

enum class ReduceKind : uint8_t {
#define TG_REDUCE_ENUM(e, s) e,
  TG_FOR_EACH_REDUCE(TG_REDUCE_ENUM)
#undef TG_REDUCE_ENUM
};

/// Where an op may run (the level column of the op list).
enum class OpLevel : uint8_t {
  Block,    ///< the whole block together; never inside a parallel loop
  Element,  ///< one element per parallel-loop iteration; only inside one
  Control,  ///< structure legal at either level (for, if, alloc)
};

/// What an op does with the elements an operand names (a bit set: ReadWrite = Read | Write).
enum class Access : uint8_t { Read = 1, Write = 2, ReadWrite = 3 };
inline bool reads(Access a) { return (uint8_t(a) & uint8_t(Access::Read)) != 0; }
inline bool writes(Access a) { return (uint8_t(a) & uint8_t(Access::Write)) != 0; }

/// The role of one %tile or %elem operand, from the op list's roles column: `access`, plus
/// a read when the bool attribute `read_if` (if any) has the value `read_if_value`.
struct OperandRole {
  Access access = Access::Read;
  std::string_view read_if;
  bool read_if_value = true;
};

/// The roles of an op's %tile and %elem operands, in format order (Stmt::tiles).
struct OpRoles {
  size_t count = 0;
  OperandRole operand[3];
};

/// Static facts about one op, from the op list.
struct OpInfo {
  OpKind kind;
  const char* keyword;
  const char* format;
  const char* roles;  ///< the roles column as written
  OpLevel level;
  const char* attrs;
  int blocks;
};

const OpInfo& op_info(OpKind kind);
const OpRoles& op_roles(OpKind kind);
const char* level_name(OpLevel level);  ///< "block", "element", "control"
std::optional<OpKind> op_from_keyword(std::string_view keyword);
const char* unary_spelling(UnaryOp op);
const char* binary_spelling(BinaryOp op);
int binary_precedence(BinaryOp op);  ///< 0 for call-style binaries (max, min, ceildiv)
std::optional<UnaryOp> unary_from_call(std::string_view name);    ///< abs, exp, ...
std::optional<BinaryOp> binary_from_call(std::string_view name);  ///< max, min, ceildiv
const char* scope_name(Scope s);
std::optional<Scope> parse_scope(std::string_view s);
const char* reduce_name(ReduceKind k);
std::optional<ReduceKind> parse_reduce(std::string_view s);
bool is_comparison(BinaryOp op);
bool is_logical(BinaryOp op);
bool is_bitwise(BinaryOp op);  ///< & | ^ << >> >>> (ir/BitOps.h has their rule)
/// Whether a unary op is a prefix operator (`-`, `!`, `~`: a symbol) rather than a call.
bool unary_is_prefix(UnaryOp op);

// ---------------------------------------------------------------------------------------
// Expressions.

/// The type of an expression. Index: integer arithmetic (literals, block indices, loop
/// variables, shape symbols, integer scalars and loads of integer buffers); `/` and `%` on
/// Index are floor division and floor modulo. Float: floating-point values, with the dtype
/// in which a backend should compute (f64 if any operand is f64, else the widest operand
/// dtype; literals adapt). Bool: comparisons and logic. For Index, `dtype` is the integer
/// dtype the value is exact in, which only bitcast reads (ir/OpList.h): that of a load, scalar
/// or cast, and i32 (a word) for every other integer.
struct Type {
  enum class Kind : uint8_t { Unknown, Index, Float, Bool };
  Kind kind = Kind::Unknown;
  DType dtype = DType::F32;  ///< meaningful for Float

  static Type unknown() { return {}; }
  static Type index() { return {Kind::Index, DType::I32}; }
  static Type integer(DType d) { return {Kind::Index, d}; }  ///< an i8, u8 or i32 value
  static Type boolean() { return {Kind::Bool, DType::Bool}; }
  static Type floating(DType d) { return {Kind::Float, d}; }
  bool is_index() const { return kind == Kind::Index; }
  bool is_float() const { return kind == Kind::Float; }
  bool is_bool() const { return kind == Kind::Bool; }
  bool operator==(const Type& o) const {
    return kind == o.kind && (kind != Kind::Float || dtype == o.dtype);
  }
};

enum class ExprKind : uint8_t {
#define TG_EXPR_ENUM(e, what) e,
  TG_FOR_EACH_EXPR(TG_EXPR_ENUM)
#undef TG_EXPR_ENUM
};

struct ExprNode;
using Expr = std::shared_ptr<ExprNode>;

struct ExprNode {
  ExprKind kind = ExprKind::IntImm;
  int64_t int_value = 0;  ///< IntImm's value; ElemIndex's axis
  double float_value = 0;
  std::string name;  ///< Var, Load, Tile
  UnaryOp unary = UnaryOp::Neg;
  BinaryOp binary = BinaryOp::Add;
  DType cast_to = DType::F32;  ///< Cast, Bitcast
  std::vector<Expr> args;  ///< Load indices; operands of Unary, Binary, Cast, Bitcast, Select
  SourceLoc loc;
  Type type;  ///< filled in by the verifier
};

Expr int_imm(int64_t v, SourceLoc loc = {});
Expr float_imm(double v, SourceLoc loc = {});
Expr var(std::string name, SourceLoc loc = {});
Expr load(std::string buffer, std::vector<Expr> indices, SourceLoc loc = {});
Expr tile_use(std::string buffer, SourceLoc loc = {});
Expr elem_index(int64_t axis, SourceLoc loc = {});  ///< idx(axis), inside a map
Expr unary(UnaryOp op, Expr x, SourceLoc loc = {});
Expr binary(BinaryOp op, Expr a, Expr b, SourceLoc loc = {});
Expr cast(DType to, Expr x, SourceLoc loc = {});
Expr bitcast(DType to, Expr x, SourceLoc loc = {});
Expr select(Expr c, Expr a, Expr b, SourceLoc loc = {});

/// The value of an expression made only of integer literals and arithmetic, if it is one.
std::optional<int64_t> const_int(const Expr& e);
/// Structural equality (ignores locations and types).
bool same_expr(const Expr& a, const Expr& b);

// ---------------------------------------------------------------------------------------
// Attributes: literal values attached to ops and kernels.

struct AttrValue {
  enum class Kind : uint8_t { Bool, Int, Float, Ident, String, List };
  Kind kind = Kind::Int;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;  ///< Ident, String
  std::vector<AttrValue> list;

  static AttrValue of_bool(bool v);
  static AttrValue of_int(int64_t v);
  static AttrValue of_float(double v);
  static AttrValue of_ident(std::string v);
  static AttrValue of_string(std::string v);
  static AttrValue of_list(std::vector<AttrValue> v);
  static AttrValue of_ints(const std::vector<int64_t>& v);
  bool operator==(const AttrValue& o) const;
};

struct Attr {
  std::string name;
  AttrValue value;
  SourceLoc loc;
};

const Attr* find_attr(const std::vector<Attr>& attrs, std::string_view name);
void set_attr(std::vector<Attr>& attrs, std::string name, AttrValue value);

// ---------------------------------------------------------------------------------------
// Statements.

/// A tile of a buffer: the whole buffer (no offsets) or the tile starting at `offsets`, one
/// per dimension. For %elem operands the offsets are the element's indices.
struct TileRef {
  std::string buffer;
  std::vector<Expr> offsets;
  SourceLoc loc;
};

/// `scope dtype[d0, d1, ...]`, the %type operand of alloc.
struct BufferType {
  Scope scope = Scope::Shared;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;

  int64_t elements() const;
};

struct Stmt;
struct Block {
  std::vector<Stmt> stmts;
};

struct Stmt {
  OpKind op = OpKind::Barrier;
  SourceLoc loc;
  std::string name;               ///< %name
  BufferType type;                ///< %type
  std::vector<TileRef> tiles;     ///< %tile and %elem operands, in format order
  std::vector<Expr> exprs;        ///< %expr and %exprs operands, in format order
  std::vector<std::string> vars;  ///< %var and %vars operands
  std::vector<Attr> attrs;
  std::vector<Block> blocks;      ///< loop body; if: then and (optional) else

  // Named operand accessors, one per op role (the format fixes the positions).
  const TileRef& copy_src() const { return tiles[0]; }
  const TileRef& copy_dst() const { return tiles[1]; }
  const TileRef& gemm_a() const { return tiles[0]; }
  const TileRef& gemm_b() const { return tiles[1]; }
  const TileRef& gemm_c() const { return tiles[2]; }
  const TileRef& reduce_src() const { return tiles[0]; }
  const TileRef& reduce_dst() const { return tiles[1]; }
  const TileRef& scan_src() const { return tiles[0]; }
  const TileRef& scan_dst() const { return tiles[1]; }
  const TileRef& scan_carry() const { return tiles[2]; }
  const TileRef& atomic_src() const { return tiles[0]; }
  const TileRef& atomic_dst() const { return tiles[1]; }
  const TileRef& target() const { return tiles[0]; }  ///< fill, map, store
  const Expr& value() const { return exprs[0]; }      ///< fill, map, store
  const Expr& lo() const { return exprs[0]; }         ///< for, pipelined
  const Expr& hi() const { return exprs[1]; }         ///< for, pipelined
  const Expr& cond() const { return exprs[0]; }       ///< if
  const Block& body() const { return blocks[0]; }     ///< loops
};

/// How statement `s` accesses its operand `s.tiles[i]`: its role in the op list, with the
/// role's attribute condition decided by `s`'s attributes.
Access operand_access(const Stmt& s, size_t i);

/// An attribute's value on a statement, or the default from the op's attribute spec.
std::optional<AttrValue> stmt_attr(const Stmt& s, std::string_view name);
bool stmt_attr_bool(const Stmt& s, std::string_view name);
int64_t stmt_attr_int(const Stmt& s, std::string_view name);
double stmt_attr_float(const Stmt& s, std::string_view name);
std::string stmt_attr_ident(const Stmt& s, std::string_view name);
std::vector<int64_t> stmt_attr_ints(const Stmt& s, std::string_view name);

// ---------------------------------------------------------------------------------------
// Kernels.

/// A kernel parameter: a global tensor (shape given, dims are integers or shape symbols) or
/// a scalar.
struct Param {
  std::string name;
  DType dtype = DType::F32;
  bool is_tensor = false;
  std::vector<Expr> shape;  ///< IntImm or Var (a shape symbol)
  SourceLoc loc;
};

struct Kernel {
  std::string name;
  std::vector<Param> params;
  std::vector<Expr> grid;  ///< 1 to 3 block counts (x, y, z)
  int64_t threads = 0;     ///< threads per block
  std::vector<Attr> attrs;
  Block body;
  SourceLoc loc;

  const Param* find_param(std::string_view name) const;
  /// Shape symbols in order of first appearance in the parameters' shapes.
  std::vector<std::string> symbols() const;
};

/// The names of the block indices.
inline constexpr const char* kBlockIndexNames[3] = {"bx", "by", "bz"};

}  // namespace tegula::ir
