// Gradients on a device runtime (WebGPU in CI, CUDA on the GPU machine): einsum and prims
// rules run where the data lives, so reverse and forward mode count no upload and no download,
// every gradient is on the inputs' placement, and the values match the CPU's within F32
// rounding. A missing adapter/device skips unless TENFERRO_REQUIRE_WEBGPU=1 /
// TENFERRO_REQUIRE_CUDA=1 (CI and the GPU machine) make it a failure.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

#include "ad/gradcheck.hpp"
#include "tenferro/core/error.hpp"

namespace tenferro::ad_test {
namespace {

using V = ad::Variable;

enum class Device { WebGpu, Cuda };

bool required(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && std::string_view(v) == "1";
}

class AdDeviceTest : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override {
    const bool webgpu = GetParam() == Device::WebGpu;
    const char* require = webgpu ? "TENFERRO_REQUIRE_WEBGPU" : "TENFERRO_REQUIRE_CUDA";
    try {
      rt_ = webgpu ? EagerRuntime::webgpu() : EagerRuntime::cuda(0);
    } catch (const Error& e) {
      const bool absent = e.kind() == ErrorKind::Unsupported || e.kind() == ErrorKind::Backend;
      if (absent && !required(require)) GTEST_SKIP() << "no device runtime: " << e.what();
      FAIL() << "a device runtime was expected: " << e.what();
    }
  }
  std::shared_ptr<EagerRuntime> rt_;
};

// A loss that goes through einsum (a contraction with a trace-like repeated label and a
// broadcast), element-wise ops with broadcasting, a reduction and views.
V loss_of(std::span<const V> v) {
  V c = ad::einsum("ij,jk->ik", {v[0], v[1]});
  V t = ad::tanh(c * v[2]) +
        ad::transpose(ad::einsum("ii,jk->kj",
                                 {ad::slice(v[1], std::vector<prims::Slice>{{}, {0, 3, 1}}), c}));
  V m = ad::mean(ad::square(ad::abs(t)), ad::Axes{1});
  return ad::sum(m * m);
}

TEST_P(AdDeviceTest, BackwardStaysOnTheDeviceAndMatchesTheCpu) {
  for (DType d : {DType::F32, DType::C32}) {
    SCOPED_TRACE(std::string(dtype_name(d)));
    auto cpu_rt = EagerRuntime::cpu();
    const Tensor a = random_tensor_host(d, {3, 3}, 1), b = random_tensor_host(d, {3, 4}, 2),
                 s = random_tensor_host(d, {1, 4}, 3);
    const auto run = [&](const std::shared_ptr<EagerRuntime>& rt, bool count) {
      std::vector<EagerTensor> xs{rt->upload(a), rt->upload(b), rt->upload(s)};
      ad::GradientTape tape(rt);
      std::vector<V> vs;
      for (const auto& x : xs) vs.push_back(tape.watch(x));
      V loss = loss_of(vs);
      const RuntimeStats before = rt->stats();
      auto g = tape.gradient(loss, vs);
      // Forward mode too: J u with u = the inputs themselves.
      auto [y, t] =
          ad::jvp([](std::span<const V> v) { return std::vector<V>{loss_of(v)}; }, xs, xs);
      const RuntimeStats after = rt->stats();
      if (count) {
        EXPECT_EQ(after.uploads, before.uploads) << "reverse/forward mode uploaded";
        EXPECT_EQ(after.downloads, before.downloads) << "reverse/forward mode downloaded";
        for (std::size_t i = 0; i < g.size(); ++i) EXPECT_EQ(g[i].placement(), xs[i].placement());
      }
      g.push_back(t[0]);
      return g;
    };
    const auto dev = run(rt_, true);
    const auto ref = run(cpu_rt, false);
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const auto dh = entries(dev[i]), rh = entries(ref[i]);
      double err = 0, scale = 1e-30;
      for (std::size_t k = 0; k < rh.size(); ++k) {
        err = std::max(err, std::abs(dh[k] - rh[k]));
        scale = std::max(scale, std::abs(rh[k]));
      }
      EXPECT_LE(err, 1e-4 * scale) << "gradient " << i << " differs from the CPU's";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, AdDeviceTest, ::testing::Values(Device::WebGpu, Device::Cuda),
                         [](const ::testing::TestParamInfo<Device>& i) {
                           return i.param == Device::WebGpu ? std::string("WebGpu")
                                                            : std::string("Cuda");
                         });

}  // namespace
}  // namespace tenferro::ad_test
