// The prims registration table against the real kernels: on every runtime this machine can
// make, each (op, dtype) the admission table admits runs — output in the same runtime and
// placement, no transfer, one kernel launch counted for the family — and each one it does not
// admit fails with Unsupported before execution. The admission table is derived from the
// kernel sets, so this is what proves that a backend claims exactly what it runs.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "ops/prims/prim_kind.hpp"
#include "support/random_tensor.hpp"
#include "tenferro/tenferro.hpp"

namespace tenferro {
namespace {

using prims_internal::PrimKind;

bool required(const char* var) {
  const char* v = std::getenv(var);
  return v != nullptr && std::string_view(v) == "1";
}

// The runtime of `backend`, or nullptr (with the reason in `why`) when this machine has none.
std::shared_ptr<EagerRuntime> make_runtime(const std::string& backend, std::string& why) {
  try {
    if (backend == "cpu") return EagerRuntime::cpu();
    if (backend == "webgpu") return EagerRuntime::webgpu();
    return EagerRuntime::cuda(0);
  } catch (const Error& e) {
    why = e.what();
    return nullptr;
  }
}

// A host tensor of `dtype` with values where every prims op is finite (positive, away from 0).
Tensor positive_input(DType dtype, Shape shape, std::uint64_t seed) {
  Tensor t = testing::random_tensor(dtype, shape, seed);
  return visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> v = t.to_vector<T>();
    for (T& x : v) x = x * T(0.25) + T(1.0);
    return Tensor::from_col_major<T>(std::move(shape), v);
  });
}

// One call of `kind` on runtime `rt` with operands of `dtype`.
EagerTensor call_kind(PrimKind kind, const std::shared_ptr<EagerRuntime>& rt, DType dtype) {
  const Shape shape{3, 4};
  const auto input = [&](std::uint64_t seed) {
    return rt->upload(positive_input(dtype, shape, seed));
  };
  const std::vector<std::int64_t> axis0{0};
  switch (kind) {
    case PrimKind::Neg:
      return prims::neg(input(1));
    case PrimKind::Conj:
      return prims::conj(input(1));
    case PrimKind::Abs:
      return prims::abs(input(1));
    case PrimKind::Real:
      return prims::real(input(1));
    case PrimKind::Imag:
      return prims::imag(input(1));
    case PrimKind::Sqrt:
      return prims::sqrt(input(1));
    case PrimKind::Exp:
      return prims::exp(input(1));
    case PrimKind::Exp2:
      return prims::exp2(input(1));
    case PrimKind::Expm1:
      return prims::expm1(input(1));
    case PrimKind::Log:
      return prims::log(input(1));
    case PrimKind::Log1p:
      return prims::log1p(input(1));
    case PrimKind::Log2:
      return prims::log2(input(1));
    case PrimKind::Log10:
      return prims::log10(input(1));
    case PrimKind::Sin:
      return prims::sin(input(1));
    case PrimKind::Cos:
      return prims::cos(input(1));
    case PrimKind::Tan:
      return prims::tan(input(1));
    case PrimKind::Sinh:
      return prims::sinh(input(1));
    case PrimKind::Cosh:
      return prims::cosh(input(1));
    case PrimKind::Tanh:
      return prims::tanh(input(1));
    case PrimKind::Asin:
      return prims::asin(input(1));
    case PrimKind::Acos:
      return prims::acos(input(1));
    case PrimKind::Atan:
      return prims::atan(input(1));
    case PrimKind::Asinh:
      return prims::asinh(input(1));
    case PrimKind::Acosh:
      return prims::acosh(input(1));
    case PrimKind::Atanh:
      return prims::atanh(input(1));
    case PrimKind::Floor:
      return prims::floor(input(1));
    case PrimKind::Ceil:
      return prims::ceil(input(1));
    case PrimKind::Rint:
      return prims::rint(input(1));
    case PrimKind::Trunc:
      return prims::trunc(input(1));
    case PrimKind::Cbrt:
      return prims::cbrt(input(1));
    case PrimKind::Reciprocal:
      return prims::reciprocal(input(1));
    case PrimKind::Square:
      return prims::square(input(1));
    case PrimKind::Sign:
      return prims::sign(input(1));
    case PrimKind::Add:
      return prims::add(input(1), input(2));
    case PrimKind::Sub:
      return prims::sub(input(1), input(2));
    case PrimKind::Mul:
      return prims::mul(input(1), input(2));
    case PrimKind::Div:
      return prims::div(input(1), input(2));
    case PrimKind::Maximum:
      return prims::maximum(input(1), input(2));
    case PrimKind::Minimum:
      return prims::minimum(input(1), input(2));
    case PrimKind::Pow:
      return prims::pow(input(1), input(2));
    case PrimKind::Atan2:
      return prims::atan2(input(1), input(2));
    case PrimKind::Hypot:
      return prims::hypot(input(1), input(2));
    case PrimKind::FloorDiv:
      return prims::floor_div(input(1), input(2));
    case PrimKind::Mod:
      return prims::mod(input(1), input(2));
    case PrimKind::Fmod:
      return prims::fmod(input(1), input(2));
    case PrimKind::Copysign:
      return prims::copysign(input(1), input(2));
    case PrimKind::Complex:
      return prims::complex(input(1), input(2));
    case PrimKind::Greater:
      return prims::greater(input(1), input(2));
    case PrimKind::GreaterEqual:
      return prims::greater_equal(input(1), input(2));
    case PrimKind::Less:
      return prims::less(input(1), input(2));
    case PrimKind::LessEqual:
      return prims::less_equal(input(1), input(2));
    case PrimKind::Equal:
      return prims::equal(input(1), input(2));
    case PrimKind::NotEqual:
      return prims::not_equal(input(1), input(2));
    case PrimKind::Where:
      return prims::where(input(1), input(2), input(3));
    case PrimKind::Affine:
      return prims::scale(input(1), 3.0);
    case PrimKind::Axpby:
      return prims::axpby(2.0, input(1), -1.0, input(2));
    case PrimKind::Cast:
      return prims::cast(input(1), dtype);
    case PrimKind::Sum:
      return prims::sum(input(1), axis0);
    case PrimKind::Mean:
      return prims::mean(input(1), axis0);
    case PrimKind::Prod:
      return prims::prod(input(1), axis0);
    case PrimKind::Max:
      return prims::max(input(1), axis0);
    case PrimKind::Min:
      return prims::min(input(1), axis0);
    case PrimKind::Norm:
      return prims::norm(input(1), axis0);
    case PrimKind::Flip:
      return prims::flip(input(1));
    case PrimKind::ArgMax:
      return prims::argmax(input(1), 0);
    case PrimKind::ArgMin:
      return prims::argmin(input(1), 0);
    case PrimKind::CumSum:
      return prims::cumsum(input(1), 1);
    case PrimKind::CumProd:
      return prims::cumprod(input(1), 0);
    case PrimKind::Fill:
      return prims::full(rt, dtype, shape, 2.5);
    case PrimKind::Eye:
      return prims::eye(rt, dtype, 3, 4, 1);
    case PrimKind::Arange:
      return prims::arange(rt, dtype, 0.0, 5.0, 0.5);
    case PrimKind::RandomUniform:
      return prims::random_uniform(rt, dtype, shape, 7);
    case PrimKind::RandomNormal:
      return prims::random_normal(rt, dtype, shape, 7);
  }
  throw std::logic_error("unknown prims kind");
}

class PrimsRegistration : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string why;
    rt_ = make_runtime(GetParam(), why);
    if (!rt_) {
      const char* var = GetParam() == "cuda" ? "TENFERRO_REQUIRE_CUDA" : "TENFERRO_REQUIRE_WEBGPU";
      if (required(var)) FAIL() << "a " << GetParam() << " runtime was expected: " << why;
      GTEST_SKIP() << "no " << GetParam() << " runtime on this machine (" << why << "); set " << var
                   << "=1 to make this a failure";
    }
  }
  std::shared_ptr<EagerRuntime> rt_;
};

TEST_P(PrimsRegistration, EveryAdmittedOpRunsAndEveryOtherIsRefusedBeforeExecution) {
  const BackendKind backend = rt_->backend().kind();
  const std::string counter =
      std::string(prims_family::kFamily) + "@" + std::string(backend_kind_name(backend));
  const AdmissionTable& table = prims_family::admission_table();
  int admitted = 0;
  for (const prims_internal::PrimInfo& info : prims_internal::kPrimInfo) {
    for (DType dtype : kAllDTypes) {
      // Semantics first: a dtype the op is not defined for is a Validation error everywhere.
      if ((info.dtypes & prims_internal::dtype_bit(dtype)) == 0) continue;
      const std::string what = std::string(info.name) + " " + std::string(dtype_name(dtype));
      if (table.admits(info.name, backend, dtype)) {
        ++admitted;
        // Operands are uploaded before the snapshot; the op itself must not transfer.
        EagerTensor out;
        RuntimeStats before, after;
        try {
          // Creation ops have no operands; the others upload theirs inside call_kind, so take
          // the snapshot around the call and discount the uploads it made.
          before = rt_->stats();
          out = call_kind(info.kind, rt_, dtype);
          after = rt_->stats();
        } catch (const Error& e) {
          ADD_FAILURE() << what << " is admitted on " << backend_kind_name(backend)
                        << " but failed: " << e.what();
          continue;
        }
        EXPECT_EQ(out.placement(), rt_->backend().placement()) << what;
        EXPECT_EQ(out.runtime().get(), rt_.get()) << what;
        EXPECT_EQ(after.downloads, before.downloads) << what;
        EXPECT_GT(after.kernel_launches_for(counter), before.kernel_launches_for(counter)) << what;
      } else {
        EagerTensor ignored;
        const std::uint64_t launches = rt_->stats().kernel_launches_for(counter);
        try {
          ignored = call_kind(info.kind, rt_, dtype);
          ADD_FAILURE() << what << " is not admitted on " << backend_kind_name(backend)
                        << " but ran";
        } catch (const Error& e) {
          EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << what << ": " << e.what();
        }
        EXPECT_EQ(rt_->stats().kernel_launches_for(counter), launches)
            << what << " launched a kernel";
      }
    }
  }
  EXPECT_GT(admitted, 0) << "the " << GetParam() << " runtime admits no prims op at all";
}

INSTANTIATE_TEST_SUITE_P(Backends, PrimsRegistration, ::testing::Values("cpu", "webgpu", "cuda"),
                         [](const auto& info) { return info.param; });

TEST(PrimsContract, OperandsOfTwoRuntimesFailBeforeAnyCastRuns) {
  auto rt1 = EagerRuntime::cpu(), rt2 = EagerRuntime::cpu();
  EagerTensor a = rt1->upload(Tensor::zeros(DType::F32, {2}));
  EagerTensor b = rt2->upload(Tensor::zeros(DType::F64, {2}));
  try {
    prims::add(a, b);  // would promote a to F64 first
    ADD_FAILURE() << "operands of two runtimes were accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::ContextMismatch) << e.what();
  }
  EXPECT_TRUE(rt1->stats().kernel_launches.empty());
  EXPECT_TRUE(rt2->stats().kernel_launches.empty());
  try {
    prims::concatenate(std::vector<EagerTensor>{a, b});
    ADD_FAILURE() << "concatenate accepted tensors of two runtimes";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::ContextMismatch) << e.what();
  }
  EXPECT_TRUE(rt1->stats().kernel_launches.empty());
}

TEST(PrimsContract, CreationNeedsARuntime) {
  try {
    prims::zeros(nullptr, DType::F64, {2});
    ADD_FAILURE() << "zeros ran without a runtime";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::RuntimeState) << e.what();
  }
}

TEST(PrimsContract, ViewsShareTheBufferAndLaunchNothing) {
  auto rt = EagerRuntime::cpu();
  EagerTensor x = rt->upload(Tensor::zeros(DType::F64, {4, 6}));
  const RuntimeStats before = rt->stats();
  const prims::Slice rows{1, 3, 1};
  const EagerTensor views[] = {prims::transpose(x),
                               prims::reshape(x, {2, 12}),
                               prims::slice(x, std::span(&rows, 1)),
                               prims::diagonal(x, 1),
                               prims::broadcast_to(prims::reshape(x, {1, 4, 6}), {3, 4, 6}),
                               prims::contiguous(x)};
  for (const EagerTensor& v : views) EXPECT_EQ(v.buffer().get(), x.buffer().get());
  EXPECT_TRUE(rt->stats().kernel_launches.empty());
  EXPECT_EQ(rt->stats().uploads, before.uploads);
}

TEST(PrimsContract, PromotionIsOneCastKernelThenTheOp) {
  auto rt = EagerRuntime::cpu();
  EagerTensor a = rt->upload(Tensor::zeros(DType::F32, {3}));
  EagerTensor b = rt->upload(Tensor::zeros(DType::C64, {3}));
  const EagerTensor c = a + b;
  EXPECT_EQ(c.dtype(), DType::C64);
  EXPECT_EQ(rt->stats().kernel_launches_for("tenferro.prims.v1@cpu"), 2u);
}

}  // namespace
}  // namespace tenferro
