// The CPU element-wise kernel: one strided loop per call, the element function chosen by kind
// and dtype outside the loop.
#include "ops/prims/cpu/cpu_kernels.hpp"
#include "ops/prims/cpu/element_math.hpp"
#include "ops/prims/cpu/strided_iteration.hpp"

namespace tenferro::prims_cpu {
namespace {

using prims_internal::ElementwiseCall;
using prims_internal::PrimKind;
using prims_internal::StridedOperand;

template <class T>
T* data_of(const StridedOperand& o) {
  return reinterpret_cast<T*>(o.buffer->host_data());
}

// out[i] = f(in0[i]) with In/Out element types.
template <class In, class Out, class F>
void map1(const ElementwiseCall& c, F f) {
  const In* x = data_of<In>(c.in[0]);
  Out* y = data_of<Out>(c.out);
  for_each_strided<2>(c.out.layout.shape, {c.in[0].layout.strides, c.out.layout.strides},
                      {c.in[0].layout.offset, c.out.layout.offset},
                      [&](const std::array<std::int64_t, 2>& o) { y[o[1]] = f(x[o[0]]); });
}

template <class In, class Out, class F>
void map2(const ElementwiseCall& c, F f) {
  const In* a = data_of<In>(c.in[0]);
  const In* b = data_of<In>(c.in[1]);
  Out* y = data_of<Out>(c.out);
  for_each_strided<3>(c.out.layout.shape,
                      {c.in[0].layout.strides, c.in[1].layout.strides, c.out.layout.strides},
                      {c.in[0].layout.offset, c.in[1].layout.offset, c.out.layout.offset},
                      [&](const std::array<std::int64_t, 3>& o) { y[o[2]] = f(a[o[0]], b[o[1]]); });
}

// out[i] = c[i] != 0 ? x[i] : y[i]: the branch not chosen is never read into the result.
template <class T>
void select3(const ElementwiseCall& c) {
  const T* cond = data_of<T>(c.in[0]);
  const T* x = data_of<T>(c.in[1]);
  const T* y = data_of<T>(c.in[2]);
  T* out = data_of<T>(c.out);
  const auto& in = c.in;
  for_each_strided<4>(
      c.out.layout.shape,
      {in[0].layout.strides, in[1].layout.strides, in[2].layout.strides, c.out.layout.strides},
      {in[0].layout.offset, in[1].layout.offset, in[2].layout.offset, c.out.layout.offset},
      [&](const std::array<std::int64_t, 4>& o) {
        out[o[3]] = nonzero(cond[o[0]]) ? x[o[1]] : y[o[2]];
      });
}

template <class In, class Out>
Out convert(In x) {
  if constexpr (kIsComplex<Out>) {
    using R = Real<Out>;
    if constexpr (kIsComplex<In>) {
      return Out(static_cast<R>(x.real()), static_cast<R>(x.imag()));
    } else {
      return Out(static_cast<R>(x), R(0));
    }
  } else {
    static_assert(!kIsComplex<In>, "complex -> real casts are refused before execution");
    return static_cast<Out>(x);
  }
}

template <class In>
void cast_from(const ElementwiseCall& c) {
  visit_dtype(c.out.layout.dtype, [&](auto out_tag) {
    using Out = decltype(out_tag);
    if constexpr (kIsComplex<In> && !kIsComplex<Out>) {
      throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "cast",
                  "complex -> real reached the CPU kernel");
    } else {
      map1<In, Out>(c, [](In x) { return convert<In, Out>(x); });
    }
  });
}

template <class T>
void run_typed(const ElementwiseCall& c) {
  const PrimKind k = c.kind;
  switch (k) {
    case PrimKind::Abs:
    case PrimKind::Real:
    case PrimKind::Imag:
      return map1<T, Real<T>>(c, [k](T x) { return unary_real(k, x); });
    case PrimKind::Add:
    case PrimKind::Sub:
    case PrimKind::Mul:
    case PrimKind::Div:
    case PrimKind::Maximum:
    case PrimKind::Minimum:
    case PrimKind::Pow:
      return map2<T, T>(c, [k](T a, T b) { return binary(k, a, b); });
    case PrimKind::Greater:
    case PrimKind::GreaterEqual:
    case PrimKind::Less:
    case PrimKind::LessEqual:
    case PrimKind::Equal:
    case PrimKind::NotEqual:
      return map2<T, Real<T>>(c,
                              [k](T a, T b) { return compare(k, a, b) ? Real<T>(1) : Real<T>(0); });
    case PrimKind::Where:
      return select3<T>(c);
    case PrimKind::Complex:
      if constexpr (!kIsComplex<T>) {
        return map2<T, std::complex<T>>(c, [](T re, T im) { return std::complex<T>(re, im); });
      }
      break;
    case PrimKind::Affine: {
      const auto alpha = c.alpha, beta = c.beta;
      if (beta == 0.0) return map1<T, T>(c, [alpha](T x) { return scale_by(alpha, x); });
      return map1<T, T>(c, [alpha, beta](T x) { return add_scalar(scale_by(alpha, x), beta); });
    }
    case PrimKind::Axpby: {
      const auto alpha = c.alpha, beta = c.beta;
      return map2<T, T>(c,
                        [alpha, beta](T x, T y) { return scale_by(alpha, x) + scale_by(beta, y); });
    }
    case PrimKind::Cast:
      return cast_from<T>(c);
    default:
      return map1<T, T>(c, [k](T x) { return unary_same(k, x); });
  }
  throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute,
              std::string(prims_internal::prim_name(k)),
              "no CPU element-wise kernel for this dtype");
}

}  // namespace

void elementwise(const ExecutionContext&, const ElementwiseCall& call) {
  count_cpu_kernel_launch();
  visit_dtype(call.in[0].layout.dtype, [&](auto tag) { run_typed<decltype(tag)>(call); });
}

}  // namespace tenferro::prims_cpu
