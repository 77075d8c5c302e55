#include "backends/webgpu/webgpu_strided_map.hpp"

#include <array>
#include <string_view>

#include "backends/webgpu/webgpu_launch.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/core/shape.hpp"

namespace tenferro::webgpu_map {
namespace {

// Words before the family's: n, rank, the destination's offset and kMaxArity inputs'.
constexpr int kFamilyWordsBegin = 3 + kMaxArity;
constexpr int kHeaderWords = kFamilyWordsBegin + kFamilyWords;

[[noreturn]] void wiring_defect(const std::string& message) {
  throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "webgpu.strided_map", message);
}

}  // namespace

std::string wgsl_map(int arity) {
  if (arity < 0 || arity > kMaxArity)
    wiring_defect("a map of " + std::to_string(arity) + " inputs");
  const std::string header = std::to_string(kHeaderWords);
  const std::string family = std::to_string(kFamilyWordsBegin);
  std::string s = "const MAP_HEADER: i32 = " + header + ";\n" +
                  "fn map_word(j: i32) -> i32 { return p[" + family + " + j]; }\n" +
                  "fn map_f32(j: i32) -> f32 { return bitcast<f32>(p[" + family + " + j]); }\n";
  for (int k = 0; k < arity; ++k) {
    s += "@group(0) @binding(" + std::to_string(k + 1) + ") var<storage, read> in" +
         std::to_string(k) + ": array<TI>;\n";
  }
  s += "@group(0) @binding(" + std::to_string(arity + 1) +
       ") var<storage, read_write> dst: array<TO>;\n";
  // The folded grid overshoots: near 2^31 items its last indices pass 2^31 - 1 and i32() of
  // them is negative, hence the bound on both ends.
  s += R"(@compute @workgroup_size(256)
fn strided_map(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
               @builtin(num_workgroups) groups: vec3<u32>) {
  let i = linear_index(wid, lid, groups);
  if (i < 0 || i >= p[0]) { return; }
  let rank = p[1];
  var rest = i;
  var d = p[2];
)";
  std::string args;
  for (int k = 0; k < arity; ++k) {
    const std::string x = "x" + std::to_string(k);
    s += "  var " + x + " = p[" + std::to_string(3 + k) + "];\n";
    args += (k > 0 ? ", in" : "in") + std::to_string(k) + "[" + x + "]";
  }
  s += R"(  for (var a = 0; a < rank; a++) {
    let extent = p[MAP_HEADER + a];
    let c = rest % extent;
    rest = rest / extent;
    d += c * p[MAP_HEADER + rank + a];
)";
  for (int k = 0; k < arity; ++k) {
    s += "    x" + std::to_string(k) + " += c * p[MAP_HEADER + " + std::to_string(2 + k) +
         " * rank + a];\n";
  }
  s += "  }\n  dst[d] = op(" + args + ");\n}\n";
  return s;
}

void dispatch(WebGpuBackend& backend, const std::string& source,
              std::span<const std::int64_t> shape, const Operand& dst,
              std::span<const Operand> inputs, std::span<const std::uint32_t> family_words) {
  if (inputs.size() > static_cast<std::size_t>(kMaxArity) ||
      family_words.size() > static_cast<std::size_t>(kFamilyWords)) {
    wiring_defect("a map of " + std::to_string(inputs.size()) + " inputs and " +
                  std::to_string(family_words.size()) + " family words");
  }
  std::array<std::span<const std::int64_t>, kMaxArity + 1> strides{dst.strides};
  std::array<const WebGpuBuffer*, kMaxArity + 1> buffers{};
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    strides[k + 1] = inputs[k].strides;
    buffers[k] = inputs[k].buffer;
  }
  buffers[inputs.size()] = dst.buffer;
  for (std::size_t o = 0; o <= inputs.size(); ++o) {
    if (strides[o].size() != shape.size() || buffers[o] == nullptr) {
      wiring_defect("an operand without a buffer or with strides of another rank");
    }
  }
  const std::int64_t n = checked_numel(shape);
  if (n == 0) return;

  const webgpu_launch::Loop loop =
      webgpu_launch::merge_axes(shape, std::span(strides.data(), inputs.size() + 1));
  webgpu_launch::Params params;
  params.i32(n).i32(static_cast<std::int64_t>(loop.shape.size())).i32(dst.offset);
  for (std::size_t k = 0; k < static_cast<std::size_t>(kMaxArity); ++k) {
    params.i32(k < inputs.size() ? inputs[k].offset : 0);
  }
  for (std::size_t j = 0; j < static_cast<std::size_t>(kFamilyWords); ++j) {
    params.u32(j < family_words.size() ? family_words[j] : 0);
  }
  params.i32(loop.shape);
  for (const std::vector<std::int64_t>& s : loop.strides) params.i32(s);
  backend.dispatch(backend.pipeline(source, kEntry), params.words(),
                   std::span(buffers.data(), inputs.size() + 1), webgpu_launch::linear_groups(n));
}

}  // namespace tenferro::webgpu_map
