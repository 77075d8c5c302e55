#include "backends/webgpu/webgpu_launch.hpp"

#include <algorithm>
#include <bit>

namespace tenferro::webgpu_launch {
Params& Params::f32(float v) {
  return u32(std::bit_cast<std::uint32_t>(v));
}

WorkgroupCount workgroup_grid(std::int64_t count) {
  const auto x =
      static_cast<std::uint32_t>(std::clamp<std::int64_t>(count, 1, kMaxGroupsPerDimension));
  const auto y = static_cast<std::uint32_t>((std::max<std::int64_t>(count, 1) + x - 1) / x);
  return {x, y, 1};
}

WorkgroupCount linear_groups(std::int64_t items) {
  return workgroup_grid(ceil_div(items, kWorkgroupSize));
}

std::vector<std::int64_t> compact_strides(std::span<const std::int64_t> shape, std::int64_t scale) {
  std::vector<std::int64_t> strides(shape.size());
  for (std::size_t a = 0; a < shape.size(); ++a) {
    strides[a] = scale;
    scale *= shape[a];
  }
  return strides;
}

}  // namespace tenferro::webgpu_launch
