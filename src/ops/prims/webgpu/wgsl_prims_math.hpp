// The WGSL function library behind the WebGPU prims kernels, in parts by function family, so
// that one op's real function r_<fn> and complex function c_<fn> sit in one part. Every prims
// shader starts with the three parts (wgsl_prims_sources.cpp); WGSL module-scope declarations
// may come in any order, so the parts call each other freely.
//   core: constants, IEEE classification by bit pattern, the real functions that are plain
//     arithmetic (division, maximum/minimum, comparisons, sign, sqrt) and complex arithmetic on
//     C = vec2<f32> (re, im) (wgsl_prims_math_core.cpp);
//   exp_trig: exp, sin, cos and the hyperbolic functions, real and complex
//     (wgsl_prims_math_exp_trig.cpp);
//   log_pow: log, real and complex, and pow (wgsl_prims_math_log_pow.cpp).
// A unary op of the list whose WGSL is not spelled out in wgsl_prims_ops.cpp calls r_<fn>(x) or
// c_<fn>(x) from here, <fn> its name in the list.
#pragma once

#include <string_view>

namespace tenferro::prims_webgpu::wgsl {

std::string_view core_math_library();
std::string_view exp_trig_math_library();
std::string_view log_pow_math_library();

}  // namespace tenferro::prims_webgpu::wgsl
