// The FFT family's module factory: the runtime's target picks the provider. CPU -> the FFTW
// module (when built with FFTW), CUDA -> the cuFFT module (when built with CUDA); every other
// case is a typed Unsupported error thrown before anything executes.
#pragma once

#include "tenferro/config.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::fft_internal {

// The module of the target's engine (runtime_internal::FamilyModules: id "<family>/<engine>").
ModulePtr fft_module_for(const EagerExtensionTarget& target);

#if TENFERRO_HAS_CUDA
// The cuFFT executor (src/ops/fft/cuda/).
std::vector<EagerTensor> cufft_execute(const ExecutionContext& ctx, const ExtensionOp& op,
                                       std::span<const EagerTensor> inputs);
#endif

#if TENFERRO_HAS_FFTW
// The FFTW executor (src/ops/fft/fftw/).
std::vector<EagerTensor> fftw_execute(const ExecutionContext& ctx, const ExtensionOp& op,
                                      std::span<const EagerTensor> inputs);
#endif

}  // namespace tenferro::fft_internal
