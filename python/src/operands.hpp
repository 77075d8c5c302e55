// Operands of operators and functions: tensors, Python scalars, and the refusal of host arrays
// (tenferro never uploads on its own: a NumPy operand is an error that says what to call).
#pragma once

#include <nanobind/nanobind.h>

#include <optional>

#include "tenferro/prims.hpp"

namespace tenferro::python {

namespace nb = nanobind;

// A Python or NumPy scalar (bool, int, float, complex, numpy.float32, ...), else nullopt.
std::optional<prims::Scalar> as_scalar(nb::handle obj);
// `obj` as a tensor; anything else is a typed error naming the operand.
const EagerTensor& as_tensor(nb::handle obj, const char* op, int operand);

enum class BinaryOp { Add, Sub, Mul, Div, Pow };
// a <op> b for tensors and scalars on either side (`reflected`: b <op> a).
EagerTensor binary(const EagerTensor& a, nb::handle b, BinaryOp op, bool reflected);
// a > b, a >= b, ... as a tensor of 0.0/1.0 in the operands' real dtype (tenferro has no
// boolean dtype), by the comparison prims: IEEE, so a NaN operand gives 0 (1 for !=).
enum class Compare { Greater, GreaterEqual, Less, LessEqual, Equal, NotEqual };
EagerTensor compare(const EagerTensor& a, nb::handle b, Compare op);

// a @ b with NumPy's matmul rules (1-D operands promoted and removed, leading batch axes).
EagerTensor matmul(const EagerTensor& a, const EagerTensor& b);

}  // namespace tenferro::python
