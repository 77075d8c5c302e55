// What the host side of every WebGPU prims kernel shares: typed errors, the backend layer's
// parameter block, grid sizes and axis merging, and operand checks against the 32-bit indices
// of WGSL.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/webgpu/webgpu_backend.hpp"
#include "backends/webgpu/webgpu_launch.hpp"
#include "ops/prims/kernel_calls.hpp"

namespace tenferro::prims_webgpu {

using webgpu_launch::kMaxI32;

// A typed error naming the op, phase Execute.
[[noreturn]] void fail(ErrorKind kind, prims_internal::PrimKind op, const std::string& message);

// The backend layer's parameter block and grids (backends/webgpu/webgpu_launch.hpp).
using webgpu_launch::linear_groups;
using webgpu_launch::Params;
using webgpu_launch::workgroup_grid;

// Unsupported when `n` (elements, invocations) exceeds 2^31-1, the reach of WGSL's i32 indices.
void check_count(std::int64_t n, prims_internal::PrimKind op, std::string_view what);

// The WebGpuBuffer of `o` after checking that its dtype is F32/C32 and that every element it
// reaches lies inside the buffer (Validation) at an index below 2^31 (Unsupported).
const WebGpuBuffer& checked_buffer(const prims_internal::StridedOperand& o,
                                   prims_internal::PrimKind op, std::string_view operand);

// The input's and the output's buffers of a one-input kernel (checked_buffer each), which must
// differ (WebGPU forbids a buffer bound read-only and writable in one dispatch; the executor
// always allocates a new output, so sharing is a RuntimeState error).
struct InOutBuffers {
  const WebGpuBuffer& in;
  const WebGpuBuffer& out;
};
InOutBuffers checked_in_out(const prims_internal::StridedOperand& in,
                            const prims_internal::StridedOperand& out, prims_internal::PrimKind op);

// The backend layer's axis merging (backends/webgpu/webgpu_launch.hpp).
using webgpu_launch::Loop;
using webgpu_launch::merge_axes;

}  // namespace tenferro::prims_webgpu
