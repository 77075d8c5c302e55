// The AD API: accumulation, no_grad, detach, graph freeing, the same-runtime contract, typed
// errors, forward mode and separate tapes on separate threads.
#include <gtest/gtest.h>

#include "support/error_kind.hpp"

#include <algorithm>
#include <thread>

#include "ad/gradcheck.hpp"
#include "tenferro/runtime/errors.hpp"

namespace tenferro::ad_test {
namespace {

using V = ad::Variable;

std::vector<double> host(const EagerTensor& x) {
  return x.download().to_vector<double>();
}

using testing::kind_of;

TEST(AdApi, ValueUsedSeveralTimesAccumulates) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor x0 = rt->upload(Tensor::from_col_major<double>({3}, {1.0, -2.0, 0.5}));
  ad::GradientTape tape(rt);
  V x = tape.watch(x0);
  V loss = ad::sum(x * x + x * 3.0 + ad::exp(x) * 0.0);  // d/dx = 2x + 3
  auto g = tape.gradient(loss, {x});
  EXPECT_EQ(host(g[0]), (std::vector<double>{5.0, -1.0, 4.0}));
}

TEST(AdApi, SecondReversePassThroughAFreedGraphIsRuntimeState) {
  auto rt = EagerRuntime::cpu();
  ad::GradientTape tape(rt);
  V x = tape.watch(rt->upload(Tensor::from_col_major<double>({2}, {1.0, 2.0})));
  V loss = ad::sum(ad::square(x));
  tape.gradient(loss, {x});
  EXPECT_TRUE(tape.freed());
  EXPECT_EQ(kind_of([&] { tape.gradient(loss, {x}); }), ErrorKind::RuntimeState);
  EXPECT_EQ(kind_of([&] { ad::square(x); }), ErrorKind::RuntimeState);
}

TEST(AdApi, RetainGraphAndBackwardAccumulateIntoLeaves) {
  auto rt = EagerRuntime::cpu();
  ad::GradientTape tape(rt);
  V x = tape.watch(rt->upload(Tensor::from_col_major<double>({2}, {1.0, 2.0})));
  V loss = ad::sum(ad::square(x));
  tape.backward(loss, {.retain_graph = true});
  EXPECT_EQ(host(tape.grad(x)), (std::vector<double>{2.0, 4.0}));
  tape.backward(loss);
  EXPECT_EQ(host(tape.grad(x)), (std::vector<double>{4.0, 8.0}));
  EXPECT_EQ(kind_of([&] { tape.backward(loss); }), ErrorKind::RuntimeState);
}

TEST(AdApi, NoGradAndDetachRecordNothing) {
  auto rt = EagerRuntime::cpu();
  ad::GradientTape tape(rt);
  V x = tape.watch(rt->upload(Tensor::from_col_major<double>({2}, {1.0, 2.0})));
  {
    ad::NoGradGuard guard;
    EXPECT_FALSE(ad::grad_enabled());
    EXPECT_FALSE(ad::square(x).tracked());
  }
  EXPECT_TRUE(ad::grad_enabled());
  EXPECT_TRUE(ad::square(x).tracked());
  V d = x.detach();
  EXPECT_FALSE(d.tracked());
  // loss = x . stop(x): the detached factor is a constant, so d loss / dx = x.
  auto g = tape.gradient(ad::sum(x * d), {x});
  EXPECT_EQ(host(g[0]), (std::vector<double>{1.0, 2.0}));
}

TEST(AdApi, UnusedInputGetsZeros) {
  auto rt = EagerRuntime::cpu();
  ad::GradientTape tape(rt);
  V x = tape.watch(rt->upload(Tensor::from_col_major<double>({2}, {1.0, 2.0})));
  V y = tape.watch(rt->upload(Tensor::from_col_major<double>({3}, {1.0, 2.0, 3.0})));
  auto g = tape.gradient(ad::sum(x), {x, y});
  EXPECT_EQ(host(g[1]), (std::vector<double>{0.0, 0.0, 0.0}));
}

TEST(AdApi, OtherRuntimeIsContextMismatchBeforeAnyWork) {
  auto rt = EagerRuntime::cpu(), other = EagerRuntime::cpu();
  const Tensor h = Tensor::from_col_major<double>({2}, {1.0, 2.0});
  ad::GradientTape tape(rt);
  EXPECT_EQ(kind_of([&] { tape.watch(other->upload(h)); }), ErrorKind::ContextMismatch);
  V x = tape.watch(rt->upload(h));
  V y = ad::square(x);
  const EagerTensor foreign = other->upload(h);
  EXPECT_EQ(kind_of([&] {
              tape.vjp({&y, 1}, {&foreign, 1}, {&x, 1});
            }),
            ErrorKind::ContextMismatch);
  EXPECT_FALSE(tape.freed());  // nothing ran
  const EagerTensor xs[] = {rt->upload(h)};
  const EagerTensor ts[] = {other->upload(h)};
  const auto f = [](std::span<const V> v) { return std::vector<V>{ad::square(v[0])}; };
  EXPECT_EQ(kind_of([&] { ad::jvp(f, xs, ts); }), ErrorKind::ContextMismatch);
  const EagerTensor mixed[] = {rt->upload(h), other->upload(h)};
  EXPECT_EQ(kind_of([&] { ad::grad(f, mixed); }), ErrorKind::ContextMismatch);
}

TEST(AdApi, CotangentOfWrongShapeOrDtypeIsValidation) {
  auto rt = EagerRuntime::cpu();
  ad::GradientTape tape(rt);
  V x = tape.watch(rt->upload(Tensor::from_col_major<double>({2}, {1.0, 2.0})));
  V y = ad::square(x);
  const EagerTensor wrong_shape = prims::ones(rt, DType::F64, {3});
  const EagerTensor wrong_dtype = prims::ones(rt, DType::C64, {2});
  EXPECT_EQ(kind_of([&] { tape.vjp({&y, 1}, {&wrong_shape, 1}, {&x, 1}); }), ErrorKind::Validation);
  EXPECT_EQ(kind_of([&] { tape.vjp({&y, 1}, {&wrong_dtype, 1}, {&x, 1}); }), ErrorKind::Validation);
  EXPECT_EQ(kind_of([&] { tape.gradient(y, {x}); }), ErrorKind::Validation);  // not 0-d
  const EagerTensor xs[] = {x.value()};
  const EagerTensor ts[] = {wrong_shape};
  const auto f = [](std::span<const V> v) { return std::vector<V>{ad::square(v[0])}; };
  EXPECT_EQ(kind_of([&] { ad::jvp(f, xs, ts); }), ErrorKind::Validation);
}

// Nested tapes (grad of grad) are valid math that is not implemented: Unsupported.
TEST(AdApi, TwoTapesInOneOpIsUnsupported) {
  auto rt = EagerRuntime::cpu();
  ad::GradientTape a(rt), b(rt);
  V x = a.watch(prims::ones(rt, DType::F64, {2}));
  V y = b.watch(prims::ones(rt, DType::F64, {2}));
  EXPECT_EQ(kind_of([&] { ad::add(x, y); }), ErrorKind::Unsupported);
}

TEST(AdApi, FunctionalVjpAndJvp) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor x = rt->upload(Tensor::from_col_major<double>({2}, {3.0, -1.0}));
  const EagerTensor u = rt->upload(Tensor::from_col_major<double>({2}, {1.0, 2.0}));
  const auto f = [](std::span<const V> v) { return std::vector<V>{ad::square(v[0])}; };
  auto [y, t] = ad::jvp(f, {&x, 1}, {&u, 1});
  EXPECT_EQ(host(y[0]), (std::vector<double>{9.0, 1.0}));
  EXPECT_EQ(host(t[0]), (std::vector<double>{6.0, -4.0}));  // 2 x u
  auto [y2, pullback] = ad::vjp(f, {&x, 1});
  auto g = pullback({&u, 1});
  EXPECT_EQ(host(g[0]), (std::vector<double>{6.0, -4.0}));
}

TEST(AdApi, ConcurrentTapesOnOneRuntime) {
  // Separate tapes on separate threads of one runtime: each gets its own exact answer.
  auto rt = EagerRuntime::cpu();
  constexpr int kThreads = 4, kRounds = 20;
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        const double v = t + 1.0 + r;
        ad::GradientTape tape(rt);
        V x = tape.watch(rt->upload(Tensor::from_col_major<double>({2, 2}, {v, 0.0, 0.0, v})));
        V loss = ad::sum(ad::einsum("ij,jk->ik", {x, x}));  // sum of x^2 entries: 2 v^2
        auto g = tape.gradient(loss, {x});
        // d/dx_ij sum_ik (x x)_ik = sum_k x_jk + sum_i x_ki.
        const auto h = g[0].download().to_vector<double>();
        if (h != std::vector<double>{2 * v, 2 * v, 2 * v, 2 * v})
          ++failures[static_cast<std::size_t>(t)];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(failures[static_cast<std::size_t>(t)], 0) << "thread " << t;
}

}  // namespace
}  // namespace tenferro::ad_test

namespace tenferro::ad_test {
namespace {

TEST(AdApi, EveryFamilyOpIsDifferentiableExceptCreation) {
  const std::vector<std::string> creation = {"full", "eye", "arange", "random_uniform",
                                             "random_normal"};
  for (const AdmissionTable* t :
       {&einsum_family::admission_table(), &linalg_family::admission_table(),
        &fft_family::admission_table(), &prims_family::admission_table()}) {
    for (const auto& op : t->ops()) {
      if (std::find(creation.begin(), creation.end(), op) != creation.end()) continue;
      bool listed = false;
      for (const auto& d : ad::differentiable_ops())
        listed = listed || (d.family == t->family() && d.op == op);
      EXPECT_TRUE(listed) << t->family() << " " << op << " has no AD rule listed";
    }
  }
  // The derived table follows the forward admission: linalg is CPU/CUDA only, einsum and prims
  // admit WebGPU for F32/C32.
  const AdmissionTable& ad_table = ad::admission_table();
  EXPECT_TRUE(ad_table.admits("linalg/svd", BackendKind::Cpu, DType::C64));
  EXPECT_FALSE(ad_table.admits("linalg/svd", BackendKind::WebGpu, DType::F32));
  EXPECT_EQ(ad_table.admits("einsum/einsum", BackendKind::WebGpu, DType::F32),
            einsum_family::admission_table().admits("einsum", BackendKind::WebGpu, DType::F32));
  EXPECT_EQ(ad_table.admits("prims/slice", BackendKind::WebGpu, DType::C32),
            prims_family::admission_table().admits("add", BackendKind::WebGpu, DType::C32));
}

}  // namespace
}  // namespace tenferro::ad_test
