// What the host side of every einsum WebGPU kernel shares: the parameter block, grid sizes
// and the 32-bit limits of WGSL indexing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/webgpu/webgpu_backend.hpp"
#include "ops/einsum/webgpu/wgsl_contraction_kernels.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::einsum_internal::webgpu_launch {

inline constexpr std::int64_t kMaxI32 = std::numeric_limits<std::int32_t>::max();
inline constexpr std::uint32_t kMaxGroupsPerDimension = 65535;

[[noreturn]] inline void fail(ErrorKind kind, std::string_view op, std::string message) {
  throw_error(kind, ErrorPhase::Execute, "einsum.webgpu." + std::string(op), std::move(message));
}

// The i32 parameter block of one dispatch (binding 0), words in the order the kernel reads.
class Params {
 public:
  Params& add(std::int64_t v) {
    words_.push_back(static_cast<std::uint32_t>(static_cast<std::int32_t>(v)));
    return *this;
  }
  Params& add(std::span<const std::int64_t> vs) {
    for (std::int64_t v : vs) add(v);
    return *this;
  }
  std::span<const std::uint32_t> words() const noexcept { return words_; }

 private:
  std::vector<std::uint32_t> words_;
};

// Workgroups for one invocation per element (the element-wise kernels, sum_serial), folded
// into x/y since one dimension holds at most 65535 groups.
inline WorkgroupCount linear_groups(std::int64_t n) {
  const auto groups =
      static_cast<std::uint64_t>((n + wgsl::kLinearWorkgroup - 1) / wgsl::kLinearWorkgroup);
  const auto x =
      static_cast<std::uint32_t>(std::min<std::uint64_t>(groups, kMaxGroupsPerDimension));
  const auto y = static_cast<std::uint32_t>((groups + x - 1) / x);
  return {x, y, 1};
}

inline void check_count(std::int64_t n, std::string_view op) {
  if (n > kMaxI32)
    fail(ErrorKind::Unsupported, op, "more than 2^31-1 elements in one WebGPU kernel");
}

// `count` workgroups folded into x/y, for kernels that index by workgroup (sum_tree, dot_tree).
inline WorkgroupCount workgroup_grid(std::int64_t count) {
  const auto x = static_cast<std::uint32_t>(std::min<std::int64_t>(count, kMaxGroupsPerDimension));
  const auto y = static_cast<std::uint32_t>((count + x - 1) / x);
  return {x, y, 1};
}

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

}  // namespace tenferro::einsum_internal::webgpu_launch
