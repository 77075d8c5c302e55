// Forward alone against forward + reverse mode, side by side in one run (medians of
// repetitions), for the four AD cases of the issue: (a) a 3-operand einsum chain of 256 x 256
// matrices, (b) svd of 128 x 128 with a loss on U, S and V, (c) eigh of 256 x 256, (d) QR of 64
// batched 4 x 4 matrices.
//
//   OPENBLAS_NUM_THREADS=1 ./build/bench/ad_bench --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one line)
#include <benchmark/benchmark.h>

#include "tenferro/ad.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace {

using namespace tenferro;
using V = ad::Variable;

std::shared_ptr<EagerRuntime> runtime() {
  static auto rt = EagerRuntime::cpu();
  return rt;
}

EagerTensor randn(Shape s, std::uint64_t seed) {
  return prims::random_normal(runtime(), DType::F64, std::move(s), seed);
}

// A loss of the inputs; `backward` adds the reverse pass.
template <class Loss>
void run(benchmark::State& state, const std::vector<EagerTensor>& xs, Loss loss) {
  const bool backward = state.range(0) != 0;
  for (auto _ : state) {
    if (!backward) {
      std::vector<V> vs(xs.begin(), xs.end());
      V l = loss(vs);
      benchmark::DoNotOptimize(l.value().download());  // wait for the value, as the peers do
      continue;
    }
    ad::GradientTape tape(runtime());
    std::vector<V> vs;
    for (const auto& x : xs) vs.push_back(tape.watch(x));
    auto g = tape.gradient(loss(vs), vs);
    benchmark::DoNotOptimize(g[0].download());
  }
  state.SetLabel(backward ? "forward+backward" : "forward");
}

V hermitian(const V& x) {
  return (x + ad::transpose(x)) * 0.5;
}

void EinsumChain256(benchmark::State& state) {
  run(state, {randn({256, 256}, 1), randn({256, 256}, 2), randn({256, 256}, 3)},
      [](std::span<const V> v) { return ad::sum(ad::square(ad::einsum("ij,jk,kl->il", v))); });
}
void Svd128(benchmark::State& state) {
  run(state, {randn({128, 128}, 4)}, [](std::span<const V> v) {
    auto [u, s, vh] = ad::svd(v[0]);
    // Gauge invariant: sum(s) + |U diag(s) V^H|^2 + sum((U V^H)^2).
    V usv = ad::einsum("ij,j,jk->ik", {u, s, vh});
    return ad::sum(s) + ad::sum(ad::square(usv)) +
           ad::sum(ad::square(ad::einsum("ij,jk->ik", {u, vh})));
  });
}
void Eigh256(benchmark::State& state) {
  run(state, {randn({256, 256}, 5)}, [](std::span<const V> v) {
    auto [w, vecs] = ad::eigh(hermitian(v[0]));
    const prims::Slice lowest[] = {{0, 4, 1}};
    // The four lowest eigenvalues and the projector onto their eigenvectors.
    V p = ad::einsum("ik,jk->ij", {ad::slice(vecs, std::vector<prims::Slice>{{}, {0, 4, 1}}),
                                   ad::slice(vecs, std::vector<prims::Slice>{{}, {0, 4, 1}})});
    return ad::sum(ad::slice(w, lowest)) + ad::sum(ad::square(ad::diagonal(p)));
  });
}
void QrBatched64x4x4(benchmark::State& state) {
  run(state, {randn({4, 4, 64}, 6)}, [](std::span<const V> v) {
    auto [q, r] = ad::qr(v[0]);
    return ad::sum(ad::square(q)) + ad::sum(r);
  });
}

BENCHMARK(EinsumChain256)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(Svd128)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(Eigh256)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(QrBatched64x4x4)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
