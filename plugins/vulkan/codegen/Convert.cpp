#include "plugins/vulkan/codegen/Convert.h"

#include <cmath>
#include <cstdint>

namespace tegula::vulkan {

using namespace spv;

T Conversions::storage_type(DType d) {
  switch (d) {
    case DType::F64: return T::F64;
    case DType::F32: return T::F32;
    case DType::TF32: return T::U32;
    case DType::F16:
    case DType::BF16: return T::U16;
    case DType::E4M3:
    case DType::E5M2:
    case DType::U8:
    case DType::Bool:
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return T::U8;
    case DType::I8: return T::I8;
    case DType::I32: return T::I32;
  }
  return T::U32;
}

T Conversions::value_type(DType d) {
  if (d == DType::F64) return T::F64;
  if (d == DType::Bool) return T::Bool;
  if (dtype_is_int(d)) return T::I32;
  return T::F32;
}

Conversions::MiniFormat Conversions::format(DType d) {
  const FloatFormat* f = float_format(d);
  if (!f) return {FloatFormat{8, 23, 127, true, true, FloatSpecials::Ieee}, false};
  return {*f, dtype_size(d) == 1};
}

Value Conversions::to_float(Value v, T to) {
  if (v.ty == to) return v;
  if (v.ty == T::Bool) return b_.select(v, b_.c(to, 1), b_.c(to, 0));
  return b_.convert(v, to);
}

/// Round half to even in f64 from floor alone: lavapipe's f64 RoundEven rounds some halves
/// away from even on some hosts (1.5 -> 1 on an AMD EPYC host, tegula.copy.convert.f64_*), and
/// floor, a subtraction and comparisons are exact in f64 for every value the clamp keeps.
Value Conversions::round_even_f64(Value v) {
  Value f = b_.glsl(GlslFloor, T::F64, {v});
  Value frac = b_.sub(v, f);
  Value half = b_.c(T::F64, 0.5);
  Value f_odd = b_.ne(b_.sub(f, b_.mul(b_.c(T::F64, 2.0), b_.glsl(GlslFloor, T::F64, {b_.mul(f, half)}))), b_.c(T::F64, 0.0));
  Value up = b_.lor(b_.gt(frac, half), b_.land(b_.eq(frac, half), f_odd));
  // Infinities and NaN keep floor's value (frac is NaN, so `up` is false); the caller clamps.
  return b_.select(up, b_.add(f, b_.c(T::F64, 1.0)), f);
}

Value Conversions::float_to_int(Value v, double lo, double hi) {
  T ft = v.ty;
  Value r = ft == T::F64 ? round_even_f64(v) : b_.glsl(GlslRoundEven, ft, {v});
  // The largest value below 2^31 that f32 holds is 2^31 - 128; above it saturate by hand.
  double hi_exact = (ft == T::F32 && hi > 16777216.0) ? 2147483520.0 : hi;
  Value clamped = b_.glsl(GlslFClamp, ft, {r, b_.c(ft, lo), b_.c(ft, hi_exact)});
  Value i = b_.convert(clamped, T::I32);
  if (hi_exact != hi) i = b_.select(b_.ge(r, b_.c(ft, 2147483648.0)), b_.ci(2147483647), i);
  return b_.select(b_.is_nan(v), b_.ci(0), i);
}

uint32_t Conversions::round_to_odd_fn() {
  if (round_to_odd_) return round_to_odd_;
  Module& m = b_.m;
  std::vector<uint32_t> params;
  round_to_odd_ = m.begin_function(m.type(T::U32), {m.type(T::F64)}, &params);
  m.name(round_to_odd_, "tg_f64_to_f32_odd");
  Value x{params[0], T::F64};
  Value r = b_.convert(x, T::F32);
  Value back = b_.convert(r, T::F64);
  Value rb = b_.bitcast(r, T::U32);
  Value exact = b_.lor(b_.eq(back, x), b_.is_nan(x));
  Value away = b_.gt(b_.glsl(GlslFAbs, T::F64, {back}), b_.glsl(GlslFAbs, T::F64, {x}));
  Value truncated = b_.select(away, b_.sub(rb, b_.cu(1)), rb);
  Value res = b_.select(exact, rb, b_.bor(truncated, b_.cu(1)));
  m.emit(OpReturnValue, {res.id});
  m.end_function();
  return round_to_odd_;
}

Value Conversions::to_f32_for_narrow(Value v) {
  if (v.ty == T::F64) {
    uint32_t fn = round_to_odd_fn();
    Value bits = b_.op(OpFunctionCall, T::U32, {fn, v.id});
    return b_.bitcast(bits, T::F32);
  }
  return to_float(v, T::F32);
}

uint32_t Conversions::encoder_fn(DType d) {
  if (auto it = encoders_.find(d); it != encoders_.end()) return it->second;
  MiniFormat mf = format(d);
  const FloatFormat& f = mf.f;
  Module& m = b_.m;
  std::vector<uint32_t> params;
  uint32_t fn = m.begin_function(m.type(T::U32), {m.type(T::F32)}, &params);
  m.name(fn, std::string("tg_encode_") + dtype_name(d));
  uint32_t E = uint32_t(f.exp_bits), M = uint32_t(f.man_bits);
  int emin = f.min_normal_exponent();
  uint32_t max_mag = uint32_t(f.max_magnitude()), nan_bits = uint32_t(f.nan_bits());
  // What overflow (and Inf) gives, sign aside: max when saturating or when the format has
  // nothing else, else Inf or the NaN (core/DType.h).
  bool clamp = mf.saturate || f.specials == FloatSpecials::None;
  uint32_t overflow_mag = clamp ? max_mag : (f.specials == FloatSpecials::Ieee ? uint32_t(f.inf_bits()) : nan_bits);
  bool overflow_signed = f.specials != FloatSpecials::NanNegZero || clamp;

  Value x{params[0], T::F32};
  Value bits = b_.bitcast(x, T::U32);
  Value a = b_.band(bits, b_.cu(0x7fffffff));
  Value negative = b_.ne(b_.shr(bits, b_.cu(31)), b_.cu(0));
  Value sign = f.sign ? b_.shl(b_.shr(bits, b_.cu(31)), b_.cu(E + M)) : b_.cu(0);
  Value is_nan = b_.gt(a, b_.cu(0x7f800000));
  Value is_inf = b_.eq(a, b_.cu(0x7f800000));
  Value biased = b_.shr(a, b_.cu(23));
  Value frac = b_.band(a, b_.cu(0x7fffff));
  Value subnormal = b_.eq(biased, b_.cu(0));
  // |x| = sig * 2^(e - 23); f32 subnormals take e = -126 without the implicit bit. e8m0's
  // smallest value, 2^-127, is an f32 subnormal: there those in [2^-127, 2^-126) are
  // normalised (e = -127, the implicit bit shifted in) and smaller ones are below its range.
  Value sig = b_.select(subnormal, frac, b_.bor(frac, b_.cu(0x800000)));
  Value e = b_.select(subnormal, b_.ci(-126), b_.sub(b_.bitcast(biased, T::I32), b_.ci(127)));
  if (!f.subnormals) {
    Value top = b_.ge(frac, b_.cu(0x400000));
    sig = b_.select(b_.land(subnormal, top), b_.shl(frac, b_.cu(1)), sig);
    e = b_.select(subnormal, b_.select(top, b_.ci(-127), b_.ci(-128)), e);
  }
  // Below the target's smallest normal exponent the quantum stays fixed.
  Value below = b_.smax(b_.sub(b_.ci(emin), e), b_.ci(0));
  Value shift = b_.bitcast(b_.smin(b_.add(b_.ci(int32_t(23 - M)), below), b_.ci(25)), T::U32);
  Value q = b_.shr(sig, shift);
  Value rem = b_.band(sig, b_.sub(b_.shl(b_.cu(1), shift), b_.cu(1)));
  Value half = b_.shl(b_.cu(1), b_.sub(shift, b_.cu(1)));
  Value up = b_.lor(b_.gt(rem, half), b_.land(b_.eq(rem, half), b_.eq(b_.band(q, b_.cu(1)), b_.cu(1))));
  q = b_.add(q, b_.select(up, b_.cu(1), b_.cu(0)));
  // Normals: the exponent field (e + bias) absorbs the implicit bit (and any carry out of
  // rounding).
  Value exp_field = b_.bitcast(b_.add(e, b_.ci(f.bias)), T::U32);
  Value normal_mag = b_.sub(b_.add(b_.shl(exp_field, b_.cu(M)), q), b_.cu(1u << M));
  Value mag = b_.select(b_.ge(e, b_.ci(emin)), normal_mag, f.subnormals ? q : b_.cu(0));
  Value over = b_.lor(is_inf, b_.gt(mag, b_.cu(max_mag)));
  Value res = b_.bor(sign, mag);
  if (f.specials == FloatSpecials::NanNegZero) res = b_.select(b_.eq(mag, b_.cu(0)), b_.cu(0), res);  // no -0
  res = b_.select(over, overflow_signed ? b_.bor(sign, b_.cu(overflow_mag)) : b_.cu(overflow_mag), res);
  if (!f.sign) {
    // No negative values: those that do not round to zero (all of them where there is no
    // zero) become the lowest value (saturating stores, the only ones here).
    Value nonzero = b_.ne(a, b_.cu(0));
    Value lost = f.subnormals ? b_.ne(mag, b_.cu(0)) : nonzero;
    res = b_.select(b_.land(negative, b_.land(nonzero, lost)), b_.cu(0), res);
  }
  uint32_t nan_res = f.specials == FloatSpecials::None ? max_mag : nan_bits;
  Value nan_value = (f.specials == FloatSpecials::None || f.specials == FloatSpecials::NanNegZero) ? b_.cu(nan_res) : b_.bor(sign, b_.cu(nan_res));
  res = b_.select(is_nan, nan_value, res);
  m.emit(OpReturnValue, {res.id});
  m.end_function();
  encoders_[d] = fn;
  return fn;
}

uint32_t Conversions::decoder_fn(DType d) {
  if (auto it = decoders_.find(d); it != decoders_.end()) return it->second;
  const FloatFormat f = format(d).f;
  Module& m = b_.m;
  std::vector<uint32_t> params;
  uint32_t fn = m.begin_function(m.type(T::F32), {m.type(T::U32)}, &params);
  m.name(fn, std::string("tg_decode_") + dtype_name(d));
  uint32_t E = uint32_t(f.exp_bits), M = uint32_t(f.man_bits);
  Value code = b_.band(Value{params[0], T::U32}, b_.cu(uint32_t((uint64_t(1) << f.bits()) - 1)));
  Value s = f.sign ? b_.band(b_.shr(code, b_.cu(E + M)), b_.cu(1)) : b_.cu(0);
  Value mag = b_.band(code, b_.cu(uint32_t(f.magnitude_mask())));
  Value exp = b_.shr(mag, b_.cu(M));
  Value man = b_.band(mag, b_.cu((1u << M) - 1));
  Value normal = b_.bor(b_.shl(b_.add(exp, b_.cu(uint32_t(127 - f.bias))), b_.cu(23)), b_.shl(man, b_.cu(23 - M)));
  // Exponent field 0: subnormals man * 2^(1 - bias - M), or (e8m0) the normal 2^-bias,
  // exact in f32 for these formats.
  Value field0 = f.subnormals ? b_.mul(b_.convert(man, T::F32), b_.cf(std::ldexp(1.0f, 1 - f.bias - int(M))))
                              : b_.mul(b_.convert(b_.bor(man, b_.cu(1u << M)), T::F32), b_.cf(std::ldexp(1.0f, -f.bias - int(M))));
  Value bits = b_.select(b_.eq(exp, b_.cu(0)), b_.bitcast(field0, T::U32), normal);
  switch (f.specials) {
    case FloatSpecials::NanAllOnes: bits = b_.select(b_.eq(mag, b_.cu(uint32_t(f.magnitude_mask()))), b_.cu(0x7fc00000), bits); break;
    case FloatSpecials::NanNegZero: bits = b_.select(b_.eq(code, b_.cu(uint32_t(f.nan_bits()))), b_.cu(0x7fc00000), bits); break;
    case FloatSpecials::Ieee: {
      Value special = b_.eq(exp, b_.cu((1u << E) - 1));
      Value nonfinite = b_.select(b_.eq(man, b_.cu(0)), b_.cu(0x7f800000), b_.cu(0x7fc00000));
      bits = b_.select(special, nonfinite, bits);
      break;
    }
    case FloatSpecials::None: break;
  }
  // The FNUZ NaN has its sign bit set and is no negative NaN: the sign is the value's only.
  if (f.specials == FloatSpecials::NanNegZero) s = b_.select(b_.eq(code, b_.cu(uint32_t(f.nan_bits()))), b_.cu(0), s);
  bits = b_.bor(bits, b_.shl(s, b_.cu(31)));
  Value res = b_.bitcast(bits, T::F32);
  m.emit(OpReturnValue, {res.id});
  m.end_function();
  decoders_[d] = fn;
  return fn;
}

Value Conversions::encode_mini(DType d, Value f32) { return b_.op(OpFunctionCall, T::U32, {encoder_fn(d), f32.id}); }
Value Conversions::decode_mini(DType d, Value code) { return b_.op(OpFunctionCall, T::F32, {decoder_fn(d), code.id}); }

Value Conversions::decode(DType d, Value raw) {
  switch (d) {
    case DType::F64:
    case DType::F32:
    case DType::I32: return raw;
    case DType::TF32: return b_.bitcast(raw, T::F32);
    case DType::BF16: return b_.bitcast(b_.shl(b_.convert(raw, T::U32), b_.cu(16)), T::F32);
    case DType::F16:
    case DType::E4M3:
    case DType::E5M2:
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return decode_mini(d, b_.convert(raw, T::U32));
    case DType::I8:
    case DType::U8: return b_.convert(raw, T::I32);
    case DType::Bool: return b_.ne(raw, b_.c(T::U8, 0));
  }
  return raw;
}

Value Conversions::round(DType d, Value v) {
  switch (d) {
    case DType::F64: return to_float(v, T::F64);
    case DType::F32: return to_float(v, T::F32);
    case DType::TF32:
    case DType::F16:
    case DType::BF16:
    case DType::E4M3:
    case DType::E5M2:
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return decode(d, encode(d, v));
    case DType::I8:
    case DType::U8:
    case DType::I32: {
      double lo = d == DType::I8 ? -128 : (d == DType::U8 ? 0 : -2147483648.0);
      double hi = d == DType::I8 ? 127 : (d == DType::U8 ? 255 : 2147483647.0);
      if (v.ty == T::Bool) return b_.select(v, b_.ci(1), b_.ci(0));
      if (is_float(v.ty)) return float_to_int(v, lo, hi);
      if (d == DType::I32) return v;
      return b_.smin(b_.smax(v, b_.ci(int32_t(lo))), b_.ci(int32_t(hi)));
    }
    case DType::Bool: return b_.convert(v, T::Bool);
  }
  return v;
}

Value Conversions::restore(DType d, Value raw) {
  const FloatFormat* f = float_format(d);
  if (f && f->bits() < 8) {
    // fp6, fp4 and ue4m3: write the bits above the encoding zero, as a rounding store does
    // (core/DType.h lets a copy carry them; the conformance suite's exact checks still
    // compare whole bytes in one path, see the README).
    return b_.convert(b_.band(b_.convert(raw, T::U32), b_.cu((1u << f->bits()) - 1)), raw.ty);
  }
  if (d != DType::E5M2) return raw;
  Value w = b_.convert(raw, T::U32);
  Value is_inf = b_.eq(b_.band(w, b_.cu(0x7f)), b_.cu(0x7c));
  Value max = b_.bor(b_.band(w, b_.cu(0x80)), b_.cu(0x7b));
  return b_.convert(b_.select(is_inf, max, w), raw.ty);
}

Value Conversions::encode(DType d, Value v) {
  switch (d) {
    case DType::F64: return to_float(v, T::F64);
    case DType::F32: return to_float(v, T::F32);
    case DType::TF32: {
      Value code = encode_mini(d, to_f32_for_narrow(v));
      // 19-bit code -> f32 bits: the sign moves to bit 31, the rest up by 13.
      Value sign = b_.shl(b_.shr(code, b_.cu(18)), b_.cu(31));
      return b_.bor(sign, b_.shl(b_.band(code, b_.cu(0x3ffff)), b_.cu(13)));
    }
    case DType::F16:
    case DType::BF16: return b_.convert(encode_mini(d, to_f32_for_narrow(v)), T::U16);
    case DType::E4M3:
    case DType::E5M2:
    case DType::E4M3FNUZ:
    case DType::E5M2FNUZ:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::E8M0:
    case DType::UE4M3: return b_.convert(encode_mini(d, to_f32_for_narrow(v)), T::U8);
    case DType::I8: return b_.convert(round(d, v), T::I8);
    case DType::U8: return b_.convert(round(d, v), T::U8);
    case DType::I32: return round(d, v);
    case DType::Bool: return b_.select(b_.convert(v, T::Bool), b_.c(T::U8, 1), b_.c(T::U8, 0));
  }
  return v;
}

}  // namespace tegula::vulkan
