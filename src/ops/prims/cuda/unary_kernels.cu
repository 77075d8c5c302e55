// One-input element-wise prims kernels: unary math, Affine and Cast over strided views. One
// grid-stride kernel per (op, input element, output element); the op is a template argument,
// so the loop body holds no switch. The ops of the list (TENFERRO_PRIMS_UNARY_OPS) are all
// instantiated from the list; their math is in unary_math.cuh.
#include <utility>

#include "ops/prims/cuda/element_ops.cuh"
#include "ops/prims/cuda/unary_math.cuh"

namespace tenferro::cuda_kernels::prims {
namespace {

// The output element of a one-input op: the math's (unary_math.cuh), Affine's input's.
template <PrimKind Op, class T>
struct UnaryOut {
  using type = decltype(unary_math<Op>(std::declval<T>()));
};
template <class T>
struct UnaryOut<PrimKind::Affine, T> {
  using type = T;
};

// The element function of a unary math op of the list (its math is in unary_math.cuh) or of
// Affine (alpha * x + beta).
template <PrimKind Op, class T>
struct UnaryFn {
  using Out = typename UnaryOut<Op, T>::type;
  Scalars s;

  __device__ Out operator()(T x) const {
    if constexpr (Op == PrimKind::Affine) {
      const T y = scale_by(s.alpha_re, s.alpha_im, x);
      if (!s.add_beta) return y;  // scale's beta (-0, -0); x + 0 makes -0 a +0
      if constexpr (kIsComplex<T>) {
        using R = RealOf<T>;
        return {add_rn(y.re, static_cast<R>(s.beta_re)), add_rn(y.im, static_cast<R>(s.beta_im))};
      } else {
        return add_rn(y, static_cast<T>(s.beta_re));
      }
    } else {
      return unary_math<Op>(x);
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

template <class In, class Out>
cudaError_t cast_pair(void* dst, const void* src, const Index<2>& ix, std::int64_t count,
                      cudaStream_t stream) {
  if constexpr (!cast_runs(kElementOf<In>, kElementOf<Out>)) {
    return cudaErrorInvalidValue;
  } else {
    return map1<In, Out>(CastFn<In, Out>{}, dst, src, ix, count, stream);
  }
}

// The output element of a cast by a switch, not by a second generic lambda inside
// with_element's: built that way by nvcc 13.0, every cast launch failed on the H200 with
// cudaErrorInvalidDeviceFunction, although the kernels were in the fatbin and registered (the
// mechanism is not known); with the switch, the device suites pass (docs/performance.md, CUDA).
template <class In>
cudaError_t cast_from(Element out, void* dst, const void* src, const Index<2>& ix,
                      std::int64_t count, cudaStream_t stream) {
  switch (out) {
    case Element::F32:
      return cast_pair<In, float>(dst, src, ix, count, stream);
    case Element::F64:
      return cast_pair<In, double>(dst, src, ix, count, stream);
    case Element::C32:
      return cast_pair<In, DeviceComplex<float>>(dst, src, ix, count, stream);
    case Element::C64:
      return cast_pair<In, DeviceComplex<double>>(dst, src, ix, count, stream);
  }
  return cudaErrorInvalidValue;
}

template <PrimKind Op>
cudaError_t unary_op(Element in, Element out, void* dst, const void* src, const Index<2>& ix,
                     std::int64_t count, const Scalars& s, cudaStream_t stream) {
  return with_element(in, [&](auto in_tag) -> cudaError_t {
    using In = decltype(in_tag);
    if constexpr (Op == PrimKind::Cast) {
      return cast_from<In>(out, dst, src, ix, count, stream);
    } else if constexpr (kIsComplex<In> && real_only_math(Op)) {
      return cudaErrorInvalidValue;  // no complex math (unary_runs)
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
#define TENFERRO_PRIMS_UNARY_CASE(Kind, fn, python_name, dtypes) \
  case PrimKind::Kind:                                           \
    return unary_op<PrimKind::Kind>(in, out, dst, src, ix, count, s, stream);
    TENFERRO_PRIMS_UNARY_OPS(TENFERRO_PRIMS_UNARY_CASE)
#undef TENFERRO_PRIMS_UNARY_CASE
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
