// Where a first einsum call's time goes beyond its planning (issue #33's first-call bound). A
// network in plan_network's text form (stdin) is contracted on fresh CPU runtimes, each first
// running one 2x2 product so that the runtime's own start-up is not counted. Medians over
// `runs` runtimes, in microseconds:
//   cold    the network three times with one explicit path (greedy's): the first call plans
//           nothing but parses, builds its program and runs on a fresh runtime; the third is warm;
//   pause   the same first call after a 10 ms busy wait on registers alone (no memory traffic):
//           what the caches lose to the machine's other work while a program waits (or plans);
//   replan  a runtime warm with that path, then a call under a new cache key (another seed):
//           parsing and building a program on a warm runtime;
//   warmpause one warm runtime: a warm call right after another, and one after a 20 ms busy
//           wait on registers alone (what a pause alone costs a call that plans nothing);
//   control the same pause before a plain loop that uses no tenferro (small products and
//           sorts): what the machine alone does to a call after a pause;
//   newkeys one warm runtime, `runs` calls each under a new cache key, in the subscripts
//           form as Python calls it (a loop to profile a warm runtime's first calls in);
//   auto    the first call with `auto`, less the planning time it reports (einsum_path reads
//           it back from the runtime's plan cache).
// Then the plan's parts alone: parse, path evaluation, program.
//   build/bench/first_call_probe [runs=31] [mode=cold|pause|replan|warmpause|control|newkeys|auto]
//     < network.txt (not read by control)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "einsum/benchmark_networks.hpp"
#include "einsum/planning_input.hpp"
#include "ops/einsum/path.hpp"
#include "ops/einsum/program.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/tenferro.hpp"

namespace {
using namespace tenferro;
using Clock = std::chrono::steady_clock;

double micros_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<Tensor> random_operands(const std::vector<Shape>& shapes) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(0.3, 0.7);
  std::vector<Tensor> host;
  for (const Shape& s : shapes) {
    std::int64_t n = 1;
    for (auto e : s) n *= e;
    std::vector<double> data(static_cast<std::size_t>(n));
    for (double& x : data) x = uniform(rng);
    host.push_back(Tensor::from_col_major<double>(s, std::span<const double>(data)));
  }
  return host;
}

// The subscripts form (einsum_path reports a runtime's cached plan for it): one CJK ideograph
// per label, U+4E00 on, in UTF-8.
std::string subscripts_of(const EinsumLabels& labels) {
  auto symbol = [](int l) {
    const unsigned cp = 0x4E00u + static_cast<unsigned>(l);
    return std::string{static_cast<char>(0xE0 | (cp >> 12)),
                       static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
                       static_cast<char>(0x80 | (cp & 0x3F))};
  };
  std::string s;
  for (std::size_t k = 0; k < labels.inputs.size(); ++k) {
    if (k) s += ",";
    for (int l : labels.inputs[k]) s += symbol(l);
  }
  s += "->";
  for (int l : labels.output) s += symbol(l);
  return s;
}

void print_plan_parts(const bench::BenchNetwork& net, const std::string& subscripts,
                      const EinsumOptions& options, int runs) {
  const std::vector<Shape> shapes = net.shapes();
  std::vector<double> parse, parse_text, path, program;
  std::vector<std::int64_t> ranks;
  for (const Shape& sh : shapes) ranks.push_back(static_cast<std::int64_t>(sh.size()));
  for (int r = 0; r < runs; ++r) {
    const auto tp = Clock::now();
    (void)einsum_internal::parse_subscripts(subscripts, ranks);
    parse_text.push_back(micros_since(tp));
    const auto t0 = Clock::now();
    auto expr = einsum_internal::from_labels(net.labels, ranks);
    auto sizes = einsum_internal::label_sizes(expr, shapes);
    parse.push_back(micros_since(t0));
    const auto t1 = Clock::now();
    auto p = einsum_internal::plan_path(expr, sizes, options,
                                        einsum_internal::choose_planner(options), false);
    path.push_back(micros_since(t1));
    const auto t2 = Clock::now();
    (void)einsum_internal::build_plan(std::move(expr), std::move(sizes), std::move(p), DType::F64,
                                      shapes);
    program.push_back(micros_since(t2));
  }
  std::printf("plan parts: parse %.1f (subscripts %.1f), path %.1f, program %.1f\n", median(parse),
              median(parse_text), median(path), median(program));
}

// A busy wait on registers alone: no memory traffic of ours while it lasts.
void busy_wait(Clock::duration d) {
  const auto until = Clock::now() + d;
  while (Clock::now() < until) {
  }
}

// `control`: a loop with no tenferro in it, timed back to back and after a 20 ms busy wait: 400
// steps, each a product of 8x8 matrices and a sort of 64 numbers in its own 4 KB block. On the
// shared 2-core virtual machine the second is 1.7x the first (docs/perf/einsum-benchmark.md):
// a pause alone costs a call that much there, tenferro or not.
void print_control(int runs) {
  constexpr int kSteps = 400;
  std::vector<std::vector<double>> blocks(kSteps, std::vector<double>(512, 0.5));
  std::vector<double> acc(64, 1.0), next(64);
  const auto work = [&] {
    for (std::vector<double>& block : blocks) {
      const double* b = block.data();
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
          double x = 0;
          for (int k = 0; k < 8; ++k) x += acc[i * 8 + k] * b[k * 8 + j];
          next[i * 8 + j] = x * 0.25;
        }
      std::memcpy(acc.data(), next.data(), 64 * sizeof(double));
      std::sort(block.begin() + 64, block.begin() + 128);
    }
  };
  std::vector<double> back_to_back, after_pause;
  for (int k = 0; k < 3; ++k) work();
  for (int r = 0; r < runs; ++r) {
    auto t0 = Clock::now();
    work();
    back_to_back.push_back(micros_since(t0));
    busy_wait(std::chrono::milliseconds(20));
    t0 = Clock::now();
    work();
    after_pause.push_back(micros_since(t0));
  }
  std::printf("control (no tenferro): after a pause %.1f, back to back %.1f (checksum %.3g)\n",
              median(after_pause), median(back_to_back), acc[0]);
}

// Operands on a fresh CPU runtime that has run one 2x2 product (its own start-up done).
std::vector<EagerTensor> fresh_runtime_operands(const std::vector<Tensor>& host) {
  const std::shared_ptr<EagerRuntime> rt = EagerRuntime::cpu();
  const std::vector<double> two{1, 2, 3, 4};
  const EagerTensor s =
      rt->upload(Tensor::from_col_major<double>(Shape{2, 2}, std::span<const double>(two)));
  (void)einsum("ij,jk->ik", {s, s}).download();
  std::vector<EagerTensor> ops;
  for (const Tensor& t : host) ops.push_back(rt->upload(t));
  return ops;  // the tensors keep their runtime alive
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 31;
  const std::string mode = argc > 2 ? argv[2] : "cold";
  if (mode == "control") {
    print_control(runs);
    return 0;
  }
  const bench::BenchNetwork net = bench::read_network(std::cin);
  const std::vector<Tensor> host = random_operands(net.shapes());
  const std::string subscripts = subscripts_of(net.labels);
  EinsumOptions explicit_path;
  {
    const bench::PlanningInput input = bench::planning_input(net);
    EinsumOptions greedy;
    greedy.strategy = PathStrategy::Greedy;
    explicit_path.strategy = PathStrategy::Explicit;
    explicit_path.path = einsum_internal::plan_path(input.expr, input.sizes, greedy).steps;
  }

  std::vector<double> first, second, warm, planning;
  for (int r = 0; r < runs; ++r) {
    const std::vector<EagerTensor> ops = fresh_runtime_operands(host);
    auto timed = [&](std::vector<double>& into, const EinsumOptions& options) {
      const auto t0 = Clock::now();
      (void)einsum(net.labels, ops, options);
      into.push_back(micros_since(t0));
    };
    if (mode == "auto") {
      const auto t0 = Clock::now();
      (void)einsum(subscripts, ops);
      const double call = micros_since(t0);
      const EinsumPath planned = einsum_path(subscripts, ops);
      planning.push_back(planned.planning_seconds * 1e6);
      first.push_back(call - planning.back());
      // auto's own path given explicitly on another fresh runtime, after a busy wait as long
      // as the planning: what the same path costs cold, without the planner.
      const std::vector<EagerTensor> ops2 = fresh_runtime_operands(host);
      EinsumOptions given;
      given.strategy = PathStrategy::Explicit;
      given.path = planned.steps;
      busy_wait(std::chrono::microseconds(static_cast<long>(planning.back())));
      const auto t1 = Clock::now();
      (void)einsum(subscripts, ops2, given);
      second.push_back(micros_since(t1));
      (void)einsum(subscripts, ops2, given);
      const auto t2 = Clock::now();
      (void)einsum(subscripts, ops2, given);
      warm.push_back(micros_since(t2));
      continue;
    }
    if (mode == "warmpause") {
      for (int k = 0; k < 3; ++k) (void)einsum(net.labels, ops, explicit_path);
      for (int k = 0; k < runs; ++k) {
        timed(warm, explicit_path);
        busy_wait(std::chrono::milliseconds(20));
        timed(first, explicit_path);
      }
      std::printf("warmpause: after a pause %.1f, back to back %.1f\n", median(first),
                  median(warm));
      return 0;
    }
    if (mode == "newkeys") {
      for (int k = 0; k < 3; ++k) (void)einsum(net.labels, ops, explicit_path);
      for (int k = 0; k < runs; ++k) {
        EinsumOptions other = explicit_path;
        other.seed = static_cast<std::uint64_t>(k) + 1;
        const auto t0 = Clock::now();
        (void)einsum(subscripts, ops, other);
        first.push_back(micros_since(t0));
        const auto t1 = Clock::now();
        (void)einsum(subscripts, ops, explicit_path);
        warm.push_back(micros_since(t1));
      }
      break;
    }
    if (mode == "replan") {
      for (int k = 0; k < 3; ++k) (void)einsum(net.labels, ops, explicit_path);
      EinsumOptions other = explicit_path;
      other.seed = static_cast<std::uint64_t>(r) + 1;  // part of the cache key
      timed(first, other);
      timed(warm, explicit_path);
      continue;
    }
    if (mode == "pause") busy_wait(std::chrono::milliseconds(10));
    timed(first, explicit_path);
    timed(second, explicit_path);
    timed(warm, explicit_path);
  }
  if (mode == "auto") {
    std::printf(
        "auto: first call less its planning %.1f (planning %.1f); its path given on a fresh "
        "runtime after as long a busy wait %.1f, warm %.1f\n",
        median(first), median(planning), median(second), median(warm));
  } else if (mode == "replan" || mode == "newkeys") {
    std::printf("replan: first %.1f, warm %.1f\n", median(first), median(warm));
  } else {
    std::printf("%s: first %.1f, second %.1f, warm %.1f\n", mode.c_str(), median(first),
                median(second), median(warm));
  }
  print_plan_parts(net, subscripts, explicit_path, runs);
}
