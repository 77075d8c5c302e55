// The placement contract for the prims family on every runtime kind: inputs from two runtimes
// are a ContextMismatch before anything runs; outputs live in the input's runtime with the same
// placement; no op moves data (RuntimeStats: no upload, no download); views launch no kernel and
// the fused forms launch one; F64 on WebGPU is a typed Unsupported before execution.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "prims/prims_reference.hpp"
#include "prims/prims_runtimes.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/stats.hpp"

namespace tenferro::prims_test {
namespace {

class PrimsContract : public PrimsRuntimeTest {
 protected:
  std::string launches_key() const {
    return std::string(prims_family::kFamily) + "@" +
           std::string(backend_kind_name(rt_->backend_kind()));
  }
};
TENFERRO_PRIMS_ON_ALL_RUNTIMES(PrimsContract);

// Everything a refused call must leave untouched.
struct Counters {
  RuntimeStats stats;
  std::uint64_t cpu_kernels;
};
Counters counters(const std::shared_ptr<EagerRuntime>& rt) {
  return {rt->stats(), process_cpu_kernel_launches()};
}
void expect_untouched(const Counters& before, const std::shared_ptr<EagerRuntime>& rt,
                      const std::string& what) {
  const RuntimeStats after = rt->stats();
  EXPECT_EQ(after.kernel_launches, before.stats.kernel_launches) << what << ": a kernel ran";
  EXPECT_EQ(after.module_installs, before.stats.module_installs)
      << what << ": a module was installed";
  EXPECT_EQ(after.uploads, before.stats.uploads) << what;
  EXPECT_EQ(after.downloads, before.stats.downloads) << what;
  EXPECT_EQ(process_cpu_kernel_launches(), before.cpu_kernels) << what << ": a CPU kernel ran";
}

TEST_P(PrimsContract, InputsFromTwoRuntimesAreAContextMismatchBeforeAnythingRuns) {
  const auto other = EagerRuntime::cpu();
  const EagerTensor a = up(random_ref(DType::F32, {2, 3}, 111));
  const EagerTensor b = other->upload(to_tensor(random_ref(DType::F32, {2, 3}, 112)));
  // A dtype that needs promotion must not be cast before the runtimes are compared.
  const EagerTensor b_wide = other->upload(to_tensor(random_ref(DType::C64, {2, 3}, 113)));
  const std::vector<std::pair<std::string, std::function<void()>>> calls = {
      {"add", [&] { (void)prims::add(a, b); }},
      {"add promoting", [&] { (void)prims::add(a, b_wide); }},
      {"operator*", [&] { (void)(b * a); }},
      {"div", [&] { (void)prims::div(a, b); }},
      {"maximum", [&] { (void)prims::maximum(b, a); }},
      {"pow", [&] { (void)prims::pow(a, b); }},
      {"complex", [&] { (void)prims::complex(a, b); }},
      {"axpby", [&] { (void)prims::axpby(2.0, a, 3.0, b_wide); }},
      {"concatenate",
       [&] {
         const EagerTensor xs[] = {a, b};
         (void)prims::concatenate(xs, 0);
       }},
      {"stack",
       [&] {
         const EagerTensor xs[] = {a, b_wide};
         (void)prims::stack(xs, 1);
       }},
  };
  // Warm both runtimes first, so an install during the refused call would show.
  (void)prims::neg(a);
  (void)prims::neg(b);
  for (const auto& [what, call] : calls) {
    const Counters mine = counters(rt_), theirs = counters(other);
    EXPECT_TRUE(throws_kind(call, ErrorKind::ContextMismatch)) << what;
    expect_untouched(mine, rt_, what + " (first runtime)");
    expect_untouched(theirs, other, what + " (second runtime)");
  }
}

TEST_P(PrimsContract, OutputsStayInTheRuntimeAndNothingMoves) {
  const DType r = DType::F32, z = DType::C32;
  const EagerTensor x = up(random_ref(r, {4, 3}, 114, 0.5, 2.0));
  const EagerTensor y = up(random_ref(r, {3}, 115, 0.5, 2.0));
  const EagerTensor c = up(random_ref(z, {4, 3}, 116));
  const Placement where = x.placement();
  const std::vector<std::pair<std::string, std::function<EagerTensor()>>> ops = {
      {"neg", [&] { return prims::neg(x); }},
      {"sqrt", [&] { return prims::sqrt(c); }},
      {"abs", [&] { return prims::abs(c); }},
      {"add", [&] { return prims::add(x, y); }},
      {"pow", [&] { return prims::pow(x, y); }},
      {"complex", [&] { return prims::complex(x, y); }},
      {"mul promoting", [&] { return prims::mul(c, y); }},
      {"scale complex", [&] { return x * C(0.0, 2.0); }},
      {"axpby", [&] { return prims::axpby(2.0, x, -1.0, y); }},
      {"sum", [&] { return prims::sum(x, prims::Axes{0}); }},
      {"norm", [&] { return prims::norm(c); }},
      {"max", [&] { return prims::max(x, prims::Axes{-1}, true); }},
      {"cast", [&] { return prims::cast(x, z); }},
      {"contiguous", [&] { return prims::contiguous(prims::transpose(x)); }},
      {"concatenate",
       [&] {
         const EagerTensor xs[] = {x, c};
         return prims::concatenate(xs, 1);
       }},
      {"stack",
       [&] {
         const EagerTensor xs[] = {x, x};
         return prims::stack(xs, 0);
       }},
      {"zeros", [&] { return prims::zeros(rt_, r, {5}); }},
      {"full",
       [&] {
         return prims::full(rt_, z, {2, 2}, C(1.0, -1.0));
       }},
      {"eye", [&] { return prims::eye(rt_, r, 3, 4, 1); }},
      {"arange", [&] { return prims::arange(rt_, r, 0.0, 3.0, 0.5); }},
      {"random_uniform", [&] { return prims::random_uniform(rt_, z, {8}, 1); }},
      {"random_normal", [&] { return prims::random_normal(rt_, r, {8}, 2); }},
  };
  for (const auto& [what, op] : ops) {
    SCOPED_TRACE(what);
    const RuntimeStats before = rt_->stats();
    const std::uint64_t cpu_kernels = process_cpu_kernel_launches();
    const EagerTensor out = op();
    const RuntimeStats after = rt_->stats();
    EXPECT_EQ(out.runtime(), rt_);
    EXPECT_EQ(out.placement(), where);
    EXPECT_EQ(after.uploads, before.uploads);
    EXPECT_EQ(after.downloads, before.downloads);
    EXPECT_GE(after.kernel_launches_for(launches_key()),
              before.kernel_launches_for(launches_key()) + 1)
        << "the op did not run as a prims kernel of this runtime";
    if (kind() != RuntimeKind::Cpu) {
      EXPECT_EQ(process_cpu_kernel_launches(), cpu_kernels) << "a device op ran a CPU kernel";
    }
  }
}

// The element-wise ops hand their operands to the dispatch as borrowed (non-owning) handles
// when no cast is needed (runtime_internal::BorrowedTensor). Their outputs must still own their
// runtime and buffer: each output here outlives every operand and the test's runtime pointer,
// then reads back the values computed while they lived. Fails when a borrowed handle's runtime
// or buffer reaches an output (a non-owning pointer has use_count() 0; ASan reports its use).
TEST_P(PrimsContract, OutputsOwnTheirRuntimeWhenOperandsAndRuntimeAreGone) {
  const DType r = DType::F32, z = DType::C32;
  struct Case {
    std::string what;
    std::function<EagerTensor(const EagerTensor&, const EagerTensor&, const EagerTensor&)> op;
  };
  const std::vector<Case> cases = {
      {"add", [](auto& x, auto& y, auto&) { return prims::add(x, y); }},
      {"mul promoting", [](auto& x, auto&, auto& c) { return prims::mul(c, x); }},
      {"axpby", [](auto& x, auto& y, auto&) { return prims::axpby(2.0, x, -1.0, y); }},
      {"affine", [](auto& x, auto&, auto&) { return x * 3.0; }},
      {"affine promoting", [](auto& x, auto&, auto&) { return x * C(0.0, 2.0); }},
      {"where", [](auto& x, auto& y, auto&) { return prims::where(prims::greater(x, y), x, y); }},
      {"concatenate",
       [](auto& x, auto& y, auto&) {
         const EagerTensor xs[] = {x, y};
         return prims::concatenate(xs, 0);
       }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    std::shared_ptr<EagerRuntime> rt = rt_;
    const std::weak_ptr<EagerRuntime> runtime_alive = rt;
    Ref before;
    EagerTensor out;
    {
      const EagerTensor x = up(random_ref(r, {4, 3}, 117, 0.5, 2.0));
      const EagerTensor y = up(random_ref(r, {4, 3}, 118, 0.5, 2.0));
      const EagerTensor w = up(random_ref(z, {4, 3}, 119));
      out = c.op(x, y, w);
      before = down(out);
    }
    EXPECT_GT(out.runtime().use_count(), 0) << "the output's runtime pointer owns nothing";
    EXPECT_GT(out.buffer().use_count(), 0) << "the output's buffer pointer owns nothing";
    rt_.reset();
    rt.reset();
    ASSERT_FALSE(runtime_alive.expired()) << "the output does not keep its runtime alive";
    EXPECT_TRUE(identical(down(out), before));
    rt_ = out.runtime();
    out = EagerTensor();
  }
}

// Views are metadata (no kernel, same buffer); each scalar form is exactly one kernel.
TEST_P(PrimsContract, ViewsLaunchNothingAndFusedFormsLaunchOnce) {
  const EagerTensor x = up(random_ref(DType::F32, {4, 6}, 117));
  const EagerTensor y = up(random_ref(DType::F32, {4, 6}, 118));
  (void)prims::neg(x);  // install the module first
  const std::string key = launches_key();
  const std::vector<std::int64_t> perm{1, 0};
  const prims::Slice sl[] = {{1, std::nullopt, 2}};
  const std::vector<std::pair<std::string, std::function<EagerTensor()>>> views = {
      {"permute", [&] { return prims::permute(x, perm); }},
      {"transpose", [&] { return prims::transpose(x); }},
      {"reshape",
       [&] {
         return prims::reshape(x, {2, -1});
       }},
      {"slice", [&] { return prims::slice(x, sl); }},
      {"diagonal", [&] { return prims::diagonal(x, 1); }},
      {"broadcast_to",
       [&] {
         return prims::broadcast_to(x, {3, 4, 6});
       }},
      {"contiguous of compact", [&] { return prims::contiguous(x); }},
  };
  for (const auto& [what, op] : views) {
    const RuntimeStats before = rt_->stats();
    const EagerTensor v = op();
    EXPECT_EQ(rt_->stats().kernel_launches, before.kernel_launches) << what;
    EXPECT_EQ(v.buffer(), x.buffer()) << what;
  }
  const std::vector<std::pair<std::string, std::function<EagerTensor()>>> fused = {
      {"scale", [&] { return prims::scale(x, 3.0); }},
      {"shift", [&] { return prims::shift(x, -1.0); }},
      {"axpby", [&] { return prims::axpby(2.0, x, 0.5, y); }},
      {"1.5 - x", [&] { return 1.5 - x; }},
  };
  for (const auto& [what, op] : fused) {
    const std::uint64_t before = rt_->stats().kernel_launches_for(key);
    (void)op();
    EXPECT_EQ(rt_->stats().kernel_launches_for(key), before + 1) << what << " is one kernel";
  }
}

// WGSL has no f64: on WebGPU every F64/C64 request is Unsupported before execution (no kernel,
// no transfer, no CPU fallback). On CPU and CUDA the same calls run.
TEST_P(PrimsContract, DoublePrecisionOnWebGpuIsUnsupported) {
  const EagerTensor x32 = up(random_ref(DType::F32, {3}, 119));
  const EagerTensor x64 = up(random_ref(DType::F64, {3}, 120));
  const EagerTensor c64 = up(random_ref(DType::C64, {3}, 121));
  (void)prims::neg(x32);  // install the module first
  const std::vector<std::pair<std::string, std::function<void()>>> calls = {
      {"neg F64", [&] { (void)prims::neg(x64); }},
      {"add F64", [&] { (void)prims::add(x64, x64); }},
      {"add F32+F64", [&] { (void)prims::add(x32, x64); }},
      {"mul F32*C64", [&] { (void)(x32 * c64); }},
      {"sum F64", [&] { (void)prims::sum(x64); }},
      {"norm C64", [&] { (void)prims::norm(c64); }},
      {"cast F32->F64", [&] { (void)prims::cast(x32, DType::F64); }},
      {"cast F32->C64", [&] { (void)prims::cast(x32, DType::C64); }},
      {"zeros F64", [&] { (void)prims::zeros(rt_, DType::F64, {4}); }},
      {"eye C64", [&] { (void)prims::eye(rt_, DType::C64, 3); }},
      {"arange F64", [&] { (void)prims::arange(rt_, DType::F64, 0, 4); }},
      {"random_normal F64", [&] { (void)prims::random_normal(rt_, DType::F64, {4}, 1); }},
      {"concatenate F32,F64",
       [&] {
         const EagerTensor xs[] = {x32, x64};
         (void)prims::concatenate(xs);
       }},
  };
  for (const auto& [what, call] : calls) {
    if (kind() == RuntimeKind::WebGpu) {
      const Counters before = counters(rt_);
      EXPECT_TRUE(throws_kind(call, ErrorKind::Unsupported)) << what;
      expect_untouched(before, rt_, what);
    } else {
      EXPECT_NO_THROW(call()) << what;
    }
  }
}

// Every runtime this machine can build runs the prims tables: the issue asks for CPU, WebGPU
// (F32/C32) and CUDA. This fails (rather than the rows skipping silently) when a device runtime
// exists but the family registers no kernel for it.
TEST(PrimsBackendCoverage, EveryAvailableRuntimeHasPrimsKernels) {
  EXPECT_TRUE(family_has_kernels_on(BackendKind::Cpu));
  for (RuntimeKind kind : {RuntimeKind::WebGpu, RuntimeKind::Cuda}) {
    std::shared_ptr<EagerRuntime> rt;
    try {
      rt = kind == RuntimeKind::WebGpu ? EagerRuntime::webgpu() : EagerRuntime::cuda(0);
    } catch (const Error&) {
      continue;  // not on this machine: the table fixture reports that as a skip
    }
    EXPECT_TRUE(family_has_kernels_on(rt->backend_kind()))
        << "a " << runtime_name(kind) << " runtime exists here but tenferro.prims.v1 admits no "
        << "op on it: the NumPy tables cannot run there";
    for (DType d : dtypes_on(kind)) {
      EXPECT_TRUE(prims_family::admission_table().admits("sum", rt->backend_kind(), d))
          << runtime_name(kind) << " " << dtype_name(d);
    }
  }
}

}  // namespace
}  // namespace tenferro::prims_test
