// What the host side of every einsum WebGPU kernel shares: its typed errors, and the backend
// layer's parameter block, grid sizes and 32-bit limits of WGSL indexing under einsum's names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "backends/webgpu/webgpu_backend.hpp"
#include "backends/webgpu/webgpu_launch.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::einsum_internal::webgpu_launch {

// The backend layer's parameter block, grids and limits (backends/webgpu/webgpu_launch.hpp).
using tenferro::webgpu_launch::ceil_div;
using tenferro::webgpu_launch::kMaxGroupsPerDimension;
using tenferro::webgpu_launch::kMaxI32;
using tenferro::webgpu_launch::linear_groups;
using tenferro::webgpu_launch::Params;
using tenferro::webgpu_launch::workgroup_grid;

[[noreturn]] inline void fail(ErrorKind kind, std::string_view op, std::string message) {
  throw_error(kind, ErrorPhase::Execute, "einsum.webgpu." + std::string(op), std::move(message));
}

inline void check_count(std::int64_t n, std::string_view op) {
  if (n > kMaxI32) tenferro::webgpu_launch::throw_beyond_i32("einsum.webgpu." + std::string(op));
}

}  // namespace tenferro::einsum_internal::webgpu_launch
