// User path planners (tenferro/einsum_planner.hpp): what a planner is handed, that its path is
// the one executed and reported (and sliced under a memory limit), the typed refusals, that a
// replaced planner never reuses the old one's cached plans, and planning on several threads
// while planners are registered and removed.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "support/einsum_reference.hpp"
#include "support/random_tensor.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/einsum_planner.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

using Steps = std::vector<std::pair<int, int>>;

// Registers a planner for one test and removes it at the end, whatever happens in between.
class ScopedPlanner {
 public:
  ScopedPlanner(std::string name, PathPlanner planner) : name_(std::move(name)) {
    register_path_planner(name_, std::move(planner));
  }
  ~ScopedPlanner() { unregister_path_planner(name_); }
  ScopedPlanner(const ScopedPlanner&) = delete;
  ScopedPlanner& operator=(const ScopedPlanner&) = delete;

 private:
  std::string name_;
};

// Contracts the last two operands first, always: a right-to-left chain, which none of the
// built-in strategies picks for the chains below (their shapes make it the costliest order).
Steps right_to_left(const PathPlannerInput& in) {
  Steps steps;
  for (int live = static_cast<int>(in.inputs.size()); live > 1; --live)
    steps.emplace_back(live - 2, live - 1);
  return steps;
}

EinsumOptions with_planner(std::string name) {
  EinsumOptions options;
  options.planner = std::move(name);
  return options;
}

EinsumOptions with_strategy(PathStrategy strategy) {
  EinsumOptions options;
  options.strategy = strategy;
  return options;
}

ErrorKind kind_of(const std::function<void()>& call, std::string* message = nullptr) {
  try {
    call();
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.kind();
  }
  ADD_FAILURE() << "no tenferro::Error was thrown";
  return ErrorKind::RuntimeState;
}

TEST(PathPlanners, PlannerSeesLabelsSizesAndOptions) {
  PathPlannerInput seen;
  int calls = 0;
  const ScopedPlanner scoped("test-recorder", [&](const PathPlannerInput& in) {
    seen = in;
    ++calls;
    return right_to_left(in);
  });
  EinsumOptions options;
  options.planner = "test-recorder";
  options.seed = 77;
  const std::vector<Shape> shapes{{2, 3}, {3, 4}, {4, 5}};
  const EinsumPath path = einsum_path("ij,jk,kl->il", shapes, options);
  ASSERT_EQ(calls, 1);
  ASSERT_EQ(seen.inputs.size(), 3u);
  // Labels are dense ids; i, j, k, l are four distinct ones shared as the subscripts say.
  const int i = seen.inputs[0][0], j = seen.inputs[0][1], k = seen.inputs[1][1];
  const int l = seen.inputs[2][1];
  EXPECT_EQ(seen.inputs[1][0], j);
  EXPECT_EQ(seen.inputs[2][0], k);
  EXPECT_EQ(seen.output, (std::vector<int>{i, l}));
  ASSERT_EQ(seen.sizes.size(), 4u);
  EXPECT_EQ(seen.sizes[static_cast<std::size_t>(i)], 2);
  EXPECT_EQ(seen.sizes[static_cast<std::size_t>(j)], 3);
  EXPECT_EQ(seen.sizes[static_cast<std::size_t>(k)], 4);
  EXPECT_EQ(seen.sizes[static_cast<std::size_t>(l)], 5);
  ASSERT_NE(seen.options, nullptr);
  EXPECT_EQ(seen.options->seed, 77u);
  EXPECT_EQ(path.steps, (Steps{{1, 2}, {0, 1}}));
  EXPECT_NE(path.method.find("test-recorder"), std::string::npos) << path.method;
}

TEST(PathPlanners, UserPathIsTheOneExecutedAndTheResultIsRight) {
  std::atomic<int> calls{0};
  const ScopedPlanner scoped("test-right-to-left", [&](const PathPlannerInput& in) {
    ++calls;
    return right_to_left(in);
  });
  // A chain that starts narrow: left to right keeps every intermediate 2 x 30, right to left
  // builds 30 x 30 ones at 15x the cost, so the planner's path is recognisable in the report.
  const std::vector<Shape> shapes{{2, 30}, {30, 30}, {30, 30}, {30, 30}};
  EinsumOptions options;
  options.planner = "test-right-to-left";
  const EinsumPath mine = einsum_path("ab,bc,cd,de->ae", shapes, options);
  const EinsumPath optimal =
      einsum_path("ab,bc,cd,de->ae", shapes, with_strategy(PathStrategy::Optimal));
  EXPECT_EQ(mine.steps, (Steps{{2, 3}, {1, 2}, {0, 1}}));
  EXPECT_NE(mine.steps, optimal.steps);
  EXPECT_GT(mine.flops, optimal.flops);

  std::mt19937_64 rng(5);
  for (DType dtype : {DType::F64, DType::C64}) {
    std::vector<Tensor> hosts;
    for (const Shape& s : shapes) hosts.push_back(testing::random_tensor(rng, dtype, s));
    auto rt = EagerRuntime::cpu();
    std::vector<EagerTensor> operands;
    for (const Tensor& h : hosts) operands.push_back(rt->upload(h));
    const int before = calls.load();
    const EagerTensor got = einsum("ab,bc,cd,de->ae", operands, options);
    EXPECT_EQ(calls.load(), before + 1);
    einsum("ab,bc,cd,de->ae", operands, options);  // warm: the plan comes from the cache
    EXPECT_EQ(calls.load(), before + 1);
    const auto agreement = testing::compare_with_reference(
        got.download(), testing::reference_einsum("ab,bc,cd,de->ae", hosts));
    EXPECT_TRUE(agreement.ok) << dtype_name(dtype) << ": " << agreement.detail;
  }
}

TEST(PathPlanners, BuiltinNamesAreTheStrategies) {
  const std::vector<Shape> shapes{{4, 5}, {5, 6}, {6, 7}, {7, 3}, {3, 9}};
  const std::string subscripts = "ab,bc,cd,de,ef->af";
  const std::vector<std::pair<std::string, PathStrategy>> builtins{
      {"auto", PathStrategy::Auto},
      {"greedy", PathStrategy::Greedy},
      {"optimal", PathStrategy::Optimal},
      {"hyper", PathStrategy::Hyper}};
  for (const auto& [name, strategy] : builtins) {
    const EinsumPath by_name = einsum_path(subscripts, shapes, with_planner(name));
    const EinsumPath by_enum = einsum_path(subscripts, shapes, with_strategy(strategy));
    EXPECT_EQ(by_name.steps, by_enum.steps) << name;
    EXPECT_EQ(by_name.method, by_enum.method) << name;
  }
  const std::vector<std::string> names = path_planner_names();
  ASSERT_GE(names.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 4),
            (std::vector<std::string>{"auto", "greedy", "optimal", "hyper"}));
}

TEST(PathPlanners, RefusalsAreTypedAndNameTheProblem) {
  std::string message;
  EXPECT_EQ(kind_of([] { register_path_planner("greedy", right_to_left); }, &message),
            ErrorKind::Validation);
  EXPECT_NE(message.find("built-in"), std::string::npos) << message;
  EXPECT_EQ(kind_of([] { register_path_planner("", right_to_left); }), ErrorKind::Validation);
  EXPECT_EQ(kind_of([] { register_path_planner("test-empty", PathPlanner{}); }),
            ErrorKind::Validation);
  const ScopedPlanner scoped("test-taken", right_to_left);
  EXPECT_EQ(kind_of([] { register_path_planner("test-taken", right_to_left); }, &message),
            ErrorKind::Validation);
  EXPECT_NE(message.find("already registered"), std::string::npos) << message;
  EXPECT_FALSE(unregister_path_planner("test-never-registered"));

  const std::vector<Shape> shapes{{2, 3}, {3, 4}, {4, 5}};
  EXPECT_EQ(
      kind_of([&] { einsum_path("ij,jk,kl->il", shapes, with_planner("test-nobody")); }, &message),
      ErrorKind::Validation);
  EXPECT_NE(message.find("test-taken"), std::string::npos) << "lists the known names: " << message;
  EinsumOptions both;
  both.strategy = PathStrategy::Explicit;
  both.path = {{0, 1}, {0, 1}};
  both.planner = "test-taken";
  EXPECT_EQ(kind_of([&] { einsum_path("ij,jk,kl->il", shapes, both); }), ErrorKind::Validation);

  const ScopedPlanner short_path("test-short", [](const PathPlannerInput&) {
    return Steps{{0, 1}};
  });
  EXPECT_EQ(
      kind_of([&] { einsum_path("ij,jk,kl->il", shapes, with_planner("test-short")); }, &message),
      ErrorKind::Validation);
  EXPECT_NE(message.find("test-short"), std::string::npos) << message;
  const ScopedPlanner bad_index("test-bad-index", [](const PathPlannerInput&) {
    return Steps{{0, 7}, {0, 1}};
  });
  EXPECT_EQ(kind_of([&] { einsum_path("ij,jk,kl->il", shapes, with_planner("test-bad-index")); }),
            ErrorKind::Validation);

  const ScopedPlanner thrower("test-thrower", [](const PathPlannerInput&) -> Steps {
    throw std::runtime_error("no idea");
  });
  try {
    einsum_path("ij,jk,kl->il", shapes, with_planner("test-thrower"));
    ADD_FAILURE() << "the planner's exception was swallowed";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Validation);
    EXPECT_NE(std::string(e.what()).find("no idea"), std::string::npos) << e.what();
    const auto* nested = dynamic_cast<const std::nested_exception*>(&e);
    ASSERT_NE(nested, nullptr) << "the planner's own exception is kept as the cause";
    EXPECT_THROW(nested->rethrow_nested(), std::runtime_error);
  }
  const ScopedPlanner typed("test-typed", [](const PathPlannerInput&) -> Steps {
    throw_error(ErrorKind::Resource, ErrorPhase::Input, "my-planner", "out of ideas");
  });
  EXPECT_EQ(kind_of([&] { einsum_path("ij,jk,kl->il", shapes, with_planner("test-typed")); }),
            ErrorKind::Resource);
  // Planning that runs out of memory (a planner's, or the built-in search's on a huge network)
  // is the Resource error every op gives, not a bare std::bad_alloc or a "bad planner".
  const ScopedPlanner hungry("test-hungry",
                             [](const PathPlannerInput&) -> Steps { throw std::bad_alloc(); });
  EXPECT_EQ(kind_of([&] { einsum_path("ij,jk,kl->il", shapes, with_planner("test-hungry")); }),
            ErrorKind::Resource);
}

TEST(PathPlanners, ReplacedPlannerNeverReusesTheOldPlans) {
  const std::vector<Shape> shapes{{2, 30}, {30, 30}, {30, 2}};
  std::mt19937_64 rng(9);
  std::vector<Tensor> hosts;
  for (const Shape& s : shapes) hosts.push_back(testing::random_tensor(rng, DType::F64, s));
  auto rt = EagerRuntime::cpu();
  std::vector<EagerTensor> operands;
  for (const Tensor& h : hosts) operands.push_back(rt->upload(h));

  int first_calls = 0, second_calls = 0;
  register_path_planner("test-replaced", [&](const PathPlannerInput&) {
    ++first_calls;
    return Steps{{0, 1}, {0, 1}};
  });
  einsum("ab,bc,cd->ad", operands, with_planner("test-replaced"));
  ASSERT_TRUE(unregister_path_planner("test-replaced"));
  EXPECT_EQ(kind_of([&] { einsum("ab,bc,cd->ad", operands, with_planner("test-replaced")); }),
            ErrorKind::Validation)
      << "a removed planner's cached plans must not answer for it";
  const ScopedPlanner second("test-replaced", [&](const PathPlannerInput&) {
    ++second_calls;
    return Steps{{1, 2}, {0, 1}};
  });
  const EagerTensor got = einsum("ab,bc,cd->ad", operands, with_planner("test-replaced"));
  EXPECT_EQ(first_calls, 1);
  EXPECT_EQ(second_calls, 1);
  EXPECT_TRUE(testing::compare_with_reference(got.download(),
                                              testing::reference_einsum("ab,bc,cd->ad", hosts))
                  .ok);
}

TEST(PathPlanners, MemoryLimitSlicesTheUserPath) {
  // Left to right, the a x c intermediate (40 x 40) is the largest; a limit of 400 elements
  // must slice it, and the sliced run must still agree with the reference.
  const ScopedPlanner scoped("test-left-to-right", [](const PathPlannerInput& in) {
    Steps steps(in.inputs.size() - 1, {0, 1});
    return steps;
  });
  const std::vector<Shape> shapes{{40, 6}, {6, 40}, {40, 5}};
  EinsumOptions options;
  options.planner = "test-left-to-right";
  options.memory_limit = 400;
  const EinsumPath path = einsum_path("ab,bc,cd->ad", shapes, options);
  EXPECT_EQ(path.steps, (Steps{{0, 1}, {0, 1}}));
  EXPECT_FALSE(path.sliced_labels.empty());
  EXPECT_LE(path.slice_largest_intermediate, 400);

  std::mt19937_64 rng(3);
  std::vector<Tensor> hosts;
  for (const Shape& s : shapes) hosts.push_back(testing::random_tensor(rng, DType::F64, s));
  auto rt = EagerRuntime::cpu();
  std::vector<EagerTensor> operands;
  for (const Tensor& h : hosts) operands.push_back(rt->upload(h));
  const EagerTensor got = einsum("ab,bc,cd->ad", operands, options);
  const auto agreement = testing::compare_with_reference(
      got.download(), testing::reference_einsum("ab,bc,cd->ad", hosts));
  EXPECT_TRUE(agreement.ok) << agreement.detail;
}

// Planning on four threads (one runtime each, so every call plans) with one user planner while
// a fifth thread registers and removes other planners: no race (TSan), every result right.
TEST(PathPlanners, ConcurrentPlanningWhileRegistering) {
  std::atomic<int> calls{0};
  const ScopedPlanner scoped("test-shared", [&](const PathPlannerInput& in) {
    ++calls;
    return right_to_left(in);
  });
  std::atomic<bool> stop{false};
  std::thread churn([&] {
    for (int k = 0; !stop.load(); ++k) {
      const std::string name = "test-churn-" + std::to_string(k % 3);
      register_path_planner(name, right_to_left);
      path_planner_names();
      unregister_path_planner(name);
    }
  });
  std::atomic<int> wrong{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t) {
    workers.emplace_back([&, t] {
      std::mt19937_64 rng(static_cast<std::uint64_t>(100 + t));
      for (int round = 0; round < 20; ++round) {
        const std::vector<Shape> shapes{{3, 4 + round % 3}, {4 + round % 3, 5}, {5, 2}};
        std::vector<Tensor> hosts;
        for (const Shape& s : shapes) hosts.push_back(testing::random_tensor(rng, DType::F64, s));
        auto rt = EagerRuntime::cpu();
        std::vector<EagerTensor> operands;
        for (const Tensor& h : hosts) operands.push_back(rt->upload(h));
        const EagerTensor got = einsum("ab,bc,cd->ad", operands, with_planner("test-shared"));
        if (!testing::compare_with_reference(got.download(),
                                             testing::reference_einsum("ab,bc,cd->ad", hosts))
                 .ok)
          ++wrong;
      }
    });
  }
  for (auto& w : workers) w.join();
  stop = true;
  churn.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(calls.load(), 80);
}

}  // namespace
}  // namespace tenferro
