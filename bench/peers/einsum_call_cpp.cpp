// The C++ side of bench/peers/python_api_peers.py's per-call overhead figures, on two small
// float64 operands through the public API (the calls the Python bindings make), timed as
// einsum_cases times its cases: "einsum" is tenferro::einsum("ij,jk->ik"), "grad" is
// ad::grad of sum(einsum("ij,jk->ik", a, b)) in a (what tenferro.grad does). Prints
// {"einsum": median seconds per call, "grad": ...}.
//   einsum_call_cpp [--reps N] [--min-time S] [--clock wall|cpu] [--n N]
// Built with the other bench programs (bench/CMakeLists.txt globs bench/*/*.cpp).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "tenferro/ad.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace {

bool g_cpu_clock = false;
int g_reps = 5;
double g_min_time = 0.05;

double now_seconds() {
  timespec ts{};
  clock_gettime(g_cpu_clock ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Median seconds per call over g_reps samples of about g_min_time seconds each.
template <class F>
double median_seconds(F&& call) {
  call();  // warm-up: plan, module install
  long calls = 1;
  for (;;) {
    const double t0 = now_seconds();
    for (long i = 0; i < calls; ++i) call();
    const double dt = now_seconds() - t0;
    if (dt >= g_min_time / 4 || calls > (1 << 24)) {
      calls = std::max<long>(1, static_cast<long>(calls * (g_min_time / std::max(dt, 1e-9))));
      break;
    }
    calls *= 4;
  }
  std::vector<double> samples;
  for (int r = 0; r < g_reps; ++r) {
    const double t0 = now_seconds();
    for (long i = 0; i < calls; ++i) call();
    samples.push_back((now_seconds() - t0) / static_cast<double>(calls));
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tenferro;
  std::int64_t n = 4;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
      g_reps = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--min-time") && i + 1 < argc) {
      g_min_time = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--clock") && i + 1 < argc) {
      g_cpu_clock = !std::strcmp(argv[++i], "cpu");
    } else if (!std::strcmp(argv[i], "--n") && i + 1 < argc) {
      n = std::atoll(argv[++i]);
    } else {
      std::fprintf(stderr,
                   "usage: einsum_call_cpp [--reps N] [--min-time S] [--clock wall|cpu] "
                   "[--n N]\n");
      return 2;
    }
  }
  auto rt = EagerRuntime::cpu();
  // The operands as Python passes them: rt.upload() copies a NumPy array into the library's
  // own column-major layout (Tensor.strides shows it), which is what prims creates here.
  const EagerTensor a = prims::random_uniform(rt, DType::F64, {n, n}, 1, -1.0, 1.0);
  const EagerTensor b = prims::random_uniform(rt, DType::F64, {n, n}, 2, -1.0, 1.0);
  const std::vector<EagerTensor> ops{a, b};
  auto call = [&] { return einsum("ij,jk->ik", std::span<const EagerTensor>(ops)); };
  const double t_einsum = median_seconds(call);
  const ad::Variable w(b);  // a constant
  const std::vector<EagerTensor> primals{a};
  auto grad = [&] {
    return ad::grad(
        [&](std::span<const ad::Variable> xs) {
          return std::vector<ad::Variable>{ad::sum(ad::einsum("ij,jk->ik", {xs[0], w}))};
        },
        primals);
  };
  const double t_grad = median_seconds(grad);
  std::printf("{\"einsum\": %.9g, \"grad\": %.9g}\n", t_einsum, t_grad);
  return 0;
}
