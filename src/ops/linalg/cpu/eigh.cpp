// Hermitian eigen-decomposition via syevd/heevd (lower triangle read), eigenvalues ascending.
// Real matrices of up to 32 x 32 go through the batched Jacobi kernels
// (backends/cpu/jacobi_eigh.hpp; AVX2's on a full-width AVX-512 host once the lanes' matrices
// outgrow its budget, jacobi_eigh_isa), as many at once as a vector has lanes, when a chunk of the
// batch fills at least half of them; the rest, and any group the kernels decline, through LAPACK.
#include <algorithm>
#include <type_traits>

#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/jacobi_eigh.hpp"
#include "ops/linalg/cpu/batch_chunks.hpp"
#include "ops/linalg/cpu/kernels.hpp"
#include "ops/linalg/cpu/workspace.hpp"

namespace tenferro::linalg_cpu {
namespace {

using linalg_internal::concat;

template <class T>
std::vector<Tensor> eigh_typed(const CpuCall& call, const Tensor& a) {
  using R = Real<T>;
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t n = d.rows;
  const bool values_only = call.op.payload().eigh.values_only;
  const char job = values_only ? 'N' : 'V';
  Tensor w = host_zeros(call.ctx, dtype_of_v<R>, concat({n}, d.batch_shape));
  Tensor v = host_zeros(call.ctx, a.dtype(), concat({n, n}, d.batch_shape));
  const T* in = a.data<T>();
  for (std::int64_t b = 0; b < d.batch; ++b) {
    check_finite_triangle(call, in + b * n * n, n, true, true, b, d.batch_shape, "A");
  }
  if (n == 0 || d.batch == 0)
    return values_only ? std::vector<Tensor>{w} : std::vector<Tensor>{w, v};
  WorkspaceLease<T> lease(call, "eigh|" + std::to_string(n) + "|" + job, [&] {
    T query{}, scratch{};
    R rquery{}, wscratch{};
    lapack::lint iquery = 0;
    lapack::syevd(job, 'L', li(n), &scratch, ld(n), &wscratch, &query, -1, &rquery, -1, &iquery,
                  -1);
    WorkspaceSizes sizes{queried_size(query), 1, iquery};
    if constexpr (kIsComplex<T>) sizes.rwork = queried_size(rquery);
    return sizes;
  });
  // Matrices the Jacobi kernels take per call (0: they do not run here).
  int lanes = 0;
  const cpu_isa::Isa isa = cpu_blas::jacobi_eigh_isa(cpu_isa::best_isa(), n, !values_only);
  if constexpr (std::is_floating_point_v<T>) {
    if (cpu_blas::jacobi_eigh_applies(isa, n))
      lanes = cpu_blas::matrix_lanes(isa, std::is_same_v<T, double>);
  }
  // Batch entries [first, last), with this chunk's own workspace.
  const auto run_chunk = [&](std::int64_t first, std::int64_t last) {
    ChunkWorkspace<T> chunk_workspace(lease, first);
    Workspace<T>& ws = chunk_workspace.get();
    // One matrix on its own (LAPACK, or the per-matrix kernels).
    const auto one = [&](std::int64_t b) {
      T* vb = v.data<T>() + b * n * n;
      std::copy_n(in + b * n * n, n * n, vb);  // syevd overwrites A with the eigenvectors
      count_lapack_call();
      const lapack::lint info =
          lapack::syevd(job, 'L', li(n), vb, ld(n), w.data<R>() + b * n, ws.work.data(), ws.lwork(),
                        ws.rwork.data(), ws.lrwork(), ws.iwork.data(), ws.liwork());
      if (info < 0) throw_lapack_argument(call, "syevd/heevd", info);
      if (info > 0)
        throw_numerical(call, b, d.batch_shape, "the eigensolver (syevd/heevd) did not converge");
    };
    // A group of matrices through the lane kernel; it stands for syevd's one call per matrix.
    const auto in_lanes = [&](auto begin, int count) {
      return cpu_blas::jacobi_eigh(isa, n, count, in + begin * n * n, n * n,
                                   w.data<R>() + begin * n, v.data<T>() + begin * n * n, n * n,
                                   !values_only);
    };
    for_each_lane_group(first, last, lanes, real_lane_group<T>(1, in_lanes), one);
  };
  for_each_batch_chunk(d.batch, n, run_chunk, std::max(lanes, 1));
  if (values_only) return {w};
  return {w, v};
}

}  // namespace

std::vector<Tensor> run_eigh(const CpuCall& call, Inputs inputs) {
  const Tensor a = compact_host(call, inputs[0]);
  return visit_dtype(a.dtype(), [&](auto zero) { return eigh_typed<decltype(zero)>(call, a); });
}

}  // namespace tenferro::linalg_cpu
