// WGSL of the WebGPU backend's strided kernels (copy, fill and product maps, sums, GEMM), the
// work einsum's contractions are made of. Every kernel works on strided views: element
// offsets and strides arrive as i32 parameters (the host checks that indices fit in 32 bits),
// and a linear element index is decoded column-major (first axis fastest) against the shape.
//
// Design of the reductions (sum_serial, sum_tree) and of GEMM's contracted loop
// ------------------------------------------------------------------------------
// Bounded iterations. No invocation runs a loop whose trip count grows with the data: Mesa's
// lavapipe (the WebGPU device in CI and on machines without a GPU) ends every shader loop
// once one invocation has spent 65535 iterations in total, across all its loops, and carries
// on with whatever it has summed so far -- a silent wrong answer. Small loops with constant
// bounds are usually unrolled and then cost nothing against that budget; the bounds below
// hold even where they are not (a gemm invocation then spends about 64 x 560 = 36k
// iterations). The other loops run over tensor ranks, a few dozen at most:
//   * sum_serial: one invocation per (output element, chunk of kSerialReduceChunk = 32
//     reduced elements), added in order. Many outputs (at least kSerialPassMinInvocations
//     invocations' worth) give parallelism enough: a long reduction then runs as serial passes,
//     each shrinking it 32-fold into a scratch buffer of partial sums.
//   * sum_tree: one workgroup per (output element, chunk of kTreeReduceChunk = 2048 reduced
//     elements). Each of its 256 invocations adds 8 elements (a constant, unrolled loop),
//     then the workgroup adds the 256 partial sums pairwise in workgroup memory (8 halving
//     steps). A reduction longer than one chunk writes one partial sum per chunk to a scratch
//     buffer, and the host runs further passes over the partials until one chunk remains:
//     ceil(log_2048(n)) passes, each with a constant amount of work per invocation. The host
//     picks it when there are few outputs (a full sum, a dot product). Its barriers are what
//     lavapipe runs slowest, which is why many outputs take the serial passes instead.
//   * gemm: each workgroup covers at most kGemmSplitDepth (1024) of the contracted extent,
//     64 steps of 16. A longer K is split ("split-K"): the splits write partial products to a
//     scratch buffer (extra workgroups along z), and the reductions above add them into C.
//   * dot_tree: GEMMs with few elements of C (dot products, skinny shapes) where a 64 x 64
//     tile would idle almost every thread: sum_tree's structure (8 products per invocation,
//     a tree per workgroup, partials summed by the passes above) over products a * b.
// On a real GPU the same structure is what makes these kernels fast: a long reduction runs
// on many workgroups instead of one thread.
//
// Accuracy (F32 accumulators throughout). The sums are pairwise rather than running: blocks
// of 8 (tree) or at most 32 (serial) in-order additions, then binary trees of 256 per
// workgroup or further blocks of 32 over the partials, so a rounding error grows like log(n)
// in the worst case and like the rounding of the result itself in practice, not like n. (A
// running F32 sum of n terms with a nonzero mean is typically off by about sqrt(n)/6
// roundings of the result, 50 for n = 10^5; these kernels measured within 0.6 of one on
// lavapipe, see tests/webgpu/long_reductions_webgpu_test.cpp.) GEMM adds the 16 products of
// each step into a fresh register tile and only then into the running tile, so a split of
// 1024 terms is 64 running additions of block sums; the splits are then summed as above.
#include "backends/webgpu/wgsl_strided_kernels.hpp"

#include <array>
#include <cstring>
#include <string>
#include <string_view>

#include "backends/webgpu/webgpu_strided_map.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::webgpu_kernels::wgsl {
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

// The element-wise kernels are the strided map (webgpu_strided_map.hpp) with these ops,
// indexed by MapOp.
constexpr std::array<std::string_view, 3> kMapOps = {
    "fn op(x: TI) -> TO { return x; }\n",                 // Copy
    "fn op() -> TO { return zero(); }\n",                 // FillZero
    "fn op(x: TI, y: TI) -> TO { return mul(x, y); }\n",  // Multiply
};
constexpr std::array<int, 3> kMapArity = {1, 0, 2};

// The sums are the reduction passes' kernels (webgpu_reduction_passes.hpp)
// with these hooks. Output element o (a linear index over outer_shape) and chunk c of its
// reduced block are written to dst[dst_offset + sum_a o_a * dst_strides[a] + c *
// dst_chunk_stride], plus the value already there when word 8 of the parameters (accumulate)
// is nonzero: GEMM's split-K rounds add into C.
constexpr std::string_view kSumHooks = R"(
alias S = T;
alias A = T;
@group(0) @binding(2) var<storage, read_write> dst: array<T>;
fn identity() -> T { return zero(); }
fn combine(a: T, b: T) -> T { return a + b; }
fn load(x: T, j: i32) -> T { return x; }
fn store(d: i32, v: T) {
  if (p[8] != 0) {
    dst[d] = dst[d] + v;
  } else {
    dst[d] = v;
  }
}
)";

// Tiled batched GEMM, C[b](i, j) = sum_l A[b](i, l) * B[b](l, j), every operand strided.
// A workgroup of 16 x 16 threads computes one 64 x 64 block of C for one (batch, split) pair:
// each k-step stages a 64 x 16 slice of A and a 16 x 64 slice of B in workgroup memory (four
// elements per thread each, consecutive threads on consecutive rows of A / depths of B), and
// every thread accumulates a 4 x 4 register tile of C, rows lid.x + 16 r and columns
// lid.y + 16 c, so one barrier pair serves 16 x 16 multiply-adds per thread.
// Split-K: z enumerates (batch, split) pairs of this round, z = batch * splits + split. Split s
// covers depths [(split_begin + s) * split_depth, + split_depth) and writes its partial product
// at c_offset + batch * c_stride_batch + s * c_stride_split (+ the value there when
// accumulate != 0). One split covering all of K is the plain GEMM.
// p = [m, n, k, z_base, splits, split_begin, split_depth, accumulate,
//      a_offset, a_stride_m, a_stride_k, a_stride_batch,
//      b_offset, b_stride_k, b_stride_n, b_stride_batch,
//      c_offset, c_stride_m, c_stride_n, c_stride_batch, c_stride_split]
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
  let row0 = i32(wid.x * BLOCK);
  let col0 = i32(wid.y * BLOCK);
  let z = i32(wid.z) + p[3];
  let batch = z / p[4];
  let split = z % p[4];
  let k_begin = (p[5] + split) * p[6];
  let k_end = min(p[2], k_begin + p[6]);  // at most split_depth / DEPTH steps below
  let a_base = p[8] + batch * p[11];
  let b_base = p[12] + batch * p[15];
  var acc: array<array<T, 4>, 4>;
  for (var r = 0u; r < 4u; r++) {
    for (var q = 0u; q < 4u; q++) { acc[r][q] = zero(); }
  }
  for (var t = k_begin; t < k_end; t += i32(DEPTH)) {
    for (var s = 0u; s < 4u; s++) {
      let e = li + 256u * s;
      let i = e % BLOCK;  // A: rows fastest
      let l = e / BLOCK;
      let gi = row0 + i32(i);
      let gl = t + i32(l);
      if (gi < m && gl < k_end) {
        tile_a[l][i] = a[a_base + gi * p[9] + gl * p[10]];
      } else {
        tile_a[l][i] = zero();
      }
      let bl = e % DEPTH;  // B: depth fastest
      let j = e / DEPTH;
      let gbl = t + i32(bl);
      let gj = col0 + i32(j);
      if (gbl < k_end && gj < n) {
        tile_b[bl][j] = b[b_base + gbl * p[13] + gj * p[14]];
      } else {
        tile_b[bl][j] = zero();
      }
    }
    workgroupBarrier();
    // The step's 16 products go into a fresh tile first (blocked summation, see the top).
    var step: array<array<T, 4>, 4>;
    for (var r = 0u; r < 4u; r++) {
      for (var q = 0u; q < 4u; q++) { step[r][q] = zero(); }
    }
    for (var l = 0u; l < DEPTH; l++) {
      var av: array<T, 4>;
      var bv: array<T, 4>;
      for (var r = 0u; r < 4u; r++) {
        av[r] = tile_a[l][lid.x + 16u * r];
        bv[r] = tile_b[l][lid.y + 16u * r];
      }
      for (var r = 0u; r < 4u; r++) {
        for (var q = 0u; q < 4u; q++) { step[r][q] += mul(av[r], bv[q]); }
      }
    }
    for (var r = 0u; r < 4u; r++) {
      for (var q = 0u; q < 4u; q++) { acc[r][q] += step[r][q]; }
    }
    workgroupBarrier();
  }
  let c_base = p[16] + batch * p[19] + split * p[20];
  for (var r = 0u; r < 4u; r++) {
    let row = row0 + i32(lid.x + 16u * r);
    for (var q = 0u; q < 4u; q++) {
      let col = col0 + i32(lid.y + 16u * q);
      if (row < m && col < n) {
        let o = c_base + row * p[17] + col * p[18];
        if (p[7] != 0) {
          c[o] = c[o] + acc[r][q];
        } else {
          c[o] = acc[r][q];
        }
      }
    }
  }
}
)";

// GEMM for few outputs and a long K (dot products, GEMV-like shapes), where a 64 x 64 tile
// would leave almost every thread idle: one workgroup per (element of C, chunk of CHUNK
// depths), PER_INVOCATION products per invocation, then the pairwise tree of sum_tree.
// Element o of C is (i, j, batch) column-major; chunk c's sum is written (never added) to
// c_offset + i c_stride_m + j c_stride_n + batch c_stride_batch + c * c_stride_chunk.
// p = [m, n, k, batch, n_chunks,
//      a_offset, a_stride_m, a_stride_k, a_stride_batch,
//      b_offset, b_stride_k, b_stride_n, b_stride_batch,
//      c_offset, c_stride_m, c_stride_n, c_stride_batch, c_stride_chunk]
constexpr std::string_view kDotTree = R"(
@group(0) @binding(1) var<storage, read> a: array<T>;
@group(0) @binding(2) var<storage, read> b: array<T>;
@group(0) @binding(3) var<storage, read_write> c: array<T>;
var<workgroup> partial: array<T, 256>;
@compute @workgroup_size(256)
fn dot_tree(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
            @builtin(num_workgroups) groups: vec3<u32>) {
  // Uniform up to the tree (workgroup id and parameters only), as in sum_tree.
  let g = i32(wid.y * groups.x + wid.x);
  let n_chunks = p[4];
  let o = g / n_chunks;
  if (o >= p[0] * p[1] * p[3]) { return; }
  let chunk = g % n_chunks;
  let i = o % p[0];
  let j = (o / p[0]) % p[1];
  let batch = o / (p[0] * p[1]);
  let a_row = p[5] + i * p[6] + batch * p[8];
  let b_col = p[9] + j * p[11] + batch * p[12];
  let first = chunk * CHUNK + i32(lid.x);
  var acc = zero();
  for (var q = 0u; q < PER_INVOCATION; q++) {
    let l = first + i32(q * WG);
    if (l < p[2]) { acc += mul(a[a_row + l * p[7]], b[b_col + l * p[10]]); }
  }
  partial[lid.x] = acc;
  workgroupBarrier();
  for (var width = WG / 2u; width > 0u; width = width / 2u) {
    if (lid.x < width) { partial[lid.x] = partial[lid.x] + partial[lid.x + width]; }
    workgroupBarrier();
  }
  if (lid.x == 0u) { c[p[13] + i * p[14] + j * p[15] + batch * p[16] + chunk * p[17]] = partial[0]; }
}
)";

// Entry point and its source after the prelude and kCommon: the kernel itself, or for the
// sums the hooks handed to the reduction passes' kernels.
struct Kernel {
  std::string_view entry;
  std::string_view source;
  bool reduction = false;
};
constexpr std::array<Kernel, 4> kKernels = {{
    {webgpu_reduction::kSerialEntry, kSumHooks, true},
    {webgpu_reduction::kTreeEntry, kSumHooks, true},
    {"gemm", kGemm},
    {"dot_tree", kDotTree},
}};

std::string compose(std::string_view prelude, const Kernel& kernel) {
  std::string s;
  s.append(prelude).append(kCommon);
  // The reduction passes' bounds (CHUNK, SERIAL_CHUNK, PER_INVOCATION; dot_tree folds
  // chunks of K the same way).
  s.append(webgpu_reduction::wgsl_bounds());
  return s.append(kernel.reduction ? webgpu_reduction::wgsl_reduction(kernel.source)
                                   : std::string(kernel.source));
}

std::string compose_map(std::string_view prelude, std::size_t op) {
  std::string s;
  s.append(prelude).append(kCommon).append("alias TI = T;\nalias TO = T;\n");
  return s.append(kMapOps[op]).append(webgpu_map::wgsl_map(kMapArity[op]));
}

struct Sources {
  std::array<std::string, kKernels.size()> f32, c32;
  std::array<std::string, kMapOps.size()> map_f32, map_c32;
  Sources() {
    for (std::size_t i = 0; i < kKernels.size(); ++i) {
      f32[i] = compose(kF32Prelude, kKernels[i]);
      c32[i] = compose(kC32Prelude, kKernels[i]);
    }
    for (std::size_t i = 0; i < kMapOps.size(); ++i) {
      map_f32[i] = compose_map(kF32Prelude, i);
      map_c32[i] = compose_map(kC32Prelude, i);
    }
  }
};

const Sources& sources_for(DType dtype) {
  static const Sources sources;
  if (dtype != DType::F32 && dtype != DType::C32) {
    throw_error(ErrorKind::Unsupported, ErrorPhase::Execute, "webgpu",
                "the WebGPU strided kernels support F32 and C32 only (WGSL has no f64), not " +
                    std::string(dtype_name(dtype)));
  }
  return sources;
}

}  // namespace

const std::string& map_source(DType dtype, MapOp op) {
  const Sources& sources = sources_for(dtype);
  const auto i = static_cast<std::size_t>(op);
  return dtype == DType::F32 ? sources.map_f32[i] : sources.map_c32[i];
}

const std::string& source(DType dtype, const char* entry) {
  const Sources& sources = sources_for(dtype);
  for (std::size_t i = 0; i < kKernels.size(); ++i) {
    if (kKernels[i].entry == entry) return dtype == DType::F32 ? sources.f32[i] : sources.c32[i];
  }
  throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "webgpu",
              "no WGSL kernel named " + std::string(entry));
}

}  // namespace tenferro::webgpu_kernels::wgsl
