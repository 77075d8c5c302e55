// The composition of each WebGPU prims module: math library + types + per-op functions
// (wgsl_prims_ops.cpp) + a kernel skeleton (the backend layer's map and reductions; creation's
// own).
//
// Every kernel works on strided views: offsets and strides arrive as i32 parameters (the host
// checks that indices fit in 32 bits) and a linear index is decoded column-major (first axis
// fastest). One invocation per element for element-wise and creation kernels; reductions run
// in passes whose work per invocation is bounded, like einsum's (see the design note in
// backends/webgpu/wgsl_strided_kernels.cpp): serial chunks of 32 or workgroup trees over
// chunks of 2048, partial accumulators in scratch buffers between passes, so that a long
// reduction is a pairwise sum (error growing like log n, not n) and no loop runs long enough
// for lavapipe to cut it short.
#include "ops/prims/webgpu/wgsl_prims_sources.hpp"

#include <map>
#include <mutex>
#include <string_view>
#include <tuple>

#include "backends/webgpu/webgpu_reduction_passes.hpp"
#include "backends/webgpu/webgpu_strided_map.hpp"
#include "ops/prims/webgpu/wgsl_prims_math.hpp"
#include "ops/prims/webgpu/wgsl_prims_ops.hpp"

namespace tenferro::prims_webgpu::wgsl {
namespace {

using prims_internal::PrimKind;

constexpr std::string_view kCommon = R"(
@group(0) @binding(0) var<storage, read> p: array<i32>;
const WG: u32 = 256u;
// The linear invocation index of a 1-D grid folded into x/y (x <= 65535 groups). The folded
// grid overshoots: near 2^31 items its last indices pass 2^31 - 1, and i32() of them is
// negative, so the kernels bound-check both ends.
fn linear_index(wid: vec3<u32>, lid: vec3<u32>, groups: vec3<u32>) -> i32 {
  return i32((wid.y * groups.x + wid.x) * WG + lid.x);
}
fn v(i: i32) -> f32 { return bitcast<f32>(p[i]); }
)";

// The element-wise kernels are the backend layer's strided map (backends/webgpu/
// webgpu_strided_map) with the op's `fn op` and these scalars, the map's family words:
// [alpha.re, alpha.im, beta.re, beta.im (f32 bits), flags].
constexpr std::string_view kElementwiseScalars = R"(
const FLAG_ADD_BETA: i32 = 1;
const FLAG_ALPHA_REAL: i32 = 2;
const FLAG_BETA_REAL: i32 = 4;
fn alpha() -> C { return C(map_f32(0), map_f32(1)); }
fn beta() -> C { return C(map_f32(2), map_f32(3)); }
fn flag(bit: i32) -> bool { return (map_word(4) & bit) != 0; }
// s * x, a real s scaling each part (so 1 * (inf + 0i) stays inf + 0i).
fn scaled(s: C, x: C, real_bit: i32) -> C { return select(c_mul(x, s), x * s.x, flag(real_bit)); }
)";

// The reductions are the backend layer's kernels (backends/webgpu/webgpu_reduction_passes) with
// these hooks, after the op's reduce_functions (A, identity, combine, lift, finish) and the
// aliases S / D with load / put of this pass. Word 8 of the parameters is the element count
// of the whole reduction in f32 bits (for the mean).
constexpr std::string_view kReduceHooks = R"(
@group(0) @binding(2) var<storage, read_write> dst: array<D>;
fn count() -> f32 { return v(8); }
fn store(d: i32, a: A) { dst[d] = put(a); }
)";

// Philox4x32-10 (philox.hpp) with the 32 x 32 -> 64-bit products in u32 arithmetic (mul_hi_lo,
// in the core of the math library).
constexpr std::string_view kPhilox = R"(
// Words of element k < 2^31: counter (k, 0, 0, 0), key = the seed's (low, high) words.
fn philox_words(k: i32) -> vec4<u32> {
  var c = vec4<u32>(u32(k), 0u, 0u, 0u);
  var key = vec2<u32>(bitcast<u32>(p[7]), bitcast<u32>(p[8]));
  for (var pass_index = 0; pass_index < 10; pass_index++) {
    let p0 = mul_hi_lo(0xD2511F53u, c.x);
    let p1 = mul_hi_lo(0xCD9E8D57u, c.z);
    c = vec4<u32>(p1.x ^ c.y ^ key.x, p1.y, p0.x ^ c.w ^ key.y, p0.y);
    key = key + vec2<u32>(0x9E3779B9u, 0xBB67AE85u);
  }
  return c;
}
// (w >> 8) * 2^-24: exact, and bit-identical to philox.hpp's uniform_f32.
fn unit_uniform(w: u32) -> f32 { return f32(w >> 8u) * (1.0 / 16777216.0); }
// low + (high - low) * u for a uniform: v(3) = low, v(4) = high - low, v(5) = high, v(6) = the
// value next to high, which replaces a product that rounds to high (the CPU's uniform_between).
fn uniform_between(u: f32) -> f32 {
  let x = v(3) + v(4) * u;
  return select(x, v(6), (v(4) > 0.0 && x >= v(5)) || (v(4) < 0.0 && x <= v(5)));
}
)";

// p = [n, rows, diagonal offset, v3, v4, v5, v6 (f32 bits), seed low, seed high]
constexpr std::string_view kGenerate = R"(
@group(0) @binding(1) var<storage, read_write> dst: array<TO>;
@compute @workgroup_size(256)
fn prims_generate(@builtin(workgroup_id) wid: vec3<u32>,
                  @builtin(local_invocation_id) lid: vec3<u32>,
                  @builtin(num_workgroups) groups: vec3<u32>) {
  let i = linear_index(wid, lid, groups);
  if (i < 0 || i >= p[0]) { return; }
  dst[i] = value(i);
}
)";

std::string_view type_name(DType d) {
  return d == DType::C32 ? "C" : "f32";
}

std::string header(std::string_view aliases) {
  std::string s(core_math_library());
  s.append(exp_trig_math_library()).append(log_pow_math_library());
  s.append(kCommon).append(aliases);
  return s;
}

// Sources built once per key and kept for the process (std::map nodes never move).
template <class Key, class Build>
const std::string& cached(Key key, Build&& build) {
  static std::mutex mutex;
  static std::map<Key, std::string> sources;
  std::lock_guard lock(mutex);
  auto it = sources.find(key);
  if (it == sources.end()) it = sources.emplace(key, build()).first;
  return it->second;
}

}  // namespace

const std::string& elementwise_source(PrimKind kind, DType in, DType out) {
  return cached(std::tuple{kind, in, out}, [&] {
    std::string s = header("alias TI = " + std::string(type_name(in)) +
                           ";\nalias TO = " + std::string(type_name(out)) + ";\n");
    s.append(kElementwiseScalars).append(elementwise_function(kind, in, out));
    return s.append(webgpu_map::wgsl_map(prims_internal::info(kind).arity));
  });
}

const std::string& reduce_source(PrimKind kind, DType in, bool from_input, bool to_output) {
  return cached(std::tuple{kind, in, from_input, to_output}, [&] {
    const DType out = prims_internal::kernel_output_dtype(kind, in);
    std::string s = header("alias TI = " + std::string(type_name(in)) +
                           ";\nalias TO = " + std::string(type_name(out)) + ";\n");
    s.append(reduce_functions(kind, in));
    s.append(from_input ? "alias S = TI;\nfn load(x: S, j: i32) -> A { return lift(x, j); }\n"
                        : "alias S = A;\nfn load(x: S, j: i32) -> A { return x; }\n");
    s.append(to_output ? "alias D = TO;\nfn put(a: A) -> D { return finish(a); }\n"
                       : "alias D = A;\nfn put(a: A) -> D { return a; }\n");
    s.append(webgpu_reduction::wgsl_bounds())
        .append(webgpu_reduction::wgsl_reduction(kReduceHooks));
    return s;
  });
}

std::size_t reduce_accumulator_bytes(PrimKind kind, DType in) {
  return reduce_accumulator_is_pair(kind, in) ? 8 : 4;
}

const std::string& generate_source(PrimKind kind, DType out) {
  return cached(std::tuple{kind, out}, [&] {
    std::string s = header("alias TO = " + std::string(type_name(out)) + ";\n");
    s.append(kPhilox).append(generate_function(kind, out)).append(kGenerate);
    return s;
  });
}

}  // namespace tenferro::prims_webgpu::wgsl
