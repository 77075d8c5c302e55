// Shared by the prims device tests (prims_cuda_*_test.cpp): a CUDA runtime plus a CPU runtime,
// running an op on both with the same host data and checking that the CUDA one stays on the
// device (no transfer, no CPU kernel, the CUDA prims kernels counted), and comparisons that
// accept NaN for NaN and the same infinity.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "cuda_fixture.hpp"
#include "support/device_result_checks.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/stats.hpp"

namespace tenferro::cuda_test {

using C = std::complex<double>;

inline constexpr const char* kPrimsOnCuda = "tenferro.prims.v1@cuda";

// The values of a host tensor as complex<double>, column-major.
inline std::vector<C> values_of(const Tensor& t) {
  return visit_dtype(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    std::vector<C> out;
    for (const T& v : t.contiguous().to_vector<T>()) out.emplace_back(C(v));
    return out;
  });
}

// Relative tolerance of the dtype's precision for results of a few rounded operations.
inline double tolerance_of(DType d) {
  return is_double(d) ? 1e-12 : 2e-5;
}

inline bool same_special(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return false;
}

// got == want element-wise within `tol` relative to max(1, |want|); NaN matches NaN and an
// infinity the same infinity, part by part.
inline ::testing::AssertionResult agree(const Tensor& got, const Tensor& want, double tol) {
  if (got.dtype() != want.dtype())
    return ::testing::AssertionFailure()
           << "dtype " << dtype_name(got.dtype()) << " vs " << dtype_name(want.dtype());
  if (got.shape() != want.shape())
    return ::testing::AssertionFailure()
           << "shape " << shape_to_string(got.shape()) << " vs " << shape_to_string(want.shape());
  const std::vector<C> g = values_of(got), w = values_of(want);
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double scale = std::max(1.0, std::abs(w[i]));
    for (int part = 0; part < 2; ++part) {
      const double a = part == 0 ? g[i].real() : g[i].imag();
      const double b = part == 0 ? w[i].real() : w[i].imag();
      if (same_special(a, b)) continue;
      if (!std::isfinite(a) || !std::isfinite(b) || std::abs(a - b) > tol * scale) {
        return ::testing::AssertionFailure()
               << "element " << i << (part ? " (imag)" : " (real)") << ": got " << a << ", want "
               << b << " (tolerance " << tol * scale << ")";
      }
    }
  }
  return ::testing::AssertionSuccess();
}

// Bit-for-bit equality of two host tensors (same dtype and shape).
inline bool bit_identical(const Tensor& a, const Tensor& b) {
  const Tensor ca = a.contiguous(), cb = b.contiguous();
  return a.dtype() == b.dtype() && a.shape() == b.shape() &&
         std::memcmp(ca.raw_data(), cb.raw_data(), ca.nbytes()) == 0;
}

using Op = std::function<EagerTensor(const std::vector<EagerTensor>&)>;

class PrimsCudaTest : public CudaTest {
 protected:
  void SetUp() override {
    CudaTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    cpu_ = EagerRuntime::cpu();
  }

  // Runs `op` on the CUDA runtime (inputs uploaded as strided views when `strided`) and on the
  // CPU runtime with the same host data. Checks that the CUDA result stays on the device and
  // that the op made no transfer and ran no CPU kernel; returns both results downloaded.
  std::pair<Tensor, Tensor> run_both(const std::vector<Tensor>& hosts, const Op& op,
                                     bool strided = true) {
    std::vector<EagerTensor> on_gpu, on_cpu;
    for (const Tensor& h : hosts) {
      on_cpu.push_back(cpu_->upload(h));
      on_gpu.push_back(strided ? testing::upload_strided_view(runtime_, h) : runtime_->upload(h));
    }
    const RuntimeStats before = runtime_->stats();
    const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
    const EagerTensor result = op(on_gpu);
    const RuntimeStats after = runtime_->stats();
    EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels) << "a CPU kernel ran for a CUDA op";
    EXPECT_EQ(after.uploads, before.uploads) << "no transfer inside an op";
    EXPECT_EQ(after.downloads, before.downloads);
    if (result.numel() > 0) {
      EXPECT_GT(after.kernel_launches_for(kPrimsOnCuda), before.kernel_launches_for(kPrimsOnCuda))
          << "the CUDA prims kernels ran";
    }
    EXPECT_EQ(result.runtime(), runtime_);
    EXPECT_EQ(result.placement(), runtime_->backend().placement());
    return {result.download(), op(on_cpu).download()};
  }

  void expect_matches_cpu(const std::string& what, const std::vector<Tensor>& hosts, const Op& op,
                          double tol, bool strided = true) {
    SCOPED_TRACE(what);
    const auto [got, want] = run_both(hosts, op, strided);
    EXPECT_TRUE(agree(got, want, tol));
  }

  std::shared_ptr<EagerRuntime> cpu_;
};

inline std::string label(const std::string& op, DType d) {
  return op + " " + std::string(dtype_name(d));
}
}  // namespace tenferro::cuda_test
