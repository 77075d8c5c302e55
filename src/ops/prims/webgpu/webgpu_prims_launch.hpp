// What the host side of every WebGPU prims kernel shares: typed errors, the parameter block,
// grid sizes, operand checks against the 32-bit indices of WGSL, and merging of axes that a
// strided loop can walk as one.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/webgpu/webgpu_backend.hpp"
#include "ops/prims/kernel_calls.hpp"

namespace tenferro::prims_webgpu {

inline constexpr std::int64_t kMaxI32 = std::numeric_limits<std::int32_t>::max();

// A typed error naming the op, phase Execute.
[[noreturn]] void fail(ErrorKind kind, prims_internal::PrimKind op, const std::string& message);

// The i32 parameter block of one dispatch (binding 0), words in the order the kernel reads.
class Params {
 public:
  Params& i32(std::int64_t v) {
    words_.push_back(static_cast<std::uint32_t>(static_cast<std::int32_t>(v)));
    return *this;
  }
  Params& i32(std::span<const std::int64_t> vs) {
    for (std::int64_t v : vs) i32(v);
    return *this;
  }
  Params& u32(std::uint32_t v) {
    words_.push_back(v);
    return *this;
  }
  Params& f32(float v);
  std::span<const std::uint32_t> words() const noexcept { return words_; }

 private:
  std::vector<std::uint32_t> words_;
};

// One invocation per item, 256 per workgroup, folded into x/y (<= 65535 groups per dimension).
WorkgroupCount linear_groups(std::int64_t items);
// `count` workgroups folded into x/y.
WorkgroupCount workgroup_grid(std::int64_t count);

// Unsupported when `n` (elements, invocations) exceeds 2^31-1, the reach of WGSL's i32 indices.
void check_count(std::int64_t n, prims_internal::PrimKind op, std::string_view what);

// The WebGpuBuffer of `o` after checking that its dtype is F32/C32 and that every element it
// reaches lies inside the buffer (Validation) at an index below 2^31 (Unsupported).
const WebGpuBuffer& checked_buffer(const prims_internal::StridedOperand& o,
                                   prims_internal::PrimKind op, std::string_view operand);

// A strided loop over `shape` shared by several operands, with size-1 axes dropped and
// neighbouring axes merged wherever every operand steps through them as through one axis
// (column-major: stride[a + 1] == stride[a] * shape[a]).
struct Loop {
  std::vector<std::int64_t> shape;
  std::vector<std::vector<std::int64_t>> strides;  // per operand
};
Loop merge_axes(std::span<const std::int64_t> shape,
                std::span<const std::span<const std::int64_t>> strides);

}  // namespace tenferro::prims_webgpu
