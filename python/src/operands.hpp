// Operands of operators and functions: tensors, Python scalars, and the refusal of host arrays
// (tenferro never uploads on its own: a NumPy operand is an error that says what to call).
#pragma once

#include <nanobind/nanobind.h>

#include <optional>
#include <vector>

#include "tenferro/ad.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::python {

namespace nb = nanobind;

// A Python or NumPy scalar (bool, int, float, complex, numpy.float32, ...), else nullopt.
std::optional<prims::Scalar> as_scalar(nb::handle obj);
// Whether `obj` is a complex number (Python complex, numpy.complexfloating), also with a zero
// imaginary part: NumPy then makes a real operand complex and computes as complex numbers
// (x * (2+0j) is a complex product, unlike x * 2.0), so the operators take it as a 0-d complex
// tensor (complex_scalar_tensor) rather than as a scalar form.
bool is_complex_scalar(nb::handle obj);
// A NumPy scalar (numpy.float64, numpy.complex64, numpy.int64, ...) whose dtype widens `like`'s,
// as a 0-d tensor of its own dtype on like's runtime (NEP 50: NumPy scalars are typed, so
// float32 * np.float64(x) is float64); nullopt for anything else, which takes like's dtype.
std::optional<EagerTensor> strong_scalar_tensor(nb::handle obj, const EagerTensor& like);
// The dtype a NumPy scalar promotes as (NEP 50), nullopt for Python numbers, np.bool_ and
// non-scalars.
std::optional<DType> numpy_scalar_dtype(nb::handle obj);
// A scalar operand of an arithmetic operator that must be a 0-d tensor rather than a scalar
// form: a NumPy scalar that widens like's dtype (strong_scalar_tensor), or, when
// complex_as_tensor, a complex number (complex_scalar_tensor); nullopt for anything else.
std::optional<EagerTensor> scalar_operand_tensor(nb::handle obj, const EagerTensor& like,
                                                 bool complex_as_tensor);
// The complex number `obj` (is_complex_scalar) as a 0-d tensor on `like`'s runtime, of the
// complex dtype of `like`'s precision.
EagerTensor complex_scalar_tensor(nb::handle obj, const EagerTensor& like);
// `obj` as a tensor; anything else is a typed error naming the operand.
const EagerTensor& as_tensor(nb::handle obj, const char* op, int operand);
// Host data as an operand of `op` (a list, a tuple, anything with the buffer protocol,
// __dlpack__, __array_interface__ or __array__; not a number, a NumPy scalar or a Tracer): the
// NoInputIngressError saying to upload it. Nothing for any other object. The one rule of what
// is host data, for the operators and the Python namespace (prims._refuse_host).
void refuse_host_operand(nb::handle obj, const char* op, int operand);

// FloorDiv and Mod: Python's // and % (NumPy's floor_divide and remainder).
enum class BinaryOp { Add, Sub, Mul, Div, Pow, FloorDiv, Mod };
// Its NumPy name (add, subtract, multiply, divide, power, floor_divide, remainder), the op errors
// name.
const char* binary_op_name(BinaryOp op);
// a <op> b for tensors and scalars on either side (`reflected`: b <op> a).
EagerTensor binary(const EagerTensor& a, nb::handle b, BinaryOp op, bool reflected);
// a > b, a >= b, ... as a tensor of 0.0/1.0 in the operands' real dtype (tenferro has no
// boolean dtype), by the comparison prims: IEEE, so a NaN operand gives 0 (1 for !=).
enum class Compare { Greater, GreaterEqual, Less, LessEqual, Equal, NotEqual };
EagerTensor compare(const EagerTensor& a, nb::handle b, Compare op);
// a == b / a != b as NumPy and PyTorch: element-wise against a tensor, a Tracer (its value) or
// a number; host data (an ndarray, a list) is a typed error as in the other operators;
// NotImplemented for anything else (None, a string), which Python compares by identity.
nb::object equality(const EagerTensor& a, nb::handle b, bool equal);

// a @ b with NumPy's matmul rules (1-D operands promoted and removed, leading batch axes).
EagerTensor matmul(const EagerTensor& a, const EagerTensor& b);
// NumPy's core-dimension rule of matmul: a's last axis and b's contracted one (its first if
// 1-D, else its second to last) are equal; only the batch axes broadcast. einsum would
// broadcast a contracted extent of 1, so the check comes first. Also rank 0 is refused.
void require_matmul_operands(const Shape& a, const Shape& b);
// The operands of a contraction (einsum, @) cast to their common dtype, as NumPy promotes
// (float32 @ float64 is float64); the C++ einsum takes one dtype. Unchanged when they share one.
void promote_operands(std::vector<EagerTensor>& ops);
void promote_operands(std::vector<ad::Variable>& ops);

}  // namespace tenferro::python
