// Distributed matmul, cholesky, solve and qr on ScaLAPACK for F32, F64, C32 and C64. Each op
// checks that every rank makes the same call, validates on every rank and agrees on the
// outcome before ScaLAPACK's collective drivers run, and agrees on `info` after, so a singular
// or non-positive-definite input is the same Numerical error on every rank.
#include <algorithm>
#include <string>
#include <vector>

#include "dist/collective.hpp"
#include "dist/linalg_common.hpp"

namespace tenferro::dist {

using detail::by_dtype;
using detail::check_info;
using detail::data_of;
using detail::desc_of;
using detail::Descriptor;
using detail::Grid;
using detail::Reads;
using detail::with_local;

Matrix matmul(const Matrix& a, const Matrix& b) {
  Context::Impl& c = a.context()->impl();
  detail::check_same_call(c, "dist.matmul", detail::describe_call("matmul", {&a, &b}));
  const Grid g = detail::agreed(c, [&] {
    detail::require_same_layout("dist.matmul", a, b);
    if (a.cols() != b.rows()) {
      throw_validation("dist.matmul", "inner extents differ: " + std::to_string(a.cols()) +
                                          " and " + std::to_string(b.rows()));
    }
    const Grid g = detail::grid_of(c, a.layout().grid);
    detail::check_part("dist.matmul", a, g, "A", Reads::Nothing);
    detail::check_part("dist.matmul", b, g, "B", Reads::Nothing);
    return g;
  });
  // An allocation can fail on one rank alone: agreed before any collective, so every rank
  // throws the Resource error (as do the copies the other ops factor in place).
  Matrix out = detail::agreed(c, [&] {
    return with_local(a, a.rows(), b.cols(),
                      detail::local_part(a.dtype(), a.rows(), b.cols(), a.layout(), g));
  });
  if (a.rows() == 0 || b.cols() == 0 || a.cols() == 0) return out;  // the zero product
  by_dtype(a.dtype(), [&]<typename T>() {
    const Descriptor da = desc_of(g, a), db = desc_of(g, b), dc = desc_of(g, out);
    const int m = detail::as_int(a.rows(), "rows"), n = detail::as_int(b.cols(), "cols");
    const int k = detail::as_int(a.cols(), "inner");
    const int one = 1;
    const T alpha(1), beta(0);
    detail::p_gemm(static_cast<T*>(nullptr), "N", "N", &m, &n, &k, &alpha, data_of<T>(a.local()),
                   &one, &one, da.d, data_of<T>(b.local()), &one, &one, db.d, &beta,
                   data_of<T>(out.local()), &one, &one, dc.d);
  });
  return out;
}

Matrix cholesky(const Matrix& a) {
  Context::Impl& c = a.context()->impl();
  detail::check_same_call(c, "dist.cholesky", detail::describe_call("cholesky", {&a}));
  const Grid g = detail::agreed(c, [&] {
    detail::require_square("dist.cholesky", a);
    detail::require_square_blocks("dist.cholesky", a, "p?potrf");
    const Grid g = detail::grid_of(c, a.layout().grid);
    detail::check_part("dist.cholesky", a, g, "A", Reads::Lower);
    return g;
  });
  Matrix l =
      detail::agreed(c, [&] { return with_local(a, a.rows(), a.cols(), a.local().clone()); });
  if (a.rows() == 0) return l;
  by_dtype(a.dtype(), [&]<typename T>() {
    const Descriptor d = desc_of(g, l);
    const int n = detail::as_int(a.rows(), "rows"), one = 1;
    int info = 0;
    detail::p_potrf(static_cast<T*>(nullptr), "L", &n, data_of<T>(l.local()), &one, &one, d.d,
                    &info);
    check_info(c, "dist.cholesky", info,
               "the matrix is not positive definite (its leading minor of order " +
                   std::to_string(info) + " is not)");
    detail::keep_triangle<T>(l, g, detail::Triangle::Lower);  // local, allocates nothing
  });
  return l;
}

Matrix solve(const Matrix& a, const Matrix& b) {
  Context::Impl& c = a.context()->impl();
  detail::check_same_call(c, "dist.solve", detail::describe_call("solve", {&a, &b}));
  const Grid g = detail::agreed(c, [&] {
    detail::require_same_layout("dist.solve", a, b);
    detail::require_square("dist.solve", a);
    detail::require_square_blocks("dist.solve", a, "p?gesv");
    if (b.rows() != a.rows()) {
      throw_validation("dist.solve", "the right-hand side has " + std::to_string(b.rows()) +
                                         " rows, the matrix " + std::to_string(a.rows()));
    }
    const Grid g = detail::grid_of(c, a.layout().grid);
    detail::check_part("dist.solve", a, g, "A", Reads::Whole);
    detail::check_part("dist.solve", b, g, "B", Reads::Whole);
    return g;
  });
  Matrix lu, x;
  detail::agreed(c, [&] {
    lu = with_local(a, a.rows(), a.cols(), a.local().clone());
    x = with_local(b, b.rows(), b.cols(), b.local().clone());
  });
  if (a.rows() == 0 || b.cols() == 0) return x;
  std::vector<int> pivots = detail::agreed_workspace<int>(
      c, "dist.solve", lu.local().shape()[0] + a.layout().block_rows, "IPIV");
  by_dtype(a.dtype(), [&]<typename T>() {
    const Descriptor da = desc_of(g, lu), db = desc_of(g, x);
    const int n = detail::as_int(a.rows(), "rows"), nrhs = detail::as_int(b.cols(), "cols");
    const int one = 1;
    int info = 0;
    detail::p_gesv(static_cast<T*>(nullptr), &n, &nrhs, data_of<T>(lu.local()), &one, &one, da.d,
                   pivots.data(), data_of<T>(x.local()), &one, &one, db.d, &info);
    // info is the same on every rank.
    check_info(c, "dist.solve", info,
               "the matrix is singular (U(" + std::to_string(info) + ", " + std::to_string(info) +
                   ") is exactly zero)");
  });
  return x;
}

std::pair<Matrix, Matrix> qr(const Matrix& a) {
  Context::Impl& c = a.context()->impl();
  detail::check_same_call(c, "dist.qr", detail::describe_call("qr", {&a}));
  const Grid g = detail::agreed(c, [&] {
    const Grid g = detail::grid_of(c, a.layout().grid);
    detail::check_part("dist.qr", a, g, "A", Reads::Whole);
    return g;
  });
  const std::int64_t k = std::min(a.rows(), a.cols());
  Matrix f =
      detail::agreed(c, [&] { return with_local(a, a.rows(), a.cols(), a.local().clone()); });
  if (k == 0) return {detail::leading(f, a.rows(), 0, g), detail::leading(f, 0, a.cols(), g)};
  Matrix q, r;
  // Collective throughout: every step that can fail on one rank alone (a workspace, a copy) is
  // agreed before the next driver call; the drivers' info is the same on every rank.
  by_dtype(a.dtype(), [&]<typename T>() {
    const Descriptor d = desc_of(g, f);
    const int m = detail::as_int(a.rows(), "rows"), n = detail::as_int(a.cols(), "cols");
    const int kk = static_cast<int>(k), one = 1, query = -1;
    std::vector<T> tau = detail::agreed_workspace<T>(
        c, "dist.qr", f.local().shape()[1] + a.layout().block_cols, "TAU");
    T* const tag = nullptr;
    int info = 0;
    T size(0);
    detail::p_geqrf(tag, &m, &n, data_of<T>(f.local()), &one, &one, d.d, tau.data(), &size, &query,
                    &info);
    check_info(c, "dist.qr", info, "p?geqrf's workspace query failed");
    std::vector<T> work = detail::agreed_workspace<T>(c, "dist.qr", workspace_count(size), "LWORK");
    int lwork = static_cast<int>(work.size());
    detail::p_geqrf(tag, &m, &n, data_of<T>(f.local()), &one, &one, d.d, tau.data(), work.data(),
                    &lwork, &info);
    check_info(c, "dist.qr", info, "p?geqrf failed");
    // R: the upper triangle of the first k rows.
    r = detail::agreed(c, [&] {
      Matrix upper = detail::leading(f, k, a.cols(), g);
      detail::keep_triangle<T>(upper, g, detail::Triangle::Upper);
      return upper;
    });
    // Q: the first k columns of the reflectors' product, formed in place.
    detail::p_orgqr(tag, &m, &kk, &kk, data_of<T>(f.local()), &one, &one, d.d, tau.data(), &size,
                    &query, &info);
    check_info(c, "dist.qr", info, "p?orgqr's workspace query failed");
    work = detail::agreed_workspace<T>(c, "dist.qr", workspace_count(size), "LWORK");
    lwork = static_cast<int>(work.size());
    detail::p_orgqr(tag, &m, &kk, &kk, data_of<T>(f.local()), &one, &one, d.d, tau.data(),
                    work.data(), &lwork, &info);
    check_info(c, "dist.qr", info, "p?orgqr failed");
    q = detail::agreed(c, [&] { return detail::leading(f, a.rows(), k, g); });
  });
  return {q, r};
}

}  // namespace tenferro::dist
