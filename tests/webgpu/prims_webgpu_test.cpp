// prims.v1 element-wise ops on a WebGPU runtime: every (op, dtype) the WebGPU kernel set claims,
// on compact, permuted, sliced (strided, offset) and broadcast (stride 0) operands, compared
// element by element with the CPU runtime's result on the same logical values, and checked for
// device residency (no transfer inside the op, output on the input's runtime and placement).
// Tolerances are a few f32 roundings, wider only where WGSL's builtins allow a wider error
// (named beside each case); NaN must match NaN and an infinity must match exactly. Also: joins
// through strided outputs, F64/C64 refused before execution, threads on one runtime. Edge
// cases and wide ranges are in prims_webgpu_numerics_test.cpp.
#include <gtest/gtest.h>

#include "tenferro/config.hpp"

#if TENFERRO_HAS_WEBGPU

#include <functional>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "ops/prims/prim_kind.hpp"
#include "prims_webgpu_support.hpp"
#include "tenferro/prims.hpp"
#include "webgpu_fixture.hpp"

namespace tenferro {
namespace {

using namespace prims_webgpu_test;
using prims_internal::PrimKind;

class PrimsWebGpu : public webgpu_test::WebGpuTest {
 protected:
  void SetUp() override {
    WebGpuTest::SetUp();
    cpu_ = EagerRuntime::cpu();
  }
  std::shared_ptr<EagerRuntime> cpu_;
};

bool allows(PrimKind kind, DType dtype) {
  return (prims_internal::info(kind).dtypes & prims_internal::dtype_bit(dtype)) != 0;
}

struct UnaryCase {
  PrimKind kind;
  std::function<EagerTensor(const EagerTensor&)> f;
  double lo, hi;      // input range (both parts)
  double rtol, atol;  // tolerance against the CPU result
};

constexpr double kTight = 8 * kEpsF32;  // a few roundings

std::vector<UnaryCase> unary_cases() {
  using E = const EagerTensor&;
  return {
      {PrimKind::Neg, [](E x) { return prims::neg(x); }, -2, 2, 0, 0},
      {PrimKind::Conj, [](E x) { return prims::conj(x); }, -2, 2, 0, 0},
      {PrimKind::Abs, [](E x) { return prims::abs(x); }, -2, 2, kTight, 0},
      {PrimKind::Real, [](E x) { return prims::real(x); }, -2, 2, 0, 0},
      {PrimKind::Imag, [](E x) { return prims::imag(x); }, -2, 2, 0, 0},
      // Negative reals give NaN on both runtimes (NaN must match NaN).
      {PrimKind::Sqrt, [](E x) { return prims::sqrt(x); }, -2, 3, kTight, 0},
      // WGSL's exp is bounded by 3 + 2|x| ULP.
      {PrimKind::Exp, [](E x) { return prims::exp(x); }, -3, 3, 16 * kEpsF32, 0},
      {PrimKind::Log, [](E x) { return prims::log(x); }, -1, 3, 8 * kEpsF32, 4 * kEpsF32},
      // sin/cos: WGSL bounds their absolute error only (2^-11 in the spec; the atol is what
      // the driver must beat for these to pass, far inside that bound).
      {PrimKind::Sin, [](E x) { return prims::sin(x); }, -3, 3, 8 * kEpsF32, 16 * kEpsF32},
      {PrimKind::Cos, [](E x) { return prims::cos(x); }, -3, 3, 8 * kEpsF32, 16 * kEpsF32},
      {PrimKind::Tanh, [](E x) { return prims::tanh(x); }, -3, 3, 16 * kEpsF32, 0},
      {PrimKind::Reciprocal, [](E x) { return prims::reciprocal(x); }, -2, 2, kTight, 0},
      {PrimKind::Square, [](E x) { return prims::square(x); }, -2, 2, kTight, 0},
      {PrimKind::Sign, [](E x) { return prims::sign(x); }, -2, 2, kTight, 0},
      {PrimKind::Affine, [](E x) { return prims::scale(x, 2.5); }, -2, 2, kTight, 0},
      {PrimKind::Affine, [](E x) { return prims::shift(x, -1.25); }, -2, 2, kTight, 0},
      {PrimKind::Cast, [](E x) { return prims::cast(x, DType::C32); }, -2, 2, 0, 0},
      {PrimKind::Cast, [](E x) { return prims::contiguous(prims::cast(x, x.dtype())); }, -2, 2, 0,
       0},
  };
}

struct BinaryCase {
  PrimKind kind;
  std::function<EagerTensor(const EagerTensor&, const EagerTensor&)> f;
  double lo0, hi0, lo1, hi1;
  double rtol, atol;
};

std::vector<BinaryCase> binary_cases() {
  using E = const EagerTensor&;
  return {
      // Sums of O(1) values: the error is relative to the operands, not to a cancelled result.
      {PrimKind::Add, [](E a, E b) { return prims::add(a, b); }, -2, 2, -2, 2, kTight, 8 * kEpsF32},
      {PrimKind::Sub, [](E a, E b) { return prims::sub(a, b); }, -2, 2, -2, 2, kTight, 8 * kEpsF32},
      {PrimKind::Mul, [](E a, E b) { return prims::mul(a, b); }, -2, 2, -2, 2, kTight, 8 * kEpsF32},
      {PrimKind::Div, [](E a, E b) { return prims::div(a, b); }, -2, 2, 0.5, 2, kTight, 0},
      {PrimKind::Maximum, [](E a, E b) { return prims::maximum(a, b); }, -2, 2, -2, 2, 0, 0},
      {PrimKind::Minimum, [](E a, E b) { return prims::minimum(a, b); }, -2, 2, -2, 2, 0, 0},
      // exp2(y log2 x): the rounding of y log2 x (|.| < 4) is amplified by ln 2 * 4.
      {PrimKind::Pow, [](E a, E b) { return prims::pow(a, b); }, 0.1, 3, -2, 2, 32 * kEpsF32, 0},
      {PrimKind::Complex, [](E a, E b) { return prims::complex(a, b); }, -2, 2, -2, 2, 0, 0},
      {PrimKind::Axpby, [](E a, E b) { return prims::axpby(2.0, a, -0.5, b); }, -2, 2, -2, 2,
       kTight, 8 * kEpsF32},
  };
}

TEST_F(PrimsWebGpu, UnaryOpsMatchTheCpuRuntimeOnEveryLayout) {
  std::uint64_t seed = 100;
  for (const UnaryCase& c : unary_cases()) {
    for (DType dtype : {DType::F32, DType::C32}) {
      if (!allows(c.kind, dtype)) continue;
      for (View v : {View::Compact, View::Permuted, View::Strided, View::Broadcast}) {
        const std::string what = std::string(prims_internal::prim_name(c.kind)) + " " +
                                 std::string(dtype_name(dtype)) + " " + view_name(v);
        const Tensor storage = view_storage(v, dtype, ++seed, c.lo, c.hi);
        const EagerTensor gx = make_view(runtime_, v, storage);
        const EagerTensor got = run_resident(
            runtime_, [&] { return c.f(gx); }, what);
        const EagerTensor want = c.f(make_view(cpu_, v, storage));
        ASSERT_EQ(got.dtype(), want.dtype()) << what;
        ASSERT_EQ(got.shape(), want.shape()) << what;
        compare_values(values_of(got.download()), values_of(want.download()), c.rtol, c.atol, what);
      }
    }
  }
}

TEST_F(PrimsWebGpu, ComplexScalarsScaleComplexTensors) {
  for (View v : {View::Compact, View::Strided}) {
    const Tensor storage = view_storage(v, DType::C32, 7, -2, 2);
    const EagerTensor gx = make_view(runtime_, v, storage);
    const auto f = [](const EagerTensor& x) {
      return prims::axpby(prims::Scalar(0.5, -1.5), x, prims::Scalar(0, 2), prims::conj(x));
    };
    const EagerTensor got = run_resident(
        runtime_,
        [&] {
          return prims::scale(gx, {1.0, 2.0});
        },
        "scale by 1+2i");
    compare_values(values_of(got.download()),
                   values_of(prims::scale(make_view(cpu_, v, storage), {1.0, 2.0}).download()),
                   kTight, 8 * kEpsF32, "scale by 1+2i");
    compare_values(values_of(f(gx).download()),
                   values_of(f(make_view(cpu_, v, storage)).download()), kTight, 8 * kEpsF32,
                   "axpby with complex scalars");
    const EagerTensor shifted = prims::shift(gx, {0.25, -1.0});
    compare_values(values_of(shifted.download()),
                   values_of(prims::shift(make_view(cpu_, v, storage), {0.25, -1.0}).download()),
                   kTight, 8 * kEpsF32, "shift by a complex scalar");
  }
}

TEST_F(PrimsWebGpu, BinaryOpsMatchTheCpuRuntimeOnEveryLayoutPair) {
  const std::pair<View, View> pairs[] = {{View::Compact, View::Compact},
                                         {View::Permuted, View::Strided},
                                         {View::Broadcast, View::Permuted},
                                         {View::Strided, View::Broadcast}};
  std::uint64_t seed = 500;
  for (const BinaryCase& c : binary_cases()) {
    for (DType dtype : {DType::F32, DType::C32}) {
      if (!allows(c.kind, dtype)) continue;
      for (const auto& [va, vb] : pairs) {
        const std::string what = std::string(prims_internal::prim_name(c.kind)) + " " +
                                 std::string(dtype_name(dtype)) + " " + view_name(va) + "/" +
                                 view_name(vb);
        const Tensor sa = view_storage(va, dtype, ++seed, c.lo0, c.hi0);
        const Tensor sb = view_storage(vb, dtype, ++seed, c.lo1, c.hi1);
        const EagerTensor ga = make_view(runtime_, va, sa), gb = make_view(runtime_, vb, sb);
        const EagerTensor got = run_resident(
            runtime_, [&] { return c.f(ga, gb); }, what);
        const EagerTensor want = c.f(make_view(cpu_, va, sa), make_view(cpu_, vb, sb));
        ASSERT_EQ(got.dtype(), want.dtype()) << what;
        ASSERT_EQ(got.shape(), want.shape()) << what;
        compare_values(values_of(got.download()), values_of(want.download()), c.rtol, c.atol, what);
      }
      // NumPy broadcasting across ranks: {5, 7, 3} with {3}, and a 0-d operand.
      const std::string what = std::string(prims_internal::prim_name(c.kind)) + " " +
                               std::string(dtype_name(dtype)) + " rank broadcast";
      const Tensor sa = view_storage(View::Permuted, dtype, ++seed, c.lo0, c.hi0);
      const Tensor sb = uniform_host(dtype, {3}, ++seed, c.lo1, c.hi1);
      const Tensor s0 = uniform_host(dtype, {}, ++seed, c.lo0, c.hi0);
      const EagerTensor ga = make_view(runtime_, View::Permuted, sa);
      const EagerTensor gb = runtime_->upload(sb), g0 = runtime_->upload(s0);
      const EagerTensor got = run_resident(
          runtime_, [&] { return c.f(ga, gb); }, what);
      const EagerTensor got0 = run_resident(
          runtime_, [&] { return c.f(g0, ga); }, what + " 0-d");
      const EagerTensor ca = make_view(cpu_, View::Permuted, sa);
      compare_values(values_of(got.download()), values_of(c.f(ca, cpu_->upload(sb)).download()),
                     c.rtol, c.atol, what);
      compare_values(values_of(got0.download()), values_of(c.f(cpu_->upload(s0), ca).download()),
                     c.rtol, c.atol, what + " 0-d");
    }
  }
}

// Casts and concatenation write through strided outputs (each input into its slab).
TEST_F(PrimsWebGpu, ConcatenateAndStackWriteStridedSlabsOnTheDevice) {
  const Tensor sa = view_storage(View::Permuted, DType::F32, 1, -2, 2);
  const Tensor sb = view_storage(View::Strided, DType::C32, 2, -2, 2);
  const auto join = [](const std::shared_ptr<EagerRuntime>& rt, const Tensor& a, const Tensor& b,
                       bool stack) {
    const std::vector<EagerTensor> xs = {make_view(rt, View::Permuted, a),
                                         make_view(rt, View::Strided, b)};
    return stack ? prims::stack(xs, 2) : prims::concatenate(xs, 1);
  };
  for (bool stack : {false, true}) {
    const std::vector<EagerTensor> xs = {make_view(runtime_, View::Permuted, sa),
                                         make_view(runtime_, View::Strided, sb)};
    const EagerTensor got = run_resident(
        runtime_, [&] { return stack ? prims::stack(xs, 2) : prims::concatenate(xs, 1); },
        stack ? "stack" : "concatenate");
    const EagerTensor want = join(cpu_, sa, sb, stack);
    EXPECT_EQ(got.dtype(), DType::C32);
    ASSERT_EQ(got.shape(), want.shape());
    compare_values(values_of(got.download()), values_of(want.download()), 0, 0,
                   stack ? "stack" : "concatenate");
  }
}

// WGSL has no f64: F64/C64 on a WebGPU runtime fail with Unsupported before execution (no
// kernel launch counted, no transfer).
TEST_F(PrimsWebGpu, DoublePrecisionIsRefusedBeforeExecution) {
  for (DType dtype : {DType::F64, DType::C64}) {
    const EagerTensor x = runtime_->upload(Tensor::zeros(dtype, {4, 3}));
    const RuntimeStats before = runtime_->stats();
    const std::vector<std::function<EagerTensor()>> ops = {
        [&] { return prims::exp(x); },
        [&] { return prims::add(x, x); },
        [&] { return prims::sum(x); },
        [&] { return prims::scale(x, 2.0); },
        [&] { return prims::zeros(runtime_, dtype, {3}); },
        [&] { return prims::random_normal(runtime_, dtype, {3}, 1); },
    };
    for (const auto& op : ops) {
      try {
        op();
        ADD_FAILURE() << dtype_name(dtype) << " ran on WebGPU";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
      }
    }
    const RuntimeStats after = runtime_->stats();
    EXPECT_EQ(after.kernel_launches_for("tenferro.prims.v1@webgpu"),
              before.kernel_launches_for("tenferro.prims.v1@webgpu"));
    EXPECT_EQ(after.downloads, before.downloads);
    EXPECT_EQ(after.uploads, before.uploads);
  }
  // A cast to F64 is refused for its target dtype.
  const EagerTensor f = runtime_->upload(Tensor::zeros(DType::F32, {2}));
  try {
    prims::cast(f, DType::F64);
    ADD_FAILURE() << "a cast to F64 ran on WebGPU";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
  }
}

// Several threads on one WebGPU runtime, starting cold so that they race to build the WGSL
// modules and pipelines of each op: every thread gets exactly the numbers a lone thread gets
// (the device is deterministic for one kernel sequence), and every kernel launch is counted.
TEST(PrimsWebGpuThreads, ThreadsOnOneRuntimeGetTheLoneThreadsNumbers) {
  std::shared_ptr<EagerRuntime> rt;
  try {
    rt = EagerRuntime::webgpu();
  } catch (const Error& e) {
    if (webgpu_test::webgpu_required()) FAIL() << e.what();
    GTEST_SKIP() << "no WebGPU adapter on this machine (" << e.what() << ")";
  }
  const auto pipeline = [&](std::uint64_t seed) {
    const EagerTensor x = prims::random_normal(rt, DType::C32, {64, 48}, seed);
    const EagerTensor y = prims::axpby(2.0, x, -1.0, prims::tanh(x));
    const EagerTensor t = prims::transpose(prims::abs(y));  // strided operand
    return prims::norm(prims::sqrt(t), prims::Axes{0}).download().to_vector<float>();
  };
  constexpr int kThreads = 4, kRounds = 3;
  std::vector<std::vector<std::vector<float>>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        got[static_cast<std::size_t>(t)].push_back(pipeline(static_cast<std::uint64_t>(t)));
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    const std::vector<float> lone = pipeline(static_cast<std::uint64_t>(t));
    for (const std::vector<float>& g : got[static_cast<std::size_t>(t)]) {
      EXPECT_EQ(g, lone) << "thread " << t;
    }
  }
  // random_normal, tanh, axpby, abs, sqrt, norm: six kernels per pipeline.
  EXPECT_EQ(rt->stats().kernel_launches_for("tenferro.prims.v1@webgpu"),
            static_cast<std::uint64_t>(6 * kThreads * (kRounds + 1)));
}

}  // namespace
}  // namespace tenferro

#endif  // TENFERRO_HAS_WEBGPU
