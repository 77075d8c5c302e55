// Planning under hostile input (issue #30): networks where one label is held by many operands
// (hyperedges) plan with a bounded amount of work, and EinsumOptions::interrupt stops a long
// plan promptly with the hook's own exception.
//
// The work bound is asserted on greedy_path's candidate count, not on the clock: before the
// hyperedge representative, 10000 operands sharing one label pushed n^2/2 = 5 * 10^7 pairs
// (and the einsum did not finish in 20 s); now it is O(n). The interrupt tests use the clock
// only with a wide margin: a plan that would run for a minute must stop within seconds.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "ops/einsum/path_search.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/einsum_planner.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::einsum_internal {
namespace {

struct Planned {
  std::size_t pushed = 0;
  SsaPath ssa;
  PathProblem problem;
};

Planned plan_greedy(const EinsumLabels& labels, std::int64_t extent) {
  std::vector<std::int64_t> ranks;
  for (const auto& in : labels.inputs) ranks.push_back(static_cast<std::int64_t>(in.size()));
  const EinsumExpression expr = from_labels(labels, ranks);
  const std::vector<std::int64_t> sizes(static_cast<std::size_t>(num_labels(expr)), extent);
  Planned out;
  out.problem = make_path_problem(expr, sizes);
  out.ssa = greedy_path(out.problem, &out.pushed);
  return out;
}

// Label 0 in every operand; with `chain`, labels 1.. tie neighbours.
EinsumLabels star_labels(int n, bool chain) {
  EinsumLabels labels;
  for (int k = 0; k < n; ++k) {
    std::vector<int> in{0};
    if (chain && k > 0) in.push_back(k);
    if (chain && k + 1 < n) in.push_back(k + 1);
    labels.inputs.push_back(in);
  }
  return labels;
}

// "bi,bi,...,bi->b": an output label in every operand too. Before the output label was skipped
// when looking for partners, each new tensor paired with all n holders through it (the
// contracted hyperedge made them neighbours): 88 s at 5000 operands.
TEST(EinsumPlanningBounds, AnOutputLabelInEveryOperandAddsNoCandidates) {
  for (const int n : {1000, 20000}) {
    EinsumLabels labels;
    for (int k = 0; k < n; ++k) labels.inputs.push_back({0, 1});
    labels.output = {0};
    const Planned p = plan_greedy(labels, 2);
    ASSERT_EQ(p.ssa.size(), static_cast<std::size_t>(n - 1));
    EXPECT_LE(p.pushed, static_cast<std::size_t>(4 * n)) << "n=" << n;
  }
}

TEST(EinsumPlanningBounds, OneLabelInEveryOperandPushesLinearlyManyCandidates) {
  for (const int n : {1000, 20000}) {
    for (const bool chain : {false, true}) {
      const Planned p = plan_greedy(star_labels(n, chain), chain ? 2 : 1);
      ASSERT_EQ(p.ssa.size(), static_cast<std::size_t>(n - 1));
      // One representative per step, plus (chain) the neighbours' pairs: a few per operand.
      EXPECT_LE(p.pushed, static_cast<std::size_t>(8 * n)) << "n=" << n << " chain=" << chain;
    }
  }
}

// Labels held by 10..200 operands each (a random "letters" network): the work grows with
// operands times labels per operand, not with the square of a label's degree.
TEST(EinsumPlanningBounds, ManyWideHyperedgesStayLinearInTheOperands) {
  std::mt19937 rng(7);
  for (const int n : {2000, 8000}) {
    EinsumLabels labels;
    for (int k = 0; k < n; ++k) {
      std::vector<int> in;
      for (int l = 0; l < 40; ++l)
        if (std::uniform_int_distribution<int>(0, 9)(rng) == 0) in.push_back(l);
      if (in.empty()) in.push_back(k % 40);
      labels.inputs.push_back(in);
    }
    const Planned p = plan_greedy(labels, 2);
    ASSERT_EQ(p.ssa.size(), static_cast<std::size_t>(n - 1));
    // n * (32 + 40) per label held, at most ~4 labels per operand on average, generously.
    EXPECT_LE(p.pushed, static_cast<std::size_t>(n) * 72 * 8) << "n=" << n;
  }
}

// Every built-in strategy on the probe's network at 10000 operands finishes with a valid path
// (the default einsum_path took 9 s at 3200 operands and hung at 10000 before).
TEST(EinsumPlanningBounds, EveryStrategyPlansTenThousandSharedLabelOperands) {
  const int n = 10000;
  std::string s;
  for (int k = 0; k < n; ++k) s += k ? ",i" : "i";
  s += "->";
  const std::vector<Shape> shapes(static_cast<std::size_t>(n), Shape{1});
  for (const char* planner : {"auto", "greedy", "optimal", "hyper"}) {
    EinsumOptions o;
    o.planner = planner;
    const EinsumPath path = einsum_path(s, shapes, o);
    EXPECT_EQ(path.steps.size(), static_cast<std::size_t>(n - 1)) << planner;
    // The report stays bounded: at most 64 operands per "remaining" and 1000 table rows.
    EXPECT_LT(path.details.front().remaining.size(), 400u) << planner;
    EXPECT_LT(path.to_string().size(), 400u * 1000u) << planner;
  }
}

struct Stop {};  // the hook's own exception: not a std::exception, not a tenferro::Error

// A hyper search told to run for a minute stops within seconds of the hook starting to throw.
TEST(EinsumPlanningInterrupt, AHookStopsALongSearchWithItsOwnException) {
  std::mt19937 rng(3);
  const int n = 120;  // a random graph of ~3 bonds per tensor: bisection and greedy trials
  EinsumLabels labels;
  labels.inputs.resize(static_cast<std::size_t>(n));
  for (int e = 0; e < n * 3 / 2; ++e) {
    const int a = std::uniform_int_distribution<int>(0, n - 1)(rng);
    int b = std::uniform_int_distribution<int>(0, n - 2)(rng);
    if (b >= a) ++b;
    labels.inputs[static_cast<std::size_t>(a)].push_back(e);
    labels.inputs[static_cast<std::size_t>(b)].push_back(e);
  }
  std::vector<std::int64_t> ranks;
  for (const auto& in : labels.inputs) ranks.push_back(static_cast<std::int64_t>(in.size()));
  const EinsumExpression expr = from_labels(labels, ranks);
  const std::vector<std::int64_t> sizes(static_cast<std::size_t>(num_labels(expr)), 2);
  std::atomic<bool> stop{false};
  std::atomic<int> calls{0};
  EinsumOptions o;
  o.strategy = PathStrategy::Hyper;
  o.hyper_trials = 0;  // no trial limit: only the budget ends it
  o.time_budget_seconds = 60;
  o.interrupt = [&] {
    ++calls;
    if (stop) throw Stop{};
  };
  std::thread timer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop = true;
  });
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(plan_path(expr, sizes, o), Stop);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  timer.join();
  EXPECT_LT(seconds, 10.0);  // 60 without the hook; typically 0.2 s plus a few ms
  EXPECT_GT(calls.load(), 1);
}

// The hook is polled inside the greedy search and the path evaluation, and rate-limited: on a
// 200000-operand plan it runs, but far fewer times than there are steps.
TEST(EinsumPlanningInterrupt, GreedyAndEvaluationPollTheHookAtABoundedRate) {
  const int n = 200000;
  std::string s;
  for (int k = 0; k < n; ++k) s += k ? ",i" : "i";
  s += "->";
  const std::vector<Shape> shapes(static_cast<std::size_t>(n), Shape{1});
  int calls = 0;
  EinsumOptions o;
  o.planner = "greedy";
  o.interrupt = [&] { ++calls; };
  const EinsumPath path = einsum_path(s, shapes, o);
  EXPECT_EQ(path.steps.size(), static_cast<std::size_t>(n - 1));
  EXPECT_GE(calls, 1);
  EXPECT_LT(calls, n / 100);
  // And a hook that throws at its first call stops that plan with its exception.
  o.interrupt = [] { throw Stop{}; };
  EXPECT_THROW(einsum_path(s, shapes, o), Stop);
}

// A cancelled plan is not cached: the same call without the hook plans and runs.
TEST(EinsumPlanningInterrupt, ACancelledPlanLeavesNothingCached) {
  auto rt = EagerRuntime::cpu();
  std::vector<EagerTensor> ops;
  const int n = 50;
  std::string s;
  for (int k = 0; k < n; ++k) {
    s += k ? ",i" : "i";
    ops.push_back(rt->upload(Tensor::from_col_major<double>({1}, {1.0})));
  }
  s += "->";
  EinsumOptions o;
  o.interrupt = [] { throw Stop{}; };
  EXPECT_THROW(einsum(s, ops, o), Stop);
  o.interrupt = nullptr;
  EXPECT_EQ(einsum(s, ops, o).download().to_vector<double>(), std::vector<double>{1.0});
}

// A user planner's exception of a foreign type passes through unchanged; a std::exception
// still becomes a Validation error naming the planner.
TEST(EinsumPlanningInterrupt, AUserPlannersForeignExceptionPassesThroughUnchanged) {
  register_path_planner(
      "throws-stop",
      [](const PathPlannerInput&) -> std::vector<std::pair<int, int>> { throw Stop{}; });
  const std::vector<Shape> shapes{{2, 2}, {2, 2}};
  EinsumOptions o;
  o.planner = "throws-stop";
  EXPECT_THROW(einsum_path("ij,jk->ik", shapes, o), Stop);
  unregister_path_planner("throws-stop");
}

}  // namespace
}  // namespace tenferro::einsum_internal
