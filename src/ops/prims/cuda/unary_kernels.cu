// One-input element-wise prims kernels: unary math, Affine and Cast over strided views. One
// grid-stride kernel per (op, input element, output element); the op is a template argument,
// so the loop body holds no switch.
#include "ops/prims/cuda/element_ops.cuh"

namespace tenferro::cuda_kernels::prims {
namespace {

// Real functions: float arguments are evaluated in double and rounded once (closer to the
// CPU's correctly rounded libm than the float device functions); sqrt and division are IEEE.
template <PrimKind Op, class T>
struct UnaryOut {
  using type = T;
};
template <class T>
struct UnaryOut<PrimKind::Abs, T> {
  using type = RealOf<T>;
};
template <class T>
struct UnaryOut<PrimKind::Real, T> {
  using type = RealOf<T>;
};
template <class T>
struct UnaryOut<PrimKind::Imag, T> {
  using type = RealOf<T>;
};

template <PrimKind Op, class T>
struct UnaryFn {
  using Out = typename UnaryOut<Op, T>::type;
  Scalars s;

  __device__ Out operator()(T x) const {
    if constexpr (Op == PrimKind::Affine) {
      const T y = scale_by(s.alpha_re, s.alpha_im, x);
      if (s.beta_re == 0.0 && s.beta_im == 0.0) return y;  // as the CPU: no "+ 0" (keeps -0)
      if constexpr (kIsComplex<T>) {
        using R = RealOf<T>;
        return {add_rn(y.re, static_cast<R>(s.beta_re)), add_rn(y.im, static_cast<R>(s.beta_im))};
      } else {
        return add_rn(y, static_cast<T>(s.beta_re));
      }
    } else if constexpr (kIsComplex<T>) {
      return complex_op(x);
    } else {
      return real_op(x);
    }
  }

  __device__ Out real_op(T x) const {
    switch (Op) {
      case PrimKind::Neg:
        return -x;
      case PrimKind::Conj:
      case PrimKind::Real:
        return x;
      case PrimKind::Abs:
        return fabs(x);
      case PrimKind::Imag:
        return T(0);
      case PrimKind::Sqrt:
        return sqrt(x);
      case PrimKind::Exp:
        return static_cast<T>(exp(static_cast<double>(x)));
      case PrimKind::Log:
        return static_cast<T>(log(static_cast<double>(x)));
      case PrimKind::Sin:
        return static_cast<T>(sin(static_cast<double>(x)));
      case PrimKind::Cos:
        return static_cast<T>(cos(static_cast<double>(x)));
      case PrimKind::Tanh:
        return static_cast<T>(tanh(static_cast<double>(x)));
      case PrimKind::Reciprocal:
        return div_rn(T(1), x);
      case PrimKind::Square:
        return mul_rn(x, x);
      case PrimKind::Sign:
        if (isnan(x)) return x;
        return static_cast<T>((x > 0) - (x < 0));
      default:
        return x;  // Affine and Cast never reach here
    }
  }

  __device__ Out complex_op(T x) const {
    using R = RealOf<T>;
    if constexpr (Op == PrimKind::Abs) {
      return static_cast<R>(zabs(widen(x)));
    } else if constexpr (Op == PrimKind::Real) {
      return x.re;
    } else if constexpr (Op == PrimKind::Imag) {
      return x.im;
    } else {
      switch (Op) {
        case PrimKind::Neg:
          return {-x.re, -x.im};
        case PrimKind::Conj:
          return {x.re, -x.im};
        case PrimKind::Sqrt:
          return narrow<R>(zsqrt(widen(x)));
        case PrimKind::Exp:
          return narrow<R>(zexp(widen(x)));
        case PrimKind::Log:
          return narrow<R>(zlog(widen(x)));
        case PrimKind::Sin:
          return narrow<R>(zsin(widen(x)));
        case PrimKind::Cos:
          return narrow<R>(zcos(widen(x)));
        case PrimKind::Tanh:
          return narrow<R>(ztanh(widen(x)));
        case PrimKind::Reciprocal:
          return narrow<R>(zdiv(Z{1.0, 0.0}, widen(x)));
        case PrimKind::Square:
          return cmul(x, x);
        case PrimKind::Sign:
          return narrow<R>(zsign(widen(x)));
        default:
          return x;
      }
    }
  }
};

// real -> real (F32 <-> F64, rounding to nearest), real -> complex (zero imaginary part),
// complex -> complex. complex -> real is never instantiated (cast_runs).
template <class In, class Out>
struct CastFn {
  __device__ Out operator()(In x) const {
    if constexpr (kIsComplex<Out>) {
      using R = RealOf<Out>;
      if constexpr (kIsComplex<In>) {
        return {static_cast<R>(x.re), static_cast<R>(x.im)};
      } else {
        return {static_cast<R>(x), R(0)};
      }
    } else {
      return static_cast<Out>(x);
    }
  }
};

template <class In, class Out, class F>
__global__ void map1_kernel(Out* dst, const In* src, Index<2> ix, std::int64_t count, F f) {
  TENFERRO_GRID_LOOP(i, count) {
    std::int64_t off[2];
    offsets_of<2>(ix, i, off);
    dst[off[0]] = f(src[off[1]]);
  }
}

template <class In, class Out, class F>
cudaError_t map1(F f, void* dst, const void* src, const Index<2>& ix, std::int64_t count,
                 cudaStream_t stream) {
  map1_kernel<In, Out, F><<<elementwise_blocks(count), kGridThreads, 0, stream>>>(
      static_cast<Out*>(dst), static_cast<const In*>(src), ix, count, f);
  return cudaGetLastError();
}

template <PrimKind Op>
cudaError_t unary_op(Element in, Element out, void* dst, const void* src, const Index<2>& ix,
                     std::int64_t count, const Scalars& s, cudaStream_t stream) {
  return with_element(in, [&](auto in_tag) -> cudaError_t {
    using In = decltype(in_tag);
    if constexpr (Op == PrimKind::Cast) {
      return with_element(out, [&](auto out_tag) -> cudaError_t {
        using Out = decltype(out_tag);
        if constexpr (!cast_runs(kElementOf<In>, kElementOf<Out>)) {
          return cudaErrorInvalidValue;
        } else {
          return map1<In, Out>(CastFn<In, Out>{}, dst, src, ix, count, stream);
        }
      });
    } else {
      using Fn = UnaryFn<Op, In>;
      if (!unary_runs(Op, in) || out != kElementOf<typename Fn::Out>) return cudaErrorInvalidValue;
      return map1<In, typename Fn::Out>(Fn{s}, dst, src, ix, count, stream);
    }
  });
}

}  // namespace

cudaError_t launch_unary(PrimKind op, Element in, Element out, void* dst, const void* src,
                         const Index<2>& ix, std::int64_t count, const Scalars& s,
                         cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  switch (op) {
    case PrimKind::Neg:
      return unary_op<PrimKind::Neg>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Conj:
      return unary_op<PrimKind::Conj>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Abs:
      return unary_op<PrimKind::Abs>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Real:
      return unary_op<PrimKind::Real>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Imag:
      return unary_op<PrimKind::Imag>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Sqrt:
      return unary_op<PrimKind::Sqrt>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Exp:
      return unary_op<PrimKind::Exp>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Log:
      return unary_op<PrimKind::Log>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Sin:
      return unary_op<PrimKind::Sin>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Cos:
      return unary_op<PrimKind::Cos>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Tanh:
      return unary_op<PrimKind::Tanh>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Reciprocal:
      return unary_op<PrimKind::Reciprocal>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Square:
      return unary_op<PrimKind::Square>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Sign:
      return unary_op<PrimKind::Sign>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Affine:
      return unary_op<PrimKind::Affine>(in, out, dst, src, ix, count, s, stream);
    case PrimKind::Cast:
      return unary_op<PrimKind::Cast>(in, out, dst, src, ix, count, s, stream);
    default:
      break;  // not a one-input element-wise op: the host never sends one
  }
  return cudaErrorInvalidValue;
}

}  // namespace tenferro::cuda_kernels::prims
