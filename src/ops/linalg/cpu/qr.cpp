// QR via geqrf + orgqr/ungqr, with the optional positive-diagonal gauge; small matrices (up to
// 128 rows and columns real, 48 complex) through the CPU backend's own kernels of the same
// algorithm (backends/cpu/householder_qr.hpp), LAPACK where those decline one. Real matrices of
// up to 64 x 64 go through the batched kernels (backends/cpu/lane_qr.hpp; AVX2's on a full-width
// AVX-512 host once the lanes' matrices outgrow its budget, lane_qr_isa), as many at once as a
// vector has lanes, when a chunk of the batch fills at least half of a group of them.
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "backends/cpu/householder_qr.hpp"
#include "backends/cpu/lane_qr.hpp"
#include "ops/linalg/cpu/batch_chunks.hpp"
#include "ops/linalg/cpu/kernels.hpp"
#include "ops/linalg/cpu/workspace.hpp"

namespace tenferro::linalg_cpu {
namespace {

using linalg_internal::concat;

template <class T>
std::vector<Tensor> qr_typed(const CpuCall& call, const Tensor& a) {
  const auto d = linalg_internal::matrix_dims(a.shape());
  const std::int64_t m = d.rows, n = d.cols, k = std::min(m, n);
  const bool complete = call.op.payload().qr.mode == linalg::QrMode::Complete;
  const std::int64_t q_cols = complete ? m : k, r_rows = complete ? m : k;
  Tensor q = host_zeros(call.ctx, a.dtype(), concat({m, q_cols}, d.batch_shape));
  Tensor r = host_zeros(call.ctx, a.dtype(), concat({r_rows, n}, d.batch_shape));
  const T* in = a.data<T>();
  check_finite_batch(call, in, m * n, d.batch, d.batch_shape, "A");
  if (m == 0 || d.batch == 0) return {q, r};

  // One buffer holds A, then the Householder vectors, then Q (orgqr works in place). When Q has
  // at least n columns that buffer is Q's own storage, so Q needs no copy; only a wide reduced
  // QR (Q [m, m] with m < n) needs scratch space.
  const bool in_place = q_cols >= n;
  const std::string key =
      "qr|" + std::to_string(m) + "x" + std::to_string(n) + "|" + std::to_string(q_cols);
  const bool positive = call.op.payload().qr.gauge == linalg::QrGauge::PositiveDiagonal;
  const cpu_isa::Isa isa = cpu_isa::best_isa();
  const bool small = cpu_blas::householder_qr_applies(isa, m, n, kIsComplex<T>);

  // R row j times conj(phase), Q column j times phase (phase = R_jj / |R_jj|): Q R is
  // unchanged and R's diagonal real and non-negative.
  const auto positive_gauge = [&](std::int64_t b) {
    T* qb = q.data<T>() + b * m * q_cols;
    T* rb = r.data<T>() + b * r_rows * n;
    for (std::int64_t j = 0; j < k; ++j) {
      const T diag = rb[j + j * r_rows];
      const Real<T> mag = std::abs(diag);
      if (mag == 0) continue;
      const T phase = diag / mag;
      for (std::int64_t c = j; c < n; ++c) rb[j + c * r_rows] *= conj_of(phase);
      rb[j + j * r_rows] = mag;
      for (std::int64_t i = 0; i < m; ++i) qb[i + j * m] *= phase;
    }
  };

  std::vector<T> query_tau(static_cast<std::size_t>(std::max<std::int64_t>(k, 1)));
  WorkspaceLease<T> lease(call, key, [&] {  // the queries read no matrix
    T q1{}, q2{};
    lapack::geqrf(li(m), li(n), q.data<T>(), ld(m), query_tau.data(), &q1, -1);
    lapack::orgqr(li(m), li(q_cols), li(k), q.data<T>(), ld(m), query_tau.data(), &q2, -1);
    return WorkspaceSizes{std::max(queried_size(q1), queried_size(q2)), 1, 1};
  });

  // Matrices the batched kernels take per call (0: they do not run here), on their own ISA.
  const cpu_isa::Isa lane_isa = cpu_blas::lane_qr_isa(isa, m, n, q_cols);
  int lanes = 0;
  if constexpr (std::is_floating_point_v<T>) {
    if (cpu_blas::lane_qr_applies(lane_isa, m, n, q_cols))
      lanes = cpu_blas::matrix_lanes(lane_isa, std::is_same_v<T, double>);
  }

  // Batch entries [first, last), with this chunk's own scratch, tau and workspace.
  const auto run_chunk = [&](std::int64_t first, std::int64_t last) {
    std::vector<T> scratch(in_place ? 0 : static_cast<std::size_t>(m * n));
    std::vector<T> tau(static_cast<std::size_t>(std::max<std::int64_t>(k, 1)));
    ChunkWorkspace<T> chunk_workspace(lease, first);
    Workspace<T>& ws = chunk_workspace.get();
    // One matrix on its own (LAPACK, or the per-matrix kernels).
    const auto one = [&](std::int64_t b) {
      T* qb = q.data<T>() + b * m * q_cols;
      T* buf = in_place ? qb : scratch.data();
      std::copy_n(in + b * m * n, m * n, buf);
      const bool ours = small && cpu_blas::householder_qr(isa, m, n, buf, tau.data());
      if (ours) count_lapack_call();  // a kernel call like geqrf's, counted the same way
      // Declined (a column norm out of its range): LAPACK starts again from A.
      if (small && !ours) std::copy_n(in + b * m * n, m * n, buf);
      lapack::lint info = 0;
      if (k > 0 && !ours) {
        info = lapack::geqrf(li(m), li(n), buf, ld(m), tau.data(), ws.work.data(), ws.lwork());
        count_lapack_call();
        if (info < 0) throw_lapack_argument(call, "geqrf", info);
      }
      T* rb = r.data<T>() + b * r_rows * n;
      for (std::int64_t j = 0; j < n; ++j) {
        for (std::int64_t i = 0; i <= std::min(j, r_rows - 1); ++i)
          rb[i + j * r_rows] = buf[i + j * m];
      }
      if (ours) {
        cpu_blas::householder_q(isa, m, q_cols, k, buf, tau.data());
      } else {
        info = lapack::orgqr(li(m), li(q_cols), li(k), buf, ld(m), tau.data(), ws.work.data(),
                             ws.lwork());
        if (info < 0) throw_lapack_argument(call, "orgqr/ungqr", info);
      }
      count_lapack_call();
      if (!in_place) std::copy_n(buf, m * q_cols, qb);

      if (positive) positive_gauge(b);
    };
    // A group of matrices through the lane kernel; it stands for geqrf's and orgqr's two calls
    // per matrix.
    const auto in_lanes = [&](auto begin, int count) {
      const bool done = cpu_blas::lane_qr(lane_isa, m, n, q_cols, count, in + begin * m * n, m * n,
                                          q.data<T>() + begin * m * q_cols, m * q_cols,
                                          r.data<T>() + begin * r_rows * n, r_rows, r_rows * n);
      if (done && positive)
        for (int i = 0; i < count; ++i) positive_gauge(begin + i);
      return done;
    };
    for_each_lane_group(first, last, lanes, real_lane_group<T>(2, in_lanes), one);
  };
  for_each_batch_chunk(d.batch, std::max(m, n), run_chunk, std::max(lanes, 1));
  return {q, r};
}

}  // namespace

std::vector<Tensor> run_qr(const CpuCall& call, Inputs inputs) {
  const Tensor a = compact_host(call, inputs[0]);
  return visit_dtype(a.dtype(), [&](auto zero) { return qr_typed<decltype(zero)>(call, a); });
}

}  // namespace tenferro::linalg_cpu
