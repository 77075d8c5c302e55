// The plain data the prims CUDA kernels share with the host: the strided index and its
// decoding, and the predicates that say which (op, element) pairs are instantiated. The ops are
// the family's own PrimKind (prim_kind_enum.hpp, plain C++17). No CUDA type and no C++20 host
// header (no DType): the .cu files (C++17), the host kernel set and the hardware-independent
// tests all include it.
#pragma once

#include <cstdint>

#include "backends/cuda/device_element.hpp"
#include "ops/prims/prim_kind_enum.hpp"

namespace tenferro::cuda_kernels::prims {

using prims_internal::PrimKind;
using prims_internal::real_only_math;

// 64 axes always suffice: after dropping extent-1 axes every axis has extent >= 2, and no
// tensor has 2^64 elements. (Einsum's StridedIndex, strided_kernels.hpp, too.)
inline constexpr int kMaxRank = 64;

// `rank` axes with extents `extent`, one stride set per operand (element units; 0 is a
// broadcast axis; negative only for flip's input, read backwards from its last element).
template <int N>
struct Index {
  int rank = 0;
  std::int64_t extent[kMaxRank] = {};
  std::int64_t stride[N][kMaxRank] = {};
};

#if defined(__CUDACC__)
#define TENFERRO_PRIMS_HD __host__ __device__ __forceinline__
#else
#define TENFERRO_PRIMS_HD inline
#endif

// The element offset in each operand of linear index `linear` (column-major over ix's axes).
// The kernels call this on the device; the host tests call the same code.
template <int N>
TENFERRO_PRIMS_HD void offsets_of(const Index<N>& ix, std::int64_t linear, std::int64_t (&off)[N]) {
  if (ix.rank <= 1) {  // one run of memory per operand: no division
    for (int n = 0; n < N; ++n) off[n] = ix.rank == 0 ? 0 : linear * ix.stride[n][0];
    return;
  }
  for (int n = 0; n < N; ++n) off[n] = 0;
  const int last = ix.rank - 1;
  for (int d = 0; d < last; ++d) {
    const std::int64_t q = linear % ix.extent[d];
    linear /= ix.extent[d];
    for (int n = 0; n < N; ++n) off[n] += q * ix.stride[n][d];
  }
  for (int n = 0; n < N; ++n) off[n] += linear * ix.stride[n][last];
}

// The scalars of Affine (alpha * x + beta) and Axpby (alpha * x + beta * y), as given by the
// caller; the kernel converts them to the operand's precision.
struct Scalars {
  double alpha_re = 1, alpha_im = 0, beta_re = 0, beta_im = 0;
  bool add_beta = true;  // Affine: kernel_calls.hpp's adds_beta(beta), decided on the host
};

// The launches take the op as a PrimKind of the matching kernel shape:
//  - launch_unary: the ops of TENFERRO_PRIMS_UNARY_OPS, Affine, Cast. Output element: the
//    real one of `in` for Abs, Real, Imag (unary_math.cuh); the `out` argument for Cast; else
//    `in`'s.
//  - launch_binary: Add..Complex, Axpby, Greater..NotEqual; a and b of one element type.
//    Complex: real a, b and a complex output; Maximum, Minimum, Pow: real only. Comparisons:
//    0/1 in the real element of a and b; the orderings real only.
//  - launch_reduce: Sum, Mean, Prod, Max, Min, Norm, ArgMax, ArgMin (one reduced axis).
//  - launch_scan: CumSum, CumProd.
//  - launch_generate: Fill, Eye, Arange, RandomUniform, RandomNormal.

constexpr bool is_complex_element(Element e) {
  return e == Element::C32 || e == Element::C64;
}
// What the kernels are instantiated for. The host's runs[] claim (cuda_prims_kernels.cpp) and
// the launch dispatch in the .cu files both read these, so the claim is what runs.
constexpr bool unary_runs(PrimKind op, Element in) {
  // every unary op for every element but the real-only ones on complex (Cast: see cast_runs)
  return !(real_only_math(op) && is_complex_element(in));
}
constexpr bool cast_runs(Element in, Element out) {
  return !(is_complex_element(in) && !is_complex_element(out));
}
constexpr bool binary_runs(PrimKind op, Element in) {
  // the real-only math ops of the list (maximum .. hypot, complex) and the orderings: real only
  switch (op) {
    case PrimKind::Greater:
    case PrimKind::GreaterEqual:
    case PrimKind::Less:
    case PrimKind::LessEqual:
      return !is_complex_element(in);
    default:
      return !(real_only_math(op) && is_complex_element(in));
  }
}

constexpr bool reduce_runs(PrimKind op, Element in) {
  const bool real_only = op == PrimKind::Max || op == PrimKind::Min || op == PrimKind::ArgMax ||
                         op == PrimKind::ArgMin;
  return !(real_only && is_complex_element(in));
}

constexpr bool scan_runs(PrimKind op, Element) {
  return op == PrimKind::CumSum || op == PrimKind::CumProd;  // every element type
}

constexpr bool generate_runs(PrimKind, Element) {
  return true;
}

struct GenerateArgs {
  double value_re = 0, value_im = 0;  // Fill
  std::int64_t rows = 0;              // Eye: the extent of axis 0
  std::int64_t offset = 0;            // Eye: the diagonal
  double start = 0, step = 1;         // Arange
  double a = 0, b = 1;                // Uniform: low, high; Normal: mean, stddev
  std::uint64_t seed = 0;             // Uniform, Normal
};

// How many parts per output a reduction of `reduced_count` elements into `kept_count` outputs
// is cut into (1: no workspace and no second kernel). Host code, defined in reduce_kernels.cu.
std::int64_t reduce_parts(std::int64_t kept_count, std::int64_t reduced_count);

}  // namespace tenferro::cuda_kernels::prims
