// Distributed eigh on p?syevd / p?heevd or ELPA: eigenvalues on every rank, eigenvectors
// distributed.
#include <algorithm>
#include <string>
#include <vector>

#include "dist/collective.hpp"
#include "dist/elpa.hpp"
#include "dist/linalg_common.hpp"

namespace tenferro::dist {
namespace {

using detail::Descriptor;
using detail::Grid;

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

// Collective: its workspaces are agreed, its info is the same on every rank.
template <typename T>
void run_eigh(const Context::Impl& c, const Grid& g, Matrix& a, Matrix& z, Tensor& w) {
  using R = RealType<T>;
  const Descriptor da = detail::desc_of(g, a), dz = detail::desc_of(g, z);
  const EighWork least = eigh_minimum(g, a.rows(), a.layout().block_rows, kIsComplexType<T>);
  const int n = detail::as_int(a.rows(), "rows"), one = 1, query = -1;
  int info = 0;
  R* values = reinterpret_cast<R*>(w.raw_data());
  T* const tag = nullptr;
  T* const av = detail::data_of<T>(a.local());
  T* const zv = detail::data_of<T>(z.local());
  // The real drivers take no real workspace: one call shape for both, `rwork` ignored there.
  auto call = [&](T* work, const int* lwork, R* rwork, const int* lrwork, int* iwork,
                  const int* liwork) {
    if constexpr (kIsComplexType<T>) {
      detail::p_heevd(tag, "V", "L", &n, av, &one, &one, da.d, values, zv, &one, &one, dz.d, work,
                      lwork, rwork, lrwork, iwork, liwork, &info);
    } else {
      (void)rwork, (void)lrwork;
      detail::p_heevd(tag, "V", "L", &n, av, &one, &one, da.d, values, zv, &one, &one, dz.d, work,
                      lwork, iwork, liwork, &info);
    }
  };
  T work_size(0);
  R rwork_size(0);
  int iwork_size = 0;
  call(&work_size, &query, &rwork_size, &query, &iwork_size, &query);
  detail::check_info(c, "dist.eigh", info, "workspace query failed");
  std::vector<T> work = detail::agreed_workspace<T>(
      c, "dist.eigh", std::max<long>(workspace_count(work_size), least.lwork), "LWORK");
  std::vector<R> rwork = detail::agreed_workspace<R>(
      c, "dist.eigh", std::max<long>(workspace_count(rwork_size), least.lrwork), "LRWORK");
  std::vector<int> iwork = detail::agreed_workspace<int>(
      c, "dist.eigh", std::max<long>({iwork_size, least.liwork, 1}), "LIWORK");
  const int lwork = static_cast<int>(work.size()), lrwork = static_cast<int>(rwork.size());
  const int liwork = static_cast<int>(iwork.size());
  call(work.data(), &lwork, rwork.data(), &lrwork, iwork.data(), &liwork);
  detail::check_info(c, "dist.eigh", info,
                     "the eigensolver did not converge (info " + std::to_string(info) + ")");
}

// ELPA reads the whole matrix: tril(A) + strictly_tril(A)^H, from the lower triangle as
// p?syevd reads it. The two copies are agreed before p?tranc's collective.
template <typename T>
Matrix hermitian_from_lower(const Context::Impl& c, const Grid& g, const Matrix& a) {
  auto [full, strict] = detail::agreed(c, [&] {
    return std::pair{detail::with_local(a, a.rows(), a.cols(), a.local().clone()),
                     detail::with_local(a, a.rows(), a.cols(), a.local().clone())};
  });
  detail::keep_triangle<T>(full, g, detail::Triangle::Lower);
  detail::keep_triangle<T>(strict, g, detail::Triangle::StrictLower);
  const Descriptor df = detail::desc_of(g, full), ds = detail::desc_of(g, strict);
  const int n = detail::as_int(a.rows(), "rows"), one = 1;
  const T alpha(1), beta(1);
  detail::p_tranc(static_cast<T*>(nullptr), &n, &n, &alpha, detail::data_of<T>(strict.local()),
                  &one, &one, ds.d, &beta, detail::data_of<T>(full.local()), &one, &one, df.d);
  return full;
}

const char* solver_name(EighSolver s) {
  switch (s) {
    case EighSolver::Auto:
      return "auto";
    case EighSolver::ScaLapack:
      return "scalapack";
    case EighSolver::Elpa:
      return "elpa";
  }
  return "?";
}

}  // namespace

bool elpa_available() noexcept {
  return detail::kHaveElpa;
}

std::pair<Tensor, Matrix> eigh(const Matrix& a, const EighOptions& options) {
  Context::Impl& c = a.context()->impl();
  detail::check_same_call(
      c, "dist.eigh",
      detail::describe_call(std::string("eigh ") + solver_name(options.solver), {&a}));
  // Debian's ELPA is built without single precision (its float drivers fail at run time), so
  // ELPA takes F64 and C64 only; Auto uses ScaLAPACK for F32 and C32.
  // ELPA also fails (or aborts inside BLACS) when a process row or column holds no block of
  // the matrix, so it needs at least as many blocks per dimension as the larger grid side.
  const bool double_precision = is_double(a.dtype());
  const std::int64_t nb = a.layout().block_rows;
  const std::int64_t blocks = nb > 0 ? (a.rows() + nb - 1) / nb : 0;
  const bool every_process_holds_a_block =
      blocks >= std::max(a.layout().grid.rows, a.layout().grid.cols);
  const bool use_elpa = options.solver == EighSolver::Elpa ||
                        (options.solver == EighSolver::Auto && detail::kHaveElpa &&
                         double_precision && every_process_holds_a_block);
  const Grid g = detail::agreed(c, [&] {
    if (use_elpa && !detail::kHaveElpa) {
      throw_error(ErrorKind::Unsupported, ErrorPhase::Input, "dist.eigh",
                  "this tenferro_dist was built without ELPA (TENFERRO_WITH_ELPA=OFF); use "
                  "EighSolver::ScaLapack or Auto");
    }
    if (use_elpa && a.rows() > 0 && !every_process_holds_a_block) {
      throw_error(
          ErrorKind::Unsupported, ErrorPhase::Input, "dist.eigh",
          "ELPA needs every process row and column to hold a block: " + std::to_string(blocks) +
              " blocks of " + std::to_string(nb) + " for a " +
              std::to_string(a.layout().grid.rows) + " x " + std::to_string(a.layout().grid.cols) +
              " grid; use smaller blocks, EighSolver::ScaLapack or Auto");
    }
    if (use_elpa && !double_precision) {
      throw_error(ErrorKind::Unsupported, ErrorPhase::Input, "dist.eigh",
                  "ELPA as packaged has no single precision; use EighSolver::ScaLapack or Auto "
                  "for " +
                      std::string(dtype_name(a.dtype())));
    }
    detail::require_square("dist.eigh", a);
    detail::require_square_blocks("dist.eigh", a, use_elpa ? "ELPA" : "p?syevd/p?heevd");
    const Grid g = detail::grid_of(c, a.layout().grid);
    // Both drivers read the lower triangle (ELPA's full matrix is built from it).
    detail::check_part("dist.eigh", a, g, "A", detail::Reads::Lower);
    return g;
  });
  const DType real = is_complex(a.dtype()) ? real_dtype(a.dtype()) : a.dtype();
  Tensor w;
  Matrix work, z;
  // Allocations can fail on one rank alone: agreed before the collective driver runs.
  detail::agreed(c, [&] {
    w = Tensor::zeros(real, {a.rows()});
    work = detail::with_local(a, a.rows(), a.cols(), a.local().clone());
    z = detail::with_local(a, a.rows(), a.cols(),
                           detail::local_part(a.dtype(), a.rows(), a.cols(), a.layout(), g));
  });
  if (a.rows() == 0) return {w, z};
  detail::by_dtype(a.dtype(), [&]<typename T>() {
    if (!use_elpa) return run_eigh<T>(c, g, work, z, w);
#if TENFERRO_DIST_HAS_ELPA
    Matrix full = hermitian_from_lower<T>(c, g, work);
    detail::elpa_eigh(c, g, full, z, w);
#endif
  });
  // W is documented as global, but with ScaLAPACK 2.2.1 only some grid positions end up with
  // the eigenvalues (seen on 2 x 2 and 1 x 4 grids): the root's copy is the answer.
  MPI_Bcast(w.raw_data(), static_cast<int>(w.nbytes()), MPI_BYTE, 0, c.comm);
  return {w, z};
}

}  // namespace tenferro::dist
