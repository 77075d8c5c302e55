// Eager linalg calls against direct LAPACKE calls on the same matrices, measured side by side
// in one run (medians of repetitions, ratio printed at the end): QR, SVD and eigh at n = 4, 64
// and 256 (F64), and 64 batched 4x4 QR and SVD (one eager call vs a loop of LAPACKE calls).
// The direct side does what a caller would write: copy A (LAPACK overwrites it), call the
// LAPACKE driver (which allocates its own workspace), keep the outputs.
//
//   OPENBLAS_NUM_THREADS=1 ./build/bench/linalg_bench
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "ops/linalg/cpu/lapack.hpp"  // LAPACKE with std::complex types
#include "support/ratio_reporter.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/tenferro.hpp"

namespace {

namespace la = tenferro::linalg;

std::vector<double> random_values(std::int64_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> uni(-1, 1);
  std::vector<double> v(static_cast<std::size_t>(count));
  for (double& x : v) x = uni(gen);
  return v;
}

// n x n matrices, `batch` of them; symmetric when asked (for eigh).
std::vector<double> matrices(std::int64_t n, std::int64_t batch, bool symmetric) {
  std::vector<double> v = random_values(n * n * batch, 42);
  if (symmetric) {
    for (std::int64_t b = 0; b < batch; ++b)
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < j; ++i) v[b * n * n + i + j * n] = v[b * n * n + j + i * n];
  }
  return v;
}

tenferro::EagerTensor upload(const std::shared_ptr<tenferro::EagerRuntime>& rt,
                             const std::vector<double>& v, tenferro::Shape shape) {
  return rt->upload(
      tenferro::Tensor::from_col_major<double>(std::move(shape), std::span<const double>(v)));
}

// ---- direct LAPACKE --------------------------------------------------------------------------
void direct_qr(const double* a, int n, std::vector<double>& buf, std::vector<double>& tau,
               std::vector<double>& r) {
  std::copy_n(a, n * n, buf.data());
  TENFERRO_BLAS_NAME(LAPACKE_dgeqrf)(LAPACK_COL_MAJOR, n, n, buf.data(), n, tau.data());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) r[i + j * n] = buf[i + j * n];
  TENFERRO_BLAS_NAME(LAPACKE_dorgqr)(LAPACK_COL_MAJOR, n, n, n, buf.data(), n, tau.data());
}
void direct_svd(const double* a, int n, std::vector<double>& buf, std::vector<double>& s,
                std::vector<double>& u, std::vector<double>& vt) {
  std::copy_n(a, n * n, buf.data());
  TENFERRO_BLAS_NAME(LAPACKE_dgesdd)
  (LAPACK_COL_MAJOR, 'S', n, n, buf.data(), n, s.data(), u.data(), n, vt.data(), n);
}
void direct_eigh(const double* a, int n, std::vector<double>& buf, std::vector<double>& w) {
  std::copy_n(a, n * n, buf.data());
  TENFERRO_BLAS_NAME(LAPACKE_dsyevd)(LAPACK_COL_MAJOR, 'V', 'L', n, buf.data(), n, w.data());
}

enum class Op { Qr, Svd, Eigh };

void BM_Direct(benchmark::State& state, Op op, std::int64_t batch) {
  const int n = static_cast<int>(state.range(0));
  const std::vector<double> a = matrices(n, batch, op == Op::Eigh);
  std::vector<double> buf(n * n), tau(n), r(n * n), s(n), u(n * n), vt(n * n);
  for (auto _ : state) {
    for (std::int64_t b = 0; b < batch; ++b) {
      const double* ab = a.data() + b * n * n;
      switch (op) {
        case Op::Qr:
          direct_qr(ab, n, buf, tau, r);
          break;
        case Op::Svd:
          direct_svd(ab, n, buf, s, u, vt);
          break;
        case Op::Eigh:
          direct_eigh(ab, n, buf, s);
          break;
      }
    }
    benchmark::DoNotOptimize(buf.data());
    benchmark::ClobberMemory();
  }
}

void BM_Eager(benchmark::State& state, Op op, std::int64_t batch) {
  const std::int64_t n = state.range(0);
  auto rt = tenferro::EagerRuntime::cpu();
  const tenferro::EagerTensor a =
      batch == 1 ? upload(rt, matrices(n, 1, op == Op::Eigh), {n, n})
                 : upload(rt, matrices(n, batch, op == Op::Eigh), {n, n, batch});
  for (auto _ : state) {
    switch (op) {
      case Op::Qr:
        benchmark::DoNotOptimize(la::qr(a));
        break;
      case Op::Svd:
        benchmark::DoNotOptimize(la::svd(a));
        break;
      case Op::Eigh:
        benchmark::DoNotOptimize(la::eigh(a));
        break;
    }
  }
}

const char* name_of(Op op) {
  return op == Op::Qr ? "Qr" : op == Op::Svd ? "Svd" : "Eigh";
}

std::vector<std::pair<std::string, std::string>> register_all() {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (Op op : {Op::Qr, Op::Svd, Op::Eigh}) {
    for (std::int64_t n : {4, 64, 256}) {
      const std::string suffix = name_of(op);
      benchmark::RegisterBenchmark(("Eager" + suffix).c_str(), BM_Eager, op, 1)->Arg(n);
      benchmark::RegisterBenchmark(("Lapacke" + suffix).c_str(), BM_Direct, op, 1)->Arg(n);
      pairs.emplace_back("Eager" + suffix + "/" + std::to_string(n),
                         "Lapacke" + suffix + "/" + std::to_string(n));
    }
  }
  for (Op op : {Op::Qr, Op::Svd}) {
    const std::string suffix = std::string(name_of(op)) + "Batch64x4";
    benchmark::RegisterBenchmark(("Eager" + suffix).c_str(), BM_Eager, op, 64)->Arg(4);
    benchmark::RegisterBenchmark(("Lapacke" + suffix).c_str(), BM_Direct, op, 64)->Arg(4);
    pairs.emplace_back("Eager" + suffix + "/4", "Lapacke" + suffix + "/4");
  }
  return pairs;
}

}  // namespace

int main(int argc, char** argv) {
  return tenferro::bench::run_with_ratios(argc, argv, register_all());
}
