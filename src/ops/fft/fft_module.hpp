// The FFT family's module factory: the runtime's target picks the provider. CPU -> the FFTW
// module (when built with FFTW); every other case is a typed Unsupported error thrown before
// anything executes.
#pragma once

#include "tenferro/config.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::fft_internal {

inline constexpr std::string_view kFftwModuleId = "tenferro.fft.fftw";

ModulePtr fft_module_for_target(const EagerExtensionTarget& target);

#if TENFERRO_HAS_FFTW
// The FFTW executor module registered for one CPU engine (src/ops/fft/fftw/).
ModulePtr make_fftw_module(const EngineId& engine);
#endif

}  // namespace tenferro::fft_internal
