// The bridge between the plain bindings and automatic differentiation: a traced value in Python
// is a tenferro.Tracer (the C++ ad::Variable, bound in ad_variable.cpp). The plain functions of
// _tenferro.prims/linalg/fft get a second, traced overload (ad_ops.cpp) that nanobind picks when
// an argument is a Tracer; the few bindings that take untyped operands (einsum, the Tensor
// operators) ask is_tracer() and route themselves. Every rule is the C++ library's.
#pragma once

#include <nanobind/nanobind.h>

#include <string_view>

#include "tenferro/ad.hpp"
#include "tenferro/einsum.hpp"

namespace tenferro::python {

namespace nb = nanobind;

// True when obj is a tenferro.Tracer (one type-pointer compare: the plain paths stay cheap).
bool is_tracer(nb::handle obj);
// obj as a Variable: a Tracer, or a Tensor as a constant. Anything else is a typed error.
ad::Variable as_variable(nb::handle obj, const char* op, int operand);
// einsum with at least one Tracer operand, recorded on its tape.
ad::Variable traced_einsum(std::string_view subscripts, nb::handle operands,
                           const EinsumOptions& options);

void bind_ad_variable(nb::module_& m);
void bind_ad_ops(nb::module_& m);
void bind_ad_functional(nb::module_& m);

}  // namespace tenferro::python
