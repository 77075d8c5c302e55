// PathStrategy::Hyper: hyper-optimised sampling of randomised greedy trees, then subtree
// reconfiguration of the best ones.
//
// Sampling runs in rounds of kRoundTrials trials. Odd trials build recursive-bisection trees
// (path_partition.cpp, our own multilevel partitioner) with a sampled imbalance, its decay with
// depth, cutoff and coarsest level (later rounds: half perturb the best bisection's, half
// explore). The decay is what cotengra's partition trees have and ours lacked: on random
// 4-regular graphs of 100-200 tensors it halved the FLOPs of the best tree found in 1 s
// (docs/perf/planning.md). The others are randomised greedy trees. A greedy trial's parameters
// (the cost's operand weight alpha and the Boltzmann temperature) come from a generator seeded by
// (seed, i) and from the best greedy parameters of the rounds before it: half the trials of a
// later round perturb the best so far, half explore uniformly (a small cross-entropy-style tuner
// in place of cotengra's Bayesian one). A round's trials are independent and run on the
// machine's threads; results are compared by (score, trial index), so the outcome does not
// depend on which thread ran what or when. Trial 0 is greedy_path itself, so Hyper never scores
// worse than greedy. Above kMaxBisectionOperands operands every trial is a greedy one: the
// partitioner's FM passes scan every node per move (O(n^2) per level), and on a label shared by
// all n operands one bisection trial took longer than the whole default budget
// (docs/reliability.md, "Planning bounds").
//
// The time budget: sampling starts no new trial after `sample_share` of it (trial 0 always runs)
// and reconfiguration (refine_path with the exact DP on subtrees of up to refine_frontier leaves)
// of the best refine_trees trees and of greedy's stops at 100%, keeping what it improved. A search
// that the budget cut short is reproducible only in the sense that a fixed trial count is;
// EinsumPath::method says so.
//
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <mutex>
#include <thread>

#include "ops/einsum/interrupt_poll.hpp"
#include "ops/einsum/path_search.hpp"

namespace tenferro::einsum_internal {
namespace {

constexpr int kRoundTrials = 16;
using Clock = std::chrono::steady_clock;

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  std::uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Uniform [0, 1) and a standard normal from a counter-based stream (platform independent).
struct Draws {
  std::uint64_t key, counter = 0;
  double uniform() { return static_cast<double>(mix(key, ++counter) >> 11) * 0x1.0p-53; }
  double normal() {
    const double u1 = std::max(uniform(), 1e-300), u2 = uniform();
    return std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
};

struct Sampled {
  GreedyParams params;
  double log_temperature = 0;
  bool partition = false;
  PartitionParams partition_params;
};

constexpr int kMaxBisectionOperands = 1000;

// `best` / `best_partition`: the best greedy / bisection trial of the earlier rounds, if any.
// `bisect`: whether odd trials build bisection trees.
Sampled sample_params(std::uint64_t seed, int trial, const Sampled* best,
                      const Sampled* best_partition, bool bisect) {
  Sampled s;
  s.params.seed = mix(seed, static_cast<std::uint64_t>(trial) * 2 + 1);
  if (trial == 0) return s;  // plain greedy
  Draws d{mix(seed, static_cast<std::uint64_t>(trial) * 2)};
  if (bisect && trial % 2 == 1) {
    s.partition = true;
    s.partition_params.seed = s.params.seed;
    PartitionParams& pp = s.partition_params;
    if (best_partition != nullptr && d.uniform() < 0.5) {
      const PartitionParams& b = best_partition->partition_params;
      pp.imbalance = std::clamp(b.imbalance + 0.08 * d.normal(), 0.01, 0.9);
      pp.imbalance_decay = std::clamp(b.imbalance_decay + 0.5 * d.normal(), -5.0, 5.0);
      pp.cutoff = std::clamp(b.cutoff + static_cast<int>(std::lround(d.normal())), 3, 8);
      pp.coarsest = std::clamp(b.coarsest + static_cast<int>(std::lround(6 * d.normal())), 12, 48);
    } else {
      pp.imbalance = 0.01 + 0.89 * d.uniform();
      pp.imbalance_decay = -5 + 10 * d.uniform();
      pp.cutoff = 3 + static_cast<int>(6 * d.uniform());      // 3..8
      pp.coarsest = 12 + static_cast<int>(37 * d.uniform());  // 12..48
    }
    return s;
  }
  const bool exploit = best != nullptr && d.uniform() < 0.5;
  if (exploit) {
    s.params.alpha = std::clamp(best->params.alpha + 0.25 * d.normal(), 0.0, 2.0);
    s.log_temperature = std::clamp(best->log_temperature + 0.5 * d.normal(), -4.0, 0.5);
  } else {
    s.params.alpha = 2 * d.uniform();
    s.log_temperature = -4 + 4 * d.uniform();  // temperature 1e-4 .. 1
  }
  s.params.temperature = std::pow(10.0, s.log_temperature);
  return s;
}

struct Trial {
  ObjectiveScore score;
  int index = -1;
  SsaPath ssa;
  Sampled sampled;
  bool before(const Trial& o) const {
    return score < o.score || (!(o.score < score) && index < o.index);
  }
};

ObjectiveScore score_of(const PathProblem& p, const SsaPath& ssa, const HyperSettings& s) {
  const std::vector<Word> sets = tree_node_sets(p, ssa);
  return objective_score(tree_cost(p, ssa, sets, p.search_extents), s.objective, s.combo_factor);
}

// Runs body(k) for k in [0, count) on up to `threads` threads. An exception (e.g. bad_alloc)
// stops the remaining work and is rethrown here, never left to terminate a worker.
template <class Body>
void parallel_for(int count, int threads, Body&& body) {
  std::atomic<int> next{0};
  std::mutex error_mutex;
  std::exception_ptr error;
  auto worker = [&] {
    try {
      for (int k = next++; k < count; k = next++) body(k);
    } catch (...) {
      next = count;
      const std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  const int spawned = std::min(threads, count) - 1;
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(std::max(0, spawned)));
  for (int t = 0; t < spawned; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace

SsaPath hyper_path(const PathProblem& p, const HyperSettings& s, std::string* note) {
  if (p.num_operands < 3) return greedy_path(p);
  const Clock::time_point start = Clock::now();
  const bool timed = s.time_budget_seconds > 0;
  // Capped at ~30 years so the conversion to the clock's integer ticks cannot overflow.
  const auto budget = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(timed ? std::min(s.time_budget_seconds, 1e9) : 0));
  const Clock::time_point sample_deadline =
      timed ? start + std::chrono::duration_cast<Clock::duration>(
                          budget * std::clamp(s.sample_share, 0.0, 1.0))
            : Clock::time_point::max();
  const Clock::time_point deadline = timed ? start + budget : Clock::time_point::max();
  const int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int trials = s.trials > 0 ? s.trials : std::numeric_limits<int>::max();

  // The best `refine_trees` trials so far, ordered by (score, index).
  std::vector<Trial> best;
  Trial greedy;  // trial 0, always reconfigured too: the search then never ends worse than
                 // greedy + reconfiguration, whichever trees sampled best before it
  const auto keep = static_cast<std::size_t>(std::max(1, s.refine_trees));
  int ran = 0;
  bool cut = false;
  for (int first = 0; first < trials && !cut; first += kRoundTrials) {
    const int count = std::min(kRoundTrials, trials - first);
    const Sampled* guide = nullptr;            // the best greedy trial so far
    const Sampled* guide_partition = nullptr;  // the best bisection trial so far
    for (const Trial& t : best) {
      const Sampled*& slot = t.sampled.partition ? guide_partition : guide;
      if (slot == nullptr) slot = &t.sampled;
    }
    std::vector<Trial> round(static_cast<std::size_t>(count));
    std::atomic<bool> skipped{false};
    parallel_for(count, threads, [&](int k) {
      const int index = first + k;
      if (index > 0 && Clock::now() > sample_deadline) {
        skipped = true;
        return;
      }
      InterruptPoll(p.interrupt).now();  // between trials, on whichever thread runs them
      Trial& t = round[static_cast<std::size_t>(k)];
      t.sampled = sample_params(s.seed, index, guide, guide_partition,
                                p.num_operands <= kMaxBisectionOperands);
      t.ssa = index == 0            ? greedy_path(p)
              : t.sampled.partition ? partition_path(p, t.sampled.partition_params)
                                    : random_greedy_path(p, t.sampled.params);
      t.score = score_of(p, t.ssa, s);
      t.index = index;
    });
    for (Trial& t : round) {
      if (t.index < 0) continue;
      ++ran;
      if (t.index == 0) greedy = t;
      best.push_back(std::move(t));
    }
    std::sort(best.begin(), best.end(), [](const Trial& a, const Trial& b) { return a.before(b); });
    if (best.size() > keep) best.resize(keep);
    cut = skipped || (timed && Clock::now() > sample_deadline);
    if (s.trials <= 0 && !timed) break;  // unbounded: refused by the caller; be safe anyway
  }

  // Reconfigure the best trees and greedy's (each independently), keep the best result.
  if (std::none_of(best.begin(), best.end(), [](const Trial& t) { return t.index == 0; }))
    best.push_back(std::move(greedy));
  std::vector<Trial> refined(best.size());
  std::atomic<bool> refine_cut{false};
  parallel_for(static_cast<int>(best.size()), threads, [&](int k) {
    const Trial& t = best[static_cast<std::size_t>(k)];
    bool stopped = false;
    Trial r = t;
    r.ssa = refine_path(p, t.ssa, s.refine_frontier, 4, deadline, &stopped);
    r.score = score_of(p, r.ssa, s);
    if (t.score < r.score) r = t;  // FLOP refinement may cost size under another objective
    if (stopped) refine_cut = true;
    refined[static_cast<std::size_t>(k)] = std::move(r);
  });
  const Trial& winner = *std::min_element(
      refined.begin(), refined.end(), [](const Trial& a, const Trial& b) { return a.before(b); });
  if (note != nullptr) {
    char buf[160];
    if (winner.sampled.partition) {
      std::snprintf(buf, sizeof buf,
                    "%d trials on %d threads, best #%d (bisection, imbalance %.2f, decay %.1f, "
                    "cutoff %d)",
                    ran, threads, winner.index, winner.sampled.partition_params.imbalance,
                    winner.sampled.partition_params.imbalance_decay,
                    winner.sampled.partition_params.cutoff);
    } else {
      std::snprintf(buf, sizeof buf,
                    "%d trials on %d threads, best #%d (greedy, alpha %.2f, T %.1e)", ran, threads,
                    winner.index, winner.sampled.params.alpha, winner.sampled.params.temperature);
    }
    *note = buf;
    if (cut || refine_cut) {
      *note += "; the " + std::to_string(s.time_budget_seconds) +
               " s budget cut the search short (not reproducible)";
    }
  }
  return winner.ssa;
}

}  // namespace tenferro::einsum_internal
