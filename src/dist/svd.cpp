// Distributed thin SVD on p?gesvd, with the single-node truncation rule and canonical gauge.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dist/collective.hpp"
#include "dist/linalg_common.hpp"
#include "ops/linalg/truncation.hpp"

namespace tenferro::dist {
namespace {

using detail::Descriptor;
using detail::Grid;

// p?gesvd with JOBU = JOBVT = 'V' (or 'N' for values only, when u and vh are not referenced
// and A's descriptor stands in for theirs). Collective: its workspaces are agreed, its info is
// the same on every rank.
template <typename T>
void run_svd(const Context::Impl& c, const Grid& g, Matrix& a, Matrix* u, Tensor& s, Matrix* vh) {
  using R = RealType<T>;
  const bool uv = u != nullptr;
  const Descriptor da = detail::desc_of(g, a);
  const Descriptor du = uv ? detail::desc_of(g, *u) : da, dv = uv ? detail::desc_of(g, *vh) : da;
  const int m = detail::as_int(a.rows(), "rows"), n = detail::as_int(a.cols(), "cols");
  const int one = 1, query = -1;
  const char* job = uv ? "V" : "N";
  T unused(0);
  T* const uptr = uv ? detail::data_of<T>(u->local()) : &unused;
  T* const vptr = uv ? detail::data_of<T>(vh->local()) : &unused;
  int info = 0;
  R* values = reinterpret_cast<R*>(s.raw_data());
  T* const tag = nullptr;
  // RWORK: 1 + 4 * max(m, n) (p?gesvd's documentation), taken by the complex drivers only.
  std::vector<R> rwork = detail::agreed_workspace<R>(
      c, "dist.svd", kIsComplexType<T> ? 1 + 4 * std::int64_t{std::max(m, n)} : 0, "RWORK");
  auto call = [&](T* work, const int* lwork) {
    if constexpr (kIsComplexType<T>) {
      detail::p_gesvd(tag, job, job, &m, &n, detail::data_of<T>(a.local()), &one, &one, da.d,
                      values, uptr, &one, &one, du.d, vptr, &one, &one, dv.d, work, lwork,
                      rwork.data(), &info);
    } else {
      detail::p_gesvd(tag, job, job, &m, &n, detail::data_of<T>(a.local()), &one, &one, da.d,
                      values, uptr, &one, &one, du.d, vptr, &one, &one, dv.d, work, lwork, &info);
    }
  };
  T work_size(0);
  call(&work_size, &query);
  detail::check_info(c, "dist.svd", info, "workspace query failed");
  std::vector<T> work =
      detail::agreed_workspace<T>(c, "dist.svd", workspace_count(work_size), "LWORK");
  const int lwork = static_cast<int>(work.size());
  call(work.data(), &lwork);
  // info = min(m, n) + 1 is p?gesvd's heterogeneity report: the ranks' singular values differ
  // in the last bits (a rank holding no part of U or V^T computes them in another order, seen
  // on 2 x 2 matrices over 3 to 6 ranks). Every rank takes the root's values afterwards, so the
  // result stands; only info from 1 to min(m, n) is a convergence failure.
  if (info == std::min(m, n) + 1) info = 0;
  detail::check_info(
      c, "dist.svd", info,
      "the bidiagonal QR iteration did not converge (info " + std::to_string(info) + ")");
}

// The canonical gauge of linalg::svd on distributed factors: in each U column the first
// largest-magnitude entry (over all ranks) becomes real > 0, the Vh row takes the phase. Three
// small all-reduces of r values: the largest magnitude, the first row holding it, its phase.
template <typename T>
void canonical_gauge(const Context::Impl& c, const Grid& g, Matrix& u, Matrix& vh) {
  const std::int64_t r = u.cols();
  const BlockCyclic& l = u.layout();
  T* ud = detail::data_of<T>(u.local());
  const std::int64_t urows = u.local().shape()[0], ucols = u.local().shape()[1];
  std::vector<double> mag(static_cast<std::size_t>(r), 0.0);
  for (std::int64_t lj = 0; lj < ucols; ++lj) {
    const auto j =
        static_cast<std::size_t>(detail::global_index(lj, l.block_cols, g.my_col, g.cols));
    for (std::int64_t li = 0; li < urows; ++li)
      mag[j] = std::max<double>(mag[j], std::abs(ud[lj * urows + li]));
  }
  const int count = detail::as_int(r, "rank");
  MPI_Allreduce(MPI_IN_PLACE, mag.data(), count, MPI_DOUBLE, MPI_MAX, c.comm);
  std::vector<std::int64_t> row(static_cast<std::size_t>(r),
                                std::numeric_limits<std::int64_t>::max());
  for (std::int64_t lj = 0; lj < ucols; ++lj) {
    const auto j =
        static_cast<std::size_t>(detail::global_index(lj, l.block_cols, g.my_col, g.cols));
    for (std::int64_t li = 0; li < urows; ++li) {
      if (static_cast<double>(std::abs(ud[lj * urows + li])) == mag[j]) {
        row[j] = std::min(row[j], detail::global_index(li, l.block_rows, g.my_row, g.rows));
      }
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, row.data(), count, MPI_INT64_T, MPI_MIN, c.comm);
  // The owner of each winning entry contributes its phase; the others add zero.
  std::vector<std::complex<double>> phase(static_cast<std::size_t>(r));
  for (std::int64_t lj = 0; lj < ucols; ++lj) {
    const auto j =
        static_cast<std::size_t>(detail::global_index(lj, l.block_cols, g.my_col, g.cols));
    for (std::int64_t li = 0; li < urows; ++li) {
      if (mag[j] > 0 && detail::global_index(li, l.block_rows, g.my_row, g.rows) == row[j]) {
        phase[j] = std::complex<double>(ud[lj * urows + li]) / mag[j];
      }
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, phase.data(), count, MPI_C_DOUBLE_COMPLEX, MPI_SUM, c.comm);
  auto as_t = [](std::complex<double> z) {
    if constexpr (kIsComplexType<T>) {
      return T(static_cast<RealType<T>>(z.real()), static_cast<RealType<T>>(z.imag()));
    } else {
      return T(z.real());
    }
  };
  for (std::int64_t lj = 0; lj < ucols; ++lj) {
    const auto j =
        static_cast<std::size_t>(detail::global_index(lj, l.block_cols, g.my_col, g.cols));
    if (mag[j] == 0) continue;
    const T conj_phase = as_t(std::conj(phase[j]));
    for (std::int64_t li = 0; li < urows; ++li) {
      T& x = ud[lj * urows + li];
      // The winner is set to its magnitude exactly, as on one node.
      x = detail::global_index(li, l.block_rows, g.my_row, g.rows) == row[j]
              ? T(static_cast<RealType<T>>(mag[j]))
              : x * conj_phase;
    }
  }
  T* vd = detail::data_of<T>(vh.local());
  const std::int64_t vrows = vh.local().shape()[0], vcols = vh.local().shape()[1];
  for (std::int64_t li = 0; li < vrows; ++li) {
    const auto j =
        static_cast<std::size_t>(detail::global_index(li, l.block_rows, g.my_row, g.rows));
    if (mag[j] == 0) continue;
    const T p = as_t(phase[j]);
    for (std::int64_t lj = 0; lj < vcols; ++lj) vd[lj * vrows + li] *= p;
  }
}

std::string options_text(const SvdOptions& o) {
  const auto& t = o.truncation;
  return std::string(o.compute_uv ? "uv" : "values") + " max_rank " +
         (t.max_rank ? std::to_string(*t.max_rank) : "-") + " cutoff " +
         std::to_string(static_cast<int>(t.cutoff_kind)) + ":" + std::to_string(t.cutoff) +
         " min_rank " + std::to_string(t.min_rank) + " gauge " +
         std::to_string(static_cast<int>(o.gauge));
}

}  // namespace

SvdResult svd(const Matrix& a, const SvdOptions& options) {
  Context::Impl& c = a.context()->impl();
  detail::check_same_call(c, "dist.svd",
                          detail::describe_call("svd " + options_text(options), {&a}));
  const Grid g = detail::agreed(c, [&] {
    detail::require_square_blocks("dist.svd", a, "p?gesvd");
    if (const char* problem = linalg_internal::truncation_problem(options.truncation)) {
      throw_validation("dist.svd", problem);
    }
    const Grid g = detail::grid_of(c, a.layout().grid);
    detail::check_part("dist.svd", a, g, "A", detail::Reads::Whole);
    return g;
  });
  const std::int64_t m = a.rows(), n = a.cols(), k = std::min(m, n);
  const DType real = is_complex(a.dtype()) ? real_dtype(a.dtype()) : a.dtype();
  SvdResult r;
  Matrix u, vh, work;
  // Allocations can fail on one rank alone: agreed before the collective driver runs.
  detail::agreed(c, [&] {
    r.s = Tensor::zeros(real, {k});
    if (options.compute_uv) {
      u = detail::with_local(a, m, k, detail::local_part(a.dtype(), m, k, a.layout(), g));
      vh = detail::with_local(a, k, n, detail::local_part(a.dtype(), k, n, a.layout(), g));
    }
    if (k > 0) work = detail::with_local(a, m, n, a.local().clone());
  });
  if (k > 0) {
    detail::by_dtype(a.dtype(), [&]<typename T>() {
      run_svd<T>(c, g, work, options.compute_uv ? &u : nullptr, r.s,
                 options.compute_uv ? &vh : nullptr);
    });
    // As with eigh: the root's singular values are the answer on every rank.
    MPI_Bcast(r.s.raw_data(), static_cast<int>(r.s.nbytes()), MPI_BYTE, 0, c.comm);
  }
  // Every rank holds the same values, so every rank computes the same rank.
  const std::int64_t rank = detail::by_dtype(a.dtype(), [&]<typename T>() {
    using R = RealType<T>;
    const R* s = reinterpret_cast<const R*>(r.s.raw_data());
    const std::int64_t kept =
        linalg_internal::truncated_rank(s, k, linalg_internal::rule_of(options.truncation));
    for (std::int64_t i = kept; i < k; ++i) r.discarded_weight += static_cast<double>(s[i]) * s[i];
    return kept;
  });
  if (rank < k) {
    Tensor kept = Tensor::zeros(real, {rank});
    if (rank > 0) std::memcpy(kept.raw_data(), r.s.raw_data(), kept.nbytes());
    r.s = std::move(kept);
  }
  if (options.compute_uv) {
    r.u = rank < k ? detail::leading(u, m, rank, g) : std::move(u);
    r.vh = rank < k ? detail::leading(vh, rank, n, g) : std::move(vh);
    if (options.gauge == linalg::SvdGauge::Canonical && rank > 0) {
      detail::by_dtype(a.dtype(), [&]<typename T>() { canonical_gauge<T>(c, g, r.u, r.vh); });
    }
  }
  return r;
}

}  // namespace tenferro::dist
