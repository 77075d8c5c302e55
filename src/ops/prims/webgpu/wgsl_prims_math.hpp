// The WGSL function library behind the WebGPU prims kernels, in two parts that every prims
// shader starts with, in this order: IEEE classification by bit pattern and real functions
// with the edge cases spelled out (wgsl_prims_real_math.cpp), then complex arithmetic on
// C = vec2<f32> (re, im) built on them (wgsl_prims_complex_math.cpp).
#pragma once

#include <string_view>

namespace tenferro::prims_webgpu::wgsl {

std::string_view real_math_library();
std::string_view complex_math_library();

}  // namespace tenferro::prims_webgpu::wgsl
