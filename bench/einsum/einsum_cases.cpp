// The einsum benchmark cases as a small JSON runner for bench/peers/einsum_peers.py:
//   einsum_cases --list                 the cases (NumPy view: subscripts, shapes, dtype)
//   einsum_cases [--reps N] [--min-time S] [--case NAME] [--clock wall|cpu]
//                                       {"case": median seconds per call, ...}
// --clock cpu measures the process's CPU time instead of wall time: with one thread on a
// shared machine it is immune to time spent descheduled.
// Threads: OpenBLAS reads OPENBLAS_NUM_THREADS at start; the peer script sets it.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>

#include "einsum_cases.hpp"

namespace {
using namespace tenferro;
using namespace tenferro::bench;

std::string shapes_json(const std::vector<Shape>& shapes) {
  std::string s = "[";
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    s += i ? ", [" : "[";
    for (std::size_t k = 0; k < shapes[i].size(); ++k)
      s += (k ? ", " : "") + std::to_string(shapes[i][k]);
    s += "]";
  }
  return s + "]";
}

bool g_cpu_clock = false;

double now_seconds() {
  timespec ts{};
  clock_gettime(g_cpu_clock ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Median seconds per call over `reps` samples; each sample runs enough calls to last about
// `min_time` seconds.
double median_seconds(const EinsumCase& c, int reps, double min_time) {
  auto rt = EagerRuntime::cpu();
  const auto ops = case_operands(rt, c);
  const std::string subs = reversed_subscripts(c.subscripts);
  einsum(subs, ops);  // warm-up: plan, module install
  long calls = 1;
  for (;;) {
    const double t0 = now_seconds();
    for (long i = 0; i < calls; ++i) einsum(subs, ops);
    const double dt = now_seconds() - t0;
    if (dt >= min_time / 4 || calls > (1 << 24)) {
      calls = std::max<long>(1, static_cast<long>(calls * (min_time / std::max(dt, 1e-9))));
      break;
    }
    calls *= 4;
  }
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    const double t0 = now_seconds();
    for (long i = 0; i < calls; ++i) einsum(subs, ops);
    samples.push_back((now_seconds() - t0) / static_cast<double>(calls));
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 7;
  double min_time = 0.05;
  std::string only;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--list"))
      list = true;
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--min-time") && i + 1 < argc)
      min_time = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--case") && i + 1 < argc)
      only = argv[++i];
    else if (!std::strcmp(argv[i], "--clock") && i + 1 < argc)
      g_cpu_clock = !std::strcmp(argv[++i], "cpu");
    else {
      std::fprintf(stderr,
                   "usage: einsum_cases [--list] [--reps N] [--min-time S] [--case NAME] [--clock "
                   "wall|cpu]\n");
      return 2;
    }
  }
  const auto cases = einsum_cases();
  std::printf("{");
  bool first = true;
  for (const auto& c : cases) {
    if (!only.empty() && c.name != only) continue;
    std::printf("%s\n  \"%s\": ", first ? "" : ",", c.name.c_str());
    first = false;
    if (list)
      std::printf("{\"subscripts\": \"%s\", \"shapes\": %s, \"dtype\": \"%s\"}",
                  c.subscripts.c_str(), shapes_json(c.shapes).c_str(),
                  std::string(dtype_name(c.dtype)).c_str());
    else
      std::printf("%.9g", median_seconds(c, reps, min_time));
    std::fflush(stdout);
  }
  std::printf("\n}\n");
  return 0;
}
