#include "ops/einsum/direct_gemm.hpp"

#include <optional>

#include "ops/einsum/executor.hpp"
#include "tenferro/core/shape.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::einsum_internal {

std::vector<DirectGemm> plan_direct_gemms(const EinsumPlan& plan) {
  std::vector<DirectGemm> out;
  if (!plan.direct_candidate || plan.input_shapes.size() != 2 || plan.steps.size() != 1) return out;
  for (const bool row_major : {false, true}) {
    DirectGemm d;
    for (std::size_t i = 0; i < 2; ++i) {
      const Shape& shape = plan.input_shapes[i];
      d.input_strides[i] = row_major ? row_major_strides(shape) : col_major_strides(shape);
    }
    // Tensors of at most one axis longer than 1 have both orders' strides alike: one entry.
    if (row_major && !out.empty() && out.front().input_strides[0] == d.input_strides[0] &&
        out.front().input_strides[1] == d.input_strides[1])
      break;
    d.out_strides = result_strides_for(plan, d.input_strides);
    std::optional<GemmProblem> p = single_gemm(plan, d.input_strides, d.out_strides);
    if (!p) continue;
    d.problem = *p;
    d.a_input = plan.steps[0].lhs_slot;
    out.push_back(std::move(d));
  }
  return out;
}

const DirectGemm* matching_direct_gemm(const EinsumPlan& plan,
                                       std::span<const EagerTensor> inputs) {
  if (inputs.size() != 2) return nullptr;
  for (const DirectGemm& d : plan.direct_gemms)
    if (inputs[0].strides() == d.input_strides[0] && inputs[1].strides() == d.input_strides[1])
      return &d;
  return nullptr;
}

GemmProblem on_places(GemmProblem p, OperandPlace a, OperandPlace b, OperandPlace c) {
  p.a = a.buffer;
  p.a_offset += a.offset;
  p.b = b.buffer;
  p.b_offset += b.offset;
  p.c = c.buffer;
  p.c_offset += c.offset;
  return p;
}

GemmProblem on_operands(GemmProblem p, const EagerTensor& a, const EagerTensor& b,
                        const EagerTensor& c) {
  const auto place = [](const EagerTensor& t) {
    return OperandPlace{t.buffer().get(), t.layout().offset};
  };
  return on_places(p, place(a), place(b), place(c));
}

EagerTensor run_direct_gemm(EagerRuntime& runtime, ContractionKernels& kernels,
                            const EinsumPlan& plan, const DirectGemm& direct,
                            std::span<const EagerTensor> inputs) {
  const EagerTensor result = fresh_output(runtime, plan, direct.out_strides);
  const EagerTensor& a = inputs[static_cast<std::size_t>(direct.a_input)];
  const EagerTensor& b = inputs[static_cast<std::size_t>(1 - direct.a_input)];
  kernels.gemm(on_operands(direct.problem, a, b, result));
  return result;
}

}  // namespace tenferro::einsum_internal
