// The CPU executor of the FFT family over FFTW3. Strided inputs are read in place through
// guru64 plans (any strides, any batch dims, no copy); a staging copy is made only when the
// transform cannot read the input directly: zero-padding/truncation, real->complex promotion,
// and every complex-to-real transform (FFTW's c2r overwrites its input).
#include <string>

#include "backends/cpu/cpu_backend.hpp"
#include "ops/fft/fft_op.hpp"
#include "ops/fft/fftw/fftw_plan.hpp"
#include "ops/fft/fftw/host_staging.hpp"
#include "ops/fft/registration.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::fft_internal {
namespace {

IoDim dim(std::int64_t n, std::int64_t is, std::int64_t os) {
  IoDim d;
  d.n = n;
  d.is = is;
  d.os = os;
  return d;
}

// Batch (howmany) dims: every axis not in `transformed` with an extent above 1.
std::vector<IoDim> batch_dims(const Shape& shape, const std::vector<bool>& transformed,
                              const Strides& in_strides, const Strides& out_strides) {
  std::vector<IoDim> batch;
  for (std::size_t a = 0; a < shape.size(); ++a) {
    if (!transformed[a] && shape[a] > 1)
      batch.push_back(dim(shape[a], in_strides[a], out_strides[a]));
  }
  return batch;
}

template <class R>
void run_plan(const ExecutionContext& ctx, PlanShape shape, void* in, void* out) {
  shape.in_place = in == out;
  shape.in_alignment = Fftw<R>::alignment_of(in);
  shape.out_alignment = Fftw<R>::alignment_of(out);
  shape.threads = planner_threads(shape);
  auto plan = find_or_make_plan<R>(ctx.caches(), shape, in, out);
  plan->execute(in, out);
  count_cpu_kernel_launch();
}

template <class R>
void execute_spec(const ExecutionContext& ctx, const FftSpec& spec, const Tensor& input,
                  Tensor& out) {
  const std::size_t rank = spec.out_shape.size();
  const std::size_t count = spec.axes.size();

  // The tensor the transform reads: the input itself when its dtype and shape already match.
  Tensor src = input;
  if (spec.transform == Transform::C2R || input.dtype() != spec.staged_dtype ||
      input.shape() != spec.staged_shape) {
    // Zeroed for the padding.
    src = host_zeros(ctx, spec.staged_dtype, spec.staged_shape);
    copy_overlap(input, src);
    count_cpu_kernel_launch();
  }
  void* src_data = src.raw_data();
  void* out_data = out.raw_data();

  std::vector<bool> transformed(rank, false);
  for (auto a : spec.axes) transformed[static_cast<std::size_t>(a)] = true;

  PlanShape shape;
  if (spec.transform != Transform::C2R) {
    shape.kind = spec.transform == Transform::C2C ? PlanKind::C2C : PlanKind::R2C;
    shape.sign = spec.forward ? FFTW_FORWARD : FFTW_BACKWARD;
    for (std::size_t i = 0; i < count; ++i) {
      const auto a = static_cast<std::size_t>(spec.axes[i]);
      shape.dims.push_back(dim(spec.lengths[i], src.strides()[a], out.strides()[a]));
    }
    shape.batch = batch_dims(spec.out_shape, transformed, src.strides(), out.strides());
    run_plan<R>(ctx, shape, src_data, out_data);
  } else {
    // NumPy's irfftn: inverse c2c over the leading axes, then irfft over the last one, so a
    // non-Hermitian input gives NumPy's answer (one multi-dim c2r would not promise that).
    const auto last = static_cast<std::size_t>(spec.axes.back());
    if (count > 1) {
      PlanShape c2c;
      c2c.kind = PlanKind::C2C;
      c2c.sign = FFTW_BACKWARD;
      std::vector<bool> leading(rank, false);
      for (std::size_t i = 0; i + 1 < count; ++i) {
        const auto a = static_cast<std::size_t>(spec.axes[i]);
        leading[a] = true;
        c2c.dims.push_back(dim(spec.lengths[i], src.strides()[a], src.strides()[a]));
      }
      c2c.batch = batch_dims(spec.staged_shape, leading, src.strides(), src.strides());
      run_plan<R>(ctx, c2c, src_data, src_data);
    }
    shape.kind = PlanKind::C2R;
    shape.dims.push_back(dim(spec.lengths.back(), src.strides()[last], out.strides()[last]));
    std::vector<bool> only_last(rank, false);
    only_last[last] = true;
    shape.batch = batch_dims(spec.out_shape, only_last, src.strides(), out.strides());
    run_plan<R>(ctx, shape, src_data, out_data);
  }
  scale_in_place(out, spec.scale);
}

// The kernel of every FFTW row (the table's key function has checked the op's family).
std::vector<EagerTensor> fftw_execute(const ExecutionContext& ctx, const ExtensionOp& op,
                                      std::span<const EagerTensor> inputs) {
  const auto& fft_op = static_cast<const FftOp&>(op);
  const Tensor input = host_tensor_of(inputs[0]);
  FftSpec scratch;
  const FftSpec& spec = fft_op.spec_for(input.dtype(), input.shape(), scratch);

  EagerTensor result = ctx.allocate(spec.out_dtype, spec.out_shape);
  ctx.record_kernel_launch();
  if (result.numel() == 0) return {result};  // empty batch: nothing to transform
  Tensor out = host_tensor_of(result);
  if (is_double(spec.out_dtype)) {
    execute_spec<double>(ctx, spec, input, out);
  } else {
    execute_spec<float>(ctx, spec, input, out);
  }
  return {result};
}

}  // namespace

std::vector<runtime_internal::Registration> fftw_rows() {
  return provider_rows(BackendKind::Cpu, &fftw_execute);
}

}  // namespace tenferro::fft_internal
