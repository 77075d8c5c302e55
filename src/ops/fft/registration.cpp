// The FFT registration table: the rows every compiled provider registers, and how a call's key
// (op, input dtype) is read.
#include "ops/fft/registration.hpp"

#include <iterator>

#include "ops/fft/fft_op.hpp"
#include "runtime/op_cast.hpp"
#include "tenferro/fft.hpp"

namespace tenferro::fft_internal {
namespace {

// Every op of the list (fft_spec.hpp), in its order.
constexpr FftOpKind kOps[] = {
#define TENFERRO_FFT_KIND(Kind, name) FftOpKind::Kind,
    TENFERRO_FFT_OPS(TENFERRO_FFT_KIND)
#undef TENFERRO_FFT_KIND
};
static_assert(std::size(kOps) == kFftOpKindCount);

runtime_internal::OpKey key_of(const ExtensionOp& op, std::span<const EagerTensor> inputs) {
  const auto* fft_op = runtime_internal::op_as<FftOp>(op);
  if (fft_op == nullptr || inputs.empty()) {
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(op.name()),
                "the FFT executor was handed an op of another family");
  }
  return {static_cast<std::uint32_t>(fft_op->request().kind), inputs[0].dtype()};
}

runtime_internal::FamilyInfo family_info() {
  runtime_internal::FamilyInfo info;
  info.family = std::string(fft_family::kFamily);
  for (FftOpKind k : kOps) info.ops.emplace_back(op_kind_name(k));
  info.key_of = &key_of;
  constexpr auto kCpu = static_cast<std::size_t>(BackendKind::Cpu);
  constexpr auto kWebGpu = static_cast<std::size_t>(BackendKind::WebGpu);
#if !TENFERRO_HAS_FFTW
  info.notes[kCpu] = "built without FFTW (TENFERRO_WITH_FFTW=OFF)";
  info.missing[kCpu] =
      "this tenferro was built without FFTW (TENFERRO_WITH_FFTW=OFF), so it has no CPU FFT "
      "provider; rebuild with TENFERRO_WITH_FFTW=ON";
#else
  (void)kCpu;
#endif
  info.notes[kWebGpu] = "no WebGPU FFT";
  info.missing[kWebGpu] = "there is no WebGPU FFT implementation";
  runtime_internal::note_backends_not_compiled_in(info);
  return info;
}

std::vector<runtime_internal::Registration> all_rows() {
  std::vector<runtime_internal::Registration> rows;
#if TENFERRO_HAS_FFTW
  for (const auto& r : fftw_rows()) rows.push_back(r);
#endif
#if TENFERRO_HAS_CUDA
  for (const auto& r : cufft_rows()) rows.push_back(r);
#endif
  return rows;
}

}  // namespace

std::vector<runtime_internal::Registration> provider_rows(BackendKind backend,
                                                          runtime_internal::Kernel kernel) {
  using runtime_internal::dtypes;
  std::vector<runtime_internal::Registration> rows;
  for (FftOpKind k : kOps) {
    const bool real_input_only = k == FftOpKind::Rfft || k == FftOpKind::Rfftn;
    rows.push_back(
        {static_cast<std::uint32_t>(k), backend,
         real_input_only ? dtypes({DType::F32, DType::F64}) : runtime_internal::kAllFloatDTypes,
         kernel});
  }
  return rows;
}

const runtime_internal::RegistrationTable& registration_table() {
  static const runtime_internal::RegistrationTable table(family_info(), all_rows());
  return table;
}

ModulePtr fft_module_for(const EagerExtensionTarget& target) {
  return registration_table().module_for(target);
}

}  // namespace tenferro::fft_internal

namespace tenferro::fft_family {

const AdmissionTable& admission_table() {
  return fft_internal::registration_table().admission();
}

}  // namespace tenferro::fft_family
