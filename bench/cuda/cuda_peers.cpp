// tenferro's eager calls on one CUDA device beside the vendor libraries called directly on the
// same data, in one run (scripts/gpu-check.sh runs it; docs/performance.md has the figures):
//   - C = A B with A, B 1024 x 1024 (einsum "ij,jk->ik") against cublas{S,D}gemm, F32 and F64;
//   - 64 batched 32 x 32 SVDs (linalg::svd) against cusolverDn{S,D}gesvdjBatched;
//   - 64 batched 32 x 32 eigh (linalg::eigh) against cusolverDn{S,D}syevjBatched.
// Each pair alternates call by call (drift hits both alike), each call synchronised; the table
// gives medians, GFLOP/s where it means something, and tenferro / direct. Every pair's results
// are compared before the timing, a wrong number making the speed meaningless (the comparisons
// go to stderr): the products to 1e-4 (F32) / 1e-11 (F64) of their largest entry, the sorted
// singular values and eigenvalues to 1e-3 / 1e-10. The direct side does not read cuSOLVER's
// info: its values are compared instead.
// Usage: tenferro_cuda_peers [--repeat N]
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "tenferro/einsum.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace {

using namespace tenferro;
using Clock = std::chrono::steady_clock;

void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void check_blas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + " failed");
}
void check_solver(cusolverStatus_t s, const char* what) {
  if (s != CUSOLVER_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + " failed");
}

// A device buffer of the direct side, filled from host values.
template <class T>
struct DeviceArray {
  T* ptr = nullptr;
  std::size_t n = 0;
  explicit DeviceArray(std::size_t count) : n(count) {
    check_cuda(cudaMalloc(&ptr, std::max<std::size_t>(count, 1) * sizeof(T)), "cudaMalloc");
  }
  DeviceArray(const std::vector<T>& host) : DeviceArray(host.size()) { upload(host); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { cudaFree(ptr); }
  void upload(const std::vector<T>& host) {
    check_cuda(cudaMemcpy(ptr, host.data(), n * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  std::vector<T> download() const {
    std::vector<T> host(n);
    check_cuda(cudaMemcpy(host.data(), ptr, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return host;
  }
};

template <class T>
std::vector<T> random_values(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> dist;
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(dist(gen));
  return v;
}

// Symmetric copies of `batch` column-major n x n matrices (for eigh).
template <class T>
std::vector<T> symmetrised(std::vector<T> a, std::int64_t n, std::int64_t batch) {
  for (std::int64_t b = 0; b < batch; ++b) {
    T* m = a.data() + b * n * n;
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < j; ++i) m[i + j * n] = m[j + i * n];
  }
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct PairTiming {
  double tenferro_ms = 0, direct_ms = 0;
};

// Warm-up, then the two sides alternating, each call followed by a device synchronisation.
PairTiming time_pair(int repeat, const std::function<void()>& tenferro_call,
                     const std::function<void()>& direct_call) {
  for (int i = 0; i < 3; ++i) {
    tenferro_call();
    direct_call();
  }
  std::vector<double> t, d;
  for (int i = 0; i < repeat; ++i) {
    auto start = Clock::now();
    tenferro_call();
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    start = Clock::now();
    direct_call();
    d.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  return {median(std::move(t)), median(std::move(d))};
}

template <class T>
double max_relative_difference(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) throw std::runtime_error("result sizes differ");
  double scale = 0, worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    scale = std::max(scale, std::abs(static_cast<double>(b[i])));
    worst = std::max(worst, std::abs(static_cast<double>(a[i]) - static_cast<double>(b[i])));
  }
  return worst / (scale > 0 ? scale : 1);
}

void require_close(double difference, double tolerance, const std::string& what) {
  std::fprintf(stderr, "check %-34s max relative difference %.2e (tolerance %.0e)\n", what.c_str(),
               difference, tolerance);
  if (!(difference <= tolerance)) throw std::runtime_error(what + ": results differ");
}

void row(const std::string& what, const PairTiming& p, double flops) {
  const double ratio = p.tenferro_ms / p.direct_ms;
  if (flops > 0) {
    std::printf("| %-38s | %9.3f | %9.3f | %7.0f | %7.0f | %5.2fx |\n", what.c_str(), p.tenferro_ms,
                p.direct_ms, flops / p.tenferro_ms / 1e6, flops / p.direct_ms / 1e6, ratio);
  } else {
    std::printf("| %-38s | %9.3f | %9.3f | %7s | %7s | %5.2fx |\n", what.c_str(), p.tenferro_ms,
                p.direct_ms, "-", "-", ratio);
  }
}

template <class T>
constexpr DType dtype_v = std::is_same_v<T, float> ? DType::F32 : DType::F64;
template <class T>
constexpr double tolerance_v = std::is_same_v<T, float> ? 1e-5 : 1e-12;

template <class T>
void gemm_pair(const std::shared_ptr<EagerRuntime>& rt, cublasHandle_t blas, int repeat) {
  constexpr std::int64_t n = 1024;
  const std::vector<T> a = random_values<T>(n * n, 1), b = random_values<T>(n * n, 2);
  const EagerTensor ta = rt->upload(Tensor::from_col_major<T>({n, n}, a));
  const EagerTensor tb = rt->upload(Tensor::from_col_major<T>({n, n}, b));
  DeviceArray<T> da(a), db(b), dc(static_cast<std::size_t>(n * n));
  const T one = 1, zero = 0;
  EagerTensor tc;
  auto tenferro_call = [&] {
    tc = einsum("ij,jk->ik", {ta, tb});
    rt->synchronize();
  };
  auto direct_call = [&] {
    if constexpr (std::is_same_v<T, float>) {
      check_blas(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, da.ptr, n, db.ptr, n,
                             &zero, dc.ptr, n),
                 "cublasSgemm");
    } else {
      check_blas(cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, da.ptr, n, db.ptr, n,
                             &zero, dc.ptr, n),
                 "cublasDgemm");
    }
    check_cuda(cudaDeviceSynchronize(), "synchronize");
  };
  tenferro_call();
  direct_call();
  require_close(max_relative_difference(tc.download().template to_vector<T>(), dc.download()),
                tolerance_v<T> * 10,
                std::string("einsum ij,jk->ik ") + std::string(dtype_name(dtype_v<T>)));
  const PairTiming p = time_pair(repeat, tenferro_call, direct_call);
  row(std::string("einsum ij,jk->ik 1024^3 ") + std::string(dtype_name(dtype_v<T>)) +
          " / cublasXgemm",
      p, 2.0 * n * n * n);
}

// Sorted copies of `batch` runs of k values (the SVD's descending, eigh's ascending order may
// differ between the two sides only by that).
template <class T>
std::vector<T> sorted_runs(std::vector<T> v, std::int64_t k) {
  for (std::size_t b = 0; b < v.size(); b += static_cast<std::size_t>(k))
    std::sort(v.begin() + static_cast<std::ptrdiff_t>(b),
              v.begin() + static_cast<std::ptrdiff_t>(b + static_cast<std::size_t>(k)));
  return v;
}

// cuSOLVER's batched Jacobi solvers for batch square n x n matrices, one overload per precision
// (U and V, eigenvectors: computed, as tenferro computes them).
constexpr auto kVectors = CUSOLVER_EIG_MODE_VECTOR;
constexpr auto kLower = CUBLAS_FILL_MODE_LOWER;
cusolverStatus_t gesvdj_size(cusolverDnHandle_t h, int n, float* a, float* s, float* u, float* v,
                             int* lwork, gesvdjInfo_t p, int batch) {
  return cusolverDnSgesvdjBatched_bufferSize(h, kVectors, n, n, a, n, s, u, n, v, n, lwork, p,
                                             batch);
}
cusolverStatus_t gesvdj_size(cusolverDnHandle_t h, int n, double* a, double* s, double* u,
                             double* v, int* lwork, gesvdjInfo_t p, int batch) {
  return cusolverDnDgesvdjBatched_bufferSize(h, kVectors, n, n, a, n, s, u, n, v, n, lwork, p,
                                             batch);
}
cusolverStatus_t gesvdj(cusolverDnHandle_t h, int n, float* a, float* s, float* u, float* v,
                        float* work, int lwork, int* info, gesvdjInfo_t p, int batch) {
  return cusolverDnSgesvdjBatched(h, kVectors, n, n, a, n, s, u, n, v, n, work, lwork, info, p,
                                  batch);
}
cusolverStatus_t gesvdj(cusolverDnHandle_t h, int n, double* a, double* s, double* u, double* v,
                        double* work, int lwork, int* info, gesvdjInfo_t p, int batch) {
  return cusolverDnDgesvdjBatched(h, kVectors, n, n, a, n, s, u, n, v, n, work, lwork, info, p,
                                  batch);
}
cusolverStatus_t syevj_size(cusolverDnHandle_t h, int n, float* a, float* w, int* lwork,
                            syevjInfo_t p, int batch) {
  return cusolverDnSsyevjBatched_bufferSize(h, kVectors, kLower, n, a, n, w, lwork, p, batch);
}
cusolverStatus_t syevj_size(cusolverDnHandle_t h, int n, double* a, double* w, int* lwork,
                            syevjInfo_t p, int batch) {
  return cusolverDnDsyevjBatched_bufferSize(h, kVectors, kLower, n, a, n, w, lwork, p, batch);
}
cusolverStatus_t syevj(cusolverDnHandle_t h, int n, float* a, float* w, float* work, int lwork,
                       int* info, syevjInfo_t p, int batch) {
  return cusolverDnSsyevjBatched(h, kVectors, kLower, n, a, n, w, work, lwork, info, p, batch);
}
cusolverStatus_t syevj(cusolverDnHandle_t h, int n, double* a, double* w, double* work, int lwork,
                       int* info, syevjInfo_t p, int batch) {
  return cusolverDnDsyevjBatched(h, kVectors, kLower, n, a, n, w, work, lwork, info, p, batch);
}

// One batched decomposition both ways on 64 matrices of 32 x 32: `tenferro` returns its values
// (singular values or eigenvalues) on the device; `direct(input)` runs cuSOLVER on a device copy
// of the input (the solvers overwrite it; tenferro's executor copies its input too) and returns
// the device array of its values. The values are compared, then the two sides are timed.
template <class T, class Tenferro, class Direct>
void solver_pair(const std::string& what, const std::vector<T>& a, int repeat,
                 const std::shared_ptr<EagerRuntime>& rt, Tenferro tenferro, Direct direct) {
  constexpr std::int64_t n = 32, batch = 64;
  const EagerTensor ta = rt->upload(Tensor::from_col_major<T>({n, n, batch}, a));
  DeviceArray<T> input(a), scratch(a.size());
  EagerTensor values;
  const DeviceArray<T>* direct_values = nullptr;
  auto tenferro_call = [&] {
    values = tenferro(ta);
    rt->synchronize();
  };
  auto direct_call = [&] {
    check_cuda(
        cudaMemcpyAsync(scratch.ptr, input.ptr, a.size() * sizeof(T), cudaMemcpyDeviceToDevice),
        "copy");
    direct_values = &direct(scratch.ptr);
    check_cuda(cudaDeviceSynchronize(), "synchronize");
  };
  tenferro_call();
  direct_call();
  const std::string label = what + " " + std::string(dtype_name(dtype_v<T>));
  require_close(max_relative_difference(sorted_runs(values.download().template to_vector<T>(), n),
                                        sorted_runs(direct_values->download(), n)),
                tolerance_v<T> * 100, label);
  row(label, time_pair(repeat, tenferro_call, direct_call), 0);
}

template <class T>
void svd_pair(const std::shared_ptr<EagerRuntime>& rt, cusolverDnHandle_t solver, int repeat) {
  constexpr int n = 32, batch = 64;
  DeviceArray<T> s(n * batch), u(n * n * batch), v(n * n * batch);
  DeviceArray<int> info(batch);
  gesvdjInfo_t params = nullptr;
  check_solver(cusolverDnCreateGesvdjInfo(&params), "cusolverDnCreateGesvdjInfo");
  int lwork = 0;
  DeviceArray<T> probe(n * n * batch);
  check_solver(gesvdj_size(solver, n, probe.ptr, s.ptr, u.ptr, v.ptr, &lwork, params, batch),
               "gesvdjBatched_bufferSize");
  DeviceArray<T> workspace(static_cast<std::size_t>(std::max(lwork, 1)));
  solver_pair<T>(
      "svd 64 x (32x32) / gesvdjBatched", random_values<T>(n * n * batch, 3), repeat, rt,
      [](const EagerTensor& x) { return linalg::svd(x).s; },
      [&](T* a) -> const DeviceArray<T>& {
        check_solver(gesvdj(solver, n, a, s.ptr, u.ptr, v.ptr, workspace.ptr, lwork, info.ptr,
                            params, batch),
                     "gesvdjBatched");
        return s;
      });
  cusolverDnDestroyGesvdjInfo(params);
}

template <class T>
void eigh_pair(const std::shared_ptr<EagerRuntime>& rt, cusolverDnHandle_t solver, int repeat) {
  constexpr int n = 32, batch = 64;
  DeviceArray<T> w(n * batch);
  DeviceArray<int> info(batch);
  syevjInfo_t params = nullptr;
  check_solver(cusolverDnCreateSyevjInfo(&params), "cusolverDnCreateSyevjInfo");
  int lwork = 0;
  DeviceArray<T> probe(n * n * batch);
  check_solver(syevj_size(solver, n, probe.ptr, w.ptr, &lwork, params, batch),
               "syevjBatched_bufferSize");
  DeviceArray<T> workspace(static_cast<std::size_t>(std::max(lwork, 1)));
  solver_pair<T>(
      "eigh 64 x (32x32) / syevjBatched", symmetrised(random_values<T>(n * n * batch, 4), n, batch),
      repeat, rt, [](const EagerTensor& x) { return linalg::eigh(x).w; },
      [&](T* a) -> const DeviceArray<T>& {
        check_solver(syevj(solver, n, a, w.ptr, workspace.ptr, lwork, info.ptr, params, batch),
                     "syevjBatched");
        return w;
      });
  cusolverDnDestroySyevjInfo(params);
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 30;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--repeat N]\n", argv[0]);
      return 2;
    }
  }
  try {
    const auto rt = EagerRuntime::cuda(0);
    cudaDeviceProp prop{};
    check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    std::printf("device: %s (sm_%d%d); medians of %d alternating synchronised calls\n", prop.name,
                prop.major, prop.minor, repeat);
    cublasHandle_t blas = nullptr;
    check_blas(cublasCreate(&blas), "cublasCreate");
    cusolverDnHandle_t solver = nullptr;
    check_solver(cusolverDnCreate(&solver), "cusolverDnCreate");
    std::printf("\n| %-38s | %9s | %9s | %7s | %7s | %6s |\n", "case / direct call", "tf ms",
                "direct ms", "tf GF/s", "dir GF/s", "ratio");
    std::printf("|---|---:|---:|---:|---:|---:|\n");
    gemm_pair<float>(rt, blas, repeat);
    gemm_pair<double>(rt, blas, repeat);
    svd_pair<float>(rt, solver, repeat);
    svd_pair<double>(rt, solver, repeat);
    eigh_pair<float>(rt, solver, repeat);
    eigh_pair<double>(rt, solver, repeat);
    cusolverDnDestroy(solver);
    cublasDestroy(blas);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tenferro_cuda_peers: %s\n", e.what());
    return 1;
  }
  return 0;
}
