#include "ops/fft/fft_module.hpp"

#include "tenferro/config.hpp"
#include "tenferro/fft.hpp"

namespace tenferro::fft_internal {

ModulePtr fft_module_for_target(const EagerExtensionTarget& target) {
  switch (target.backend_kind) {
    case BackendKind::Cpu: {
#if TENFERRO_HAS_FFTW
      // Modules are immutable metadata; keyed by (kind, engine) so engines never share one.
      static ModuleCache cache;
      return cache.get_or_build(target, [&] { return make_fftw_module(target.engine_id); });
#else
      throw_unsupported_target(fft_family::kFamily, target,
                               "this tenferro was built without FFTW (TENFERRO_WITH_FFTW=OFF), "
                               "so it has no CPU FFT provider; rebuild with TENFERRO_WITH_FFTW=ON");
#endif
    }
    case BackendKind::Cuda:
#if TENFERRO_HAS_CUDA
      throw_unsupported_target(fft_family::kFamily, target,
                               "the CUDA FFT executor (cuFFT) is not implemented yet");
#else
      throw_unsupported_target(fft_family::kFamily, target, "this tenferro was built without CUDA");
#endif
    case BackendKind::WebGpu:
      break;
  }
  throw_unsupported_target(fft_family::kFamily, target, "there is no WebGPU FFT implementation");
}

}  // namespace tenferro::fft_internal

namespace tenferro::fft_family {

const AdmissionTable& admission_table() {
  static const AdmissionTable table = [] {
    AdmissionTable t(std::string(kFamily),
                     {"fft", "ifft", "rfft", "irfft", "fftn", "ifftn", "rfftn", "irfftn"});
#if TENFERRO_HAS_FFTW
    // Keyed by the input dtype; rfft/rfftn refuse complex input with a Validation error.
    for (const char* op : {"fft", "ifft", "irfft", "fftn", "ifftn", "irfftn"}) {
      t.admit(op, BackendKind::Cpu, {DType::F32, DType::F64, DType::C32, DType::C64});
    }
    for (const char* op : {"rfft", "rfftn"}) {
      t.admit(op, BackendKind::Cpu, {DType::F32, DType::F64});
    }
#else
    t.note(BackendKind::Cpu, "built without FFTW (TENFERRO_WITH_FFTW=OFF)");
#endif
    t.note(BackendKind::Cuda, "cuFFT executor not implemented yet");
    t.note(BackendKind::WebGpu, "no WebGPU FFT");
    return t;
  }();
  return table;
}

}  // namespace tenferro::fft_family
