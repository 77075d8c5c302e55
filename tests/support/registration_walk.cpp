#include "support/registration_walk.hpp"

#include "ops/einsum/einsum_op.hpp"
#include "ops/einsum/expression.hpp"
#include "ops/einsum/path.hpp"
#include "ops/einsum/program.hpp"
#include "ops/einsum/registration.hpp"
#include "ops/fft/fft_op.hpp"
#include "ops/fft/registration.hpp"
#include "ops/linalg/linalg_op.hpp"
#include "ops/linalg/registration.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::testing {

namespace {

std::shared_ptr<const ExtensionOp> einsum_op(std::uint32_t, DType dtype) {
  using namespace einsum_internal;
  const std::vector<Shape> shapes(2, Shape{3, 3});
  const std::vector<std::int64_t> ranks(2, 2);
  EinsumExpression expr = parse_subscripts("ij,jk->ik", ranks);
  std::vector<std::int64_t> sizes = label_sizes(expr, shapes);
  EinsumPath path = plan_path(expr, sizes, EinsumOptions{});
  return std::make_shared<EinsumOp>(std::make_shared<const EinsumPlan>(
      build_plan(std::move(expr), std::move(sizes), std::move(path), dtype, shapes)));
}

// What the executor of `module` does with `op`: "" when it got past the table (whatever the
// kernel then did), else the table's refusal.
std::string run_past_table(const ModulePtr& module, const std::shared_ptr<EagerRuntime>& rt,
                           const ExtensionOp& op, DType dtype) {
  const ExtensionModule::Registration* r = module->find(op.family(), rt->engine_id());
  if (r == nullptr) return "the module registers no executor for the runtime's engine";
  std::vector<EagerTensor> inputs;
  for (std::size_t i = 0; i < op.arity(); ++i)
    inputs.push_back(rt->upload(Tensor::zeros(dtype, {3, 3})));
  try {
    const ExecutionContext ctx(rt, op.family());
    (void)r->executor(ctx, op, inputs);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Unsupported && e.phase() == ErrorPhase::Module) return e.what();
  } catch (...) {  // the kernel ran and failed in its own way: it was found
  }
  return "";
}

}  // namespace

std::vector<Family> families() {
  return {
      {"einsum", &einsum_internal::registration_table(), &einsum_op},
      {"linalg", &linalg_internal::registration_table(),
       [](std::uint32_t op, DType) -> std::shared_ptr<const ExtensionOp> {
         return std::make_shared<linalg_internal::LinalgOp>(
             static_cast<linalg_internal::LinalgKind>(op));
       }},
      {"fft", &fft_internal::registration_table(),
       [](std::uint32_t op, DType) -> std::shared_ptr<const ExtensionOp> {
         fft_internal::FftRequest request;
         request.kind = static_cast<fft_internal::FftOpKind>(op);
         return std::make_shared<fft_internal::FftOp>(request);
       }},
  };
}

std::vector<std::string> walk_registration_tables(const std::shared_ptr<EagerRuntime>& rt) {
  std::vector<std::string> failures;
  const EagerExtensionTarget target = rt->extension_target();
  for (const Family& f : families()) {
    const runtime_internal::RegistrationTable& t = *f.table;
    for (std::uint32_t op = 0; op < t.ops().size(); ++op) {
      for (DType d : kAllDTypes) {
        const std::string what = f.name + " " + t.ops()[op] + " " +
                                 std::string(backend_kind_name(target.backend_kind)) + " " +
                                 std::string(dtype_name(d)) + ": ";
        const auto call = f.make_op(op, d);
        if (t.admits(op, target.backend_kind, d)) {
          const std::string refusal = run_past_table(t.module_for(target, {op, d}), rt, *call, d);
          if (!refusal.empty()) failures.push_back(what + "admitted but " + refusal);
          continue;
        }
        try {
          (void)t.module_for(target, {op, d});
          failures.push_back(what + "refused by the table but the factory gave a module");
        } catch (const Error& e) {
          if (e.kind() != ErrorKind::Unsupported || e.phase() != ErrorPhase::Module)
            failures.push_back(what +
                               "the factory's refusal is not Unsupported/Module: " + e.what());
        }
        // The executor, reached around the factory, refuses it from the same table.
        if (t.runs_on(target.backend_kind) &&
            run_past_table(t.module_for(target), rt, *call, d).empty()) {
          failures.push_back(what + "refused by the table but the executor ran a kernel");
        }
      }
    }
  }
  return failures;
}

}  // namespace tenferro::testing
