// Distributed eigh on p?syevd / p?heevd: eigenvalues on every rank, eigenvectors distributed.
#include <algorithm>
#include <string>
#include <vector>

#include "dist/collective.hpp"
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

template <typename T>
void run_eigh(const Grid& g, Matrix& a, Matrix& z, Tensor& w) {
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
  detail::check_info("dist.eigh", info, "workspace query failed");
  const int lwork = detail::as_int(
      std::max<long>(static_cast<long>(std::real(work_size)) + 1, least.lwork), "lwork");
  const int lrwork =
      detail::as_int(std::max<long>(static_cast<long>(rwork_size) + 1, least.lrwork), "lrwork");
  const int liwork = detail::as_int(std::max<long>(iwork_size, least.liwork), "liwork");
  std::vector<T> work(static_cast<std::size_t>(lwork));
  std::vector<R> rwork(static_cast<std::size_t>(lrwork));
  std::vector<int> iwork(static_cast<std::size_t>(std::max(liwork, 1)));
  call(work.data(), &lwork, rwork.data(), &lrwork, iwork.data(), &liwork);
  detail::check_info("dist.eigh", info,
                     "the eigensolver did not converge (info " + std::to_string(info) + ")");
}

}  // namespace

std::pair<Tensor, Matrix> eigh(const Matrix& a) {
  Context::Impl& c = a.context()->impl();
  detail::check_same_call(c, "dist.eigh", detail::describe_call("eigh", {&a}));
  const Grid g = detail::agreed(c, [&] {
    detail::require_square("dist.eigh", a);
    detail::require_square_blocks("dist.eigh", a, "p?syevd/p?heevd");
    return detail::grid_of(c, a.layout().grid);
  });
  const DType real = is_complex(a.dtype()) ? real_dtype(a.dtype()) : a.dtype();
  Tensor w = Tensor::zeros(real, {a.rows()});
  Matrix work = detail::with_local(a, a.rows(), a.cols(), a.local().clone());
  Matrix z = detail::with_local(a, a.rows(), a.cols(),
                                detail::local_part(a.dtype(), a.rows(), a.cols(), a.layout(), g));
  if (a.rows() == 0) return {w, z};
  detail::agreed(
      c, [&] { detail::by_dtype(a.dtype(), [&]<typename T>() { run_eigh<T>(g, work, z, w); }); });
  // W is documented as global, but with ScaLAPACK 2.2.1 only some grid positions end up with
  // the eigenvalues (seen on 2 x 2 and 1 x 4 grids): the root's copy is the answer.
  MPI_Bcast(w.raw_data(), static_cast<int>(w.nbytes()), MPI_BYTE, 0, c.comm);
  return {w, z};
}

}  // namespace tenferro::dist
