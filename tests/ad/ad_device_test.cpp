// Gradients on a device runtime (WebGPU in CI, CUDA on the GPU machine): einsum and prims
// rules run where the data lives, so reverse and forward mode count no upload and no download,
// every gradient is on the inputs' placement, and the values match the CPU's within F32
// rounding. A missing adapter/device skips unless TENFERRO_REQUIRE_WEBGPU=1 /
// TENFERRO_REQUIRE_CUDA=1 (CI and the GPU machine) make it a failure.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
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

namespace tenferro::ad_test {
namespace {

// Every prims rule and the einsum notations, one by one, on the device: reverse and forward
// mode transfer nothing and agree with the CPU's within F32 rounding.
struct DeviceCase {
  std::string name;
  std::vector<Shape> shapes;
  bool complex_ok;  // the op takes complex inputs
  std::function<V(std::span<const V>)> f;
};

std::vector<DeviceCase> device_cases() {
  using S = std::vector<Shape>;
  const auto u = [](auto op) { return [op](std::span<const V> v) { return op(v[0]); }; };
  const auto b = [](auto op) { return [op](std::span<const V> v) { return op(v[0], v[1]); }; };
  return {
      {"neg", S{{3, 4}}, true, u([](const V& x) { return ad::neg(x); })},
      {"conj", S{{3, 4}}, true, u([](const V& x) { return ad::conj(x); })},
      {"abs", S{{3, 4}}, true, u([](const V& x) { return ad::abs(x); })},
      {"real", S{{3, 4}}, true, u([](const V& x) { return ad::real(x); })},
      {"imag", S{{3, 4}}, true, u([](const V& x) { return ad::imag(x); })},
      {"sqrt", S{{3, 4}}, true, u([](const V& x) { return ad::sqrt(ad::shift(ad::abs(x), 0.5)); })},
      {"exp", S{{3, 4}}, true, u([](const V& x) { return ad::exp(x); })},
      {"log", S{{3, 4}}, true, u([](const V& x) { return ad::log(ad::shift(ad::abs(x), 0.5)); })},
      {"expm1", S{{3, 4}}, true, u([](const V& x) { return ad::expm1(x); })},
      {"log1p", S{{3, 4}}, true,
       u([](const V& x) { return ad::log1p(ad::shift(ad::abs(x), 0.5)); })},
      {"log2", S{{3, 4}}, true, u([](const V& x) { return ad::log2(ad::shift(ad::abs(x), 0.5)); })},
      {"log10", S{{3, 4}}, true,
       u([](const V& x) { return ad::log10(ad::shift(ad::abs(x), 0.5)); })},
      {"sin", S{{3, 4}}, true, u([](const V& x) { return ad::sin(x); })},
      {"cos", S{{3, 4}}, true, u([](const V& x) { return ad::cos(x); })},
      {"tanh", S{{3, 4}}, true, u([](const V& x) { return ad::tanh(x); })},
      {"tan", S{{3, 4}}, true, u([](const V& x) { return ad::tan(ad::scale(x, 0.5)); })},
      {"sinh", S{{3, 4}}, true, u([](const V& x) { return ad::sinh(x); })},
      {"cosh", S{{3, 4}}, true, u([](const V& x) { return ad::cosh(x); })},
      {"asin", S{{3, 4}}, false,
       u([](const V& x) { return ad::asin(ad::scale(ad::tanh(x), 0.9)); })},
      {"acos", S{{3, 4}}, false,
       u([](const V& x) { return ad::acos(ad::scale(ad::tanh(x), 0.9)); })},
      {"atan", S{{3, 4}}, false, u([](const V& x) { return ad::atan(x); })},
      {"asinh", S{{3, 4}}, false, u([](const V& x) { return ad::asinh(x); })},
      {"acosh", S{{3, 4}}, false,
       u([](const V& x) { return ad::acosh(ad::shift(ad::abs(x), 1.5)); })},
      {"atanh", S{{3, 4}}, false,
       u([](const V& x) { return ad::atanh(ad::scale(ad::tanh(x), 0.9)); })},
      {"floor", S{{3, 4}}, false, u([](const V& x) { return ad::mul(ad::floor(x), x); })},
      {"trunc", S{{3, 4}}, false, u([](const V& x) { return ad::mul(ad::trunc(x), x); })},
      {"reciprocal", S{{3, 4}}, true,
       u([](const V& x) { return ad::reciprocal(ad::shift(x, 3.0)); })},
      {"square", S{{3, 4}}, true, u([](const V& x) { return ad::square(x); })},
      {"sign", S{{3, 4}}, true, u([](const V& x) { return ad::sign(x); })},
      {"add", S{{3, 1}, {1, 4}}, true, b([](const V& x, const V& y) { return x + y; })},
      {"sub", S{{3, 4}, {4}}, true, b([](const V& x, const V& y) { return x - y; })},
      {"mul", S{{3, 4}, {3, 1}}, true, b([](const V& x, const V& y) { return x * y; })},
      {"div", S{{3, 4}, {4}}, true,
       b([](const V& x, const V& y) { return x / ad::shift(y, 3.0); })},
      {"maximum", S{{3, 4}, {3, 4}}, false,
       b([](const V& x, const V& y) { return ad::maximum(x, y); })},
      {"minimum", S{{3, 4}, {3, 4}}, false,
       b([](const V& x, const V& y) { return ad::minimum(x, y); })},
      {"pow", S{{3, 4}, {3, 4}}, false,
       b([](const V& x, const V& y) { return ad::pow(ad::shift(ad::abs(x), 0.5), y); })},
      {"complex", S{{3, 4}, {3, 4}}, false,
       b([](const V& x, const V& y) { return ad::complex(x, y); })},
      {"scale", S{{3, 4}}, true, u([](const V& x) { return ad::scale(x, 1.5); })},
      {"shift", S{{3, 4}}, true, u([](const V& x) { return ad::shift(x, 1.5); })},
      {"axpby", S{{3, 4}, {4}}, true,
       b([](const V& x, const V& y) { return ad::axpby(2.0, x, -1.0, y); })},
      {"sum", S{{3, 4, 2}}, true, u([](const V& x) {
         return ad::sum(x, ad::Axes{0, 2});
       })},
      {"mean", S{{3, 4, 2}}, true, u([](const V& x) { return ad::mean(x, ad::Axes{1}, true); })},
      {"prod", S{{3, 4}}, true,
       u([](const V& x) { return ad::prod(ad::shift(x, 3.0), ad::Axes{1}); })},
      {"max", S{{3, 4}}, false, u([](const V& x) { return ad::max(x, ad::Axes{0}); })},
      {"min", S{{3, 4}}, false, u([](const V& x) { return ad::min(x); })},
      {"norm", S{{3, 4}}, true, u([](const V& x) { return ad::norm(x, ad::Axes{1}); })},
      {"cumsum", S{{3, 4}}, true, u([](const V& x) { return ad::cumsum(x, 1); })},
      {"cumprod", S{{3, 4}}, true, u([](const V& x) { return ad::cumprod(x, 0); })},
      {"cast", S{{3, 4}}, false, u([](const V& x) { return ad::cast(x, DType::C32); })},
      {"permute", S{{3, 4, 2}}, true, u([](const V& x) {
         const std::int64_t p[] = {2, 0, 1};
         return ad::permute(x, p);
       })},
      {"transpose", S{{3, 4}}, true, u([](const V& x) { return ad::transpose(x); })},
      {"reshape", S{{3, 4}}, true, u([](const V& x) {
         return ad::reshape(ad::transpose(x), {2, 6});
       })},
      {"slice", S{{5, 4}}, true, u([](const V& x) {
         return ad::slice(x, std::vector<prims::Slice>{{1, 5, 2}});
       })},
      {"diagonal", S{{3, 4}}, true, u([](const V& x) { return ad::diagonal(x, 1); })},
      {"broadcast_to", S{{3, 1}}, true, u([](const V& x) {
         return ad::broadcast_to(x, {2, 3, 4});
       })},
      {"contiguous", S{{3, 4}}, true,
       u([](const V& x) { return ad::contiguous(ad::transpose(x)); })},
      {"concatenate", S{{3, 4}, {2, 4}}, true,
       [](std::span<const V> v) { return ad::concatenate(v, 0); }},
      {"stack", S{{3, 4}, {3, 4}}, true, [](std::span<const V> v) { return ad::stack(v, 1); }},
      {"einsum trace", S{{3, 3}}, true, u([](const V& x) { return ad::einsum("ii->", {x}); })},
      {"einsum diagonal embedding", S{{3}}, true,
       u([](const V& x) { return ad::einsum("i->ii", {x}); })},
      {"einsum chain (pairwise)", S{{3, 4}, {4, 2}, {2, 3}}, true,
       [](std::span<const V> v) { return ad::einsum("ij,jk,kl->il", v); }},
      {"einsum ellipsis broadcast", S{{1, 2, 3}, {4, 3, 2}}, true,
       [](std::span<const V> v) { return ad::einsum("...ij,...jk->...ik", v); }},
  };
}

TEST_P(AdDeviceTest, EveryPrimsAndEinsumRuleRunsOnTheDevice) {
  int seed = 10;
  for (const DeviceCase& c : device_cases()) {
    for (DType d : {DType::F32, DType::C32}) {
      if (is_complex(d) && !c.complex_ok) continue;
      SCOPED_TRACE(c.name + " " + std::string(dtype_name(d)));
      std::vector<Tensor> hosts;
      for (const auto& s : c.shapes)
        hosts.push_back(random_tensor_host(d, s, static_cast<unsigned>(seed++)));
      const auto run = [&](const std::shared_ptr<EagerRuntime>& rt, bool count) {
        std::vector<EagerTensor> xs;
        for (const auto& h : hosts) xs.push_back(rt->upload(h));
        const auto f = [&c](std::span<const V> v) { return std::vector<V>{c.f(v)}; };
        ad::GradientTape tape(rt);
        std::vector<V> vs;
        for (const auto& x : xs) vs.push_back(tape.watch(x));
        const V y = c.f(vs);
        const EagerTensor ct =
            prims::cast(prims::ones(rt, real_dtype(y.dtype()), y.shape()), y.dtype());
        const RuntimeStats before = rt->stats();
        auto g = tape.vjp({&y, 1}, {&ct, 1}, vs);
        auto [values, t] = ad::jvp(f, xs, xs);
        const RuntimeStats after = rt->stats();
        if (count) {
          EXPECT_EQ(after.uploads, before.uploads);
          EXPECT_EQ(after.downloads, before.downloads);
        }
        g.push_back(t[0]);
        return g;
      };
      const auto dev = run(rt_, true);
      const auto ref = run(EagerRuntime::cpu(), false);
      for (std::size_t i = 0; i < ref.size(); ++i) {
        const auto dh = entries(dev[i]), rh = entries(ref[i]);
        double err = 0, scale = 1;
        for (std::size_t k = 0; k < rh.size(); ++k) {
          err = std::max(err, std::abs(dh[k] - rh[k]));
          scale = std::max(scale, std::abs(rh[k]));
        }
        EXPECT_LE(err, 1e-4 * scale)
            << (i + 1 == ref.size() ? "tangent" : "gradient " + std::to_string(i));
      }
    }
  }
}

}  // namespace
}  // namespace tenferro::ad_test

namespace tenferro::ad_test {
namespace {

TEST_P(AdDeviceTest, RulesOfOpsTheDeviceLacksFailTypedWithoutTransfer) {
  // Linalg runs on CPU and CUDA only: on WebGPU its AD op fails like the forward op, with
  // Unsupported, before any transfer (no CPU substitution).
  if (GetParam() != Device::WebGpu) GTEST_SKIP() << "CUDA runs linalg";
  ad::GradientTape tape(rt_);
  V a = tape.watch(rt_->upload(random_tensor_host(DType::F32, {3, 3}, 5)));
  const RuntimeStats before = rt_->stats();
  try {
    ad::svd(a);
    ADD_FAILURE() << "no error";
  } catch (const std::exception& e) {
    const Error* why = reason(e);
    ASSERT_NE(why, nullptr) << e.what();
    EXPECT_EQ(why->kind(), ErrorKind::Unsupported) << e.what();
  }
  const RuntimeStats after = rt_->stats();
  EXPECT_EQ(after.uploads, before.uploads);
  EXPECT_EQ(after.downloads, before.downloads);
}

}  // namespace
}  // namespace tenferro::ad_test
