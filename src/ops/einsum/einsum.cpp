// The public einsum API: operand checks, the plan cache, the direct binary-dot path and the
// N-ary path through the targeted extension dispatch.
//
// Direct binary-dot path: taken when (a) allow_direct_binary is on, (b) there are two
// operands, every label occurs once per operand, no extent broadcasts, every label is either
// shared by both operands or kept in the output, and at least one label is contracted, and
// (c) with the operands' actual strides and a fresh compact column-major output, the free,
// contracted and batch label groups each fuse into one dimension of every operand and form
// column- or row-major matrices per batch (BLAS-compatible). Then the call is exactly one
// (batched) GEMM on the runtime's own ContractionKernels, with no module install. Examples:
// "ij,jk->ik", "ij,jk", "ij,kj->ik", "ji,jk->ik", "ijb,jkb->ikb", "ij,jk->ki" (C written
// transposed). Not direct: "bij,bjk->bik" on compact column-major operands (batch is the
// fastest axis, so no matrix has a unit stride), traces, diagonals, lone sums, Hadamard and
// outer products, and anything with more operands.
#include <bit>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>

#include "ops/einsum/broadcast_axes.hpp"
#include "ops/einsum/einsum_op.hpp"
#include "ops/einsum/executor.hpp"
#include "ops/einsum/expression.hpp"
#include "ops/einsum/kernel_session.hpp"
#include "ops/einsum/path.hpp"
#include "ops/einsum/program.hpp"
#include "ops/einsum/registration.hpp"
#include "runtime/call_scope.hpp"
#include "runtime/dispatch_internal.hpp"
#include "runtime/key_buffer.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro {
namespace {

using einsum_internal::EinsumPlan;
using PlanPtr = std::shared_ptr<const EinsumPlan>;

// Either subscripts or integer labels: what the user wrote.
struct Notation {
  std::string_view subscripts;
  const EinsumLabels* labels = nullptr;
};

// The fixed-size part of a plan key: every scalar that shapes the plan, copied into the key in
// one piece. No padding (checked below), so equal options give equal bytes; the doubles are
// their exact bit patterns.
struct PlanKeyScalars {
  std::uint64_t time_budget_bits, combo_factor_bits, memory_limit_bits;
  std::uint64_t planner_registration, seed;
  std::int32_t hyper_trials;
  std::uint32_t operands, path_steps;
  std::uint8_t flags, dtype, strategy, objective;  // flags: kLabelNotation | kReusePaths
};
constexpr std::uint8_t kLabelNotation = 1, kReusePaths = 2;
static_assert(std::has_unique_object_representations_v<PlanKeyScalars>,
              "a padding byte would make equal options compare unequal");

// What a key holds of the operands: the plan cache's key their dtype and shapes; the path
// memo's (EinsumOptions::reuse_path_across_shapes) only their ranks, which the parse depends on.
enum class KeyOperands : std::uint8_t { Shapes, Ranks };

// A plan key: notation, the operands (KeyOperands) and the options that shape the plan, as raw
// bytes in a stack buffer (a warm call builds no string and allocates nothing here).
void append_key(runtime_internal::KeyBuffer& key, const Notation& n,
                std::span<const EagerTensor> operands, DType dtype, const EinsumOptions& options,
                const einsum_internal::PlannerChoice& planner, KeyOperands what) {
  // The chosen strategy, or the user planner's registration (its name alone could be reused
  // by a different planner after unregistering); the hyper search's settings and the memory
  // limit shape the plan too.
  const PlanKeyScalars scalars{
      std::bit_cast<std::uint64_t>(options.time_budget_seconds),
      std::bit_cast<std::uint64_t>(options.combo_factor),
      std::bit_cast<std::uint64_t>(options.memory_limit),
      static_cast<std::uint64_t>(planner.registration),
      static_cast<std::uint64_t>(options.seed),
      static_cast<std::int32_t>(options.hyper_trials),
      static_cast<std::uint32_t>(operands.size()),
      static_cast<std::uint32_t>(options.path.size()),
      static_cast<std::uint8_t>((n.labels ? kLabelNotation : 0) |
                                (options.reuse_path_across_shapes ? kReusePaths : 0)),
      static_cast<std::uint8_t>(what == KeyOperands::Shapes ? static_cast<int>(dtype) : 0xff),
      static_cast<std::uint8_t>(planner.strategy),
      static_cast<std::uint8_t>(options.objective)};
  key.bytes(&scalars, sizeof scalars);
  if (n.labels) {
    key.word(static_cast<std::uint32_t>(n.labels->inputs.size()));
    for (const auto& in : n.labels->inputs) {
      key.word(static_cast<std::uint32_t>(in.size()));
      key.bytes(in.data(), in.size() * sizeof(in[0]));
    }
    key.word(static_cast<std::uint32_t>(n.labels->output.size()));
    key.bytes(n.labels->output.data(), n.labels->output.size() * sizeof(n.labels->output[0]));
  } else {
    key.text(n.subscripts);
  }
  bool zero_strides = false;  // rare: a warm call looks no further at them than this
  for (const auto& operand : operands) {
    const Shape& shape = operand.shape();
    key.word(static_cast<std::uint32_t>(shape.size()));
    if (what == KeyOperands::Shapes) key.bytes(shape.data(), shape.size() * sizeof(shape[0]));
    zero_strides = zero_strides || einsum_internal::has_zero_stride(operand);
  }
  for (const auto& [i, j] : options.path) {
    key.word(static_cast<std::int64_t>(i));
    key.word(static_cast<std::int64_t>(j));
  }
  // Broadcast axes change the plan (broadcast_axes.hpp). Keyed from the first operand that has
  // one, so a call without any keys nothing more (a longer key never equals a shorter one).
  for (std::size_t i = 0; zero_strides && i < operands.size(); ++i) {
    const std::uint64_t first = einsum_internal::broadcast_axes(operands[i]);
    if (first == 0) continue;
    key.word(static_cast<std::uint32_t>(i));
    key.word(first);
    for (std::size_t j = i + 1; j < operands.size(); ++j)
      key.word(einsum_internal::broadcast_axes(operands[j]));
    break;
  }
}

// The path memo's value: the last path planned (not reused) for an equation, and the shapes it
// was planned for, as the report names them.
struct PathMemo {
  EinsumPath path;
  std::string shapes;
};

std::string shapes_text(std::span<const Shape> shapes) {
  constexpr std::size_t kShown = 8;  // a 200-operand network's shapes would fill a screen
  std::string text;
  for (std::size_t i = 0; i < shapes.size() && i < kShown; ++i)
    text += (i ? " " : "") + shape_to_string(shapes[i]);
  if (shapes.size() > kShown) text += " and " + std::to_string(shapes.size() - kShown) + " more";
  return text;
}

// The equation read against the operands' shapes: its Validation errors come first.
struct Equation {
  einsum_internal::EinsumExpression expr;
  std::vector<std::int64_t> sizes;  // per label
};

Equation read_equation(const Notation& n, std::span<const Shape> shapes) {
  std::vector<std::int64_t> ranks;
  for (const auto& s : shapes) ranks.push_back(static_cast<std::int64_t>(s.size()));
  einsum_internal::EinsumExpression expr =
      n.labels ? einsum_internal::from_labels(*n.labels, ranks)
               : einsum_internal::parse_subscripts(n.subscripts, ranks);
  std::vector<std::int64_t> sizes = einsum_internal::label_sizes(expr, shapes);
  return {std::move(expr), std::move(sizes)};
}

// Plans the call. `memo`, when given, is the runtime's path memo of this equation: its path is
// tried first (reuse_path) and a path planned afresh replaces it. `step_text`: whether the
// path's steps carry their report text (einsum_path's plans; an einsum call's do not).
PlanPtr make_plan(Equation equation, std::vector<Shape> shapes, DType dtype,
                  const EinsumOptions& options, const einsum_internal::PlannerChoice& planner,
                  bool step_text, const std::function<std::shared_ptr<PathMemo>()>& find_memo = {},
                  const std::function<void(std::shared_ptr<PathMemo>)>& store_memo = {}) {
  auto& [expr, sizes] = equation;
  std::optional<EinsumPath> path;
  if (find_memo) {
    if (const std::shared_ptr<PathMemo> memo = find_memo()) {
      path = einsum_internal::reuse_path(expr, sizes, options, planner, memo->path, step_text);
      if (path) path->steps_planned_for = memo->shapes;
    }
  }
  if (!path) {
    path = einsum_internal::plan_path(expr, sizes, options, planner, step_text);
    if (store_memo) store_memo(std::make_shared<PathMemo>(PathMemo{*path, shapes_text(shapes)}));
  }
  return std::make_shared<const EinsumPlan>(einsum_internal::build_plan(
      std::move(expr), std::move(sizes), std::move(*path), dtype, std::move(shapes)));
}

DType common_dtype(std::span<const EagerTensor> operands) {
  const DType dtype = operands[0].dtype();
  for (std::size_t i = 1; i < operands.size(); ++i)
    if (operands[i].dtype() != dtype)
      throw_validation("einsum", "all operands must share one dtype: operand 0 is " +
                                     std::string(dtype_name(dtype)) + ", operand " +
                                     std::to_string(i) + " is " +
                                     std::string(dtype_name(operands[i].dtype())));
  return dtype;
}

bool inputs_enter(const EagerRuntime& runtime, std::span<const EagerTensor> operands) {
  for (const auto& t : operands)
    if (!runtime.backend().accepts(t.placement())) return false;
  return true;
}

// `plan` is taken by value and moved into the op: each shared_ptr copy is an atomic increment
// and decrement on the warm path.
EagerTensor execute(const std::shared_ptr<EagerRuntime>& runtime, PlanPtr plan,
                    std::span<const EagerTensor> operands, const EinsumOptions& options,
                    einsum_internal::SliceRange slices = {}) {
  std::vector<EagerTensor> views;  // the operands without the axes the plan leaves out
  if (!plan->dropped_axes.empty()) {
    views = einsum_internal::without_axes(operands, plan->dropped_axes);
    operands = views;
  }
  if (options.allow_direct_binary && plan->direct_candidate && plan->path.sliced_labels.empty() &&
      einsum_internal::registration_table().admits(einsum_internal::kEinsumOp,
                                                   runtime->backend_kind(), plan->dtype) &&
      inputs_enter(*runtime, operands)) {
    einsum_internal::ContractionKernels* kernels =
        einsum_internal::contraction_kernels_for(*runtime);
    if (kernels && einsum_internal::direct_binary_applicable(*plan, operands)) {
      return einsum_internal::run_on_own_kernels(*runtime, "einsum", [&] {
        return einsum_internal::run_program(*runtime, *kernels, *plan, operands);
      });
    }
  }
  // Admission is answered from the registration table before any install. The caller ran
  // step 1 (one runtime, arity): the dispatcher does not repeat it.
  const runtime_internal::OpKey key{einsum_internal::kEinsumOp, plan->dtype};
  const einsum_internal::EinsumOp op(std::move(plan), slices);
  // Moved out: copying an EagerTensor copies its shape and strides.
  std::vector<EagerTensor> outputs = runtime_internal::dispatch_table(
      runtime, op, operands, einsum_internal::registration_table(), key);
  return std::move(outputs.front());
}

// What a plan is for: a call, which is refused before planning when its dispatch would refuse
// it (so a refused call costs no planning and leaves no plan behind), or einsum_path's report.
enum class PlanFor : std::uint8_t { Call, Report };

// The plan of a call from the runtime's plan cache, or planned into it (with the path memo's
// help on a miss). `cached` receives whether it was a hit.
PlanPtr find_or_plan(EagerRuntime& runtime, const Notation& n,
                     std::span<const EagerTensor> operands, DType dtype,
                     const EinsumOptions& options, PlanFor plan_for, bool* cached = nullptr) {
  const bool step_text = plan_for == PlanFor::Report;
  // Built straight from the operands, in one buffer: a warm call allocates the key and nothing
  // else here (the shapes are copied only to plan a miss).
  const einsum_internal::PlannerChoice planner = einsum_internal::choose_planner(options);
  runtime_internal::KeyBuffer key;
  append_key(key, n, operands, dtype, options, planner, KeyOperands::Shapes);
  // The key holds the subscripts, shapes, dtype and options; the store re-checks it exactly.
  const CacheKeyView cache_key =
      CacheKeyView{einsum_family::kFamily, "plan", key.hash(), key.view()};
  if (PlanPtr plan = runtime.caches().find<EinsumPlan>(cache_key)) {
    if (cached) *cached = true;
    return plan;
  }
  if (cached) *cached = false;
  std::vector<Shape> shapes;
  shapes.reserve(operands.size());
  for (const auto& t : operands) shapes.push_back(t.shape());
  Equation equation = read_equation(n, shapes);
  std::vector<std::uint64_t> broadcast;
  broadcast.reserve(operands.size());
  for (const auto& t : operands) broadcast.push_back(einsum_internal::broadcast_axes(t));
  std::vector<std::uint64_t> dropped =
      einsum_internal::drop_broadcast_axes(equation.expr, shapes, equation.sizes, broadcast);
  if (plan_for == PlanFor::Call) {
    try {
      runtime_internal::check_dispatchable(runtime, "einsum", operands,
                                           einsum_internal::registration_table(),
                                           {einsum_internal::kEinsumOp, dtype});
    } catch (const Error&) {
      // Refused: the request's own Validation errors still come first, as planning (which
      // the refusal skips) would have raised them.
      einsum_internal::validate_request(equation.expr, equation.sizes, options);
      throw;
    }
  }
  PlanPtr made;
  if (einsum_internal::may_reuse_path(options, planner, operands.size())) {
    runtime_internal::KeyBuffer memo_key;
    append_key(memo_key, n, operands, dtype, options, planner, KeyOperands::Ranks);
    const CacheKeyView memo_view{einsum_family::kFamily, "path-memo", memo_key.hash(),
                                 memo_key.view()};
    made = make_plan(
        std::move(equation), std::move(shapes), dtype, options, planner, step_text,
        [&] { return runtime.caches().find<PathMemo>(memo_view); },
        [&](std::shared_ptr<PathMemo> memo) {
          const std::size_t bytes = sizeof(PathMemo) + memo->path.steps.size() * 8 +
                                    memo->path.method.size() + memo->shapes.size();
          runtime.caches().insert<PathMemo>(CacheKey::of(memo_view), std::move(memo), bytes);
        });
  } else {
    made = make_plan(std::move(equation), std::move(shapes), dtype, options, planner, step_text);
  }
  auto plan = std::const_pointer_cast<EinsumPlan>(made);
  plan->dropped_axes = std::move(dropped);
  runtime.caches().insert<EinsumPlan>(CacheKey::of(cache_key), plan, plan->retained_bytes());
  return made;
}

EagerTensor einsum_impl(const Notation& n, std::span<const EagerTensor> operands,
                        const EinsumOptions& options) {
  const std::shared_ptr<EagerRuntime>& runtime =
      require_one_runtime("einsum", operands, operands.size());
  const RuntimeCallScope call_scope(*runtime);  // planning and the direct path included
  const DType dtype = common_dtype(operands);
  return execute(runtime, find_or_plan(*runtime, n, operands, dtype, options, PlanFor::Call),
                 operands, options);
}

}  // namespace

EagerTensor einsum(std::string_view subscripts, std::span<const EagerTensor> operands,
                   const EinsumOptions& options) {
  return einsum_impl(Notation{subscripts, nullptr}, operands, options);
}

EagerTensor einsum(std::string_view subscripts, std::initializer_list<EagerTensor> operands,
                   const EinsumOptions& options) {
  return einsum(subscripts, std::span<const EagerTensor>(operands.begin(), operands.size()),
                options);
}

EagerTensor einsum(const EinsumLabels& labels, std::span<const EagerTensor> operands,
                   const EinsumOptions& options) {
  return einsum_impl(Notation{{}, &labels}, operands, options);
}

EinsumPath einsum_path(std::string_view subscripts, std::span<const EagerTensor> operands,
                       const EinsumOptions& options) {
  const std::shared_ptr<EagerRuntime>& runtime =
      require_one_runtime("einsum_path", operands, operands.size());
  const RuntimeCallScope call_scope(*runtime);
  bool cached = false;
  const PlanPtr plan = find_or_plan(*runtime, Notation{subscripts, nullptr}, operands,
                                    common_dtype(operands), options, PlanFor::Report, &cached);
  EinsumPath path = plan->path;
  einsum_internal::add_step_text(plan->expr, plan->sizes, options, path);  // a call's plan
  if (cached) path.origin = PlanOrigin::Cached;
  return path;
}

struct PreparedEinsum::Impl {
  PlanPtr plan;
  std::vector<TensorMeta> operands;
  EinsumOptions options;
};

PreparedEinsum::PreparedEinsum(std::string_view subscripts, std::span<const TensorMeta> operands,
                               const EinsumOptions& options) {
  if (operands.empty()) throw_validation("einsum", "an einsum needs at least one operand");
  std::vector<Shape> shapes;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    if (operands[i].dtype != operands[0].dtype)
      throw_validation("einsum", "all operands must share one dtype: operand 0 is " +
                                     std::string(dtype_name(operands[0].dtype)) + ", operand " +
                                     std::to_string(i) + " is " +
                                     std::string(dtype_name(operands[i].dtype)));
    shapes.push_back(operands[i].shape);
  }
  auto impl = std::make_shared<Impl>();
  Equation equation = read_equation(Notation{subscripts, nullptr}, shapes);
  impl->plan = make_plan(std::move(equation), std::move(shapes), operands[0].dtype, options,
                         einsum_internal::choose_planner(options), /*step_text=*/true);
  impl->operands.assign(operands.begin(), operands.end());
  impl->options = options;
  impl_ = std::move(impl);
}

namespace {

void check_prepared_operands(std::span<const EagerTensor> operands,
                             std::span<const TensorMeta> expected) {
  for (std::size_t i = 0; i < operands.size(); ++i)
    if (operands[i].meta() != expected[i])
      throw_validation("einsum", "operand " + std::to_string(i) + " is " +
                                     std::string(dtype_name(operands[i].dtype())) + " " +
                                     shape_to_string(operands[i].shape()) +
                                     "; the prepared einsum expects " +
                                     std::string(dtype_name(expected[i].dtype)) + " " +
                                     shape_to_string(expected[i].shape));
}

}  // namespace

EagerTensor PreparedEinsum::operator()(std::span<const EagerTensor> operands) const {
  const std::shared_ptr<EagerRuntime>& runtime =
      require_one_runtime("einsum", operands, impl_->operands.size());
  const RuntimeCallScope call_scope(*runtime);
  check_prepared_operands(operands, impl_->operands);
  return execute(runtime, impl_->plan, operands, impl_->options);
}

std::int64_t PreparedEinsum::num_slices() const {
  return static_cast<std::int64_t>(impl_->plan->path.num_slices);
}

TensorMeta PreparedEinsum::output() const {
  return TensorMeta{impl_->plan->dtype, impl_->plan->output_shape};
}

EagerTensor PreparedEinsum::run_slices(std::span<const EagerTensor> operands, std::int64_t first,
                                       std::int64_t count) const {
  const std::int64_t total = num_slices();
  if (first < 0 || count < 1 || first > total - count) {
    throw_validation("einsum", "slice range [" + std::to_string(first) + ", " +
                                   std::to_string(first) + " + " + std::to_string(count) +
                                   ") is not a non-empty part of the plan's " +
                                   std::to_string(total) + " slice(s)");
  }
  const std::shared_ptr<EagerRuntime>& runtime =
      require_one_runtime("einsum", operands, impl_->operands.size());
  const RuntimeCallScope call_scope(*runtime);
  check_prepared_operands(operands, impl_->operands);
  // The whole range is the ordinary call (the same op, so the same cached module and path).
  const einsum_internal::SliceRange range = first == 0 && count == total
                                                ? einsum_internal::SliceRange{}
                                                : einsum_internal::SliceRange{first, count};
  return execute(runtime, impl_->plan, operands, impl_->options, range);
}

const EinsumPath& PreparedEinsum::path() const {
  return impl_->plan->path;
}

}  // namespace tenferro
