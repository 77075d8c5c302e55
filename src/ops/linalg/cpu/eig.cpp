// General eigen-decomposition via geev (right eigenvectors). Real input: LAPACK returns a
// complex pair (w, conj w) as two real columns (re, im); they are expanded to complex here.
#include <algorithm>

#include "ops/linalg/cpu/batch_chunks.hpp"
#include "ops/linalg/cpu/kernels.hpp"
#include "ops/linalg/cpu/workspace.hpp"

namespace tenferro::linalg_cpu {
namespace {

using linalg_internal::concat;

template <class T>
std::vector<Tensor> eig_typed(const CpuCall& call, const Tensor& a) {
  using R = Real<T>;
  using C = std::complex<R>;
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t n = d.rows;
  const DType cdtype = dtype_of_v<C>;
  Tensor w = host_zeros(call.ctx, cdtype, concat({n}, d.batch_shape));
  Tensor v = host_zeros(call.ctx, cdtype, concat({n, n}, d.batch_shape));
  const T* in = a.data<T>();
  check_finite_batch(call, in, n * n, d.batch, d.batch_shape, "A");
  if (n == 0 || d.batch == 0) return {w, v};

  WorkspaceLease<T> lease(call, "eig|" + std::to_string(n), [&] {
    T query{}, scratch{};
    if constexpr (kIsComplex<T>) {
      R rscratch{};
      lapack::geev('V', li(n), &scratch, ld(n), &scratch, &scratch, ld(n), &query, -1, &rscratch);
      return WorkspaceSizes{queried_size(query), 2 * n, 1};
    } else {
      lapack::geev('V', li(n), &scratch, ld(n), &scratch, &scratch, &scratch, ld(n), &query, -1);
      return WorkspaceSizes{queried_size(query), 1, 1};
    }
  });
  const auto run_chunk = [&](std::int64_t first, std::int64_t last) {
    ChunkWorkspace<T> chunk_workspace(lease, first);
    Workspace<T>& ws = chunk_workspace.get();
    std::vector<T> work_a(static_cast<std::size_t>(n * n));
    std::vector<T> vr(static_cast<std::size_t>(n * n));
    std::vector<R> wr(static_cast<std::size_t>(n)), wi(static_cast<std::size_t>(n));

    for (std::int64_t b = first; b < last; ++b) {
      std::copy_n(in + b * n * n, n * n, work_a.data());
      C* wb = w.data<C>() + b * n;
      C* vb = v.data<C>() + b * n * n;
      lapack::lint info;
      count_lapack_call();
      if constexpr (kIsComplex<T>) {
        info = lapack::geev('V', li(n), work_a.data(), ld(n), wb, vb, ld(n), ws.work.data(),
                            ws.lwork(), ws.rwork.data());
      } else {
        info = lapack::geev('V', li(n), work_a.data(), ld(n), wr.data(), wi.data(), vr.data(),
                            ld(n), ws.work.data(), ws.lwork());
      }
      if (info < 0) throw_lapack_argument(call, "geev", info);
      if (info > 0)
        throw_numerical(call, b, d.batch_shape, "the QR algorithm (geev) did not converge");
      if constexpr (!kIsComplex<T>) {
        for (std::int64_t j = 0; j < n; ++j) {
          if (wi[j] == 0 || j + 1 == n) {
            wb[j] = C(wr[j], wi[j]);
            for (std::int64_t i = 0; i < n; ++i) vb[i + j * n] = C(vr[i + j * n], 0);
            continue;
          }
          // Columns j and j+1 hold re and im of the vector of w_j = wr_j + i wi_j (wi_j > 0);
          // w_{j+1} is its conjugate with the conjugate vector.
          wb[j] = C(wr[j], wi[j]);
          wb[j + 1] = C(wr[j + 1], wi[j + 1]);
          for (std::int64_t i = 0; i < n; ++i) {
            const C value(vr[i + j * n], vr[i + (j + 1) * n]);
            vb[i + j * n] = value;
            vb[i + (j + 1) * n] = std::conj(value);
          }
          ++j;
        }
      }
    }
  };
  for_each_batch_chunk(d.batch, n, run_chunk);
  return {w, v};
}

}  // namespace

std::vector<Tensor> run_eig(const CpuCall& call, Inputs inputs) {
  const Tensor a = compact_host(call, inputs[0]);
  return visit_dtype(a.dtype(), [&](auto zero) { return eig_typed<decltype(zero)>(call, a); });
}

}  // namespace tenferro::linalg_cpu
