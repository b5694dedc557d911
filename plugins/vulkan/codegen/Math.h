/// \file
/// exp, exp2, log, tanh, log2, log1p, erf and sigmoid of f32 and f64 values in plain SPIR-V
/// arithmetic, in place of the GLSL.std.450 instructions (which have no log1p or erf at all).
///
/// Why not the extended instructions: GLSL.std.450's Exp, Exp2, Log and Tanh take 16- and
/// 32-bit floats only (no f64 at all); their precision is implementation-defined (Vulkan
/// allows 3 + 2|x| ulp for exp and absolute error for log near 1), and lavapipe flushes
/// subnormal inputs and results to zero. The conformance table wants 3 ulp (5 for tanh)
/// against the float64 reference in every range, with the reference's infinities, NaNs,
/// signed zeros and subnormals. The SDK's recipes (plugins/support/MathRecipes.h: fdlibm's
/// Cody-Waite reduction, short polynomials, powers of two from integer bits, subnormals
/// scaled before any bit manipulation) reach that; here they run over the SPIR-V builder with
/// add, sub, mul, div (correctly rounded on lavapipe, subnormals kept), RoundEven and FAbs,
/// every float result marked NoContraction so that drivers neither fuse nor reassociate them.
#pragma once

#include "plugins/vulkan/spirv/Builder.h"

namespace tegula::vulkan {

/// e^x of an F32 or F64 value (an F64 value needs the Int64 capability, which every module
/// that holds f64 declares).
spv::Value math_exp(spv::Builder& b, spv::Value x);
/// 2^x of an F32 or F64 value.
spv::Value math_exp2(spv::Builder& b, spv::Value x);
/// The natural logarithm of an F32 or F64 value.
spv::Value math_log(spv::Builder& b, spv::Value x);
/// tanh of an F32 or F64 value.
spv::Value math_tanh(spv::Builder& b, spv::Value x);
/// log2, log1p, erf and sigmoid (1 / (1 + e^-x)) of an F32 or F64 value.
spv::Value math_log2(spv::Builder& b, spv::Value x);
spv::Value math_log1p(spv::Builder& b, spv::Value x);
spv::Value math_erf(spv::Builder& b, spv::Value x);
spv::Value math_sigmoid(spv::Builder& b, spv::Value x);

}  // namespace tegula::vulkan
