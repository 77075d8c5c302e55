// tenferro._tenferro.linalg: the batched linalg family with NumPy/PyTorch conventions. Batch
// axes lead in Python ([..., m, n]) and trail in C++ ([m, n, ...]): every argument and result
// crosses as a permuted view (no copy). Numerical failures raise tenferro.LinAlgError.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <string>

#include "bindings.hpp"
#include "errors.hpp"
#include "linalg_args.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/prims.hpp"
#include "views.hpp"

namespace tenferro::python {

namespace {

EagerTensor in2(const EagerTensor& a) {
  return batch_to_cpp(a, 2);
}
EagerTensor out2(const EagerTensor& a) {
  return batch_from_cpp(a, 2);
}
EagerTensor out1(const EagerTensor& a) {
  return batch_from_cpp(a, 1);
}

template <class F>
auto call(F&& f) {
  return linalg_errors([&] { return released(std::forward<F>(f)); });
}

// b as C++ wants it, [n(, k), batch...]: tenferro/linalg.py has broadcast the batches and
// says whether b is a vector (NumPy 2: b.ndim == 1 before broadcasting), so a matrix b never
// meets C++'s rule that reads a b of A's rank less one as a batch of vectors.
EagerTensor rhs_in(const EagerTensor& b, bool vector) {
  return vector ? batch_to_cpp(b, 1) : in2(b);
}
EagerTensor rhs_out(const EagerTensor& x, bool vector) {
  return vector ? batch_from_cpp(x, 1) : out2(x);
}

}  // namespace

linalg::CutoffKind cutoff_kind(const std::string& mode) {
  if (mode == "relative") return linalg::CutoffKind::RelativeSingularValue;
  if (mode == "absolute") return linalg::CutoffKind::AbsoluteSingularValue;
  if (mode == "relative_weight") return linalg::CutoffKind::RelativeDiscardedWeight;
  if (mode == "absolute_weight") return linalg::CutoffKind::AbsoluteDiscardedWeight;
  throw_validation("svd",
                   "cutoff_mode must be 'relative', 'absolute', 'relative_weight' or "
                   "'absolute_weight', not '" +
                       mode + "'");
}

void bind_linalg(nb::module_& m) {
  nb::module_ l = m.def_submodule("linalg", "Batched linear algebra, NumPy/PyTorch conventions.");
  l.def("qr", [](const EagerTensor& a, const std::string& mode) {
    linalg::QrOptions o;
    if (mode == "complete") {
      o.mode = linalg::QrMode::Complete;
    } else if (mode != "reduced" && mode != "r") {
      throw_validation("qr", "mode must be 'reduced', 'complete' or 'r', not '" + mode + "'");
    }
    auto r = call([&] { return linalg::qr(in2(a), o); });
    if (mode == "r") return nb::make_tuple(out2(r.r));
    return nb::make_tuple(out2(r.q), out2(r.r));
  });
  l.def("svd", [](const EagerTensor& a, bool full_matrices, bool compute_uv,
                  std::optional<std::int64_t> max_rank, std::optional<double> cutoff,
                  const std::string& cutoff_mode) {
    linalg::SvdOptions o;
    o.full_matrices = full_matrices;
    o.compute_uv = compute_uv;
    o.truncation.max_rank = max_rank;
    if (cutoff) {
      o.truncation.cutoff_kind = cutoff_kind(cutoff_mode);
      o.truncation.cutoff = *cutoff;
    }
    auto r = call([&] { return linalg::svd(in2(a), o); });
    if (!compute_uv) return nb::make_tuple(out1(r.s));
    return nb::make_tuple(out2(r.u), out1(r.s), out2(r.vh));
  });
  l.def("eigh", [](const EagerTensor& a, const std::string& uplo, bool values_only) {
    if (uplo != "L" && uplo != "U") throw_validation("eigh", "UPLO must be 'L' or 'U'");
    // C++ reads the lower triangle; the upper one of a Hermitian A is the lower one of A^H.
    EagerTensor src = a;
    if (uplo == "U") src = released([&] { return prims::conj(matrix_transpose(a)); });
    auto r = call([&] { return linalg::eigh(in2(src), {.values_only = values_only}); });
    if (values_only) return nb::make_tuple(out1(r.w));
    return nb::make_tuple(out1(r.w), out2(r.v));
  });
  l.def("eig", [](const EagerTensor& a) {
    auto r = call([&] { return linalg::eig(in2(a)); });
    return nb::make_tuple(out1(r.w), out2(r.v));
  });
  l.def("lu", [](const EagerTensor& a) {
    auto r = call([&] { return linalg::lu(in2(a)); });
    return nb::make_tuple(out2(r.p), out2(r.l), out2(r.u));
  });
  // upper: NumPy 2's (LAPACK's 'U'): R with R^H R = A read from A's upper triangle, the lower
  // factor of A^H (whose lower triangle that is) transposed back. (Factoring A's lower
  // triangle gave a wrong R for an A stored in its upper triangle only.)
  l.def("cholesky", [](const EagerTensor& a, bool upper) {
    EagerTensor src = a;
    if (upper) src = released([&] { return prims::conj(matrix_transpose(a)); });
    EagerTensor lower = out2(call([&] { return linalg::cholesky(in2(src)); }));
    if (!upper) return lower;
    return released([&] { return prims::conj(matrix_transpose(lower)); });
  });
  l.def("solve", [](const EagerTensor& a, const EagerTensor& b, bool vector) {
    return rhs_out(call([&] { return linalg::solve(in2(a), rhs_in(b, vector)); }), vector);
  });
  l.def("solve_triangular", [](const EagerTensor& a, const EagerTensor& b, bool upper, bool left,
                               bool unitriangular, bool vector) {
    linalg::TriangularSolveOptions o{.lower = !upper, .left = left, .unit_diagonal = unitriangular};
    return rhs_out(call([&] { return linalg::triangular_solve(in2(a), rhs_in(b, vector), o); }),
                   vector);
  });
  l.def("lstsq", [](const EagerTensor& a, const EagerTensor& b, std::optional<double> rcond,
                    bool vector) {
    auto r =
        call([&] { return linalg::lstsq_with_rank(in2(a), rhs_in(b, vector), {.rcond = rcond}); });
    return nb::make_tuple(rhs_out(r.x, vector), r.rank, out1(r.s));
  });
  l.def("inv",
        [](const EagerTensor& a) { return out2(call([&] { return linalg::inv(in2(a)); })); });
  l.def("det", [](const EagerTensor& a) { return call([&] { return linalg::det(in2(a)); }); });
  l.def("slogdet", [](const EagerTensor& a) {
    auto r = call([&] { return linalg::slogdet(in2(a)); });
    return nb::make_tuple(r.sign, r.logabsdet);
  });
}

}  // namespace tenferro::python
