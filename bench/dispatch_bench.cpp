// Eager extension dispatch overhead: a trivial extension call through
// apply_eager_with_targeted_extension_session against calling the same executor directly,
// side by side in one run. Also counts heap allocations of the warm ensure path.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "support/ratio_reporter.hpp"
#include "tenferro/tenferro.hpp"

// Allocation counter for the "allocs/call" figures (counts every operator new in the process).
// The replacement pairs malloc with free; GCC cannot see that and warns about a mismatch.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
static std::atomic<std::uint64_t> g_allocations{0};
void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace {
using namespace tenferro;

constexpr std::string_view kFamily = "tenferro.bench.identity.v1";

// The op returns its input: the executor does no work, so the time is the dispatch's own.
class IdentityOp final : public ExtensionOp {
 public:
  std::string_view family() const noexcept override { return kFamily; }
  std::string_view name() const noexcept override { return "bench.identity"; }
  std::size_t arity() const noexcept override { return 1; }
  std::uint64_t payload_hash() const noexcept override { return 0; }
  bool payload_equals(const ExtensionOp& o) const noexcept override {
    return dynamic_cast<const IdentityOp*>(&o) != nullptr;
  }
  std::vector<TensorMeta> infer_outputs(std::span<const TensorMeta> in) const override {
    return {in[0]};
  }
};

std::vector<EagerTensor> identity_executor(const ExecutionContext&, const ExtensionOp&,
                                           std::span<const EagerTensor> inputs) {
  return {inputs[0]};
}

ModulePtr identity_factory(const EagerExtensionTarget& target) {
  static ModuleCache cache;
  return cache.get_or_build(target, [&] {
    auto m = std::make_shared<ExtensionModule>("tenferro.bench.identity.cpu");
    m->register_executor(std::string(kFamily), target.engine_id, identity_executor);
    return m;
  });
}

void BM_EagerExtensionCall(benchmark::State& state) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor x = rt->upload(Tensor::zeros(DType::F64, {4}));
  const IdentityOp op;
  apply_eager_with_targeted_extension_session(op, std::span(&x, 1), identity_factory);  // install
  for (auto _ : state) {
    auto out = apply_eager_with_targeted_extension_session(op, std::span(&x, 1), identity_factory);
    benchmark::DoNotOptimize(out);
  }
  if (rt->stats().module_installs != 1) state.SkipWithError("steady state installed a module");
}

void BM_DirectExecutorCall(benchmark::State& state) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor x = rt->upload(Tensor::zeros(DType::F64, {4}));
  const IdentityOp op;
  const ExecutionContext ctx(rt, kFamily);
  const std::uint64_t before = g_allocations.load();
  std::uint64_t calls = 0;
  for (auto _ : state) {
    auto out = identity_executor(ctx, op, std::span(&x, 1));
    benchmark::DoNotOptimize(out);
    ++calls;
  }
  // The executor's own result vector and tensor copy; the eager call must add none.
  state.counters["allocs/call"] =
      static_cast<double>(g_allocations.load() - before) / static_cast<double>(calls);
}

void BM_WarmEnsure(benchmark::State& state) {
  auto rt = EagerRuntime::cpu();
  const ModulePtr module = identity_factory(rt->extension_target());
  rt->ensure_extension_module_for_engine(module, kFamily, rt->engine_id());
  const std::uint64_t before = g_allocations.load();
  std::uint64_t calls = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        &rt->ensure_extension_module_for_engine(module, kFamily, rt->engine_id()));
    ++calls;
  }
  state.counters["allocs/call"] =
      static_cast<double>(g_allocations.load() - before) / static_cast<double>(calls);
}

void BM_EagerAllocationsPerCall(benchmark::State& state) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor x = rt->upload(Tensor::zeros(DType::F64, {4}));
  const IdentityOp op;
  apply_eager_with_targeted_extension_session(op, std::span(&x, 1), identity_factory);
  const std::uint64_t before = g_allocations.load();
  std::uint64_t calls = 0;
  for (auto _ : state) {
    auto out = apply_eager_with_targeted_extension_session(op, std::span(&x, 1), identity_factory);
    benchmark::DoNotOptimize(out);
    ++calls;
  }
  // Equal to BM_DirectExecutorCall's count: the dispatch itself allocates nothing.
  state.counters["allocs/call"] =
      static_cast<double>(g_allocations.load() - before) / static_cast<double>(calls);
}

BENCHMARK(BM_EagerExtensionCall);
BENCHMARK(BM_DirectExecutorCall);
BENCHMARK(BM_WarmEnsure);
BENCHMARK(BM_EagerAllocationsPerCall);

}  // namespace

int main(int argc, char** argv) {
  return tenferro::bench::run_with_ratios(argc, argv,
                                          {{"BM_EagerExtensionCall", "BM_DirectExecutorCall"}});
}
