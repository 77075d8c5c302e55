#include "ops/einsum/cpu/cpu_contraction_kernels.hpp"

#include <complex>
#include <functional>
#include <vector>

#include "backends/cpu/blas.hpp"
#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/host_parallel.hpp"
#include "backends/cpu/strided_copy.hpp"
#include "backends/cpu/strided_loops.hpp"
#include "backends/cpu/strided_multiply_sum.hpp"
#include "backends/cpu/strided_reduce.hpp"
#include "ops/einsum/cpu/parallel_slabs.hpp"
#include "ops/einsum/program.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::einsum_internal {
namespace {

// OpenBLAS runs a GEMM of at most 4 * 65536 multiply-adds on one thread; a batch of such
// GEMMs would use one core. Above this total work, splitting the batch over threads pays
// for starting them (tens of microseconds).
constexpr double kSmallGemmWork = 4.0 * 65536;
constexpr double kParallelBatchWork = 8.0 * 1024 * 1024;

using cpu_strided::for_each_strided;

template <class T>
T* base_of(const KernelView& v) {
  return reinterpret_cast<T*>(v.buffer->host_data()) + v.offset;
}

bool is_empty(const KernelView& v) {
  for (auto e : v.shape)
    if (e == 0) return true;
  return false;
}

void require_host(const KernelView& v) {
  if (v.buffer == nullptr || v.buffer->host_data() == nullptr)
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "einsum",
                "the CPU einsum kernels got a buffer the host cannot touch");
}

// dst = src: the backend's strided copy (tiled where the views' fastest axes differ).
template <class T>
void copy_typed(const KernelView& src, const KernelView& dst) {
  cpu_strided::copy<T>(dst.shape, base_of<T>(dst), dst.strides, base_of<T>(src), src.strides);
}

// The element-wise kernels are functors on the backend's strided loop, walking dst in its
// memory order; the slabs of run_in_slabs are the threads (an outer product, which mostly
// writes, stays on one: see parallel_slabs.hpp).
template <class T>
void fill_zero_typed(const KernelView& dst) {
  T* d = reinterpret_cast<T*>(dst.buffer->host_data());
  for_each_strided<1>(
      dst.shape, {dst.strides}, {dst.offset},
      [d](const std::array<std::int64_t, 1>& o) { d[o[0]] = T{}; }, /*parallel=*/false, 0);
}

// dst = sum over the trailing axes of src, by the backend's reduction (wide accumulator,
// pairwise): a float sum of 2^25 ones is 2^25, not the 2^24 where a float accumulator stops.
template <class T>
void sum_typed(const KernelView& src, const KernelView& dst) {
  const std::size_t rank = src.shape.size();
  DimVector out_strides(dst.strides.begin(), dst.strides.end());
  out_strides.resize(rank, 0);
  SmallVector<std::uint8_t, 16> reduced(rank, 0);
  for (std::size_t a = dst.shape.size(); a < rank; ++a) reduced[a] = 1;
  cpu_strided::sum(reinterpret_cast<const T*>(src.buffer->host_data()),
                   reinterpret_cast<T*>(dst.buffer->host_data()),
                   {src.shape, src.strides, src.offset, out_strides, dst.offset, reduced});
}

template <class T>
void multiply_typed(const KernelView& a, const KernelView& b, const KernelView& dst) {
  T* d = reinterpret_cast<T*>(dst.buffer->host_data());
  const T* ap = reinterpret_cast<const T*>(a.buffer->host_data());
  const T* bp = reinterpret_cast<const T*>(b.buffer->host_data());
  for_each_strided<3>(
      dst.shape, {dst.strides, a.strides, b.strides}, {dst.offset, a.offset, b.offset},
      [=](const std::array<std::int64_t, 3>& o) { d[o[0]] = ap[o[1]] * bp[o[2]]; },
      /*parallel=*/false, 0);
}

// dst = the sum over the trailing axes of a * b: the backend's one-pass multiply-sum (wide
// accumulators, split over the threads by its own rule, like sum_typed).
template <class T>
void multiply_sum_typed(const KernelView& a, const KernelView& b, const KernelView& dst) {
  cpu_strided::multiply_sum(reinterpret_cast<const T*>(a.buffer->host_data()),
                            reinterpret_cast<const T*>(b.buffer->host_data()),
                            reinterpret_cast<T*>(dst.buffer->host_data()),
                            {a.shape, dst.shape.size(), a.strides, b.strides, dst.strides, a.offset,
                             b.offset, dst.offset});
}

template <class T>
void accumulate_typed(const KernelView& src, const KernelView& dst) {
  T* d = reinterpret_cast<T*>(dst.buffer->host_data());
  const T* s = reinterpret_cast<const T*>(src.buffer->host_data());
  for_each_strided<2>(
      dst.shape, {dst.strides, src.strides}, {dst.offset, src.offset},
      [=](const std::array<std::int64_t, 2>& o) { d[o[0]] += s[o[1]]; }, /*parallel=*/false, 0);
}

[[noreturn]] void bad_matrix(const char* which) {
  throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "einsum",
              std::string("internal: GEMM operand ") + which + " is not a BLAS matrix");
}

template <class T>
void gemm_typed(const GemmProblem& p) {
  if (p.m == 0 || p.n == 0 || p.batch == 0) return;
  const BlasMatrix am = blas_matrix(p.m, p.k, p.a_stride_m, p.a_stride_k);
  const BlasMatrix bm = blas_matrix(p.k, p.n, p.b_stride_k, p.b_stride_n);
  const BlasMatrix cm = blas_matrix(p.m, p.n, p.c_stride_m, p.c_stride_n);
  if (!cm.ok) bad_matrix("C");
  if (p.k > 0 && !am.ok) bad_matrix("A");
  if (p.k > 0 && !bm.ok) bad_matrix("B");
  T* c = reinterpret_cast<T*>(p.c->host_data()) + p.c_offset;
  const T* a = reinterpret_cast<const T*>(p.a->host_data()) + p.a_offset;
  const T* b = reinterpret_cast<const T*>(p.b->host_data()) + p.b_offset;
  // One strided-batch BLAS call per chunk of the batch (many small matrices pay one call).
  auto run = [&](std::int64_t begin, std::int64_t end) {
    const T* ai = a + begin * p.a_stride_batch;
    const T* bi = b + begin * p.b_stride_batch;
    T* ci = c + begin * p.c_stride_batch;
    if (!cm.transposed)
      cpu_blas::gemm_batch<T>(am.transposed, bm.transposed, p.m, p.n, p.k, ai, am.ld,
                              p.a_stride_batch, bi, bm.ld, p.b_stride_batch, ci, cm.ld,
                              p.c_stride_batch, end - begin);
    else  // C^T = op(B)^T op(A)^T, with C^T column-major
      cpu_blas::gemm_batch<T>(!bm.transposed, !am.transposed, p.n, p.m, p.k, bi, bm.ld,
                              p.b_stride_batch, ai, am.ld, p.a_stride_batch, ci, cm.ld,
                              p.c_stride_batch, end - begin);
  };
  const double work =
      static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k);
  const int threads = cpu_parallel::host_kernel_threads();
  if (threads < 2 || work > kSmallGemmWork ||
      work * static_cast<double>(p.batch) < kParallelBatchWork) {
    run(0, p.batch);
    return;
  }
  // Batch entries write disjoint parts of C (distinct batch offsets), so the split is safe.
  cpu_parallel::parallel_chunks(p.batch, threads, run);
}

// The shape every src -> dst kernel shares: both on the host, one counted launch, then
// `typed(tag, src_slab, dst_slab)` for dst's dtype, slab by slab.
template <class Typed>
void run_src_to_dst(const KernelView& src, const KernelView& dst, Typed typed) {
  require_host(src);
  require_host(dst);
  count_cpu_kernel_launch();
  visit_dtype(dst.dtype, [&](auto t) {
    cpu_slabs::run_in_slabs<2>(
        {&dst, &src}, [&](const std::array<const KernelView*, 2>& v) { typed(t, *v[1], *v[0]); });
  });
}

class CpuContractionKernels final : public ContractionKernels {
 public:
  void copy(const KernelView& src, const KernelView& dst) override {
    if (is_empty(dst)) return;
    run_src_to_dst(src, dst, [](auto t, const KernelView& s, const KernelView& d) {
      copy_typed<decltype(t)>(s, d);
    });
  }
  void sum_trailing(const KernelView& src, const KernelView& dst, int reduced_rank) override {
    if (is_empty(dst)) return;
    if (is_empty(src)) return fill_zero(dst);  // an empty sum is zero
    if (src.shape.size() != dst.shape.size() + static_cast<std::size_t>(reduced_rank))
      throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "einsum",
                  "internal: sum_trailing ranks do not add up");
    // The reduction engine splits its own work over the threads (slabs of dst would cut its
    // contiguous kept axis into rows too short for the row pass).
    require_host(src);
    require_host(dst);
    count_cpu_kernel_launch();
    visit_dtype(dst.dtype, [&](auto t) { sum_typed<decltype(t)>(src, dst); });
  }
  void multiply(const KernelView& a, const KernelView& b, const KernelView& dst) override {
    if (is_empty(dst)) return;
    require_host(a);
    require_host(b);
    require_host(dst);
    count_cpu_kernel_launch();
    visit_dtype(dst.dtype, [&](auto t) {
      cpu_slabs::run_in_slabs<3>({&dst, &a, &b}, [](const std::array<const KernelView*, 3>& v) {
        multiply_typed<decltype(t)>(*v[1], *v[2], *v[0]);
      });
    });
  }
  bool has_multiply_sum() const override { return true; }
  void multiply_sum(const KernelView& a, const KernelView& b, const KernelView& dst,
                    int reduced_rank) override {
    if (is_empty(dst)) return;
    if (a.shape != b.shape ||
        a.shape.size() != dst.shape.size() + static_cast<std::size_t>(reduced_rank))
      throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "einsum",
                  "internal: multiply_sum shapes do not add up");
    require_host(a);
    require_host(b);
    require_host(dst);
    count_cpu_kernel_launch();
    visit_dtype(dst.dtype, [&](auto t) { multiply_sum_typed<decltype(t)>(a, b, dst); });
  }
  void gemm(const GemmProblem& problem) override {
    if (problem.m == 0 || problem.n == 0 || problem.batch == 0) return;
    if (problem.k == 0) {
      KernelView c{problem.c,
                   problem.dtype,
                   {problem.m, problem.n, problem.batch},
                   {problem.c_stride_m, problem.c_stride_n, problem.c_stride_batch},
                   problem.c_offset};
      fill_zero(c);
      return;
    }
    visit_dtype(problem.dtype, [&](auto t) { gemm_typed<decltype(t)>(problem); });
  }
  void accumulate(const KernelView& src, const KernelView& dst) override {
    if (is_empty(dst)) return;
    run_src_to_dst(src, dst, [](auto t, const KernelView& s, const KernelView& d) {
      accumulate_typed<decltype(t)>(s, d);
    });
  }
  int slice_threads() override { return cpu_parallel::host_kernel_threads(); }
  void run_parts(int parts, const std::function<void(int)>& body) override {
    // Inside a part, tenferro's own kernels run on the part's thread (a split started from
    // inside a split stays on its thread) and OpenBLAS is held to one thread.
    const cpu_parallel::SingleThreadedBlas single_threaded_blas;
    cpu_parallel::parallel_chunks(parts, parts, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t part = begin; part < end; ++part) body(static_cast<int>(part));
    });
  }
  void fill_zero(const KernelView& dst) override {
    if (is_empty(dst)) return;
    require_host(dst);
    count_cpu_kernel_launch();
    visit_dtype(dst.dtype, [&](auto t) { fill_zero_typed<decltype(t)>(dst); });
  }
};

}  // namespace

ContractionKernels& cpu_contraction_kernels() {
  static CpuContractionKernels kernels;
  return kernels;
}

}  // namespace tenferro::einsum_internal
