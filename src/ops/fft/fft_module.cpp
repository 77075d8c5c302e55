#include "ops/fft/fft_module.hpp"

#include "runtime/family_modules.hpp"

#include "tenferro/config.hpp"
#include "tenferro/fft.hpp"

namespace tenferro::fft_internal {

ModulePtr fft_module_for(const EagerExtensionTarget& target) {
  static const runtime_internal::FamilyModules modules(
      std::string(fft_family::kFamily), {{
  // Cpu
#if TENFERRO_HAS_FFTW
                                            {&fftw_execute, ""},
#else
                                            {{},
                                             "this tenferro was built without FFTW "
                                             "(TENFERRO_WITH_FFTW=OFF), so it has no CPU FFT "
                                             "provider; rebuild with TENFERRO_WITH_FFTW=ON"},
#endif
  // Cuda
#if TENFERRO_HAS_CUDA
                                            {&cufft_execute, ""},
#else
                                            {{}, "this tenferro was built without CUDA"},
#endif
                                            // WebGpu
                                            {{}, "there is no WebGPU FFT implementation"},
                                        }});
  return modules.module_for(target);
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
#if TENFERRO_HAS_CUDA
    // cuFFT (ops/fft/cuda): the same ops and dtypes as the CPU.
    for (const char* op : {"fft", "ifft", "irfft", "fftn", "ifftn", "irfftn"}) {
      t.admit(op, BackendKind::Cuda, {DType::F32, DType::F64, DType::C32, DType::C64});
    }
    for (const char* op : {"rfft", "rfftn"}) {
      t.admit(op, BackendKind::Cuda, {DType::F32, DType::F64});
    }
#else
    t.note(BackendKind::Cuda, "not compiled in");
#endif
    t.note(BackendKind::WebGpu, "no WebGPU FFT");
    return t;
  }();
  return table;
}

}  // namespace tenferro::fft_family
