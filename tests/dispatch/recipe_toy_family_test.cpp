// docs/architecture.md's recipes, compiled: a toy op family with two element-wise ops ("add a
// prim", "add an op family") and a toy host-memory backend ("add a backend"), registered only
// through what the built-in families use:
//   - one op list (an X-macro) from which the op enum, the op names and the registration rows
//     come;
//   - a RegistrationTable of rows (op, backend kind, dtypes) -> kernel, which gives admission,
//     the modules and the warm call's index;
//   - each op's math as one functor handed to the CPU strided-kernel layer
//     (cpu_strided::for_each_strided), not a loop of its own;
//   - a backend built by the caller and adopted by EagerRuntime::with_backend.
// If a recipe comes to need a step the page does not list, this file stops compiling or a test
// below fails. What the toy cannot show: a new BackendKind (the enum is the one list of
// backends; the toy backend runs the rows of the kind it claims) and an AD rule (the registry
// is built from the prims list, which tests cannot extend).
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/strided_loops.hpp"
#include "runtime/dispatch_internal.hpp"
#include "runtime/dtype_mask.hpp"
#include "runtime/op_cast.hpp"
#include "runtime/registration_table.hpp"
#include "support/error_kind.hpp"
#include "support/test_device_backend.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

using runtime_internal::OpKey;
using runtime_internal::Registration;
using runtime_internal::RegistrationTable;

constexpr std::string_view kToyFamily = "tenferro.test.toy.v1";

// ---- "add a prim": one row here, one functor below, nothing else. ----
#define TOY_OPS(X) \
  X(Cube, cube)    \
  X(Clamp01, clamp01)

enum class ToyOp : std::uint32_t {
#define TOY_ENUM(Kind, fn) Kind,
  TOY_OPS(TOY_ENUM)
#undef TOY_ENUM
};

// Each op's math: a functor of one element (real dtypes).
template <ToyOp Op>
struct ToyMath;
template <>
struct ToyMath<ToyOp::Cube> {
  template <class T>
  T operator()(T x) const {
    return x * x * x;
  }
};
template <>
struct ToyMath<ToyOp::Clamp01> {
  template <class T>
  T operator()(T x) const {
    return std::isnan(x) ? x : std::min(std::max(x, T(0)), T(1));
  }
};

// The op: its kind is the whole payload.
class ToyCall final : public ExtensionOp {
 public:
  explicit ToyCall(ToyOp op) : op_(op) {}
  ToyOp op() const noexcept { return op_; }
  std::string_view family() const noexcept override { return kToyFamily; }
  std::string_view name() const noexcept override {
    switch (op_) {
#define TOY_NAME(Kind, fn) \
  case ToyOp::Kind:        \
    return #fn;
      TOY_OPS(TOY_NAME)
#undef TOY_NAME
    }
    return "toy";
  }
  std::size_t arity() const noexcept override {
    return 1;
  }
  std::uint64_t payload_hash() const noexcept override {
    return static_cast<std::uint64_t>(op_);
  }
  bool payload_equals(const ExtensionOp& other) const noexcept override {
    const auto* o = runtime_internal::op_as<ToyCall>(other);
    return o != nullptr && o->op_ == op_;
  }
  std::vector<TensorMeta> infer_outputs(std::span<const TensorMeta> inputs) const override {
    return {inputs[0]};
  }

 private:
  ToyOp op_;
};

// The CPU kernel of one op: the output is allocated in the runtime, and the functor runs on the
// strided-kernel layer (strided inputs, threads and the flat fast path come from the layer).
template <ToyOp Op, class T>
void run_typed(const EagerTensor& in, const EagerTensor& out) {
  const T* x = reinterpret_cast<const T*>(in.buffer()->host_data());
  T* y = reinterpret_cast<T*>(out.buffer()->host_data());
  cpu_strided::for_each_strided<2>(
      out.shape(), {out.strides(), in.strides()}, {out.layout().offset, in.layout().offset},
      [&](const std::array<std::int64_t, 2>& at) { y[at[0]] = ToyMath<Op>{}(x[at[1]]); },
      /*parallel=*/true, /*order_by=*/0);
}

template <ToyOp Op>
std::vector<EagerTensor> toy_cpu_kernel(const ExecutionContext& ctx, const ExtensionOp&,
                                        std::span<const EagerTensor> inputs) {
  const EagerTensor& in = inputs[0];
  EagerTensor out = ctx.allocate(in.dtype(), in.shape());
  ctx.record_kernel_launch();
  if (in.dtype() == DType::F32) {
    run_typed<Op, float>(in, out);
  } else {
    run_typed<Op, double>(in, out);
  }
  return {out};
}

OpKey toy_key(const ExtensionOp& op, std::span<const EagerTensor> inputs) {
  const auto* call = runtime_internal::op_as<ToyCall>(op);
  if (call == nullptr)
    throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, "toy", "not a toy op");
  return {static_cast<std::uint32_t>(call->op()), inputs[0].dtype()};
}

// ---- "add an op family": its info, its rows, its dispatch. ----
const RegistrationTable& toy_table() {
  static const RegistrationTable table = [] {
    runtime_internal::FamilyInfo info;
    info.family = std::string(kToyFamily);
#define TOY_OP_NAME(Kind, fn) info.ops.emplace_back(#fn);
    TOY_OPS(TOY_OP_NAME)
#undef TOY_OP_NAME
    info.key_of = &toy_key;
    for (std::string& why : info.missing) why = "the toy family runs on CPU memory only";
    const runtime_internal::DTypeMask real = runtime_internal::dtypes({DType::F32, DType::F64});
    std::vector<Registration> rows;
#define TOY_ROW(Kind, fn)                                                          \
  rows.push_back({static_cast<std::uint32_t>(ToyOp::Kind), BackendKind::Cpu, real, \
                  &toy_cpu_kernel<ToyOp::Kind>});
    TOY_OPS(TOY_ROW)
#undef TOY_ROW
    return RegistrationTable(std::move(info), std::move(rows));
  }();
  return table;
}

EagerTensor toy_apply(ToyOp op, const EagerTensor& x) {
  const ToyCall call(op);
  const std::span<const EagerTensor> inputs(&x, 1);
  const std::shared_ptr<EagerRuntime>& runtime = require_one_runtime(call.name(), inputs, 1);
  return runtime_internal::dispatch_table(runtime, call, inputs, toy_table(), toy_key(call, inputs))
      .at(0);
}

// ---- "add a backend": a backend of host memory with its own engine and allocation domain. ----
class ToyHostBuffer final : public Buffer {
 public:
  ToyHostBuffer(Placement placement, std::size_t bytes)
      : Buffer(placement, bytes), storage_(std::make_shared<HostStorage>(bytes)) {}
  std::byte* host_data() const noexcept override { return storage_->data(); }

 private:
  std::shared_ptr<HostStorage> host_storage(
      const std::shared_ptr<Buffer>&) const noexcept override {
    return storage_;
  }
  std::shared_ptr<HostStorage> storage_;
};

class ToyHostBackend final : public Backend {
 public:
  ToyHostBackend()
      : engine_("tenferro.test.toyhost.v1"),
        placement_{MemoryKind::Host, BackendKind::Cpu, 0, next_allocation_domain()} {}
  BackendKind kind() const noexcept override { return BackendKind::Cpu; }
  const EngineId* direct_engine() const noexcept override { return &engine_; }
  const Placement& placement() const noexcept override { return placement_; }
  std::string description() const override { return "toy host backend (tests)"; }
  bool serializes_sessions() const noexcept override { return false; }
  std::shared_ptr<Buffer> allocate(std::size_t bytes) override {
    ++allocations;
    return std::make_shared<ToyHostBuffer>(placement_, bytes - std::min(bytes, short_by));
  }
  void write(Buffer& dst, std::size_t offset, std::span<const std::byte> src) override {
    if (!src.empty()) std::memcpy(dst.host_data() + offset, src.data(), src.size());
  }
  void read(const Buffer& src, std::size_t offset, std::span<std::byte> dst) override {
    if (!dst.empty()) std::memcpy(dst.data(), src.host_data() + offset, dst.size());
  }
  int allocations = 0;
  std::size_t short_by = 0;  // a defective backend: buffers this many bytes short

 private:
  EngineId engine_;
  Placement placement_;
};

// ---- the tests ----

Tensor ramp(DType dtype, Shape shape) {
  Tensor t = Tensor::zeros(dtype, shape);
  const std::int64_t n = t.numel();
  for (std::int64_t i = 0; i < n; ++i) {
    const double v = -1.5 + 3.0 * static_cast<double>(i) / static_cast<double>(n);
    if (dtype == DType::F32) {
      t.data<float>()[i] = static_cast<float>(v);
    } else {
      t.data<double>()[i] = v;
    }
  }
  return t;
}

double at(const Tensor& t, std::int64_t i) {
  return t.dtype() == DType::F32 ? static_cast<double>(t.data<float>()[i]) : t.data<double>()[i];
}

void expect_cube_of(const Tensor& x, const Tensor& y) {
  ASSERT_EQ(y.shape(), x.shape());
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    const double v = at(x, i);
    EXPECT_NEAR(at(y, i), v * v * v, 1e-6 * (1 + std::abs(v * v * v))) << "element " << i;
  }
}

TEST(RecipeToyFamily, EveryOpOfTheListRunsOnTheCpuRuntime) {
  auto rt = EagerRuntime::cpu();
  for (DType dtype : {DType::F32, DType::F64}) {
    const Tensor x = ramp(dtype, {5, 7});
    const EagerTensor tx = rt->upload(x);
    expect_cube_of(x, toy_apply(ToyOp::Cube, tx).download());
    const Tensor c = toy_apply(ToyOp::Clamp01, tx).download();
    for (std::int64_t i = 0; i < x.numel(); ++i)
      EXPECT_EQ(at(c, i), std::min(std::max(at(x, i), 0.0), 1.0));
  }
  EXPECT_EQ(rt->stats().kernel_launches_for(std::string(kToyFamily) + "@cpu"), 4u);
}

TEST(RecipeToyFamily, AStridedViewGoesThroughTheKernelLayer) {
  // A transposed view: the functor sees strided operands, and the result matches the op on
  // the view's contiguous copy.
  auto rt = EagerRuntime::cpu();
  const EagerTensor x = rt->upload(ramp(DType::F64, {64, 33}));
  const EagerTensor view = prims::transpose(x);
  ASSERT_FALSE(view.layout().is_compact());
  expect_cube_of(prims::contiguous(view).download(), toy_apply(ToyOp::Cube, view).download());
}

TEST(RecipeToyFamily, TheTableAnswersAdmissionBeforeAnythingRuns) {
  auto rt = EagerRuntime::cpu();
  // A dtype without a row: Unsupported, from the table, before any module is installed.
  const EagerTensor z = rt->upload(Tensor::zeros(DType::C64, {3}));
  const std::uint64_t installs = rt->stats().module_installs;
  EXPECT_EQ(testing::kind_of([&] { toy_apply(ToyOp::Cube, z); }), ErrorKind::Unsupported);
  EXPECT_EQ(rt->stats().module_installs, installs);
  EXPECT_FALSE(
      toy_table().admits(static_cast<std::uint32_t>(ToyOp::Cube), BackendKind::Cpu, DType::C64));
  // A backend kind without rows (a device-like runtime claiming CUDA): Unsupported, and no toy
  // kernel ran.
  auto device = testing::make_test_device_runtime(BackendKind::Cuda);
  const EagerTensor d = device->upload(ramp(DType::F64, {4}));
  EXPECT_EQ(testing::kind_of([&] { toy_apply(ToyOp::Cube, d); }), ErrorKind::Unsupported);
  EXPECT_EQ(device->stats().kernel_launches_for(std::string(kToyFamily) + "@cuda"), 0u);
  // The table's admission is the public one `tenferro info` would print.
  EXPECT_NE(toy_table().admission().to_text().find("cube"), std::string::npos);
}

TEST(RecipeToyFamily, AToyHostBackendRunsTheRowsOfItsKindWithItsOwnModule) {
  auto owned = std::make_unique<ToyHostBackend>();
  ToyHostBackend* backend = owned.get();
  auto rt = EagerRuntime::with_backend(std::move(owned));
  const Tensor x = ramp(DType::F64, {6, 4});
  const EagerTensor tx = rt->upload(x);
  const int before = backend->allocations;

  // The toy family and a built-in one run on it; outputs are its own buffers.
  const EagerTensor cubed = toy_apply(ToyOp::Cube, tx);
  const EagerTensor sum = prims::add(cubed, tx);
  EXPECT_EQ(cubed.placement(), backend->placement());
  EXPECT_EQ(sum.placement(), backend->placement());
  EXPECT_EQ(backend->allocations, before + 2);
  const Tensor s = sum.download();
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    const double v = at(x, i);
    EXPECT_NEAR(at(s, i), v * v * v + v, 1e-12);
  }
  // Its module is its engine's, not the CPU runtime's.
  const ModulePtr module = toy_table().module_for(rt->extension_target());
  const ModulePtr cpu_module = toy_table().module_for(EagerRuntime::cpu()->extension_target());
  EXPECT_NE(module->id(), cpu_module->id());
  EXPECT_NE(module->id().find("tenferro.test.toyhost.v1"), std::string::npos);

  // Operands of two runtimes are refused before any kernel runs.
  auto cpu = EagerRuntime::cpu();
  const EagerTensor other = cpu->upload(x);
  EXPECT_EQ(testing::kind_of([&] { prims::add(tx, other); }), ErrorKind::ContextMismatch);
}

// An op's output is built without the public constructor's layout check, so the runtime
// checks the size of what the backend returned: a backend (anyone's code, through
// with_backend) that hands out a buffer too small gets a typed error, not writes past its end.
TEST(RecipeToyFamily, ABackendThatAllocatesTooLittleIsRefusedBeforeAKernelWrites) {
  auto owned = std::make_unique<ToyHostBackend>();
  ToyHostBackend* backend = owned.get();
  auto rt = EagerRuntime::with_backend(std::move(owned));
  const EagerTensor tx = rt->upload(ramp(DType::F64, {6, 4}));
  backend->short_by = 8;
  EXPECT_EQ(testing::kind_of([&] { prims::add(tx, tx); }), ErrorKind::Validation);
  EXPECT_EQ(testing::kind_of([&] { toy_apply(ToyOp::Cube, tx); }), ErrorKind::Validation);
  backend->short_by = 0;
  EXPECT_NO_THROW(prims::add(tx, tx));  // the runtime stays usable
}

}  // namespace
}  // namespace tenferro
