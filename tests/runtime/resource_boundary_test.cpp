// Allocation failures at the op boundary (DESIGN §3): whatever an executor's allocations throw
// -- std::bad_alloc, a container's std::length_error, or the ResourceError of a size checked
// before allocating -- reaches the caller as a typed Resource error naming the op, and the
// same runtime then runs a normal call.
#include <gtest/gtest.h>

#include <limits>
#include <new>
#include <stdexcept>
#include <vector>

#include "support/expect_resource_error.hpp"
#include "support/test_family.hpp"
#include "tenferro/tenferro.hpp"

namespace tenferro {
namespace {

using testing::ScaleOp;

// A module for the test family whose executor runs `body` (bound to the CPU engine).
ModulePtr module_running(std::function<void(const ExecutionContext&)> body) {
  auto m = std::make_shared<ExtensionModule>("tenferro.test.allocation");
  m->register_executor(std::string(testing::kTestFamily), EngineId("tenferro.cpu.v1"),
                       [body](const ExecutionContext& ctx, const ExtensionOp&,
                              std::span<const EagerTensor>) -> std::vector<EagerTensor> {
                         body(ctx);
                         return {};
                       });
  return m;
}

// Runs the test op on `x` with `module`, expecting a Resource error; returns it.
ResourceError expect_resource_error(const EagerTensor& x, const ModulePtr& module) {
  return testing::expect_resource_error([&] {
    apply_eager_with_targeted_extension_session(
        ScaleOp(), std::span(&x, 1), [&](const EagerExtensionTarget&) { return module; });
  });
}

// The same runtime still runs the real test op: y = 2 x.
void expect_runtime_usable(const std::shared_ptr<EagerRuntime>& rt, const EagerTensor& x) {
  const auto out = apply_eager_with_targeted_extension_session(ScaleOp(), std::span(&x, 1),
                                                               testing::target_factory);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].download().to_vector<double>(), (std::vector<double>{2, 4, 6}));
  EXPECT_EQ(out[0].runtime().get(), rt.get());
}

TEST(ResourceBoundary, KindHasAName) {
  EXPECT_EQ(error_kind_name(ErrorKind::Resource), "Resource");
}

TEST(ResourceBoundary, BadAllocBecomesAResourceErrorNamingTheOp) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor x = rt->upload(Tensor::from_col_major<double>({3}, {1, 2, 3}));
  const ModulePtr failing = module_running([](const ExecutionContext&) { throw std::bad_alloc(); });
  try {
    apply_eager_with_targeted_extension_session(
        ScaleOp(), std::span(&x, 1), [&](const EagerExtensionTarget&) { return failing; });
    ADD_FAILURE() << "no error";
  } catch (const ResourceError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Resource);
    EXPECT_EQ(e.op(), "test.scale");
    EXPECT_EQ(e.phase(), ErrorPhase::Execute);
    EXPECT_TRUE(e.available_bytes().has_value());
    bool nested_bad_alloc = false;
    try {
      std::rethrow_if_nested(e);
    } catch (const std::bad_alloc&) {
      nested_bad_alloc = true;
    } catch (...) {
    }
    EXPECT_TRUE(nested_bad_alloc) << "the allocator's failure is kept as the nested cause";
  }
  expect_runtime_usable(rt, x);
}

TEST(ResourceBoundary, ContainerLengthErrorBecomesAResourceError) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor x = rt->upload(Tensor::from_col_major<double>({3}, {1, 2, 3}));
  const ResourceError e = expect_resource_error(x, module_running([](const ExecutionContext&) {
                                                  std::vector<double> v;
                                                  v.reserve(v.max_size() + 1);  // length_error
                                                }));
  EXPECT_EQ(e.op(), "test.scale");
  expect_runtime_usable(rt, x);
}

TEST(ResourceBoundary, OversizedOutputIsRefusedBeforeAllocatingWithTheBytesAsked) {
  auto rt = EagerRuntime::cpu();
  const EagerTensor x = rt->upload(Tensor::from_col_major<double>({3}, {1, 2, 3}));
  // 2^47 doubles = 1 PiB: more than any host (and than AddressSanitizer's 1 TiB cap), so the
  // check refuses it before the allocator runs (under ASan the allocator would abort).
  const std::int64_t count = std::int64_t{1} << 47;
  const ResourceError e = expect_resource_error(
      x, module_running([&](const ExecutionContext& c) { (void)c.allocate(DType::F64, {count}); }));
  EXPECT_EQ(e.op(), "test.scale");
  EXPECT_EQ(e.requested_bytes(), static_cast<std::uint64_t>(count) * 8);
  ASSERT_TRUE(e.available_bytes().has_value());
  EXPECT_LT(*e.available_bytes(), e.requested_bytes());
  EXPECT_NE(std::string(e.what()).find(std::to_string(count * 8)), std::string::npos) << e.what();
  expect_runtime_usable(rt, x);
}

TEST(ResourceBoundary, UploadOfAnOversizedTensorIsAResourceError) {
  // Tensor construction itself (no op boundary) is typed too.
  try {
    (void)Tensor::zeros(DType::C64, {std::int64_t{1} << 46});
    ADD_FAILURE() << "a 1 PiB tensor was allocated";
  } catch (const ResourceError& e) {
    EXPECT_EQ(e.requested_bytes(), (std::uint64_t{1} << 46) * 16);
  }
}

}  // namespace
}  // namespace tenferro
