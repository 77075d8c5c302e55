// The WGSL function library behind the WebGPU prims kernels: IEEE classification by bit
// pattern, real functions with the edge cases spelled out, and complex arithmetic on
// vec2<f32> (re, im). Every prims shader starts with it.
#pragma once

#include <string_view>

namespace tenferro::prims_webgpu::wgsl {

std::string_view math_library();

}  // namespace tenferro::prims_webgpu::wgsl
