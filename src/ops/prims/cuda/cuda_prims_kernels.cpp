// The CUDA prims kernel set: turns the executor's resolved calls (kernel_calls.hpp) into
// launches of the .cu kernels on the backend's stream. Nothing here synchronizes or copies to
// or from the host; launch failures become typed Backend errors naming the op (cuda_check), a
// call the kernels have no instantiation for is a RuntimeState error (the admission check
// before execution makes that a wiring defect).
#include <string>

#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/element_of.hpp"
#include "ops/prims/cuda/prims_launch.hpp"
#include "ops/prims/cuda/prims_layout.hpp"
#include "ops/prims/kernel_calls.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::prims_internal {
namespace {

namespace ck = cuda_kernels::prims;
using cuda_detail::cuda_check;
using cuda_kernels::element_of;
using cuda_layout::all_axes;
using cuda_layout::coalesce;

// Which launch runs a PrimKind: its kernel shape, and for element-wise ops its arity (Where,
// the one of arity 3, is the select kernel). The launches take the PrimKind itself.
struct KernelOp {
  KernelShape shape;
  bool unary = true;  // Elementwise only: launch_unary (else launch_binary, or launch_select)
  bool select = false;
};

KernelOp kernel_op(PrimKind k) {
  const PrimInfo& p = info(k);
  return {p.shape, p.arity == 1, p.arity == 3};
}

// Whether the kernels are instantiated for `kind` on `dtype` (Cast: from `dtype` to some
// dtype; the executor checks both ends). The same predicates select the instantiations.
bool kernels_run(PrimKind kind, DType dtype) {
  const KernelOp k = kernel_op(kind);
  const cuda_kernels::Element e = element_of(dtype);
  switch (k.shape) {
    case KernelShape::Elementwise:
      if (k.select) return true;  // every element type (select_kernels.cu)
      return k.unary ? ck::unary_runs(kind, e) : ck::binary_runs(kind, e);
    case KernelShape::Reduce:
      return ck::reduce_runs(kind, e);
    case KernelShape::Scan:
      return ck::scan_runs(kind, e);
    case KernelShape::Generate:
      return ck::generate_runs(kind, e);
  }
  return false;
}

[[noreturn]] void wiring_defect(PrimKind kind, const std::string& what) {
  throw_error(ErrorKind::RuntimeState, ErrorPhase::Execute, std::string(prim_name(kind)),
              "CUDA prims kernel: " + what);
}

// The device address of an operand's first element.
template <class P>
P* address(CudaBackend& backend, const StridedOperand& o, PrimKind kind) {
  if (o.buffer == nullptr) wiring_defect(kind, "an operand has no buffer");
  auto* base = static_cast<std::byte*>(backend.device_pointer(*o.buffer, prim_name(kind)));
  return reinterpret_cast<P*>(base + o.layout.offset *
                                         static_cast<std::int64_t>(dtype_size(o.layout.dtype)));
}

ck::Scalars scalars_of(const ElementwiseCall& c) {
  return {c.alpha.real(), c.alpha.imag(), c.beta.real(), c.beta.imag(), adds_beta(c.beta)};
}

void elementwise(const ExecutionContext& ctx, const ElementwiseCall& c) {
  auto& backend = ctx.backend_as<CudaBackend>();
  const KernelOp k = kernel_op(c.kind);
  if (k.shape != KernelShape::Elementwise || c.arity != (k.select ? 3 : k.unary ? 1 : 2)) {
    wiring_defect(c.kind, "not an element-wise call of its arity");
  }
  const TensorLayout& out = c.out.layout;
  const DType in_dtype = c.in[0].layout.dtype;
  if (c.kind == PrimKind::Cast) {
    if (is_complex(in_dtype) && !is_complex(out.dtype)) {
      wiring_defect(c.kind, "complex -> real casts are refused before execution");
    }
  } else if (!kernels_run(c.kind, in_dtype) || out.dtype != kernel_output_dtype(c.kind, in_dtype)) {
    wiring_defect(c.kind, "no kernel for " + std::string(dtype_name(in_dtype)) + " -> " +
                              std::string(dtype_name(out.dtype)));
  }
  const std::string_view name = prim_name(c.kind);
  backend.make_current();
  if (k.unary) {
    const auto ix =
        coalesce<2>(out.shape, {out.strides, c.in[0].layout.strides}, all_axes(out.shape.size()));
    if (ix.count == 0) return;
    cuda_check(ck::launch_unary(c.kind, element_of(in_dtype), element_of(out.dtype),
                                address<void>(backend, c.out, c.kind),
                                address<const void>(backend, c.in[0], c.kind), ix.index, ix.count,
                                scalars_of(c), backend.stream()),
               name);
    return;
  }
  if (c.in[1].layout.dtype != in_dtype) wiring_defect(c.kind, "operands of two dtypes");
  if (k.select) {
    if (c.in[2].layout.dtype != in_dtype) wiring_defect(c.kind, "operands of two dtypes");
    const auto ix = coalesce<4>(
        out.shape,
        {out.strides, c.in[0].layout.strides, c.in[1].layout.strides, c.in[2].layout.strides},
        all_axes(out.shape.size()));
    if (ix.count == 0) return;
    cuda_check(ck::launch_select(element_of(in_dtype), address<void>(backend, c.out, c.kind),
                                 address<const void>(backend, c.in[0], c.kind),
                                 address<const void>(backend, c.in[1], c.kind),
                                 address<const void>(backend, c.in[2], c.kind), ix.index, ix.count,
                                 backend.stream()),
               name);
    return;
  }
  const auto ix =
      coalesce<3>(out.shape, {out.strides, c.in[0].layout.strides, c.in[1].layout.strides},
                  all_axes(out.shape.size()));
  if (ix.count == 0) return;
  cuda_check(ck::launch_binary(c.kind, element_of(in_dtype), address<void>(backend, c.out, c.kind),
                               address<const void>(backend, c.in[0], c.kind),
                               address<const void>(backend, c.in[1], c.kind), ix.index, ix.count,
                               scalars_of(c), backend.stream()),
             name);
}

void reduce(const ExecutionContext& ctx, const ReduceCall& c) {
  auto& backend = ctx.backend_as<CudaBackend>();
  const KernelOp k = kernel_op(c.kind);
  const TensorLayout& in = c.in.layout;
  const TensorLayout& out = c.out.layout;
  if (k.shape != KernelShape::Reduce || !kernels_run(c.kind, in.dtype) ||
      out.dtype != kernel_output_dtype(c.kind, in.dtype) || out.shape.size() != in.shape.size() ||
      in.shape.size() > c.reduced.size()) {
    wiring_defect(c.kind, "not a reduction call the kernels run");
  }
  std::vector<std::size_t> kept_axes, reduced_axes;
  for (std::size_t a = 0; a < in.shape.size(); ++a)
    (c.reduced[a] ? reduced_axes : kept_axes).push_back(a);
  const auto kept = coalesce<2>(in.shape, {out.strides, in.strides}, kept_axes);
  const auto reduced = coalesce<1>(in.shape, {in.strides}, reduced_axes);
  if (kept.count == 0) return;
  const std::int64_t reduced_count = reduced.count;
  const std::int64_t parts = ck::reduce_parts(kept.count, reduced_count);
  // Partial results of long reductions live in a runtime allocation: stream-ordered, released
  // after the kernels that use it (CudaBuffer frees on the stream).
  EagerTensor workspace;
  void* partial = nullptr;
  if (parts > 1) {
    workspace = ctx.allocate(DType::C64, Shape{kept.count * parts});  // 16 bytes per slot
    partial = address<void>(backend, {workspace.buffer().get(), workspace.layout()}, c.kind);
  }
  // No element is read when nothing is reduced (the output gets the identity).
  const void* src = reduced_count == 0 ? nullptr : address<const void>(backend, c.in, c.kind);
  backend.make_current();
  cuda_check(ck::launch_reduce(c.kind, element_of(in.dtype), address<void>(backend, c.out, c.kind),
                               src, kept.index, kept.count, reduced.index, reduced_count, partial,
                               backend.stream()),
             prim_name(c.kind));
}

void scan(const ExecutionContext& ctx, const ScanCall& c) {
  auto& backend = ctx.backend_as<CudaBackend>();
  const TensorLayout& in = c.in.layout;
  const TensorLayout& out = c.out.layout;
  const auto a = static_cast<std::size_t>(c.axis);
  if (kernel_op(c.kind).shape != KernelShape::Scan || !kernels_run(c.kind, in.dtype) ||
      out.dtype != in.dtype || out.shape != in.shape || a >= in.shape.size()) {
    wiring_defect(c.kind, "not a scan call the kernels run");
  }
  std::vector<std::size_t> line_axes;
  for (std::size_t d = 0; d < in.shape.size(); ++d) {
    if (d != a) line_axes.push_back(d);
  }
  const auto lines = coalesce<2>(in.shape, {out.strides, in.strides}, line_axes);
  if (lines.count == 0 || in.shape[a] == 0) return;
  backend.make_current();
  cuda_check(ck::launch_scan(c.kind, element_of(in.dtype), address<void>(backend, c.out, c.kind),
                             address<const void>(backend, c.in, c.kind), lines.index, lines.count,
                             in.shape[a], out.strides[a], in.strides[a], backend.stream()),
             prim_name(c.kind));
}

void generate(const ExecutionContext& ctx, const GenerateCall& c) {
  auto& backend = ctx.backend_as<CudaBackend>();
  const KernelOp k = kernel_op(c.kind);
  const TensorLayout& out = c.out.layout;
  if (k.shape != KernelShape::Generate || !kernels_run(c.kind, out.dtype) || !out.is_compact()) {
    wiring_defect(c.kind, "not a creation call into a compact output");
  }
  const std::int64_t count = out.numel();
  if (count == 0) return;
  ck::GenerateArgs g;
  g.value_re = c.value.real();
  g.value_im = c.value.imag();
  g.rows = out.shape.empty() ? 1 : std::max<std::int64_t>(out.shape[0], 1);
  g.offset = c.offset;
  g.start = c.start;
  g.step = c.step;
  g.a = c.a;
  g.b = c.b;
  g.seed = c.seed;
  backend.make_current();
  cuda_check(ck::launch_generate(c.kind, element_of(out.dtype),
                                 address<void>(backend, c.out, c.kind), count, g, backend.stream()),
             prim_name(c.kind));
}

}  // namespace

const PrimsKernels& cuda_prims_kernels() {
  static const PrimsKernels kernels = [] {
    PrimsKernels k;
    k.backend = BackendKind::Cuda;
    for (const PrimInfo& p : kPrimInfo) {
      DTypeMask mask = 0;
      for (DType d : kAllDTypes) {
        if (kernels_run(p.kind, d)) mask |= dtype_bit(d);
      }
      k.runs[static_cast<std::size_t>(p.kind)] = mask;
    }
    k.elementwise = &elementwise;
    k.reduce = &reduce;
    k.scan = &scan;
    k.generate = &generate;
    return k;
  }();
  return kernels;
}

}  // namespace tenferro::prims_internal
