// What the host side of every WebGPU kernel shares, whichever family queues it: the parameter
// block (binding 0), grid sizes, and the 32-bit reach of WGSL's indices. Part of the WebGPU
// backend's strided-kernel layer (DESIGN §6), so einsum and prims do not each keep a copy.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/webgpu/webgpu_backend.hpp"

namespace tenferro::webgpu_launch {

inline constexpr std::int64_t kMaxI32 = std::numeric_limits<std::int32_t>::max();
inline constexpr std::int64_t kMaxGroupsPerDimension = 65535;  // workgroups in one grid dimension
// Invocations per workgroup of the one-dimensional kernels (element-wise, reductions).
inline constexpr unsigned kWorkgroupSize = 256;

// The parameter block of one dispatch, words in the order the kernel reads them.
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

// Unsupported naming `op`: more than 2^31-1 elements or invocations in one kernel, beyond the
// reach of WGSL's 32-bit indices.
[[noreturn]] void throw_beyond_i32(std::string_view op);
inline void check_count(std::int64_t n, std::string_view op) {
  if (n > kMaxI32) throw_beyond_i32(op);
}

// A read-only binding may not be the buffer the same dispatch writes (WebGPU forbids the
// conflicting usages), so an input that aliases the output is read from a device-side copy,
// made once per guard.
class AliasGuard {
 public:
  AliasGuard(WebGpuBackend& backend, const WebGpuBuffer& output)
      : backend_(backend), output_(output) {}
  const WebGpuBuffer* input(const WebGpuBuffer& in);

 private:
  WebGpuBackend& backend_;
  const WebGpuBuffer& output_;
  std::shared_ptr<Buffer> copy_;
};

// `count` workgroups folded into x/y (one dimension holds at most 65535), for kernels that
// index by workgroup; at least one.
WorkgroupCount workgroup_grid(std::int64_t count);
// One invocation per item, kWorkgroupSize per workgroup, folded as workgroup_grid.
WorkgroupCount linear_groups(std::int64_t items);

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// WGSL `fn <name>(index: i32) -> vec2<i32>`: the offsets in two operands of element `index` of
// an outer shape, decoded column-major. The parameter block `p` holds the rank at p[rank_word],
// the two operands' base offsets at p[first_offset_word] and p[second_offset_word], and from
// p[header_words] on the extents, then the first operand's strides, then the second's.
std::string wgsl_outer_offsets(std::string_view name, int rank_word, int first_offset_word,
                               int second_offset_word, int header_words);

// A strided loop over `shape` shared by several operands, with size-1 axes dropped and
// neighbouring axes merged wherever every operand steps through them as through one axis
// (column-major: stride[a + 1] == stride[a] * shape[a]).
struct Loop {
  std::vector<std::int64_t> shape;
  std::vector<std::vector<std::int64_t>> strides;  // per operand
};
Loop merge_axes(std::span<const std::int64_t> shape,
                std::span<const std::span<const std::int64_t>> strides);

// Column-major strides of a compact tensor of `shape`, each multiplied by `scale`.
std::vector<std::int64_t> compact_strides(std::span<const std::int64_t> shape,
                                          std::int64_t scale = 1);

}  // namespace tenferro::webgpu_launch
