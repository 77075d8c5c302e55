#include "backends/webgpu/webgpu_launch.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "tenferro/core/error.hpp"

namespace tenferro::webgpu_launch {
Params& Params::f32(float v) {
  return u32(std::bit_cast<std::uint32_t>(v));
}

void throw_beyond_i32(std::string_view op) {
  throw_error(ErrorKind::Unsupported, ErrorPhase::Execute, std::string(op),
              "more than 2^31-1 elements in one WebGPU kernel");
}

const WebGpuBuffer* AliasGuard::input(const WebGpuBuffer& in) {
  if (&in != &output_) return &in;
  if (!copy_) {
    copy_ = backend_.allocate(in.size_bytes());
    backend_.copy_buffer(in, 0, WebGpuBackend::buffer_of(*copy_, "webgpu.alias_copy"), 0,
                         in.padded_bytes());
  }
  return &WebGpuBackend::buffer_of(*copy_, "webgpu.alias_copy");
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

std::string wgsl_outer_offsets(std::string_view name, int rank_word, int first_offset_word,
                               int second_offset_word, int header_words) {
  const auto word = [](int w) { return "p[" + std::to_string(w) + "]"; };
  const std::string h = std::to_string(header_words);
  return "fn " + std::string(name) +
         "(index: i32) -> vec2<i32> {\n  let rank = " + word(rank_word) +
         ";\n  var rest = index;\n  var s = " + word(first_offset_word) +
         ";\n  var d = " + word(second_offset_word) +
         ";\n  for (var a = 0; a < rank; a++) {\n    let extent = p[" + h +
         " + a];\n    let c = rest % extent;\n    rest = rest / extent;\n    s += c * p[" + h +
         " + rank + a];\n    d += c * p[" + h + " + 2 * rank + a];\n  }\n" +
         "  return vec2<i32>(s, d);\n}\n";
}

std::vector<std::int64_t> compact_strides(std::span<const std::int64_t> shape, std::int64_t scale) {
  std::vector<std::int64_t> strides(shape.size());
  for (std::size_t a = 0; a < shape.size(); ++a) {
    strides[a] = scale;
    scale *= shape[a];
  }
  return strides;
}

Loop merge_axes(std::span<const std::int64_t> shape,
                std::span<const std::span<const std::int64_t>> strides) {
  Loop loop;
  loop.strides.resize(strides.size());
  for (std::size_t a = 0; a < shape.size(); ++a) {
    if (shape[a] == 1) continue;
    bool merges = !loop.shape.empty();
    for (std::size_t o = 0; merges && o < strides.size(); ++o) {
      merges = strides[o][a] == loop.strides[o].back() * loop.shape.back();
    }
    if (merges) {
      loop.shape.back() *= shape[a];
      continue;
    }
    loop.shape.push_back(shape[a]);
    for (std::size_t o = 0; o < strides.size(); ++o) loop.strides[o].push_back(strides[o][a]);
  }
  return loop;
}

}  // namespace tenferro::webgpu_launch
