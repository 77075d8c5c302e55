// Umbrella header: everything a user of tenferro needs.
#pragma once

#include "tenferro/config.hpp"
#include "tenferro/core/dtype.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/core/npy.hpp"
#include "tenferro/core/shape.hpp"
#include "tenferro/core/tensor.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/fft.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/admission.hpp"
#include "tenferro/runtime/eager_tensor.hpp"
#include "tenferro/runtime/errors.hpp"
#include "tenferro/runtime/extension.hpp"
#include "tenferro/runtime/runtime.hpp"
#include "tenferro/runtime/stats.hpp"
