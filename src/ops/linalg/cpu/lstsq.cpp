// lstsq via LAPACK's gelsd, as numpy.linalg.lstsq: the SVD of A reveals its rank, singular
// values <= rcond * s_max count as zero, and X is the minimum-norm least-squares solution
// (the pseudo-inverse applied to B). QR-based gels would divide by a tiny diagonal entry of R
// for a numerically rank-deficient A and return huge garbage instead.
#include <algorithm>
#include <limits>

#include "ops/linalg/cpu/batch_chunks.hpp"
#include "ops/linalg/cpu/kernels.hpp"
#include "ops/linalg/cpu/workspace.hpp"

namespace tenferro::linalg_cpu {
namespace {

using linalg_internal::concat;

template <class T>
std::vector<Tensor> lstsq_typed(const CpuCall& call, const Tensor& a, const Tensor& b_in) {
  using R = Real<T>;
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t m = d.rows, n = d.cols, k = std::min(m, n);
  const bool vector = b_in.rank() + 1 == a.rank();
  const std::int64_t nrhs = vector ? 1 : b_in.shape()[1];
  const DType real = real_dtype(a.dtype());
  Tensor x = host_zeros(call.ctx, a.dtype(),
                        vector ? concat({n}, d.batch_shape) : concat({n, nrhs}, d.batch_shape));
  Tensor rank = host_zeros(call.ctx, real, d.batch_shape);
  Tensor s = host_zeros(call.ctx, real, concat({k}, d.batch_shape));
  const T* in = a.data<T>();
  const T* rhs = b_in.data<T>();
  check_finite_batch(call, in, m * n, d.batch, d.batch_shape, "A");
  check_finite_batch(call, rhs, m * nrhs, d.batch, d.batch_shape, "B");
  // With m == 0 or n == 0, A has rank 0 and the minimum-norm solution is zero.
  if (m == 0 || n == 0 || d.batch == 0) return {x, rank, s};

  // NumPy's default cutoff: eps of the dtype times the larger dimension.
  const R rcond = static_cast<R>(call.op.payload().lstsq.rcond.value_or(
      static_cast<double>(std::numeric_limits<R>::epsilon()) *
      static_cast<double>(std::max(m, n))));
  const std::int64_t ldb = std::max(m, n);  // gelsd returns X in the first n rows of B
  const std::int64_t cols = std::max<std::int64_t>(nrhs, 1);
  // One column of slack in A: OpenBLAS 0.3.21's zgemv_n (gelsd -> gebrd/gelqf -> larf) reads
  // 16 bytes past the matrix (valgrind), as in svd.cpp. LAPACK is given only the m x n part.
  const auto scratch_a = [&] { return std::vector<T>(static_cast<std::size_t>(m * n + m)); };
  const auto scratch_b = [&] { return std::vector<T>(static_cast<std::size_t>(ldb * cols)); };
  const auto scratch_s = [&] { return std::vector<R>(static_cast<std::size_t>(k)); };
  WorkspaceLease<T> lease(
      call, "lstsq|" + std::to_string(m) + "x" + std::to_string(n) + "|" + std::to_string(nrhs),
      [&] {
        T query{};
        R rquery{};
        lapack::lint iquery = 0, rank_out = 0;
        std::vector<T> qa = scratch_a(), qb = scratch_b();
        std::vector<R> qs = scratch_s();
        const lapack::lint info =
            lapack::gelsd(li(m), li(n), li(cols), qa.data(), ld(m), qb.data(), ld(ldb), qs.data(),
                          rcond, &rank_out, &query, -1, &rquery, &iquery);
        if (info < 0) throw_lapack_argument(call, "gelsd", info);
        WorkspaceSizes sizes{queried_size(query), 1, std::max<std::int64_t>(iquery, 1)};
        if constexpr (kIsComplex<T>) sizes.rwork = queried_size(rquery);
        return sizes;
      });
  const auto run_chunk = [&](std::int64_t first, std::int64_t last) {
    ChunkWorkspace<T> chunk_workspace(lease, first);
    Workspace<T>& ws = chunk_workspace.get();
    std::vector<T> work_a = scratch_a(), work_b = scratch_b();
    std::vector<R> sv = scratch_s();
    for (std::int64_t b = first; b < last; ++b) {
      std::copy_n(in + b * m * n, m * n, work_a.data());
      std::fill(work_b.begin(), work_b.end(), T{});
      for (std::int64_t j = 0; j < nrhs; ++j) {
        std::copy_n(rhs + b * m * nrhs + j * m, m, work_b.data() + j * ldb);
      }
      count_lapack_call();
      lapack::lint rank_out = 0;
      const lapack::lint info = lapack::gelsd(
          li(m), li(n), li(cols), work_a.data(), ld(m), work_b.data(), ld(ldb), sv.data(), rcond,
          &rank_out, ws.work.data(), ws.lwork(), ws.rwork.data(), ws.iwork.data());
      if (info < 0) throw_lapack_argument(call, "gelsd", info);
      if (info > 0) {
        throw_numerical(call, b, d.batch_shape,
                        "the SVD inside gelsd did not converge (" + std::to_string(info) +
                            " off-diagonal elements of an intermediate bidiagonal form did not "
                            "converge to zero)");
      }
      T* xb = x.data<T>() + b * n * nrhs;
      for (std::int64_t j = 0; j < nrhs; ++j) std::copy_n(work_b.data() + j * ldb, n, xb + j * n);
      rank.data<R>()[b] = static_cast<R>(rank_out);
      std::copy_n(sv.data(), k, s.data<R>() + b * k);
    }
  };
  for_each_batch_chunk(d.batch, std::max(m, n), run_chunk);
  return {x, rank, s};
}

}  // namespace

std::vector<Tensor> run_lstsq(const CpuCall& call, Inputs inputs) {
  const Tensor a = compact_host(call, inputs[0]);
  const Tensor b = compact_host(call, inputs[1]);
  return visit_dtype(a.dtype(), [&](auto zero) { return lstsq_typed<decltype(zero)>(call, a, b); });
}

}  // namespace tenferro::linalg_cpu
