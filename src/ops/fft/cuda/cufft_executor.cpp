// The CUDA executor of the FFT family over cuFFT. Every transform runs as a short sequence
// of passes over compact device buffers: the input is staged (zero-padding, truncation and
// real -> complex promotion happen in that copy) into a layout whose transformed axes are the
// fastest, each pass transforms up to three axes with one batched cuFFT plan (cached in the
// runtime's cache store under its exact shape), and buffers are permuted between passes only
// when the next axes are not already the fastest. NumPy's irfftn is followed exactly: an
// inverse c2c over the leading axes, then a 1-D c2r over the last one. Scaling is one cuBLAS
// scal over the output. Nothing touches the host.
#include <cublas_v2.h>
#include <cufft.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>

#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/strided_layout.hpp"
#include "ops/fft/cuda/fft_kernels.hpp"
#include "ops/fft/fft_op.hpp"
#include "ops/fft/registration.hpp"
#include "tenferro/fft.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::fft_internal {
namespace {

using cuda_detail::cuda_check;
using Axes = std::vector<std::int64_t>;

constexpr std::size_t kMaxPlanRank = 3;  // cuFFT plans transform at most three axes

// A cuFFT plan bound to the backend's stream. Destroyed only on eviction or with the runtime
// (whose cache store goes before its backend), after the stream's queued work is done.
struct CufftPlan {
  cufftHandle handle{};
  bool created = false;
  cudaStream_t stream = nullptr;
  int device = 0;
  std::size_t work_bytes = 0;
  CufftPlan() = default;
  CufftPlan(const CufftPlan&) = delete;
  CufftPlan& operator=(const CufftPlan&) = delete;
  ~CufftPlan() {
    if (!created) return;
    cudaSetDevice(device);
    cudaStreamSynchronize(stream);
    cufftDestroy(handle);
  }
};

// A compact device buffer whose memory order is `order` (natural axes, fastest first).
struct Work {
  EagerTensor buffer;
  Axes order;
  Shape extents;  // per natural axis
};

Strides natural_strides(const Work& w) {
  Strides s(w.extents.size());
  std::int64_t stride = 1;
  for (std::int64_t a : w.order) {
    s[static_cast<std::size_t>(a)] = stride;
    stride *= w.extents[static_cast<std::size_t>(a)];
  }
  return s;
}

Work make_work(const ExecutionContext& ctx, DType dtype, const Shape& extents, Axes order) {
  Shape memory;
  for (std::int64_t a : order) memory.push_back(extents[static_cast<std::size_t>(a)]);
  return Work{ctx.allocate(dtype, memory), std::move(order), extents};
}

// `group`'s axes fastest (its last axis first: cuFFT's n[] is row-major), then the others in
// their current order.
Axes order_for(const Axes& group, const Axes& current) {
  Axes order(group.rbegin(), group.rend());
  for (std::int64_t a : current)
    if (std::find(group.begin(), group.end(), a) == group.end()) order.push_back(a);
  return order;
}

bool leads_with(const Work& w, const Axes& group) {
  return std::equal(group.rbegin(), group.rend(), w.order.begin());
}

std::byte* device_bytes(CudaBackend& backend, const EagerTensor& t) {
  return static_cast<std::byte*>(backend.device_pointer(*t.buffer(), "fft")) +
         t.layout().offset * static_cast<std::int64_t>(dtype_size(t.dtype()));
}

// Copies `w` into a new buffer with memory order `order`.
Work permuted(const ExecutionContext& ctx, CudaBackend& backend, const Work& w, Axes order) {
  Work out = make_work(ctx, w.buffer.dtype(), w.extents, std::move(order));
  const Strides dst = natural_strides(out), src = natural_strides(w);
  const auto ix = cuda_layout::coalesce<2>(w.extents, {dst, src});
  cuda_check(cuda_kernels::launch_copy(
                 static_cast<int>(dtype_size(w.buffer.dtype())), device_bytes(backend, out.buffer),
                 device_bytes(backend, w.buffer), ix.index, ix.count, backend.stream()),
             "fft.permute");
  return out;
}

// The staged input: dtype/shape the first transform reads, zero-padded or truncated, real
// promoted to complex, in memory order `order`.
Work stage(const ExecutionContext& ctx, CudaBackend& backend, const EagerTensor& input,
           const FftSpec& spec, Axes order) {
  Work w = make_work(ctx, spec.staged_dtype, spec.staged_shape, std::move(order));
  Shape overlap(spec.staged_shape.size());
  bool padded = false;
  for (std::size_t a = 0; a < overlap.size(); ++a) {
    overlap[a] = std::min(input.shape()[a], spec.staged_shape[a]);
    padded = padded || overlap[a] < spec.staged_shape[a];
  }
  std::byte* dst = device_bytes(backend, w.buffer);
  if (padded) {
    cuda_check(
        cudaMemsetAsync(dst, 0, w.buffer.numel() * dtype_size(w.buffer.dtype()), backend.stream()),
        "fft.stage");
  }
  const Strides dst_strides = natural_strides(w);
  const auto ix = cuda_layout::coalesce<2>(overlap, {dst_strides, input.strides()});
  if (ix.count == 0) return w;
  const std::byte* src = device_bytes(backend, input);
  if (input.dtype() == spec.staged_dtype) {
    cuda_check(cuda_kernels::launch_copy(static_cast<int>(dtype_size(input.dtype())), dst, src,
                                         ix.index, ix.count, backend.stream()),
               "fft.stage");
  } else {  // real input of a complex transform
    cuda_check(cuda_kernels::launch_real_to_complex(is_double(input.dtype()), dst, src, ix.index,
                                                    ix.count, backend.stream()),
               "fft.stage");
  }
  return w;
}

enum class PassKind { C2C, R2C, C2R };

std::shared_ptr<CufftPlan> plan_for(const ExecutionContext& ctx, CudaBackend& backend,
                                    cufftType type, const std::vector<long long>& n,
                                    long long batch) {
  std::string key = std::to_string(static_cast<int>(type)) + "|";
  for (long long e : n) key += std::to_string(e) + ",";
  key += "|" + std::to_string(batch);
  auto plan = ctx.caches().find<CufftPlan>(
      CacheKey::of(std::string(fft_family::kFamily), "cufft_plan", key));
  if (plan) return plan;
  plan = std::make_shared<CufftPlan>();
  plan->stream = backend.stream();
  plan->device = backend.device();
  cuda_check(cufftCreate(&plan->handle), "fft.plan");
  plan->created = true;
  std::vector<long long> dims = n;
  std::size_t work = 0;
  cuda_check(cufftMakePlanMany64(plan->handle, static_cast<int>(dims.size()), dims.data(), nullptr,
                                 1, 0, nullptr, 1, 0, type, batch, &work),
             "fft.plan");
  cuda_check(cufftSetStream(plan->handle, backend.stream()), "fft.plan");
  plan->work_bytes = work;
  ctx.caches().insert<CufftPlan>(CacheKey::of(std::string(fft_family::kFamily), "cufft_plan", key),
                                 plan, sizeof(CufftPlan) + work);
  return plan;
}

// One batched transform over `group` (in.order leads with it). C2C works in place on `in`;
// R2C/C2R write `out` (same order, the halved axis at its complex or real extent).
void run_pass(const ExecutionContext& ctx, CudaBackend& backend, PassKind kind, bool forward,
              const Axes& group, const Work& in, const Work* out) {
  const Shape& real_extents = kind == PassKind::C2R ? out->extents : in.extents;
  std::vector<long long> n;
  long long per = 1;
  for (std::int64_t a : group) {
    n.push_back(real_extents[static_cast<std::size_t>(a)]);
    per *= n.back();
  }
  const long long total =
      std::accumulate(real_extents.begin(), real_extents.end(), 1LL, std::multiplies<>());
  const long long batch = total / per;
  const bool dbl = is_double(in.buffer.dtype());
  cufftType type;
  switch (kind) {
    case PassKind::C2C:
      type = dbl ? CUFFT_Z2Z : CUFFT_C2C;
      break;
    case PassKind::R2C:
      type = dbl ? CUFFT_D2Z : CUFFT_R2C;
      break;
    default:
      type = dbl ? CUFFT_Z2D : CUFFT_C2R;
      break;
  }
  const auto plan = plan_for(ctx, backend, type, n, batch);
  void* src = device_bytes(backend, in.buffer);
  void* dst = out ? device_bytes(backend, out->buffer) : src;
  const int direction = forward ? CUFFT_FORWARD : CUFFT_INVERSE;
  cufftResult r = CUFFT_SUCCESS;
  switch (type) {
    case CUFFT_C2C:
      r = cufftExecC2C(plan->handle, static_cast<cufftComplex*>(src),
                       static_cast<cufftComplex*>(dst), direction);
      break;
    case CUFFT_Z2Z:
      r = cufftExecZ2Z(plan->handle, static_cast<cufftDoubleComplex*>(src),
                       static_cast<cufftDoubleComplex*>(dst), direction);
      break;
    case CUFFT_R2C:
      r = cufftExecR2C(plan->handle, static_cast<cufftReal*>(src), static_cast<cufftComplex*>(dst));
      break;
    case CUFFT_D2Z:
      r = cufftExecD2Z(plan->handle, static_cast<cufftDoubleReal*>(src),
                       static_cast<cufftDoubleComplex*>(dst));
      break;
    case CUFFT_C2R:
      r = cufftExecC2R(plan->handle, static_cast<cufftComplex*>(src), static_cast<cufftReal*>(dst));
      break;
    case CUFFT_Z2D:
      r = cufftExecZ2D(plan->handle, static_cast<cufftDoubleComplex*>(src),
                       static_cast<cufftDoubleReal*>(dst));
      break;
    default:
      break;
  }
  cuda_check(r, "fft.execute");
}

// Consecutive groups of at most three axes; the last group holds the last axes.
std::vector<Axes> chunks(const Axes& axes) {
  std::vector<Axes> out;
  std::size_t end = axes.size();
  while (end > 0) {
    const std::size_t begin = end > kMaxPlanRank ? end - kMaxPlanRank : 0;
    out.insert(out.begin(), Axes(axes.begin() + static_cast<long>(begin),
                                 axes.begin() + static_cast<long>(end)));
    end = begin;
  }
  return out;
}

void c2c_passes(const ExecutionContext& ctx, CudaBackend& backend, Work& cur,
                const std::vector<Axes>& groups, bool forward) {
  for (const Axes& g : groups) {
    if (!leads_with(cur, g)) cur = permuted(ctx, backend, cur, order_for(g, cur.order));
    run_pass(ctx, backend, PassKind::C2C, forward, g, cur, nullptr);
  }
}

// A c2r transform reads its input as a Hermitian half-spectrum, whose DC and (even length)
// Nyquist entries are real; NumPy discards any imaginary part there (and the CPU path agrees).
// Zeroing it before cuFFT's c2r makes the result independent of how cuFFT treats it.
void drop_self_conjugate_imaginary_parts(CudaBackend& backend, const Work& w, std::int64_t axis,
                                         std::int64_t real_length) {
  const bool dbl = is_double(w.buffer.dtype());
  const std::int64_t real_bytes = dbl ? 8 : 4;
  Shape shape = w.extents;
  shape[static_cast<std::size_t>(axis)] = 1;
  Strides strides = natural_strides(w);
  const std::int64_t axis_stride = strides[static_cast<std::size_t>(axis)];
  for (auto& s : strides) s *= 2;  // in reals: a complex element is two
  const auto ix = cuda_layout::coalesce<1>(shape, {strides});
  std::byte* base = device_bytes(backend, w.buffer) + real_bytes;  // imaginary part of element 0
  std::vector<std::int64_t> indices{0};
  if (real_length % 2 == 0) indices.push_back(real_length / 2);
  for (std::int64_t index : indices) {
    cuda_check(cuda_kernels::launch_fill_zero(static_cast<int>(real_bytes),
                                              base + 2 * index * axis_stride * real_bytes, ix.index,
                                              ix.count, backend.stream()),
               "fft.stage");
  }
}

void scale(CudaBackend& backend, const EagerTensor& t, double factor) {
  if (factor == 1.0 || t.numel() == 0) return;
  cublasHandle_t h = backend.cublas();
  void* p = device_bytes(backend, t);
  const std::int64_t n = t.numel();
  cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
  switch (t.dtype()) {
    case DType::F32: {
      const auto f = static_cast<float>(factor);
      s = cublasSscal_64(h, n, &f, static_cast<float*>(p), 1);
      break;
    }
    case DType::F64:
      s = cublasDscal_64(h, n, &factor, static_cast<double*>(p), 1);
      break;
    case DType::C32: {
      const auto f = static_cast<float>(factor);
      s = cublasCsscal_64(h, n, &f, static_cast<cuComplex*>(p), 1);
      break;
    }
    case DType::C64:
      s = cublasZdscal_64(h, n, &factor, static_cast<cuDoubleComplex*>(p), 1);
      break;
  }
  cuda_check(s, "fft.scale");
}

// The kernel of every cuFFT row (the table's key function has checked the op's family).
std::vector<EagerTensor> cufft_execute(const ExecutionContext& ctx, const ExtensionOp& op,
                                       std::span<const EagerTensor> inputs) {
  const auto& fft_op = static_cast<const FftOp&>(op);
  const EagerTensor& input = inputs[0];
  const FftSpec spec = resolve(fft_op.request(), input.dtype(), input.shape());
  auto& backend = ctx.backend_as<CudaBackend>();
  backend.make_current();
  ctx.record_kernel_launch();

  const std::size_t rank = spec.out_shape.size();
  const std::int64_t out_numel = std::accumulate(spec.out_shape.begin(), spec.out_shape.end(),
                                                 std::int64_t{1}, std::multiplies<>());
  if (out_numel == 0) return {ctx.allocate(spec.out_dtype, spec.out_shape)};
  Axes natural(rank);
  std::iota(natural.begin(), natural.end(), 0);
  const Axes& axes = spec.axes;
  const Axes last{axes.back()};
  Work cur;
  switch (spec.transform) {
    case Transform::C2C: {
      const std::vector<Axes> groups = chunks(axes);
      cur = stage(ctx, backend, input, spec, order_for(groups.front(), natural));
      c2c_passes(ctx, backend, cur, groups, spec.forward);
      break;
    }
    case Transform::R2C: {
      // The halved (last) axis goes first, in the first plan, real -> complex.
      const Axes first(axes.end() - static_cast<long>(std::min(axes.size(), kMaxPlanRank)),
                       axes.end());
      const Axes rest(axes.begin(), axes.end() - static_cast<long>(first.size()));
      Work staged = stage(ctx, backend, input, spec, order_for(first, natural));
      cur = make_work(ctx, spec.out_dtype, spec.out_shape, staged.order);
      run_pass(ctx, backend, PassKind::R2C, true, first, staged, &cur);
      c2c_passes(ctx, backend, cur, chunks(rest), true);
      break;
    }
    case Transform::C2R: {
      const Axes leading(axes.begin(), axes.end() - 1);
      const std::vector<Axes> groups = chunks(leading);
      cur = stage(ctx, backend, input, spec,
                  order_for(groups.empty() ? last : groups.front(), natural));
      c2c_passes(ctx, backend, cur, groups, false);
      if (!leads_with(cur, last)) cur = permuted(ctx, backend, cur, order_for(last, cur.order));
      drop_self_conjugate_imaginary_parts(backend, cur, axes.back(), spec.lengths.back());
      Work out = make_work(ctx, spec.out_dtype, spec.out_shape, cur.order);
      run_pass(ctx, backend, PassKind::C2R, false, last, cur, &out);
      cur = std::move(out);
      break;
    }
  }
  EagerTensor result =
      cur.order == natural ? cur.buffer : permuted(ctx, backend, cur, natural).buffer;
  scale(backend, result, spec.scale);
  return {result};
}

}  // namespace

std::vector<runtime_internal::Registration> cufft_rows() {
  return provider_rows(BackendKind::Cuda, &cufft_execute);
}

}  // namespace tenferro::fft_internal
