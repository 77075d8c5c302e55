// Distributed LU with partial pivoting on p?getrf: L, U distributed, the row permutation on
// every rank.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "dist/collective.hpp"
#include "dist/linalg_common.hpp"

namespace tenferro::dist {
namespace {

// ScaLAPACK's pivots are local: IPIV(li) is the (1-based) global row that local row li was
// swapped with, held by the process row owning li. Each global row's entry is taken from the
// process column that factored its panel, so exactly one rank contributes it to the sum.
std::vector<std::int64_t> global_pivots(const Context::Impl& c, const detail::Grid& g,
                                        const BlockCyclic& l, std::int64_t local_rows,
                                        std::int64_t k, const std::vector<int>& ipiv) {
  std::vector<std::int64_t> piv(static_cast<std::size_t>(k), 0);
  for (std::int64_t li = 0; li < local_rows; ++li) {
    const std::int64_t gi = detail::global_index(li, l.block_rows, g.my_row, g.rows);
    if (gi < k && (gi / l.block_cols) % g.cols == g.my_col) {
      piv[static_cast<std::size_t>(gi)] = ipiv[static_cast<std::size_t>(li)] - 1;
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, piv.data(), detail::as_int(k, "rows"), MPI_INT64_T, MPI_SUM, c.comm);
  return piv;
}

// LAPACK's sequence of row swaps as the permutation perm with (L U)[i] = A[perm[i]].
std::vector<std::int64_t> permutation_of(const std::vector<std::int64_t>& swaps, std::int64_t m) {
  std::vector<std::int64_t> perm(static_cast<std::size_t>(m));
  std::iota(perm.begin(), perm.end(), 0);
  for (std::size_t i = 0; i < swaps.size(); ++i) {
    std::swap(perm[i], perm[static_cast<std::size_t>(swaps[i])]);
  }
  return perm;
}

}  // namespace

LuResult lu(const Matrix& a) {
  Context::Impl& c = a.context()->impl();
  detail::check_same_call(c, "dist.lu", detail::describe_call("lu", {&a}));
  const detail::Grid g = detail::agreed(c, [&] {
    detail::require_square_blocks("dist.lu", a, "p?getrf");
    const detail::Grid g = detail::grid_of(c, a.layout().grid);
    detail::check_part("dist.lu", a, g, "A", detail::Reads::Whole);
    return g;
  });
  const std::int64_t m = a.rows(), n = a.cols(), k = std::min(m, n);
  Matrix f = detail::agreed(c, [&] { return detail::with_local(a, m, n, a.local().clone()); });
  std::vector<std::int64_t> swaps;
  if (k > 0) {
    const std::int64_t local_rows = f.local().shape()[0];
    std::vector<int> ipiv =
        detail::agreed_workspace<int>(c, "dist.lu", local_rows + a.layout().block_rows, "IPIV");
    detail::by_dtype(a.dtype(), [&]<typename T>() {
      const detail::Descriptor d = detail::desc_of(g, f);
      const int mi = detail::as_int(m, "rows"), ni = detail::as_int(n, "cols"), one = 1;
      int info = 0;
      detail::p_getrf(static_cast<T*>(nullptr), &mi, &ni, detail::data_of<T>(f.local()), &one, &one,
                      d.d, ipiv.data(), &info);
      // info > 0: U(info, info) is exactly zero; the factorisation is still complete (a
      // singular A is not an error, as in linalg::lu).
      detail::check_info(c, "dist.lu", std::min(info, 0), "");
    });
    swaps = global_pivots(c, g, a.layout(), local_rows, k, ipiv);
  }
  LuResult r{detail::leading(f, m, k, g), detail::leading(f, k, n, g), permutation_of(swaps, m)};
  detail::by_dtype(a.dtype(), [&]<typename T>() {
    detail::keep_triangle<T>(r.l, g, detail::Triangle::UnitLower);
    detail::keep_triangle<T>(r.u, g, detail::Triangle::Upper);
  });
  return r;
}

}  // namespace tenferro::dist
