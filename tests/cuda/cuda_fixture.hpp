// A fixture that gives each test a fresh CUDA runtime (device 0). Without a driver or a
// device the test is skipped with the reason, unless TENFERRO_REQUIRE_CUDA=1 (set by
// scripts/gpu-check.sh on GPU machines), which turns the skip into a failure.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <random>
#include <string_view>
#include <type_traits>

#include "support/random_tensor.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/core/tensor.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::cuda_test {

inline bool cuda_required() {
  const char* v = std::getenv("TENFERRO_REQUIRE_CUDA");
  return v != nullptr && std::string_view(v) == "1";
}

// Skip text for machines without a usable device.
inline constexpr const char* kNoDevice =
    "no usable CUDA device on this machine; set TENFERRO_REQUIRE_CUDA=1 to make this a failure";

class CudaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      runtime_ = EagerRuntime::cuda(0);
    } catch (const Error& e) {
      if (e.kind() == ErrorKind::Backend && !cuda_required())
        GTEST_SKIP() << kNoDevice << " (" << e.what() << ")";
      FAIL() << "a CUDA runtime was expected: " << e.what();
    }
  }
  std::shared_ptr<EagerRuntime> runtime_;
};

using ::tenferro::testing::random_tensor;

}  // namespace tenferro::cuda_test
