// A fixture that gives each test a fresh WebGPU runtime. When no adapter exists the test is
// skipped with the reason, unless TENFERRO_REQUIRE_WEBGPU=1 (CI sets it: there the set-up
// installs a CPU Vulkan driver, so a missing adapter is a failure, never a silent skip).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <random>
#include <string_view>

#include "support/random_tensor.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/core/tensor.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::webgpu_test {

inline bool webgpu_required() {
  const char* v = std::getenv("TENFERRO_REQUIRE_WEBGPU");
  return v != nullptr && std::string_view(v) == "1";
}

class WebGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      runtime_ = EagerRuntime::webgpu();
    } catch (const Error& e) {
      if (e.kind() == ErrorKind::Backend && !webgpu_required()) {
        GTEST_SKIP() << "no WebGPU adapter on this machine (" << e.what()
                     << "); set TENFERRO_REQUIRE_WEBGPU=1 to make this a failure";
      }
      FAIL() << "a WebGPU runtime was expected: " << e.what();
    }
  }
  std::shared_ptr<EagerRuntime> runtime_;
};

using ::tenferro::testing::random_tensor;

}  // namespace tenferro::webgpu_test
