// One CPU runtime used from several threads at once: CPU sessions do not serialize, so calls of
// one shape contend for the cached LAPACK workspace (a busy workspace is replaced by a private
// one, never shared). Every result must still reconstruct its input.
#include <thread>

#include "linalg_test_util.hpp"

namespace {

using namespace linalg_test;
namespace la = tenferro::linalg;

TEST(LinalgConcurrency, ThreadsShareOneRuntimeAndItsWorkspaces) {
  auto rt = tenferro::EagerRuntime::cpu();
  constexpr int kThreads = 4, kCalls = 40;
  std::vector<EagerTensor> inputs;
  for (int t = 0; t < kThreads; ++t) {
    inputs.push_back(rt->upload(random_tensor(DType::C64, {6, 4, 2}, 100 + t)));
  }
  std::vector<std::vector<la::QrResult>> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCalls; ++i) {
        results[t].push_back(la::qr(inputs[t]));
        la::svd(inputs[t]);  // same shape in every thread: contends for one workspace
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    const Mats a = matrices(inputs[t]);
    for (const la::QrResult& r : results[t]) {
      expect_close(multiply(matrices(r.q), matrices(r.r)), a, tol(DType::C64, 6), 0, "A = Q R");
    }
  }
  EXPECT_EQ(rt->stats().module_installs, 1u);
  const tenferro::CacheSelector linalg{std::string(tenferro::linalg_family::kFamily), "workspace"};
  EXPECT_EQ(rt->caches().stats(linalg).entries, 2u) << "one QR and one SVD workspace";
}

}  // namespace
