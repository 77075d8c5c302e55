// The FFT family's registration table (runtime_internal::RegistrationTable). Each provider's
// rows live beside its executor (fftw/fftw_executor.cpp, cuda/cufft_executor.cpp); admission,
// the modules, the op names and `tenferro info` are derived from them. WebGPU has no rows.
#pragma once

#include <vector>

#include "ops/fft/fft_spec.hpp"
#include "runtime/registration_table.hpp"
#include "tenferro/config.hpp"

namespace tenferro::fft_internal {

const runtime_internal::RegistrationTable& registration_table();

// The module of the target's engine (id "<family>/<engine>"), or a typed Unsupported error
// before anything executes for a backend kind without FFT rows in this build.
ModulePtr fft_module_for(const EagerExtensionTarget& target);

// The rows of one provider whose kernel `kernel` runs every FFT op: complex and real input for
// the c2c and c2r ops, real input only for rfft/rfftn (complex input is a Validation error
// before dispatch).
std::vector<runtime_internal::Registration> provider_rows(BackendKind backend,
                                                          runtime_internal::Kernel kernel);

#if TENFERRO_HAS_FFTW
// FFTW (fftw/fftw_executor.cpp).
std::vector<runtime_internal::Registration> fftw_rows();
#endif
#if TENFERRO_HAS_CUDA
// cuFFT (cuda/cufft_executor.cpp).
std::vector<runtime_internal::Registration> cufft_rows();
#endif

}  // namespace tenferro::fft_internal
