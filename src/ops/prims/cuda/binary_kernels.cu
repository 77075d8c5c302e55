// Two-input element-wise prims kernels over strided views (inputs already broadcast to the
// output's shape by stride-0 axes): arithmetic, NaN-propagating maximum/minimum, pow, complex
// from parts, axpby and the IEEE comparisons (0/1 in the real element). One grid-stride kernel per
// (op, element).
#include "ops/prims/cuda/element_ops.cuh"
#include "ops/prims/shared_real_math.hpp"

namespace tenferro::cuda_kernels::prims {
namespace {

using prims_internal::exact_fmod;
using prims_internal::floor_division;

template <PrimKind Op, class T>
struct BinaryOut {
  using type = T;
};
template <class T>
struct BinaryOut<PrimKind::Complex, T> {
  using type = DeviceComplex<T>;
};

// A variable, not a function: device code may read a constexpr variable but not call a host
// constexpr function.
template <PrimKind Op>
inline constexpr bool kIsComparison =
    Op == PrimKind::Greater || Op == PrimKind::GreaterEqual || Op == PrimKind::Less ||
    Op == PrimKind::LessEqual || Op == PrimKind::Equal || Op == PrimKind::NotEqual;

// C++'s comparison operators are IEEE's on the device too: NaN makes all false but !=.
template <PrimKind Op, class R>
__device__ __forceinline__ bool compare_real(R a, R b) {
  switch (Op) {
    case PrimKind::Greater:
      return a > b;
    case PrimKind::GreaterEqual:
      return a >= b;
    case PrimKind::Less:
      return a < b;
    case PrimKind::LessEqual:
      return a <= b;
    case PrimKind::Equal:
      return a == b;
    default:
      return a != b;
  }
}

// NumPy's maximum/minimum: a NaN in either operand is the result.
template <class R>
__device__ __forceinline__ R nan_max(R a, R b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? b : a;  // -0 < +0, as IEEE 754-2019's maximum
  return a < b ? b : a;
}
template <class R>
__device__ __forceinline__ R nan_min(R a, R b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? a : b;  // -0 < +0, as IEEE 754-2019's minimum
  return b < a ? b : a;
}

template <PrimKind Op, class T>
struct BinaryFn {
  using Out = std::conditional_t<kIsComparison<Op>, RealOf<T>, typename BinaryOut<Op, T>::type>;
  Scalars s;

  __device__ Out operator()(T a, T b) const {
    if constexpr (kIsComparison<Op>) {
      if constexpr (kIsComplex<T>) {
        // Equal/NotEqual only (binary_runs): both parts must match.
        const bool eq = a.re == b.re && a.im == b.im;
        return (Op == PrimKind::NotEqual ? !eq : eq) ? Out(1) : Out(0);
      } else {
        return compare_real<Op>(a, b) ? Out(1) : Out(0);
      }
    } else if constexpr (Op == PrimKind::Axpby) {
      return plus(scale_by(s.alpha_re, s.alpha_im, a), scale_by(s.beta_re, s.beta_im, b));
    } else if constexpr (Op == PrimKind::Complex) {
      return {a, b};
    } else if constexpr (kIsComplex<T>) {
      switch (Op) {
        case PrimKind::Add:
          return cadd(a, b);
        case PrimKind::Sub:
          return csub(a, b);
        case PrimKind::Mul:
          return cmul(a, b);
        case PrimKind::Div:
          return cquotient(a, b);
        default:
          return a;  // real-only ops are never instantiated for complex (binary_runs)
      }
    } else {
      switch (Op) {
        case PrimKind::Add:
          return add_rn(a, b);
        case PrimKind::Sub:
          return sub_rn(a, b);
        case PrimKind::Mul:
          return mul_rn(a, b);
        case PrimKind::Div:
          return div_rn(a, b);
        case PrimKind::Maximum:
          return nan_max(a, b);
        case PrimKind::Minimum:
          return nan_min(a, b);
        case PrimKind::Pow:  // float: evaluated in double, rounded once
          return static_cast<T>(pow(static_cast<double>(a), static_cast<double>(b)));
        case PrimKind::Atan2:
          return static_cast<T>(atan2(static_cast<double>(a), static_cast<double>(b)));
        case PrimKind::Hypot:
          return static_cast<T>(hypot(static_cast<double>(a), static_cast<double>(b)));
        case PrimKind::FloorDiv:  // in T, as NumPy (shared_real_math.hpp)
          return floor_division(a, b).quotient;
        case PrimKind::Mod:
          return floor_division(a, b).remainder;
        case PrimKind::Fmod:
          return exact_fmod(a, b);
        case PrimKind::Copysign:
          return copysign(a, b);
        default:
          return a;
      }
    }
  }
};

template <class In, class Out, class F>
__global__ void map2_kernel(Out* dst, const In* a, const In* b, Index<3> ix, std::int64_t count,
                            F f) {
  TENFERRO_GRID_LOOP(i, count) {
    std::int64_t off[3];
    offsets_of<3>(ix, i, off);
    dst[off[0]] = f(a[off[1]], b[off[2]]);
  }
}

template <PrimKind Op>
cudaError_t binary_op(Element in, void* dst, const void* a, const void* b, const Index<3>& ix,
                      std::int64_t count, const Scalars& s, cudaStream_t stream) {
  return with_element(in, [&](auto tag) -> cudaError_t {
    using T = decltype(tag);
    if constexpr (!binary_runs(Op, kElementOf<T>)) {
      return cudaErrorInvalidValue;
    } else {
      using Fn = BinaryFn<Op, T>;
      using Out = typename Fn::Out;
      map2_kernel<T, Out, Fn><<<elementwise_blocks(count), kGridThreads, 0, stream>>>(
          static_cast<Out*>(dst), static_cast<const T*>(a), static_cast<const T*>(b), ix, count,
          Fn{s});
      return cudaGetLastError();
    }
  });
}

}  // namespace

cudaError_t launch_binary(PrimKind op, Element in, void* dst, const void* a, const void* b,
                          const Index<3>& ix, std::int64_t count, const Scalars& s,
                          cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  switch (op) {
    case PrimKind::Add:
      return binary_op<PrimKind::Add>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Sub:
      return binary_op<PrimKind::Sub>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Mul:
      return binary_op<PrimKind::Mul>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Div:
      return binary_op<PrimKind::Div>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Maximum:
      return binary_op<PrimKind::Maximum>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Minimum:
      return binary_op<PrimKind::Minimum>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Pow:
      return binary_op<PrimKind::Pow>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Atan2:
      return binary_op<PrimKind::Atan2>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Hypot:
      return binary_op<PrimKind::Hypot>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::FloorDiv:
      return binary_op<PrimKind::FloorDiv>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Mod:
      return binary_op<PrimKind::Mod>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Fmod:
      return binary_op<PrimKind::Fmod>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Copysign:
      return binary_op<PrimKind::Copysign>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Complex:
      return binary_op<PrimKind::Complex>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Axpby:
      return binary_op<PrimKind::Axpby>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Greater:
      return binary_op<PrimKind::Greater>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::GreaterEqual:
      return binary_op<PrimKind::GreaterEqual>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Less:
      return binary_op<PrimKind::Less>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::LessEqual:
      return binary_op<PrimKind::LessEqual>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::Equal:
      return binary_op<PrimKind::Equal>(in, dst, a, b, ix, count, s, stream);
    case PrimKind::NotEqual:
      return binary_op<PrimKind::NotEqual>(in, dst, a, b, ix, count, s, stream);
    default:
      break;  // not a two-input element-wise op: the host never sends one
  }
  return cudaErrorInvalidValue;
}

}  // namespace tenferro::cuda_kernels::prims
