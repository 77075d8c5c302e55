// The traced overloads: every function of _tenferro.prims, .linalg and .fft that has an ad rule
// gets a second overload of the same name and arguments taking Tracers. nanobind tries the
// plain overload first (a Tracer is no Tensor, so it does not match), then this one, which
// accepts Tensors as constants; Python code such as tenferro.linalg.svd thus differentiates
// without a line of its own. Arguments map exactly as the plain bindings map them.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ad_bridge.hpp"
#include "ad_views.hpp"
#include "bindings.hpp"
#include "convert.hpp"
#include "errors.hpp"
#include "fft_binders.hpp"
#include "linalg_args.hpp"
#include "operands.hpp"
#include "ops/prims/prim_kind_enum.hpp"
#include "tenferro/core/error.hpp"
#include "views.hpp"

namespace tenferro::python {

namespace {

using V = ad::Variable;

template <V (*F)(const V&)>
void def_unary(nb::module_& p, const char* name) {
  p.def(name, [](const V& x) { return released([&] { return F(x); }); });
}

template <V (*F)(const V&, const V&)>
void def_binary(nb::module_& p, const char* name) {
  p.def(name, [](const V& a, const V& b) { return released([&] { return F(a, b); }); });
}

void bind_prims_overloads(nb::module_& p) {
  // The element-wise math of the op list, one loop: every op there must have its ad:: rule.
#define TENFERRO_PY_UNARY(Kind, fn, python_name, dtypes) def_unary<ad::fn>(p, python_name);
#define TENFERRO_PY_BINARY(Kind, fn, python_name, dtypes) def_binary<ad::fn>(p, python_name);
  TENFERRO_PRIMS_UNARY_OPS(TENFERRO_PY_UNARY)
  TENFERRO_PRIMS_BINARY_OPS(TENFERRO_PY_BINARY)
#undef TENFERRO_PY_UNARY
#undef TENFERRO_PY_BINARY
  def_unary<ad::contiguous>(p, "contiguous");
  p.def("ascontiguousarray",
        [](const V& x) { return released([&] { return c_contiguous_v(x); }); });
  p.def("matmul", &matmul_v);
  p.def(
      "norm",
      [](const V& x, nb::handle axis, bool keepdims) {
        auto axes = axes_arg(axis, x.rank(), "norm");
        return released([&] { return ad::norm(x, axes, keepdims); });
      },
      nb::arg("x"), nb::arg("axis").none(), nb::arg("keepdims"));
  p.def(
      "flip",
      [](const V& x, nb::handle axis) {
        auto axes = axes_arg(axis, x.rank(), "flip");
        return released([&] { return ad::flip(x, axes); });
      },
      nb::arg("x"), nb::arg("axis").none());
  // argmax/argmin (piecewise constant: their indices are constants).
  using ArgExtreme = V (*)(const V&, std::int64_t, bool);
  const std::pair<const char*, ArgExtreme> arg_extremes[] = {{"argmax", &ad::argmax},
                                                             {"argmin", &ad::argmin}};
  for (const auto& [op, op_fn] : arg_extremes) {
    p.def(
        op,
        [name = op, fn = op_fn](const V& x, nb::handle axis, bool keepdims) {
          const std::int64_t a = normalize_axis(int_arg(axis, name, "axis"), x.rank(), name);
          return released([&] { return fn(x, a, keepdims); });
        },
        nb::arg("x"), nb::arg("axis"), nb::arg("keepdims"));
  }
  // cumsum and cumprod along one axis (tenferro.cumsum flattens for axis=None first).
  using Scan = V (*)(const V&, std::int64_t);
  const std::pair<const char*, Scan> scans[] = {{"cumsum", &ad::cumsum}, {"cumprod", &ad::cumprod}};
  for (const auto& [op, op_fn] : scans) {
    p.def(
        op,
        [name = op, fn = op_fn](const V& x, nb::handle axis) {
          const std::int64_t a = normalize_axis(int_arg(axis, name, "axis"), x.rank(), name);
          return released([&] { return fn(x, a); });
        },
        nb::arg("x"), nb::arg("axis"));
  }
  p.def("cast", [](const V& x, nb::handle dtype) {
    const DType d = dtype_from_python(dtype);
    return released([&] { return ad::cast(x, d); });
  });
  // Comparisons (piecewise constant): the values' comparison, a plain 0.0/1.0 Tensor.
  p.def("equal", [](const V& a, nb::handle b) { return compare(a.value(), b, Compare::Equal); });
  p.def("not_equal",
        [](const V& a, nb::handle b) { return compare(a.value(), b, Compare::NotEqual); });
  p.def("greater",
        [](const V& a, nb::handle b) { return compare(a.value(), b, Compare::Greater); });
  p.def("less", [](const V& a, nb::handle b) { return compare(a.value(), b, Compare::Less); });
  p.def("greater_equal",
        [](const V& a, nb::handle b) { return compare(a.value(), b, Compare::GreaterEqual); });
  p.def("less_equal",
        [](const V& a, nb::handle b) { return compare(a.value(), b, Compare::LessEqual); });
  // Classifications are comparisons too: the value's, a plain 0.0/1.0 Tensor.
  p.def("isfinite",
        [](const V& x) { return released([&] { return prims::isfinite(x.value()); }); });
  p.def("isnan", [](const V& x) { return released([&] { return prims::isnan(x.value()); }); });
  p.def("isinf", [](const V& x) { return released([&] { return prims::isinf(x.value()); }); });
  p.def("diagonal", [](const V& x, std::int64_t offset, std::int64_t a, std::int64_t b) {
    return ad::diagonal(x, offset, a, b);
  });
  p.def("broadcast_to",
        [](const V& x, nb::handle shape) { return ad::broadcast_to(x, shape_arg(shape)); });
}

V in2(const V& a) {
  return batch_to_cpp_v(a, 2);
}
V out2(const V& a) {
  return batch_from_cpp_v(a, 2);
}
V out1(const V& a) {
  return batch_from_cpp_v(a, 1);
}
// As the plain bindings' rhs_in / rhs_out (python/src/linalg.cpp).
V rhs_in(const V& b, bool vector) {
  return vector ? batch_to_cpp_v(b, 1) : in2(b);
}
V rhs_out(const V& x, bool vector) {
  return vector ? batch_from_cpp_v(x, 1) : out2(x);
}

// As the plain linalg bindings: a Numerical failure leaves as tenferro.LinAlgError.
template <class F>
auto call(F&& f) {
  return linalg_errors([&] { return released(std::forward<F>(f)); });
}

void bind_linalg_overloads(nb::module_& l) {
  l.def("qr", [](const V& a, const std::string& mode) {
    linalg::QrOptions o;
    if (mode == "complete") {
      o.mode = linalg::QrMode::Complete;  // Q's extra columns: the complement rule of ad::qr
    } else if (mode != "reduced" && mode != "r") {
      throw_validation("qr", "mode must be 'reduced', 'complete' or 'r', not '" + mode + "'");
    }
    auto r = call([&] { return ad::qr(in2(a), o); });
    if (mode == "r") return nb::make_tuple(out2(r.r));
    return nb::make_tuple(out2(r.q), out2(r.r));
  });
  l.def("svd",
        [](const V& a, bool full_matrices, bool compute_uv, std::optional<std::int64_t> max_rank,
           std::optional<double> cutoff, const std::string& cutoff_mode) {
          linalg::SvdOptions o;
          // Extra columns: the complement rule of ad::svd; s alone needs none of them.
          o.full_matrices = full_matrices && compute_uv;
          o.truncation.max_rank = max_rank;
          if (cutoff) {
            o.truncation.cutoff_kind = cutoff_kind(cutoff_mode);
            o.truncation.cutoff = *cutoff;
          }
          auto r = call([&] { return ad::svd(in2(a), o); });
          if (!compute_uv) return nb::make_tuple(out1(r.s));
          return nb::make_tuple(out2(r.u), out1(r.s), out2(r.vh));
        });
  l.def("eigh", [](const V& a, const std::string& uplo, bool values_only) {
    if (uplo != "L" && uplo != "U") throw_validation("eigh", "UPLO must be 'L' or 'U'");
    const V src = uplo == "U" ? released([&] { return ad::conj(matrix_transpose_v(a)); }) : a;
    auto r = call([&] { return ad::eigh(in2(src)); });
    if (values_only) return nb::make_tuple(out1(r.w));
    return nb::make_tuple(out1(r.w), out2(r.v));
  });
  l.def("eig", [](const V& a) {
    auto r = call([&] { return ad::eig(in2(a)); });
    return nb::make_tuple(out1(r.w), out2(r.v));
  });
  l.def("lu", [](const V& a) {
    auto r = call([&] { return ad::lu(in2(a)); });
    return nb::make_tuple(out2(r.p), out2(r.l), out2(r.u));
  });
  // upper: A's upper triangle, as the plain binding (python/src/linalg.cpp) reads it.
  l.def("cholesky", [](const V& a, bool upper) {
    const V src = upper ? released([&] { return ad::conj(matrix_transpose_v(a)); }) : a;
    const V lower = out2(call([&] { return ad::cholesky(in2(src)); }));
    if (!upper) return lower;
    return released([&] { return ad::conj(matrix_transpose_v(lower)); });
  });
  l.def("solve", [](const V& a, const V& b, bool vector) {
    return rhs_out(call([&] { return ad::solve(in2(a), rhs_in(b, vector)); }), vector);
  });
  l.def("solve_triangular", [](const V& a, const V& b, bool upper, bool left, bool unitriangular,
                               bool vector) {
    linalg::TriangularSolveOptions o{.lower = !upper, .left = left, .unit_diagonal = unitriangular};
    return rhs_out(call([&] { return ad::triangular_solve(in2(a), rhs_in(b, vector), o); }),
                   vector);
  });
  // numpy.linalg.lstsq's (x, rank, s): x from ad::lstsq, s from the thin ad::svd (both carry
  // gradients), rank from the plain op on the values. The rule needs full rank (where the rank
  // changes there is no derivative): a rank-deficient A is Unsupported, never a wrong gradient.
  l.def("lstsq", [](const V& a, const V& b, std::optional<double> rcond, bool vector) {
    const V am = in2(a), bm = rhs_in(b, vector);
    auto plain =
        call([&] { return linalg::lstsq_with_rank(am.value(), bm.value(), {.rcond = rcond}); });
    const double full = static_cast<double>(std::min(am.shape()[0], am.shape()[1]));
    // A read of one number per matrix, as a factorisation's status check.
    const Tensor ranks = released([&] { return prims::cast(plain.rank, DType::F64).download(); });
    for (double rk : ranks.to_vector<double>()) {
      if (rk != full) {
        throw Error(ErrorKind::Unsupported, ErrorPhase::Input, "lstsq",
                    "the lstsq gradient covers full-rank A only; this A has rank " +
                        std::to_string(static_cast<std::int64_t>(rk)) + " < " +
                        std::to_string(static_cast<std::int64_t>(full)));
      }
    }
    const V x = call([&] { return ad::lstsq(am, bm); });
    const V s = call([&] { return ad::svd(am).s; });
    return nb::make_tuple(rhs_out(x, vector), plain.rank, out1(s));
  });
  l.def("inv", [](const V& a) { return out2(call([&] { return ad::inv(in2(a)); })); });
  l.def("det", [](const V& a) { return call([&] { return ad::det(in2(a)); }); });
  l.def("slogdet", [](const V& a) {
    auto r = call([&] { return ad::slogdet(in2(a)); });
    return nb::make_tuple(r.sign, r.logabsdet);
  });
}

void bind_fft_overloads(nb::module_& f) {
  def_fft_family<V, ad::fft, ad::ifft, ad::rfft, ad::irfft, ad::fftn, ad::ifftn, ad::rfftn,
                 ad::irfftn>(f);
}

}  // namespace

ad::Variable traced_einsum(std::string_view subscripts, nb::handle operands,
                           const EinsumOptions& options) {
  std::vector<V> ops;
  int i = 0;
  for (nb::handle x : operands) ops.push_back(as_variable(x, "einsum", i++));
  promote_operands(ops);
  return released([&] { return ad::einsum(subscripts, std::span<const V>(ops), options); });
}

void bind_ad_ops(nb::module_& m) {
  nb::module_ prims_module = nb::borrow<nb::module_>(m.attr("prims"));
  nb::module_ linalg_module = nb::borrow<nb::module_>(m.attr("linalg"));
  nb::module_ fft_module = nb::borrow<nb::module_>(m.attr("fft"));
  bind_prims_overloads(prims_module);
  bind_linalg_overloads(linalg_module);
  bind_fft_overloads(fft_module);
}

}  // namespace tenferro::python
