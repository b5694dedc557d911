/// \file
/// sqrt, 1/sqrt and division of f32 values that keep subnormals.
///
/// Why: drivers implement GLSL.std.450 Sqrt and OpFDiv with reciprocal approximations that
/// flush subnormal inputs and results even when the shader declares DenormPreserve (the
/// H200's driver returns 0 for sqrt(2^-140) and for 2^-100 / 2^28). The IR keeps them.
///  - sqrt and 1/sqrt: an input below 2^-124 is scaled by 2^64 (an even power, so the root
///    scales by exactly 2^32) and the result scaled back; both scalings are exact.
///  - division: the fast quotient is kept unless an operand or the quotient is outside the
///    range where the driver's division is exact enough (tiny or huge magnitudes); those
///    elements are divided again in f64 and rounded once to f32 (53 >= 2 * 24 + 2 bits, so
///    the double rounding is innocuous). Targets without f64 keep the fast quotient.
/// f64 values use the instructions directly (their subnormals are kept).
#pragma once

#include "plugins/vulkan/spirv/Builder.h"

namespace tegula::vulkan {

spv::Value math_sqrt(spv::Builder& b, spv::Value x);
spv::Value math_rsqrt(spv::Builder& b, spv::Value x);
/// a / b; `float64` says whether the module may use f64 (the target has it).
spv::Value math_div(spv::Builder& b, spv::Value a, spv::Value y, bool float64);

}  // namespace tegula::vulkan
