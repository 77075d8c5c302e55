// Creation prims kernels: fill, eye, arange and Philox4x32-10 random numbers exactly as
// philox.hpp specifies. The uniform words, and the uniform numbers in [0, 1) made from them,
// are bit-identical with the CPU's philox_words()/uniform_f32()/uniform_f64(): integer
// arithmetic (__umulhi for the high product) and exact conversions, with the round-to-nearest
// intrinsics so that no FMA contraction changes a rounding. low + (high - low) * u and arange's
// start + k * step round like the CPU's expressions (same operations, same precision); the
// normal values go through device log/sqrt/cos/sin and agree to the device's rounding.
#include "ops/prims/cuda/element_ops.cuh"
#include "ops/prims/cuda/philox_device.cuh"

namespace tenferro::cuda_kernels::prims {
namespace {

// (w >> 8) * 2^-24: a 24-bit integer (exact in float) times a power of two (exact).
__device__ __forceinline__ float uniform_f32(std::uint32_t w) {
  return __fmul_rn(static_cast<float>(w >> 8), 0x1.0p-24f);
}
// ((w0 >> 5) * 2^26 + (w1 >> 6)) * 2^-53: every step is exact below 2^53.
__device__ __forceinline__ double uniform_f64(std::uint32_t w0, std::uint32_t w1) {
  return __dmul_rn(
      __dadd_rn(__dmul_rn(static_cast<double>(w0 >> 5), 67108864.0), static_cast<double>(w1 >> 6)),
      0x1.0p-53);
}

template <class R>
struct Uniforms {
  R re, im;  // U for the real part and the imaginary part
};
template <class R>
__device__ __forceinline__ Uniforms<R> uniforms(const Words& w) {
  if constexpr (std::is_same_v<R, float>) {
    return {uniform_f32(w.x[0]), uniform_f32(w.x[2])};
  } else {
    return {uniform_f64(w.x[0], w.x[1]), uniform_f64(w.x[2], w.x[3])};
  }
}

// Box-Muller (philox.hpp): U_a, U_b from x0, x1 (F32/C32) or (x0, x1), (x2, x3) (F64/C64);
// evaluated in the element's precision like the CPU.
template <class R>
__device__ __forceinline__ Uniforms<R> normals(const Words& w) {
  R ua, ub;
  if constexpr (std::is_same_v<R, float>) {
    ua = uniform_f32(w.x[0]);
    ub = uniform_f32(w.x[1]);
    const float r = sqrtf(__fmul_rn(-2.0f, logf(__fsub_rn(1.0f, ua))));
    const float theta = __fmul_rn(__fmul_rn(2.0f, 3.14159265358979323846f), ub);
    return {__fmul_rn(r, cosf(theta)), __fmul_rn(r, sinf(theta))};
  } else {
    ua = uniform_f64(w.x[0], w.x[1]);
    ub = uniform_f64(w.x[2], w.x[3]);
    const double r = sqrt(__dmul_rn(-2.0, log(__dsub_rn(1.0, ua))));
    const double theta = __dmul_rn(__dmul_rn(2.0, 3.14159265358979323846), ub);
    return {__dmul_rn(r, cos(theta)), __dmul_rn(r, sin(theta))};
  }
}

template <class T>
__device__ __forceinline__ T make(RealOf<T> re, RealOf<T> im) {
  if constexpr (kIsComplex<T>) {
    return {re, im};
  } else {
    return re;
  }
}

// low + span * u in [low, high), as the CPU's uniform_between: where the product rounds to
// high itself, the value next to high.
template <class R>
__device__ __forceinline__ R uniform_between(R lo, R hi, R span, R u) {
  const R v = add_rn(lo, mul_rn(span, u));
  return (span > R(0) && v >= hi) || (span < R(0) && v <= hi) ? nextafter(hi, lo) : v;
}

template <PrimKind Op, class T>
__global__ void generate_kernel(T* dst, std::int64_t count, GenerateArgs g) {
  using R = RealOf<T>;
  TENFERRO_GRID_LOOP(k, count) {
    T v;
    if constexpr (Op == PrimKind::Fill) {
      v = make<T>(static_cast<R>(g.value_re), static_cast<R>(g.value_im));
    } else if constexpr (Op == PrimKind::Eye) {
      v = make<T>((k / g.rows) - (k % g.rows) == g.offset ? R(1) : R(0), R(0));
    } else if constexpr (Op == PrimKind::Arange) {
      v = make<T>(static_cast<R>(__dadd_rn(g.start, __dmul_rn(static_cast<double>(k), g.step))),
                  R(0));
    } else if constexpr (Op == PrimKind::RandomUniform) {
      const Uniforms<R> u = uniforms<R>(philox_words(g.seed, static_cast<std::uint64_t>(k)));
      const R lo = static_cast<R>(g.a), hi = static_cast<R>(g.b), span = sub_rn(hi, lo);
      v = make<T>(uniform_between(lo, hi, span, u.re), uniform_between(lo, hi, span, u.im));
    } else {
      const Uniforms<R> z = normals<R>(philox_words(g.seed, static_cast<std::uint64_t>(k)));
      const R mean = static_cast<R>(g.a), sd = static_cast<R>(g.b);
      if constexpr (kIsComplex<T>) {  // variance sd^2 split evenly between the parts
        const R s = div_rn(sd, static_cast<R>(1.41421356237309504880));
        v = make<T>(add_rn(mean, mul_rn(s, z.re)), mul_rn(s, z.im));
      } else {
        v = make<T>(add_rn(mean, mul_rn(sd, z.re)), R(0));
      }
    }
    dst[k] = v;
  }
}

template <PrimKind Op>
cudaError_t generate_op(Element out, void* dst, std::int64_t count, const GenerateArgs& g,
                        cudaStream_t stream) {
  return with_element(out, [&](auto tag) -> cudaError_t {
    using T = decltype(tag);
    if constexpr (!generate_runs(Op, kElementOf<T>)) {
      return cudaErrorInvalidValue;
    } else {
      generate_kernel<Op, T>
          <<<elementwise_blocks(count), kGridThreads, 0, stream>>>(static_cast<T*>(dst), count, g);
      return cudaGetLastError();
    }
  });
}

}  // namespace

cudaError_t launch_generate(PrimKind op, Element out, void* dst, std::int64_t count,
                            const GenerateArgs& args, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  if (op == PrimKind::Eye && args.rows <= 0) return cudaErrorInvalidValue;
  switch (op) {
    case PrimKind::Fill:
      return generate_op<PrimKind::Fill>(out, dst, count, args, stream);
    case PrimKind::Eye:
      return generate_op<PrimKind::Eye>(out, dst, count, args, stream);
    case PrimKind::Arange:
      return generate_op<PrimKind::Arange>(out, dst, count, args, stream);
    case PrimKind::RandomUniform:
      return generate_op<PrimKind::RandomUniform>(out, dst, count, args, stream);
    case PrimKind::RandomNormal:
      return generate_op<PrimKind::RandomNormal>(out, dst, count, args, stream);
    default:
      break;  // not a creation op: the host never sends one
  }
  return cudaErrorInvalidValue;
}

}  // namespace tenferro::cuda_kernels::prims
