// WGSL for einsum's contraction primitives. Every kernel works on strided views: element
// offsets and strides arrive as i32 parameters (the host checks that indices fit in 32 bits),
// and a linear element index is decoded column-major (first axis fastest) against the shape.
#include "ops/einsum/webgpu/wgsl_contraction_kernels.hpp"

#include <array>
#include <cstring>
#include <string_view>

#include "tenferro/core/error.hpp"

namespace tenferro::einsum_internal::wgsl {
namespace {

// The element type and its arithmetic. Complex numbers are interleaved (re, im) pairs, and
// the product is the plain one (no conjugation).
constexpr std::string_view kF32Prelude = R"(
alias T = f32;
fn zero() -> T { return 0.0; }
fn mul(x: T, y: T) -> T { return x * y; }
)";

constexpr std::string_view kC32Prelude = R"(
alias T = vec2<f32>;
fn zero() -> T { return vec2<f32>(0.0, 0.0); }
fn mul(x: T, y: T) -> T { return vec2<f32>(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x); }
)";

// Parameters and the linear thread index of a 1-D grid folded into x/y (x <= 65535 groups).
constexpr std::string_view kCommon = R"(
@group(0) @binding(0) var<storage, read> p: array<i32>;
const WG: u32 = 256u;
fn linear_index(wid: vec3<u32>, lid: vec3<u32>, groups: vec3<u32>) -> i32 {
  return i32((wid.y * groups.x + wid.x) * WG + lid.x);
}
)";

// p = [n, rank, src_offset, dst_offset, shape[rank], src_strides[rank], dst_strides[rank]]
constexpr std::string_view kCopy = R"(
@group(0) @binding(1) var<storage, read> src: array<T>;
@group(0) @binding(2) var<storage, read_write> dst: array<T>;
@compute @workgroup_size(256)
fn copy_strided(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
                @builtin(num_workgroups) groups: vec3<u32>) {
  let i = linear_index(wid, lid, groups);
  if (i >= p[0]) { return; }
  let rank = p[1];
  var rest = i;
  var s = p[2];
  var d = p[3];
  for (var a = 0; a < rank; a++) {
    let extent = p[4 + a];
    let c = rest % extent;
    rest = rest / extent;
    s += c * p[4 + rank + a];
    d += c * p[4 + 2 * rank + a];
  }
  dst[d] = src[s];
}
)";

// p = [n, rank, dst_offset, shape[rank], dst_strides[rank]]
constexpr std::string_view kFillZero = R"(
@group(0) @binding(1) var<storage, read_write> dst: array<T>;
@compute @workgroup_size(256)
fn fill_zero(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
             @builtin(num_workgroups) groups: vec3<u32>) {
  let i = linear_index(wid, lid, groups);
  if (i >= p[0]) { return; }
  let rank = p[1];
  var rest = i;
  var d = p[2];
  for (var a = 0; a < rank; a++) {
    let extent = p[3 + a];
    let c = rest % extent;
    rest = rest / extent;
    d += c * p[3 + rank + a];
  }
  dst[d] = zero();
}
)";

// p = [n, rank, a_offset, b_offset, dst_offset, shape[rank], a_strides[rank],
//      b_strides[rank], dst_strides[rank]]
constexpr std::string_view kMultiply = R"(
@group(0) @binding(1) var<storage, read> lhs: array<T>;
@group(0) @binding(2) var<storage, read> rhs: array<T>;
@group(0) @binding(3) var<storage, read_write> dst: array<T>;
@compute @workgroup_size(256)
fn multiply(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
            @builtin(num_workgroups) groups: vec3<u32>) {
  let i = linear_index(wid, lid, groups);
  if (i >= p[0]) { return; }
  let rank = p[1];
  var rest = i;
  var x = p[2];
  var y = p[3];
  var d = p[4];
  for (var a = 0; a < rank; a++) {
    let extent = p[5 + a];
    let c = rest % extent;
    rest = rest / extent;
    x += c * p[5 + rank + a];
    y += c * p[5 + 2 * rank + a];
    d += c * p[5 + 3 * rank + a];
  }
  dst[d] = mul(lhs[x], rhs[y]);
}
)";

// One thread per output element sums its reduced block.
// p = [n_out, outer_rank, reduced_rank, n_reduced, src_offset, dst_offset,
//      outer_shape[or], src_outer_strides[or], dst_strides[or],
//      reduced_shape[rr], src_reduced_strides[rr]]
constexpr std::string_view kSumTrailing = R"(
@group(0) @binding(1) var<storage, read> src: array<T>;
@group(0) @binding(2) var<storage, read_write> dst: array<T>;
@compute @workgroup_size(256)
fn sum_trailing(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
                @builtin(num_workgroups) groups: vec3<u32>) {
  let i = linear_index(wid, lid, groups);
  if (i >= p[0]) { return; }
  let outer_rank = p[1];
  let reduced_rank = p[2];
  let n_reduced = p[3];
  var rest = i;
  var s = p[4];
  var d = p[5];
  for (var a = 0; a < outer_rank; a++) {
    let extent = p[6 + a];
    let c = rest % extent;
    rest = rest / extent;
    s += c * p[6 + outer_rank + a];
    d += c * p[6 + 2 * outer_rank + a];
  }
  let base = 6 + 3 * outer_rank;
  var acc = zero();
  for (var j = 0; j < n_reduced; j++) {
    var r = j;
    var t = s;
    for (var a = 0; a < reduced_rank; a++) {
      let extent = p[base + a];
      let c = r % extent;
      r = r / extent;
      t += c * p[base + reduced_rank + a];
    }
    acc += src[t];
  }
  dst[d] = acc;
}
)";

// Tiled batched GEMM, C[b](i, j) = sum_l A[b](i, l) * B[b](l, j), every operand strided.
// A workgroup of 16 x 16 threads computes one 64 x 64 block of C for batch wid.z + batch_base:
// each k-step stages a 64 x 16 slice of A and a 16 x 64 slice of B in workgroup memory (four
// elements per thread each, consecutive threads on consecutive rows of A / depths of B), and
// every thread accumulates a 4 x 4 register tile of C, rows lid.x + 16 r and columns
// lid.y + 16 c, so one barrier pair serves 16 x 16 multiply-adds per thread.
// p = [m, n, k, batch_base, a_offset, a_stride_m, a_stride_k, a_stride_batch,
//      b_offset, b_stride_k, b_stride_n, b_stride_batch,
//      c_offset, c_stride_m, c_stride_n, c_stride_batch]
constexpr std::string_view kGemm = R"(
@group(0) @binding(1) var<storage, read> a: array<T>;
@group(0) @binding(2) var<storage, read> b: array<T>;
@group(0) @binding(3) var<storage, read_write> c: array<T>;
const BLOCK: u32 = 64u;
const DEPTH: u32 = 16u;
var<workgroup> tile_a: array<array<T, 64>, 16>;  // [l][i]
var<workgroup> tile_b: array<array<T, 64>, 16>;  // [l][j]
@compute @workgroup_size(16, 16, 1)
fn gemm(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let m = p[0];
  let n = p[1];
  let k = p[2];
  let row0 = i32(wid.x * BLOCK);
  let col0 = i32(wid.y * BLOCK);
  let batch = i32(wid.z) + p[3];
  let a_base = p[4] + batch * p[7];
  let b_base = p[8] + batch * p[11];
  var acc: array<array<T, 4>, 4>;
  for (var r = 0u; r < 4u; r++) {
    for (var q = 0u; q < 4u; q++) { acc[r][q] = zero(); }
  }
  for (var t = 0; t < k; t += i32(DEPTH)) {
    for (var s = 0u; s < 4u; s++) {
      let e = li + 256u * s;
      let i = e % BLOCK;  // A: rows fastest
      let l = e / BLOCK;
      let gi = row0 + i32(i);
      let gl = t + i32(l);
      if (gi < m && gl < k) {
        tile_a[l][i] = a[a_base + gi * p[5] + gl * p[6]];
      } else {
        tile_a[l][i] = zero();
      }
      let bl = e % DEPTH;  // B: depth fastest
      let j = e / DEPTH;
      let gbl = t + i32(bl);
      let gj = col0 + i32(j);
      if (gbl < k && gj < n) {
        tile_b[bl][j] = b[b_base + gbl * p[9] + gj * p[10]];
      } else {
        tile_b[bl][j] = zero();
      }
    }
    workgroupBarrier();
    for (var l = 0u; l < DEPTH; l++) {
      var av: array<T, 4>;
      var bv: array<T, 4>;
      for (var r = 0u; r < 4u; r++) {
        av[r] = tile_a[l][lid.x + 16u * r];
        bv[r] = tile_b[l][lid.y + 16u * r];
      }
      for (var r = 0u; r < 4u; r++) {
        for (var q = 0u; q < 4u; q++) { acc[r][q] += mul(av[r], bv[q]); }
      }
    }
    workgroupBarrier();
  }
  let c_base = p[12] + batch * p[15];
  for (var r = 0u; r < 4u; r++) {
    let row = row0 + i32(lid.x + 16u * r);
    for (var q = 0u; q < 4u; q++) {
      let col = col0 + i32(lid.y + 16u * q);
      if (row < m && col < n) { c[c_base + row * p[13] + col * p[14]] = acc[r][q]; }
    }
  }
}
)";

constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kKernels = {{
    {"copy_strided", kCopy},
    {"fill_zero", kFillZero},
    {"multiply", kMultiply},
    {"sum_trailing", kSumTrailing},
    {"gemm", kGemm},
}};

std::string compose(std::string_view prelude, std::string_view body) {
  std::string s;
  s.append(prelude).append(kCommon).append(body);
  return s;
}

struct Sources {
  std::array<std::string, kKernels.size()> f32, c32;
  Sources() {
    for (std::size_t i = 0; i < kKernels.size(); ++i) {
      f32[i] = compose(kF32Prelude, kKernels[i].second);
      c32[i] = compose(kC32Prelude, kKernels[i].second);
    }
  }
};

}  // namespace

const std::string& source(DType dtype, const char* entry) {
  static const Sources sources;
  if (dtype != DType::F32 && dtype != DType::C32) {
    throw_error(ErrorKind::Unsupported, ErrorPhase::Execute, "einsum",
                "WebGPU einsum kernels support F32 and C32 only (WGSL has no f64), not " +
                    std::string(dtype_name(dtype)));
  }
  for (std::size_t i = 0; i < kKernels.size(); ++i) {
    if (kKernels[i].first == entry) return dtype == DType::F32 ? sources.f32[i] : sources.c32[i];
  }
  throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "einsum",
              "no WGSL kernel named " + std::string(entry));
}

}  // namespace tenferro::einsum_internal::wgsl
