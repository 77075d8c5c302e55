// One table, every runtime: a value-parameterized fixture that gives each prims test a fresh
// runtime of one kind (CPU always; WebGPU when an adapter exists; CUDA when a device exists) and
// the dtypes that runtime must run (WebGPU: F32/C32, as WGSL has no f64). A missing WebGPU
// adapter or CUDA device skips with the reason, unless TENFERRO_REQUIRE_WEBGPU=1 /
// TENFERRO_REQUIRE_CUDA=1 turns the skip into a failure (CI and the GPU machine set them).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "prims/prims_reference.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::prims_test {

enum class RuntimeKind { Cpu, WebGpu, Cuda };

inline std::string runtime_name(RuntimeKind k) {
  switch (k) {
    case RuntimeKind::Cpu:
      return "Cpu";
    case RuntimeKind::WebGpu:
      return "WebGpu";
    case RuntimeKind::Cuda:
      return "Cuda";
  }
  return "?";
}

inline bool env_is_one(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && std::string_view(v) == "1";
}

// The dtypes a runtime of this kind runs (and that the tables therefore check on it).
inline std::vector<DType> dtypes_on(RuntimeKind k) {
  if (k == RuntimeKind::WebGpu) return {DType::F32, DType::C32};
  return {DType::F32, DType::F64, DType::C32, DType::C64};
}
inline bool runs_on(RuntimeKind k, DType d) {
  return k != RuntimeKind::WebGpu || !is_double(d);
}

// Whether the family's registration table has a kernel set for `backend` at all (the element-
// wise add on F32 stands for it: every backend that has prims kernels runs that row).
inline bool family_has_kernels_on(BackendKind backend) {
  return prims_family::admission_table().admits("add", backend, DType::F32);
}

class PrimsRuntimeTest : public ::testing::TestWithParam<RuntimeKind> {
 protected:
  void SetUp() override {
    const RuntimeKind kind = GetParam();
    if (kind == RuntimeKind::Cpu) {
      rt_ = EagerRuntime::cpu();
      return;
    }
    const bool webgpu = kind == RuntimeKind::WebGpu;
    const char* require = webgpu ? "TENFERRO_REQUIRE_WEBGPU" : "TENFERRO_REQUIRE_CUDA";
    try {
      rt_ = webgpu ? EagerRuntime::webgpu() : EagerRuntime::cuda(0);
    } catch (const Error& e) {
      // Unsupported: not compiled into this build; Backend: compiled, but no adapter/device.
      const bool absent = e.kind() == ErrorKind::Unsupported || e.kind() == ErrorKind::Backend;
      if (absent && !env_is_one(require)) {
        GTEST_SKIP() << "no " << runtime_name(kind) << " runtime on this machine (" << e.what()
                     << "); set " << require << "=1 to make this a failure";
      }
      FAIL() << "a " << runtime_name(kind) << " runtime was expected: " << e.what();
    }
    // A device whose prims kernels have not landed would fail every row with the same
    // Unsupported error; PrimsBackendCoverage fails once for it instead, and these rows run as
    // soon as the family admits anything on the backend.
    if (!family_has_kernels_on(rt_->backend_kind())) {
      GTEST_SKIP() << "the prims family has no " << runtime_name(kind)
                   << " kernels in this build (see the failing PrimsBackendCoverage test)";
    }
  }

  RuntimeKind kind() const { return GetParam(); }
  std::vector<DType> dtypes() const { return dtypes_on(kind()); }
  bool runs(DType d) const { return runs_on(kind(), d); }

  EagerTensor up(const Ref& r) { return rt_->upload(to_tensor(r)); }
  static Ref down(const EagerTensor& t) { return from_tensor(t.download()); }

  std::shared_ptr<EagerRuntime> rt_;
};

inline std::string runtime_param_name(const ::testing::TestParamInfo<RuntimeKind>& info) {
  return runtime_name(info.param);
}

// Runs `call`, expects a tenferro::Error of `kind` (found through nested causes) whose text
// contains every string in `mentions`.
inline ::testing::AssertionResult throws_kind(const std::function<void()>& call, ErrorKind kind,
                                              std::vector<std::string> mentions = {}) {
  try {
    call();
  } catch (const std::exception& e) {
    const Error* why = reason(e);
    if (why == nullptr) {
      return ::testing::AssertionFailure() << "untyped exception: " << e.what();
    }
    if (why->kind() != kind) {
      return ::testing::AssertionFailure()
             << "error kind " << error_kind_name(why->kind()) << ", expected "
             << error_kind_name(kind) << ": " << e.what();
    }
    const std::string text = std::string(e.what()) + " | " + why->what();
    for (const std::string& m : mentions) {
      if (text.find(m) == std::string::npos) {
        return ::testing::AssertionFailure() << "message does not mention '" << m << "': " << text;
      }
    }
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "no error; expected " << error_kind_name(kind);
}

// Instantiates a PrimsRuntimeTest-derived fixture on all three runtime kinds.
#define TENFERRO_PRIMS_ON_ALL_RUNTIMES(Fixture)                                           \
  INSTANTIATE_TEST_SUITE_P(Runtimes, Fixture,                                             \
                           ::testing::Values(::tenferro::prims_test::RuntimeKind::Cpu,    \
                                             ::tenferro::prims_test::RuntimeKind::WebGpu, \
                                             ::tenferro::prims_test::RuntimeKind::Cuda),  \
                           ::tenferro::prims_test::runtime_param_name)

}  // namespace tenferro::prims_test
