// SVD via gesdd, retried through gesvd when gesdd does not converge; then truncation (one
// common rank per batch), discarded weight and the optional canonical gauge. Real matrices of
// up to 32 x 32 (thin, or square when full) go through the batched one-sided Jacobi kernels
// (backends/cpu/jacobi_svd.hpp), as many at once as a vector has lanes, when a chunk of the
// batch fills at least half of them; the rest, and any group the kernels decline, through LAPACK.
#include <algorithm>
#include <type_traits>

#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/jacobi_eigh.hpp"
#include "backends/cpu/jacobi_svd.hpp"
#include "ops/linalg/cpu/batch_chunks.hpp"
#include "ops/linalg/cpu/kernels.hpp"
#include "ops/linalg/cpu/svd_fault_injection.hpp"
#include "ops/linalg/cpu/workspace.hpp"
#include "ops/linalg/truncation.hpp"
#include "runtime/runtime_access.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::linalg_cpu {
namespace {

using linalg_internal::concat;

struct SvdShape {
  std::int64_t m, n, k, u_cols, vt_rows;
  char job;  // 'N', 'S' or 'A' (gesdd's jobz; gesvd takes the same letter for U and Vt)
  std::string key() const { return std::to_string(m) + "x" + std::to_string(n) + "|" + job; }
};

// Workspace leases for the two drivers (sizes queried once per shape, see workspace.hpp).
template <class T>
WorkspaceLease<T> gesdd_workspace(const CpuCall& call, const SvdShape& s) {
  return WorkspaceLease<T>(call, "svd.gesdd|" + s.key(), [&] {
    T query{}, scratch{};
    Real<T> sv{}, rscratch{};
    lapack::lint iscratch = 0;
    lapack::gesdd(s.job, li(s.m), li(s.n), &scratch, ld(s.m), &sv, &scratch, ld(s.m), &scratch,
                  ld(s.vt_rows), &query, -1, &rscratch, &iscratch);
    WorkspaceSizes sizes{queried_size(query), 1, 8 * s.k};
    if constexpr (kIsComplex<T>) {
      // LAPACK's documented lrwork bounds for cgesdd/zgesdd.
      const std::int64_t mx = std::max(s.m, s.n);
      sizes.rwork = s.job == 'N' ? 7 * s.k : s.k * std::max(5 * s.k + 7, 2 * mx + 2 * s.k + 1);
    }
    return sizes;
  });
}

template <class T>
WorkspaceLease<T> gesvd_workspace(const CpuCall& call, const SvdShape& s) {
  return WorkspaceLease<T>(call, "svd.gesvd|" + s.key(), [&] {
    T query{}, scratch{};
    Real<T> sv{}, rscratch{};
    lapack::gesvd(s.job, s.job, li(s.m), li(s.n), &scratch, ld(s.m), &sv, &scratch, ld(s.m),
                  &scratch, ld(s.vt_rows), &query, -1, &rscratch);
    return WorkspaceSizes{queried_size(query), 5 * s.k, 1};
  });
}

template <class T>
lapack::lint gesdd_run(Workspace<T>& ws, const SvdShape& s, T* a, Real<T>* sv, T* u, T* vt) {
  if (take_injected_gesdd_failure()) return 1;  // tests only: reads as non-convergence
  count_lapack_call();
  return lapack::gesdd(s.job, li(s.m), li(s.n), a, ld(s.m), sv, u, ld(s.m), vt, ld(s.vt_rows),
                       ws.work.data(), ws.lwork(), ws.rwork.data(), ws.iwork.data());
}

template <class T>
lapack::lint gesvd_run(Workspace<T>& ws, const SvdShape& s, T* a, Real<T>* sv, T* u, T* vt) {
  if (take_injected_gesvd_failure()) return 1;  // tests only: reads as non-convergence
  count_lapack_call();
  return lapack::gesvd(s.job, s.job, li(s.m), li(s.n), a, ld(s.m), sv, u, ld(s.m), vt,
                       ld(s.vt_rows), ws.work.data(), ws.lwork(), ws.rwork.data());
}

// The whole matrix: the scratch it is written into holds anything.
template <class T>
void set_identity(T* dst, std::int64_t size) {
  std::fill_n(dst, size * size, T(0));
  for (std::int64_t i = 0; i < size; ++i) dst[i + i * size] = T(1);
}

// Largest-magnitude entry of each kept U column made real positive; Vh rows compensated.
template <class T>
void canonical_gauge(T* u, std::int64_t m, T* vt, std::int64_t vt_rows, std::int64_t n,
                     std::int64_t rank) {
  for (std::int64_t j = 0; j < rank; ++j) {
    T* col = u + j * m;
    std::int64_t best = 0;
    for (std::int64_t i = 1; i < m; ++i) {
      if (std::abs(col[i]) > std::abs(col[best])) best = i;
    }
    const Real<T> mag = std::abs(col[best]);
    if (mag == 0) continue;
    const T phase = col[best] / mag;
    for (std::int64_t i = 0; i < m; ++i) col[i] *= conj_of(phase);
    col[best] = mag;
    for (std::int64_t c = 0; c < n; ++c) vt[j + c * vt_rows] *= phase;
  }
}

template <class T>
std::vector<Tensor> svd_typed(const CpuCall& call, const Tensor& a) {
  using R = Real<T>;
  const auto d = linalg_internal::matrix_dims(a.shape());
  const auto& opt = call.op.payload().svd;
  const bool uv = opt.compute_uv, full = opt.full_matrices;
  SvdShape s{d.rows, d.cols, std::min(d.rows, d.cols), 0, 0, !uv ? 'N' : (full ? 'A' : 'S')};
  s.u_cols = full ? s.m : s.k;
  s.vt_rows = full ? s.n : s.k;
  const std::int64_t m = s.m, n = s.n, k = s.k, batch = d.batch;
  const T* in = a.data<T>();
  check_finite_batch(call, in, m * n, batch, d.batch_shape, "A");

  // Untruncated factors of every batch entry (the common rank needs all of S first).
  std::vector<R> sv(static_cast<std::size_t>(k * batch));
  Tensor u_scratch = host_scratch<T>(call, uv ? m * s.u_cols * batch : 0);
  Tensor vt_scratch = host_scratch<T>(call, uv ? s.vt_rows * n * batch : 0);
  T* const u = u_scratch.data<T>();
  T* const vt = vt_scratch.data<T>();
  // Matrices the Jacobi kernels take per call (0: they do not run here).
  int lanes = 0;
  const cpu_isa::Isa isa = cpu_isa::best_isa();
  if constexpr (std::is_floating_point_v<T>) {
    if (cpu_blas::jacobi_svd_applies(isa, m, n) && (!uv || !full || m == n))
      lanes = cpu_blas::matrix_lanes(isa, std::is_same_v<T, double>);
  }
  if (k > 0) {
    WorkspaceLease<T> gesdd_lease = gesdd_workspace<T>(call, s);
    // Batch entries [first, last), with this chunk's own copy of A and workspace.
    const auto run_chunk = [&](std::int64_t first, std::int64_t last) {
      // One column of slack: Debian's OpenBLAS 0.3.21 zgemv_n kernel (reached through gesdd ->
      // gebrd -> larf) reads 16 bytes past the end of a 4 x 3 complex matrix (valgrind: "Invalid
      // read of size 16 ... 16 bytes after a block of size 192"); under ASan that read can land on
      // an unmapped page. The slack is never part of the matrix LAPACK is given.
      std::vector<T> work_a(static_cast<std::size_t>(m * n + m));
      T dummy{};
      ChunkWorkspace<T> gesdd_workspace_of_chunk(gesdd_lease, first);
      // One matrix on its own (LAPACK, or the per-matrix kernels).
      const auto one = [&](std::int64_t b) {
        R* sb = sv.data() + b * k;
        T* ub = uv ? u + b * m * s.u_cols : &dummy;
        T* vb = uv ? vt + b * s.vt_rows * n : &dummy;
        std::copy_n(in + b * m * n, m * n, work_a.data());
        lapack::lint info =
            gesdd_run<T>(gesdd_workspace_of_chunk.get(), s, work_a.data(), sb, ub, vb);
        if (info > 0) {
          // gesdd's divide and conquer failed to converge: retry with the QR-iteration driver.
          runtime_internal::RuntimeAccess::count_numerical_retry(call.ctx.runtime());
          std::copy_n(in + b * m * n, m * n, work_a.data());
          WorkspaceLease<T> gesvd_lease = gesvd_workspace<T>(call, s);
          info = gesvd_run<T>(gesvd_lease.get(), s, work_a.data(), sb, ub, vb);
          if (info > 0) {
            throw_numerical(
                call, b, d.batch_shape,
                "the SVD did not converge (gesdd, then gesvd after an automatic retry)");
          }
        }
        if (info < 0) throw_lapack_argument(call, "gesdd/gesvd", info);
      };
      // A group of matrices through the lane kernel; it stands for gesdd's one call per matrix.
      const auto in_lanes = [&](auto begin, int count) {
        return cpu_blas::jacobi_svd(isa, m, n, count, in + begin * m * n, m * n,
                                    sv.data() + begin * k, uv ? u + begin * m * s.u_cols : nullptr,
                                    m * s.u_cols, uv ? vt + begin * s.vt_rows * n : nullptr,
                                    s.vt_rows * n, uv);
      };
      for_each_lane_group(first, last, lanes, real_lane_group<T>(1, in_lanes), one);
    };
    for_each_batch_chunk(batch, std::max(m, n), run_chunk, std::max(lanes, 1));
  } else if (uv && full) {
    for (std::int64_t b = 0; b < batch; ++b) {
      set_identity(u + b * m * m, m);
      set_identity(vt + b * n * n, n);
    }
  }

  std::int64_t rank = k;
  if (opt.truncation.active()) {
    std::vector<double> values(sv.begin(), sv.end());
    rank = linalg_internal::common_rank(values, k, batch, opt.truncation);
  }
  const DType real = dtype_of_v<R>;
  Tensor s_out = host_zeros(call.ctx, real, concat({rank}, d.batch_shape));
  Tensor weight = host_zeros(call.ctx, real, d.batch_shape);
  for (std::int64_t b = 0; b < batch; ++b) {
    std::copy_n(sv.data() + b * k, rank, s_out.data<R>() + b * rank);
    double dropped = 0;
    for (std::int64_t i = rank; i < k; ++i)
      dropped += double(sv[b * k + i]) * double(sv[b * k + i]);
    weight.data<R>()[b] = static_cast<R>(dropped);
  }
  if (!uv) return {s_out, weight};

  const std::int64_t u_out_cols = full ? m : rank, vt_out_rows = full ? n : rank;
  Tensor u_out = host_zeros(call.ctx, a.dtype(), concat({m, u_out_cols}, d.batch_shape));
  Tensor vt_out = host_zeros(call.ctx, a.dtype(), concat({vt_out_rows, n}, d.batch_shape));
  for (std::int64_t b = 0; b < batch; ++b) {
    T* ub = u + b * m * s.u_cols;
    T* vb = vt + b * s.vt_rows * n;
    if (opt.gauge == linalg::SvdGauge::Canonical) canonical_gauge(ub, m, vb, s.vt_rows, n, rank);
    std::copy_n(ub, m * u_out_cols, u_out.data<T>() + b * m * u_out_cols);
    T* vo = vt_out.data<T>() + b * vt_out_rows * n;
    for (std::int64_t c = 0; c < n; ++c) {
      std::copy_n(vb + c * s.vt_rows, vt_out_rows, vo + c * vt_out_rows);
    }
  }
  return {u_out, s_out, vt_out, weight};
}

}  // namespace

std::vector<Tensor> run_svd(const CpuCall& call, Inputs inputs) {
  const Tensor a = compact_host(call, inputs[0]);
  return visit_dtype(a.dtype(), [&](auto zero) { return svd_typed<decltype(zero)>(call, a); });
}

}  // namespace tenferro::linalg_cpu
