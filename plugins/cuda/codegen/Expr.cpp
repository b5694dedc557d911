/// \file
/// Values and expressions: C++ representations of dtypes, exact conversions, and the
/// translation of IR expressions (ir/IR.h: Index is long long with floor division, Float is
/// float, or double for f64, Bool is bool).
#include <cmath>
#include <cstdint>
#include <cstring>

#include "plugins/cuda/codegen/Emitter.h"

namespace tegula::cuda::gen {

std::string itos(int64_t v) { return std::to_string(v); }

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? sep : "") + parts[i];
  return s;
}

const char* rep_type(Rep r) {
  switch (r) {
    case Rep::F32: return "float";
    case Rep::F64: return "double";
    case Rep::I32: return "int";
    case Rep::I64: return "long long";
    case Rep::Bool: return "bool";
  }
  return "float";
}

Rep frag_rep(DType d) {
  if (d == DType::F64) return Rep::F64;
  if (dtype_is_float(d)) return Rep::F32;
  return Rep::I32;  // i8, u8, i32; bool as 0/1
}

Rep natural_rep(DType d) {
  if (d == DType::F64) return Rep::F64;
  if (dtype_is_float(d)) return Rep::F32;
  if (d == DType::Bool) return Rep::Bool;
  return Rep::I32;
}

const char* raw_type(DType d) {
  switch (d) {
    case DType::F64: return "double";
    case DType::F32:
    case DType::TF32: return "float";
    case DType::F16:
    case DType::BF16: return "unsigned short";
    case DType::E4M3:
    case DType::E5M2:
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3:
    case DType::U8:
    case DType::Bool: return "unsigned char";
    case DType::I8: return "signed char";
    case DType::I32: return "int";
  }
  return "float";
}

std::string convert(const Value& v, Rep to) {
  if (v.rep == to) return v.code;
  if (to == Rep::Bool) {
    if (v.rep == Rep::F32) return "(" + v.code + " != 0.0f)";
    if (v.rep == Rep::F64) return "(" + v.code + " != 0.0)";
    return "(" + v.code + " != 0)";
  }
  if (v.rep == Rep::Bool) return std::string("((") + rep_type(to) + ")(" + v.code + " ? 1 : 0))";
  // float -> integer conversions go through round_to; a plain conversion here truncates,
  // which only index arithmetic on integral values ever needs.
  return std::string("((") + rep_type(to) + ")(" + v.code + "))";
}

/// The template arguments of Conversions.inc's generic codec for a narrow float: the
/// format's description (core/DType.h), and the saturating mode (the only one this backend
/// declares: its descriptions have no nonsaturating_stores feature).
static std::string mini_args(DType d, bool with_mode) {
  const FloatFormat& f = *float_format(d);
  std::string a = std::to_string(f.exp_bits) + ", " + std::to_string(f.man_bits) + ", " + std::to_string(f.bias) + ", " +
                  (f.sign ? "1" : "0") + ", " + (f.subnormals ? "1" : "0") + ", " + std::to_string(int(f.specials));
  return "<" + a + (with_mode ? ", 1>" : ">");
}

static std::string int_bounds(DType d) {
  switch (d) {
    case DType::I8: return "-128, 127";
    case DType::U8: return "0, 255";
    default: return "(int)0x80000000, 0x7fffffff";
  }
}

Value round_to(const Value& v, DType d) {
  const std::string& c = v.code;
  bool dbl = v.rep == Rep::F64;
  auto via_float = [&]() -> std::string {
    if (v.rep == Rep::F32) return c;
    if (v.rep == Rep::F64) return "tg_d2f_odd(" + c + ")";
    return convert(v, Rep::F32);
  };
  switch (d) {
    case DType::F64: return {convert(v, Rep::F64), Rep::F64};
    case DType::F32: return {convert(v, Rep::F32), Rep::F32};
    case DType::TF32: return {"tg_rnd_tf32(" + via_float() + ")", Rep::F32};
    case DType::F16: return {"tg_rnd_f16(" + via_float() + ")", Rep::F32};
    case DType::BF16: return {"tg_rnd_bf16(" + via_float() + ")", Rep::F32};
    case DType::E4M3: return {"tg_rnd_e4m3(" + via_float() + ")", Rep::F32};
    case DType::E5M2: return {"tg_rnd_e5m2(" + via_float() + ")", Rep::F32};
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return {"tg_rnd_mini" + mini_args(d, true) + "(" + via_float() + ")", Rep::F32};
    case DType::I8:
    case DType::U8:
    case DType::I32:
      if (v.rep == Rep::F32) return {"tg_f2i(" + c + ", " + int_bounds(d) + ")", Rep::I32};
      if (dbl) return {"tg_d2i(" + c + ", " + int_bounds(d) + ")", Rep::I32};
      if (v.rep == Rep::Bool) return {"(" + c + " ? 1 : 0)", Rep::I32};
      if (v.rep == Rep::I32 && d == DType::I32) return v;
      return {"tg_ll2i((long long)(" + c + "), " + int_bounds(d) + ")", Rep::I32};
    case DType::Bool: return {"(" + convert(v, Rep::Bool) + " ? 1 : 0)", Rep::I32};
  }
  return v;
}

std::string encode(const Value& v, DType d) {
  auto via_float = [&]() -> std::string {
    if (v.rep == Rep::F32) return v.code;
    if (v.rep == Rep::F64) return "tg_d2f_odd(" + v.code + ")";
    return convert(v, Rep::F32);
  };
  switch (d) {
    case DType::F64: return convert(v, Rep::F64);
    case DType::F32: return convert(v, Rep::F32);
    case DType::TF32: return "tg_rnd_tf32(" + via_float() + ")";
    case DType::F16: return "tg_enc_f16(" + via_float() + ")";
    case DType::BF16: return "tg_enc_bf16(" + via_float() + ")";
    case DType::E4M3: return "tg_enc_e4m3(" + via_float() + ")";
    case DType::E5M2: return "tg_enc_e5m2(" + via_float() + ")";
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return "(unsigned char)tg_enc_mini" + mini_args(d, true) + "(" + via_float() + ")";
    case DType::I8: return "(signed char)" + round_to(v, d).code;
    case DType::U8: return "(unsigned char)" + round_to(v, d).code;
    case DType::I32: return round_to(v, d).code;
    case DType::Bool: return "(unsigned char)" + round_to(v, d).code;
  }
  return v.code;
}

Value decode(const std::string& raw, DType d) {
  switch (d) {
    case DType::F64: return {raw, Rep::F64};
    case DType::F32:
    case DType::TF32: return {raw, Rep::F32};
    case DType::F16: return {"tg_dec_f16(" + raw + ")", Rep::F32};
    case DType::BF16: return {"tg_dec_bf16(" + raw + ")", Rep::F32};
    case DType::E4M3: return {"tg_dec_e4m3(" + raw + ")", Rep::F32};
    case DType::E5M2: return {"tg_dec_e5m2(" + raw + ")", Rep::F32};
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return {"tg_dec_mini" + mini_args(d, false) + "(" + raw + ")", Rep::F32};
    case DType::I8:
    case DType::U8:
    case DType::I32: return {"((int)" + raw + ")", Rep::I32};
    case DType::Bool: return {"(" + raw + " != 0)", Rep::Bool};
  }
  return {raw, Rep::F32};
}

std::string float_literal(double x, Rep rep) {
  char buf[64];
  if (rep == Rep::F64) {
    uint64_t bits;
    std::memcpy(&bits, &x, 8);
    std::snprintf(buf, sizeof buf, "__longlong_as_double(0x%016llxLL)", (unsigned long long)bits);
    return buf;
  }
  float f = float(x);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  std::snprintf(buf, sizeof buf, "__uint_as_float(0x%08xu)", bits);
  return buf;
}

std::string exact_literal(double x, Rep rep) {
  switch (rep) {
    case Rep::F32:
    case Rep::F64: return float_literal(x, rep);
    case Rep::Bool: return x != 0 ? "true" : "false";
    case Rep::I32: {
      // INT_MIN has no decimal spelling of type int: its bits then.
      char buf[32];
      std::snprintf(buf, sizeof buf, "(int)0x%08xu", unsigned(uint32_t(int32_t(x))));
      return buf;
    }
    case Rep::I64: return "(" + itos(int64_t(x)) + "LL)";
  }
  return float_literal(x, rep);
}

Rep exact_rep(double x, Rep rep) {
  switch (rep) {
    case Rep::F64: return Rep::F64;
    case Rep::F32: return std::isnan(x) || double(float(x)) == x ? Rep::F32 : Rep::F64;
    case Rep::Bool: return x == 0 || x == 1 ? Rep::Bool : Rep::F64;
    case Rep::I32:
    case Rep::I64: return x == std::floor(x) && x >= -2147483648.0 && x <= 2147483647.0 ? rep : Rep::F64;
  }
  return Rep::F64;
}

Value literal_value(double x, DType d) {
  double r = round_to_dtype(d, x);
  Rep rep = natural_rep(d);
  return {exact_literal(r, rep), rep};
}

std::string raw_literal(double x, DType d) {
  uint8_t bytes[8] = {0};
  store_element(d, x, bytes);
  uint64_t v = 0;
  size_t n = dtype_size(d);
  for (size_t i = 0; i < n; ++i) v |= uint64_t(bytes[i]) << (8 * i);
  char buf[64];
  switch (d) {
    case DType::F64: std::snprintf(buf, sizeof buf, "__longlong_as_double(0x%016llxLL)", (unsigned long long)v); break;
    case DType::F32:
    case DType::TF32: std::snprintf(buf, sizeof buf, "__uint_as_float(0x%08xu)", unsigned(v)); break;
    case DType::I32: std::snprintf(buf, sizeof buf, "(int)0x%08xu", unsigned(v)); break;
    case DType::I8: std::snprintf(buf, sizeof buf, "(signed char)0x%02x", unsigned(v)); break;
    default: std::snprintf(buf, sizeof buf, "(%s)0x%llxu", raw_type(d), (unsigned long long)v); break;
  }
  return buf;
}

// --- expressions -----------------------------------------------------------------------

static Rep rep_of_type(const ir::Type& t) {
  if (t.is_index()) return Rep::I64;
  if (t.is_bool()) return Rep::Bool;
  return t.dtype == DType::F64 ? Rep::F64 : Rep::F32;
}

Result<std::string> Emitter::expr_as(const ir::Expr& e, Rep rep, const MapContext* map) {
  // Float literals adapt to the precision they are used in.
  if (e->kind == ir::ExprKind::FloatImm && (rep == Rep::F32 || rep == Rep::F64)) return float_literal(e->float_value, rep);
  if (e->kind == ir::ExprKind::IntImm && (rep == Rep::F32 || rep == Rep::F64)) return float_literal(double(e->int_value), rep);
  TG_ASSIGN_OR_RETURN(Value v, expr(e, map));
  return convert(v, rep);
}

Result<Value> Emitter::value_for(const ir::Expr& e, DType d, const MapContext* map) {
  if (e->kind == ir::ExprKind::FloatImm) return literal_value(e->float_value, d);
  if (e->kind == ir::ExprKind::IntImm) return literal_value(double(e->int_value), d);
  return expr(e, map);
}

/// The bits of a float held as f32 in its 1- or 2-byte dtype, a NaN canonical with its sign
/// (the hardware conversions give 0x7fff and 0x7f for any NaN: no sign, not canonical).
std::string Emitter::narrow_float_bits(const Value& x, DType d) {
  if (!dtype_is_float(d)) return encode(x, d);
  uint64_t nan = 0, sign = 0;
  switch (d) {
    case DType::F16: nan = 0x7e00, sign = 0x8000; break;
    case DType::BF16: nan = 0x7fc0, sign = 0x8000; break;
    case DType::E4M3: nan = 0x7f, sign = 0x80; break;
    case DType::E5M2: nan = 0x7e, sign = 0x80; break;
    default: return encode(x, d);
  }
  std::string v = convert(x, Rep::F32);
  return "((" + v + ") != (" + v + ") ? (signbit(" + v + ") ? " + std::to_string(sign | nan) + "u : " + std::to_string(nan) +
         "u) : (unsigned)(" + encode(x, d) + "))";
}

Result<Value> Emitter::bitcast(const ir::Expr& e, const MapContext* map) {
  const ir::Expr& arg = e->args[0];
  DType from = arg->type.dtype, to = e->cast_to;
  TG_ASSIGN_OR_RETURN(Value x, expr(arg, map));
  // The bits as an unsigned integer of the dtypes' size: an integer truncated, a float
  // encoded as a store would (f32 and f64 with a NaN made canonical).
  std::string bits;
  size_t size = dtype_size(from);
  if (arg->type.is_index()) bits = "(" + convert(x, Rep::I64) + ")";
  else if (from == DType::F64) bits = "tg_dbits(" + convert(x, Rep::F64) + ")";
  else if (size == 4) bits = "tg_fbits(" + convert(x, Rep::F32) + ")";
  else bits = "(" + narrow_float_bits(x, from) + ")";
  switch (size) {
    case 8: return Value{"__longlong_as_double((long long)" + bits + ")", Rep::F64};
    case 4:
      if (to == DType::I32) return Value{"((long long)(int)(unsigned)" + bits + ")", Rep::I64};
      return Value{"__uint_as_float((unsigned)" + bits + ")", Rep::F32};
    default: break;
  }
  std::string raw = std::string("((") + raw_type(to) + ")(" + (size == 2 ? "unsigned short" : "unsigned char") + ")" + bits + ")";
  Value v = decode(raw, to);
  if (v.rep == Rep::I32) return Value{"((long long)" + v.code + ")", Rep::I64};
  return v;
}

Result<Value> Emitter::expr(const ir::Expr& e, const MapContext* map) {
  using ir::ExprKind;
  switch (e->kind) {
    case ExprKind::IntImm: return Value{"(" + itos(e->int_value) + "LL)", Rep::I64};
    case ExprKind::FloatImm: return Value{float_literal(e->float_value, Rep::F32), Rep::F32};
    case ExprKind::Var: {
      for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
        auto f = it->find(e->name);
        if (f != it->end()) return Value{f->second, rep_of_type(e->type)};
      }
      return error(ErrorCode::Internal, "cuda codegen: unbound name '" + e->name + "'", e->loc);
    }
    case ExprKind::Tile: {
      if (!map || !map->operands) return error(ErrorCode::Internal, "cuda codegen: a tile operand outside a map", e->loc);
      auto f = map->operands->find(e->name);
      if (f == map->operands->end()) return error(ErrorCode::Internal, "cuda codegen: map operand '" + e->name + "' not prepared", e->loc);
      Value v = f->second;
      return v;
    }
    case ExprKind::ElemIndex: {
      if (!map || !map->coords || size_t(e->int_value) >= map->coords->size())
        return error(ErrorCode::Internal, "cuda codegen: idx(" + itos(e->int_value) + ") outside a map", e->loc);
      return Value{"((long long)" + (*map->coords)[size_t(e->int_value)] + ")", Rep::I64};
    }
    case ExprKind::Load: {
      const Buffer* b = buffer(e->name);
      if (!b) return error(ErrorCode::Internal, "cuda codegen: unknown buffer '" + e->name + "'", e->loc);
      // Lowering makes parallel loops read a shared copy of a fragment (stage_fragment_reads),
      // and read_lowered refuses a fragment read by index.
      if (b->scope == ir::Scope::Fragment)
        return error(ErrorCode::Internal, "cuda codegen: fragment '" + e->name + "' read by index", e->loc);
      std::vector<std::string> coords;
      for (const ir::Expr& i : e->args) {
        TG_ASSIGN_OR_RETURN(std::string c, index_expr(i));
        coords.push_back(c);
      }
      Value v = read_element(*b, coords, 0.0);
      // Integer elements are Index values.
      if (v.rep == Rep::I32) return Value{"((long long)" + v.code + ")", Rep::I64};
      return v;
    }
    case ExprKind::Cast: {
      TG_ASSIGN_OR_RETURN(Value x, expr(e->args[0], map));
      Value r = round_to(x, e->cast_to);
      if (e->cast_to == DType::Bool) return Value{"(" + r.code + " != 0)", Rep::Bool};
      if (r.rep == Rep::I32) return Value{"((long long)" + r.code + ")", Rep::I64};
      return r;
    }
    case ExprKind::Bitcast: return bitcast(e, map);
    case ExprKind::Select: {
      Rep rep = rep_of_type(e->type);
      TG_ASSIGN_OR_RETURN(std::string c, expr_as(e->args[0], Rep::Bool, map));
      TG_ASSIGN_OR_RETURN(std::string a, expr_as(e->args[1], rep, map));
      TG_ASSIGN_OR_RETURN(std::string b, expr_as(e->args[2], rep, map));
      return Value{"(" + c + " ? " + a + " : " + b + ")", rep};
    }
    case ExprKind::Unary: {
      Rep rep = rep_of_type(e->type);
      if (e->unary == ir::UnaryOp::Not) {
        TG_ASSIGN_OR_RETURN(std::string x, expr_as(e->args[0], Rep::Bool, map));
        return Value{"(!" + x + ")", Rep::Bool};
      }
      TG_ASSIGN_OR_RETURN(std::string x, expr_as(e->args[0], rep, map));
      bool d = rep == Rep::F64;
      switch (e->unary) {
        case ir::UnaryOp::Neg: return Value{"(-" + x + ")", rep};
        case ir::UnaryOp::Abs: return Value{(rep == Rep::I64 ? "tg_absi(" : d ? "fabs(" : "fabsf(") + x + ")", rep};
        case ir::UnaryOp::Exp: return Value{(d ? "exp(" : "tg_exp(") + x + ")", rep};
        case ir::UnaryOp::Exp2: return Value{(d ? "exp2(" : "tg_exp2(") + x + ")", rep};
        case ir::UnaryOp::Log: return Value{(d ? "log(" : "logf(") + x + ")", rep};
        case ir::UnaryOp::Sqrt: return Value{(d ? "sqrt(" : "sqrtf(") + x + ")", rep};
        case ir::UnaryOp::Rsqrt: return Value{(d ? "(1.0 / sqrt(" : "(1.0f / sqrtf(") + x + "))", rep};
        case ir::UnaryOp::Tanh: return Value{(d ? "tanh(" : "tanhf(") + x + ")", rep};
        case ir::UnaryOp::BitNot: return Value{"tg_bnot(" + x + ")", rep};
        // CUDA's own functions (log2f 1 ulp, log1pf 1 ulp, erff 2 ulp); sigmoid through the
        // full-range expf, not tg_exp, whose error grows with |x| (Prelude.cpp).
        case ir::UnaryOp::Log2: return Value{(d ? "log2(" : "log2f(") + x + ")", rep};
        case ir::UnaryOp::Log1p: return Value{(d ? "log1p(" : "log1pf(") + x + ")", rep};
        case ir::UnaryOp::Erf: return Value{(d ? "erf(" : "erff(") + x + ")", rep};
        case ir::UnaryOp::Sigmoid: return Value{(d ? "tg_sigmoid(" : "tg_sigmoidf(") + x + ")", rep};
        case ir::UnaryOp::Not: break;
      }
      return error(ErrorCode::Internal, "cuda codegen: unknown unary op", e->loc);
    }
    case ExprKind::Binary: {
      using ir::BinaryOp;
      BinaryOp op = e->binary;
      if (op == BinaryOp::And || op == BinaryOp::Or) {
        TG_ASSIGN_OR_RETURN(std::string a, expr_as(e->args[0], Rep::Bool, map));
        TG_ASSIGN_OR_RETURN(std::string b, expr_as(e->args[1], Rep::Bool, map));
        return Value{"(" + a + (op == BinaryOp::And ? " && " : " || ") + b + ")", Rep::Bool};
      }
      if (ir::is_comparison(op)) {
        const ir::Type& ta = e->args[0]->type;
        const ir::Type& tb = e->args[1]->type;
        Rep cmp = Rep::I64;
        if (!(ta.is_index() && tb.is_index())) {
          bool f32_only = ta.is_float() && tb.is_float() && ta.dtype != DType::F64 && tb.dtype != DType::F64;
          // A literal compared with a float value takes the value's precision; mixed
          // index/float comparisons are exact in double.
          bool lit = (ta.is_float() && tb.is_index() && e->args[1]->kind == ExprKind::IntImm) ||
                     (tb.is_float() && ta.is_index() && e->args[0]->kind == ExprKind::IntImm);
          bool f32 = f32_only || (lit && (ta.is_float() ? ta.dtype : tb.dtype) != DType::F64);
          cmp = f32 ? Rep::F32 : Rep::F64;
        }
        TG_ASSIGN_OR_RETURN(std::string a, expr_as(e->args[0], cmp, map));
        TG_ASSIGN_OR_RETURN(std::string b, expr_as(e->args[1], cmp, map));
        const char* sym = op == BinaryOp::Lt ? " < " : op == BinaryOp::Le ? " <= " : op == BinaryOp::Gt ? " > " : op == BinaryOp::Ge ? " >= " : op == BinaryOp::Eq ? " == " : " != ";
        return Value{"(" + a + sym + b + ")", Rep::Bool};
      }
      Rep rep = rep_of_type(e->type);
      TG_ASSIGN_OR_RETURN(std::string a, expr_as(e->args[0], rep, map));
      TG_ASSIGN_OR_RETURN(std::string b, expr_as(e->args[1], rep, map));
      bool i = rep == Rep::I64, d = rep == Rep::F64;
      switch (op) {
        case BinaryOp::Add: return Value{"(" + a + " + " + b + ")", rep};
        case BinaryOp::Sub: return Value{"(" + a + " - " + b + ")", rep};
        case BinaryOp::Mul: return Value{"(" + a + " * " + b + ")", rep};
        case BinaryOp::Div: return Value{i ? "tg_floordiv(" + a + ", " + b + ")" : "(" + a + " / " + b + ")", rep};
        case BinaryOp::Mod: return Value{"tg_floormod(" + a + ", " + b + ")", rep};
        case BinaryOp::CeilDiv: return Value{"tg_ceildiv(" + a + ", " + b + ")", rep};
        case BinaryOp::Max: return Value{(i ? "tg_maxi(" : d ? "tg_maxd(" : "tg_maxf(") + a + ", " + b + ")", rep};
        case BinaryOp::Min: return Value{(i ? "tg_mini(" : d ? "tg_mind(" : "tg_minf(") + a + ", " + b + ")", rep};
        case BinaryOp::BitAnd: return Value{"tg_band(" + a + ", " + b + ")", rep};
        case BinaryOp::BitOr: return Value{"tg_bor(" + a + ", " + b + ")", rep};
        case BinaryOp::BitXor: return Value{"tg_bxor(" + a + ", " + b + ")", rep};
        case BinaryOp::Shl: return Value{"tg_shl(" + a + ", " + b + ")", rep};
        case BinaryOp::Shr: return Value{"tg_shr(" + a + ", " + b + ")", rep};
        case BinaryOp::ShrLogical: return Value{"tg_shru(" + a + ", " + b + ")", rep};
        // Logic and comparisons are emitted above.
        case BinaryOp::Or:
        case BinaryOp::And:
        case BinaryOp::Eq:
        case BinaryOp::Ne:
        case BinaryOp::Lt:
        case BinaryOp::Le:
        case BinaryOp::Gt:
        case BinaryOp::Ge: break;
      }
      return error(ErrorCode::Internal, "cuda codegen: unknown binary op", e->loc);
    }
  }
  return error(ErrorCode::Internal, "cuda codegen: unknown expression", e->loc);
}

}  // namespace tegula::cuda::gen
