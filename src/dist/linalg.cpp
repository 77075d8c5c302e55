// Distributed linear algebra on ScaLAPACK: matmul, cholesky, solve, eigh and qr for F32, F64,
// C32 and C64. Each op checks that every rank makes the same call, validates on every rank and
// agrees on the outcome before ScaLAPACK's collective drivers run, and agrees on `info` after,
// so a singular or non-positive-definite input is the same Numerical error on every rank.
#include <algorithm>
#include <complex>
#include <string>
#include <vector>

#include "dist/collective.hpp"
#include "dist/matrix_impl.hpp"
#include "dist/scalapack.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::dist {
namespace {

using detail::c32;
using detail::c64;
using detail::Descriptor;
using detail::Grid;

std::string describe_call(std::string_view op, std::initializer_list<const Matrix*> ms) {
  std::string s(op);
  for (const Matrix* m : ms) {
    s += " " + std::string(dtype_name(m->dtype())) + "[" + std::to_string(m->rows()) + "x" +
         std::to_string(m->cols()) + " b" + std::to_string(m->layout().block_rows) + "x" +
         std::to_string(m->layout().block_cols) + " g" + std::to_string(m->layout().grid.rows) +
         "x" + std::to_string(m->layout().grid.cols) + "]";
  }
  return s;
}

void require_same_layout(std::string_view op, const Matrix& a, const Matrix& b) {
  if (a.context() != b.context()) {
    throw_error(ErrorKind::ContextMismatch, ErrorPhase::Input, std::string(op),
                "the operands belong to different distributed contexts");
  }
  if (a.dtype() != b.dtype()) {
    throw_validation(std::string(op),
                     "the operands' dtypes differ: " + std::string(dtype_name(a.dtype())) +
                         " and " + std::string(dtype_name(b.dtype())));
  }
  const BlockCyclic &la = a.layout(), &lb = b.layout();
  if (la.block_rows != lb.block_rows || la.block_cols != lb.block_cols ||
      la.grid.rows != lb.grid.rows || la.grid.cols != lb.grid.cols) {
    throw_validation(std::string(op),
                     "the operands' block-cyclic layouts differ; scatter them "
                     "with the same BlockCyclic");
  }
}

void require_square(std::string_view op, const Matrix& a) {
  if (a.rows() != a.cols()) {
    throw_validation(std::string(op), "needs a square matrix, got " + std::to_string(a.rows()) +
                                          " x " + std::to_string(a.cols()));
  }
}

// Runs `body.template operator()<T>()` for the matrix's element type.
template <typename F>
auto by_dtype(DType dtype, F&& body) {
  switch (dtype) {
    case DType::F32:
      return body.template operator()<float>();
    case DType::F64:
      return body.template operator()<double>();
    case DType::C32:
      return body.template operator()<c32>();
    case DType::C64:
      return body.template operator()<c64>();
  }
  throw_validation("dist", "unknown dtype");
}

template <typename T>
T* data_of(Tensor& t) {
  return reinterpret_cast<T*>(t.raw_data());
}

Descriptor desc_of(const Grid& g, const Matrix& m) {
  return detail::describe(g, m.rows(), m.cols(), m.layout().block_rows, m.layout().block_cols,
                          m.local().rank() == 2 ? m.local().shape()[0] : 1);
}

Matrix with_local(const Matrix& like, std::int64_t rows, std::int64_t cols, Tensor local) {
  return Matrix(Matrix::Parts{like.context(), rows, cols, like.layout(), std::move(local)});
}

// A Numerical error for info > 0 (the same on every rank: ScaLAPACK's info is global), a
// Backend error for an argument ScaLAPACK rejected.
void check_info(std::string_view op, int info, const std::string& numerical) {
  if (info > 0) throw_error(ErrorKind::Numerical, ErrorPhase::Execute, std::string(op), numerical);
  if (info < 0) {
    throw_error(ErrorKind::Backend, ErrorPhase::Execute, std::string(op),
                "ScaLAPACK rejected argument " + std::to_string(-info));
  }
}

// Zeroes the elements with row > col (upper = true) or row < col of this rank's part.
template <typename T>
void zero_triangle(Matrix& m, const Grid& g, bool keep_upper) {
  T* data = data_of<T>(m.local());
  const std::int64_t lrows = m.local().shape()[0];
  detail::for_each_local_run(
      m.rows(), m.cols(), m.layout(), g.my_row, g.my_col,
      [&](std::int64_t gi, std::int64_t gj, std::int64_t li, std::int64_t lj, std::int64_t n) {
        for (std::int64_t k = 0; k < n; ++k) {
          const bool upper = gi + k <= gj, lower = gi + k >= gj;
          if (keep_upper ? !upper : !lower) data[lj * lrows + li + k] = T(0);
        }
      });
}

}  // namespace

Matrix matmul(const Matrix& a, const Matrix& b) {
  Context::Impl& c = a.context()->impl();
  detail::check_same_call(c, "dist.matmul", describe_call("matmul", {&a, &b}));
  const Grid g = detail::agreed(c, [&] {
    require_same_layout("dist.matmul", a, b);
    if (a.cols() != b.rows()) {
      throw_validation("dist.matmul", "inner extents differ: " + std::to_string(a.cols()) +
                                          " and " + std::to_string(b.rows()));
    }
    return detail::grid_of(c, a.layout().grid);
  });
  Matrix out = with_local(a, a.rows(), b.cols(),
                          detail::local_part(a.dtype(), a.rows(), b.cols(), a.layout(), g));
  if (a.rows() == 0 || b.cols() == 0) return out;
  by_dtype(a.dtype(), [&]<typename T>() {
    const Descriptor da = desc_of(g, a), db = desc_of(g, b), dc = desc_of(g, out);
    const int m = detail::as_int(a.rows(), "rows"), n = detail::as_int(b.cols(), "cols");
    const int k = detail::as_int(a.cols(), "inner");
    const int one = 1;
    const T alpha(1), beta(0);
    if (k == 0) return;  // the zero product
    detail::p_gemm(static_cast<T*>(nullptr), "N", "N", &m, &n, &k, &alpha,
                   reinterpret_cast<const T*>(a.local().raw_data()), &one, &one, da.d,
                   reinterpret_cast<const T*>(b.local().raw_data()), &one, &one, db.d, &beta,
                   data_of<T>(out.local()), &one, &one, dc.d);
  });
  return out;
}

Matrix cholesky(const Matrix& a) {
  Context::Impl& c = a.context()->impl();
  detail::check_same_call(c, "dist.cholesky", describe_call("cholesky", {&a}));
  const Grid g = detail::agreed(c, [&] {
    require_square("dist.cholesky", a);
    return detail::grid_of(c, a.layout().grid);
  });
  Matrix l = with_local(a, a.rows(), a.cols(), a.local().clone());
  if (a.rows() == 0) return l;
  detail::agreed(c, [&] {
    by_dtype(a.dtype(), [&]<typename T>() {
      const Descriptor d = desc_of(g, l);
      const int n = detail::as_int(a.rows(), "rows"), one = 1;
      int info = 0;
      detail::p_potrf(static_cast<T*>(nullptr), "L", &n, data_of<T>(l.local()), &one, &one, d.d,
                      &info);
      check_info("dist.cholesky", info,
                 "the matrix is not positive definite (its leading minor of order " +
                     std::to_string(info) + " is not)");
      zero_triangle<T>(l, g, /*keep_upper=*/false);
    });
  });
  return l;
}

Matrix solve(const Matrix& a, const Matrix& b) {
  Context::Impl& c = a.context()->impl();
  detail::check_same_call(c, "dist.solve", describe_call("solve", {&a, &b}));
  const Grid g = detail::agreed(c, [&] {
    require_same_layout("dist.solve", a, b);
    require_square("dist.solve", a);
    if (b.rows() != a.rows()) {
      throw_validation("dist.solve", "the right-hand side has " + std::to_string(b.rows()) +
                                         " rows, the matrix " + std::to_string(a.rows()));
    }
    return detail::grid_of(c, a.layout().grid);
  });
  Matrix lu = with_local(a, a.rows(), a.cols(), a.local().clone());
  Matrix x = with_local(b, b.rows(), b.cols(), b.local().clone());
  if (a.rows() == 0 || b.cols() == 0) return x;
  detail::agreed(c, [&] {
    by_dtype(a.dtype(), [&]<typename T>() {
      const Descriptor da = desc_of(g, lu), db = desc_of(g, x);
      const int n = detail::as_int(a.rows(), "rows"), nrhs = detail::as_int(b.cols(), "cols");
      const int one = 1;
      std::vector<int> pivots(
          static_cast<std::size_t>(lu.local().shape()[0] + a.layout().block_rows));
      int info = 0;
      detail::p_gesv(static_cast<T*>(nullptr), &n, &nrhs, data_of<T>(lu.local()), &one, &one, da.d,
                     pivots.data(), data_of<T>(x.local()), &one, &one, db.d, &info);
      check_info("dist.solve", info,
                 "the matrix is singular (U(" + std::to_string(info) + ", " + std::to_string(info) +
                     ") is exactly zero)");
    });
  });
  return x;
}

namespace {

template <typename T>
struct Real {
  using type = T;
};
template <typename R>
struct Real<std::complex<R>> {
  using type = R;
};

// The documented minimum workspaces of p?syevd / p?heevd. Their workspace queries answer less
// than p?ormtr needs when a block is larger than the matrix (seen with ScaLAPACK 2.2.1: PDORMTR
// rejects LWORK, prints an error and p?syevd still returns info = 0 with wrong vectors), so the
// larger of the query and these bounds is used, with NP/NQ taken at max(N, NB, 2).
struct EighWork {
  long lwork, lrwork, liwork;
};
EighWork eigh_minimum(const Grid& g, std::int64_t n, std::int64_t nb, bool complex) {
  const int big = static_cast<int>(std::max<std::int64_t>({n, nb, 2}));
  const int b = static_cast<int>(nb), zero = 0;
  const long np = numroc_(&big, &b, &zero, &zero, &g.rows);
  const long nq = numroc_(&big, &b, &zero, &zero, &g.cols);
  const long liwork = 7 * n + 8 * g.cols + 2;
  if (complex) return {n + (np + nq + nb) * nb, 1 + 9 * n + 3 * np * nq, liwork};
  const long trilwmin = 3 * n + std::max(nb * (np + 1), 3 * nb);
  return {std::max(1 + 6 * n + 2 * np * nq, trilwmin) + 2 * n, 0, liwork};
}

template <typename T>
void run_eigh(const Grid& g, Matrix& a, Matrix& z, Tensor& w) {
  using R = typename Real<T>::type;
  const Descriptor da = desc_of(g, a), dz = desc_of(g, z);
  const EighWork least = eigh_minimum(g, a.rows(), a.layout().block_rows, !std::is_same_v<T, R>);
  const int n = detail::as_int(a.rows(), "rows"), one = 1, query = -1;
  int info = 0;
  T work_size(0);
  int iwork_size = 0;
  R* values = reinterpret_cast<R*>(w.raw_data());
  if constexpr (std::is_same_v<T, R>) {
    auto driver = [](auto... args) {
      if constexpr (std::is_same_v<T, float>) {
        pssyevd_(args...);
      } else {
        pdsyevd_(args...);
      }
    };
    driver("V", "L", &n, data_of<T>(a.local()), &one, &one, da.d, values, data_of<T>(z.local()),
           &one, &one, dz.d, &work_size, &query, &iwork_size, &query, &info);
    check_info("dist.eigh", info, "workspace query failed");
    const int lwork =
        detail::as_int(std::max<long>(static_cast<long>(work_size) + 1, least.lwork), "lwork");
    const int liwork = detail::as_int(std::max<long>(iwork_size, least.liwork), "liwork");
    std::vector<T> work(static_cast<std::size_t>(lwork));
    std::vector<int> iwork(static_cast<std::size_t>(std::max(liwork, 1)));
    driver("V", "L", &n, data_of<T>(a.local()), &one, &one, da.d, values, data_of<T>(z.local()),
           &one, &one, dz.d, work.data(), &lwork, iwork.data(), &liwork, &info);
  } else {
    auto driver = [](auto... args) {
      if constexpr (std::is_same_v<T, c32>) {
        pcheevd_(args...);
      } else {
        pzheevd_(args...);
      }
    };
    R rwork_size(0);
    driver("V", "L", &n, data_of<T>(a.local()), &one, &one, da.d, values, data_of<T>(z.local()),
           &one, &one, dz.d, &work_size, &query, &rwork_size, &query, &iwork_size, &query, &info);
    check_info("dist.eigh", info, "workspace query failed");
    const int lwork = detail::as_int(
        std::max<long>(static_cast<long>(work_size.real()) + 1, least.lwork), "lwork");
    const int lrwork =
        detail::as_int(std::max<long>(static_cast<long>(rwork_size) + 1, least.lrwork), "lrwork");
    const int liwork = detail::as_int(std::max<long>(iwork_size, least.liwork), "liwork");
    std::vector<T> work(static_cast<std::size_t>(lwork));
    std::vector<R> rwork(static_cast<std::size_t>(lrwork));
    std::vector<int> iwork(static_cast<std::size_t>(std::max(liwork, 1)));
    driver("V", "L", &n, data_of<T>(a.local()), &one, &one, da.d, values, data_of<T>(z.local()),
           &one, &one, dz.d, work.data(), &lwork, rwork.data(), &lrwork, iwork.data(), &liwork,
           &info);
  }
  check_info("dist.eigh", info,
             "the eigensolver did not converge (info " + std::to_string(info) + ")");
}

}  // namespace

std::pair<Tensor, Matrix> eigh(const Matrix& a) {
  Context::Impl& c = a.context()->impl();
  detail::check_same_call(c, "dist.eigh", describe_call("eigh", {&a}));
  const Grid g = detail::agreed(c, [&] {
    require_square("dist.eigh", a);
    if (a.layout().block_rows != a.layout().block_cols) {
      throw_validation("dist.eigh", "p?syevd/p?heevd need square blocks, got " +
                                        std::to_string(a.layout().block_rows) + " x " +
                                        std::to_string(a.layout().block_cols));
    }
    return detail::grid_of(c, a.layout().grid);
  });
  const DType real = is_complex(a.dtype()) ? real_dtype(a.dtype()) : a.dtype();
  Tensor w = Tensor::zeros(real, {a.rows()});
  Matrix work = with_local(a, a.rows(), a.cols(), a.local().clone());
  Matrix z = with_local(a, a.rows(), a.cols(),
                        detail::local_part(a.dtype(), a.rows(), a.cols(), a.layout(), g));
  if (a.rows() == 0) return {w, z};
  detail::agreed(c,
                 [&] { by_dtype(a.dtype(), [&]<typename T>() { run_eigh<T>(g, work, z, w); }); });
  // W is documented as global, but with ScaLAPACK 2.2.1 only some grid positions end up with
  // the eigenvalues (seen on 2 x 2 and 1 x 4 grids): the root's copy is the answer.
  MPI_Bcast(w.raw_data(), static_cast<int>(w.nbytes()), MPI_BYTE, 0, c.comm);
  return {w, z};
}

std::pair<Matrix, Matrix> qr(const Matrix& a) {
  Context::Impl& c = a.context()->impl();
  detail::check_same_call(c, "dist.qr", describe_call("qr", {&a}));
  const Grid g = detail::agreed(c, [&] { return detail::grid_of(c, a.layout().grid); });
  const std::int64_t k = std::min(a.rows(), a.cols());
  Matrix f = with_local(a, a.rows(), a.cols(), a.local().clone());
  const BlockCyclic& l = a.layout();
  // Q (m x k) and R (k x n) in the same layout: the global-to-local map of a row or column
  // does not depend on the matrix's extent, so their parts are leading blocks of A's part.
  Tensor q_local = detail::local_part(a.dtype(), a.rows(), k, l, g);
  Tensor r_local = detail::local_part(a.dtype(), k, a.cols(), l, g);
  if (k > 0) {
    detail::agreed(c, [&] {
      by_dtype(a.dtype(), [&]<typename T>() {
        const Descriptor d = desc_of(g, f);
        const int m = detail::as_int(a.rows(), "rows"), n = detail::as_int(a.cols(), "cols");
        const int kk = static_cast<int>(k), one = 1, query = -1;
        std::vector<T> tau(static_cast<std::size_t>(f.local().shape()[1] + l.block_cols));
        int info = 0;
        T size(0);
        detail::p_geqrf(static_cast<T*>(nullptr), &m, &n, data_of<T>(f.local()), &one, &one, d.d,
                        tau.data(), &size, &query, &info);
        int lwork = static_cast<int>(std::real(size)) + 1;
        std::vector<T> work(static_cast<std::size_t>(lwork));
        detail::p_geqrf(static_cast<T*>(nullptr), &m, &n, data_of<T>(f.local()), &one, &one, d.d,
                        tau.data(), work.data(), &lwork, &info);
        check_info("dist.qr", info, "p?geqrf failed");
        // R: the upper triangle of the first k rows.
        const std::int64_t lr = f.local().shape()[0];
        const std::int64_t rr = r_local.shape()[0], rc = r_local.shape()[1];
        for (std::int64_t j = 0; j < rc; ++j)
          for (std::int64_t i = 0; i < rr; ++i)
            data_of<T>(r_local)[j * rr + i] = data_of<T>(f.local())[j * lr + i];
        Matrix r = with_local(a, k, a.cols(), r_local);
        zero_triangle<T>(r, g, /*keep_upper=*/true);
        // Q: the first k columns of the reflectors' product, formed in place.
        detail::p_orgqr(static_cast<T*>(nullptr), &m, &kk, &kk, data_of<T>(f.local()), &one, &one,
                        d.d, tau.data(), &size, &query, &info);
        lwork = static_cast<int>(std::real(size)) + 1;
        work.assign(static_cast<std::size_t>(lwork), T(0));
        detail::p_orgqr(static_cast<T*>(nullptr), &m, &kk, &kk, data_of<T>(f.local()), &one, &one,
                        d.d, tau.data(), work.data(), &lwork, &info);
        check_info("dist.qr", info, "p?orgqr failed");
        const std::int64_t qr_ = q_local.shape()[0], qc = q_local.shape()[1];
        for (std::int64_t j = 0; j < qc; ++j)
          for (std::int64_t i = 0; i < qr_; ++i)
            data_of<T>(q_local)[j * qr_ + i] = data_of<T>(f.local())[j * lr + i];
      });
    });
  }
  return {with_local(a, a.rows(), k, q_local), with_local(a, k, a.cols(), r_local)};
}

namespace {

template <typename T>
void run_svd(const Grid& g, Matrix& a, Matrix& u, Tensor& s, Matrix& vh) {
  using R = typename Real<T>::type;
  const Descriptor da = desc_of(g, a), du = desc_of(g, u), dv = desc_of(g, vh);
  const int m = detail::as_int(a.rows(), "rows"), n = detail::as_int(a.cols(), "cols");
  const int one = 1, query = -1;
  int info = 0;
  R* values = reinterpret_cast<R*>(s.raw_data());
  T work_size(0);
  auto call = [&](T* work, const int* lwork, R* rwork) {
    if constexpr (std::is_same_v<T, float>) {
      (void)rwork;
      psgesvd_("V", "V", &m, &n, data_of<T>(a.local()), &one, &one, da.d, values,
               data_of<T>(u.local()), &one, &one, du.d, data_of<T>(vh.local()), &one, &one, dv.d,
               work, lwork, &info);
    } else if constexpr (std::is_same_v<T, double>) {
      (void)rwork;
      pdgesvd_("V", "V", &m, &n, data_of<T>(a.local()), &one, &one, da.d, values,
               data_of<T>(u.local()), &one, &one, du.d, data_of<T>(vh.local()), &one, &one, dv.d,
               work, lwork, &info);
    } else if constexpr (std::is_same_v<T, c32>) {
      pcgesvd_("V", "V", &m, &n, data_of<T>(a.local()), &one, &one, da.d, values,
               data_of<T>(u.local()), &one, &one, du.d, data_of<T>(vh.local()), &one, &one, dv.d,
               work, lwork, rwork, &info);
    } else {
      pzgesvd_("V", "V", &m, &n, data_of<T>(a.local()), &one, &one, da.d, values,
               data_of<T>(u.local()), &one, &one, du.d, data_of<T>(vh.local()), &one, &one, dv.d,
               work, lwork, rwork, &info);
    }
  };
  // RWORK: 1 + 4 * max(m, n) (p?gesvd's documentation), used by the complex drivers only.
  std::vector<R> rwork(static_cast<std::size_t>(1 + 4 * std::max(m, n)));
  call(&work_size, &query, rwork.data());
  check_info("dist.svd", info, "workspace query failed");
  const int lwork = detail::as_int(static_cast<long>(std::real(work_size)) + 1, "lwork");
  std::vector<T> work(static_cast<std::size_t>(lwork));
  call(work.data(), &lwork, rwork.data());
  check_info("dist.svd", info,
             "the bidiagonal QR iteration did not converge (info " + std::to_string(info) + ")");
}

}  // namespace

SvdResult svd(const Matrix& a) {
  Context::Impl& c = a.context()->impl();
  detail::check_same_call(c, "dist.svd", describe_call("svd", {&a}));
  const Grid g = detail::agreed(c, [&] {
    if (a.layout().block_rows != a.layout().block_cols) {
      throw_validation("dist.svd", "p?gesvd needs square blocks, got " +
                                       std::to_string(a.layout().block_rows) + " x " +
                                       std::to_string(a.layout().block_cols));
    }
    return detail::grid_of(c, a.layout().grid);
  });
  const std::int64_t k = std::min(a.rows(), a.cols());
  const DType real = is_complex(a.dtype()) ? real_dtype(a.dtype()) : a.dtype();
  SvdResult r{
      with_local(a, a.rows(), k, detail::local_part(a.dtype(), a.rows(), k, a.layout(), g)),
      Tensor::zeros(real, {k}),
      with_local(a, k, a.cols(), detail::local_part(a.dtype(), k, a.cols(), a.layout(), g))};
  if (k == 0) return r;
  Matrix work = with_local(a, a.rows(), a.cols(), a.local().clone());
  detail::agreed(
      c, [&] { by_dtype(a.dtype(), [&]<typename T>() { run_svd<T>(g, work, r.u, r.s, r.vh); }); });
  // As with eigh: the root's singular values are the answer on every rank.
  MPI_Bcast(r.s.raw_data(), static_cast<int>(r.s.nbytes()), MPI_BYTE, 0, c.comm);
  return r;
}

}  // namespace tenferro::dist
