#include "ops/krylov/vector_space.hpp"

#include <cmath>
#include <limits>
#include <utility>

#include "runtime/runtime_access.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/errors.hpp"
#include "tenferro/runtime/runtime.hpp"

namespace tenferro::krylov_internal {
namespace {

std::string shape_text(const Shape& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

template <class T>
void append_values(const std::byte* raw, std::int64_t n, std::vector<cplx>& out) {
  const T* p = reinterpret_cast<const T*>(raw);
  for (std::int64_t i = 0; i < n; ++i) out.emplace_back(p[i]);
}

template <class T>
void store_values(std::span<const cplx> values, std::byte* raw) {
  T* p = reinterpret_cast<T*>(raw);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      p[i] = static_cast<T>(values[i].real());
    } else {
      p[i] = T(values[i]);
    }
  }
}

}  // namespace

VectorSpace::VectorSpace(std::string op, LinearOperator a, const EagerTensor& like, DType dtype)
    : op_(std::move(op)), a_(std::move(a)), dtype_(dtype) {
  if (!a_) throw_validation(op_, "the operator is empty: pass a callable x -> A x");
  if (!like.defined()) throw_validation(op_, "the start vector is an empty handle");
  runtime_ = like.runtime();
  shape_ = like.shape();
  dim_ = like.numel();
  if (dim_ < 1)
    throw_validation(op_, "the vector space is empty (shape " + shape_text(shape_) + ")");
}

bool VectorSpace::complex() const noexcept {
  return is_complex(dtype_);
}

double VectorSpace::eps() const noexcept {
  return real_dtype(dtype_) == DType::F32 ? std::numeric_limits<float>::epsilon()
                                          : std::numeric_limits<double>::epsilon();
}

EagerTensor VectorSpace::flat(const EagerTensor& x, const char* what) const {
  if (!x.defined()) throw_validation(op_, std::string(what) + " is an empty handle");
  if (x.runtime() != runtime_) {
    throw_error(ErrorKind::ContextMismatch, ErrorPhase::Input, op_,
                std::string(what) +
                    " lives in another runtime than the start vector: upload it "
                    "to the start vector's runtime (runtime->upload(...))");
  }
  if (x.shape() != shape_) {
    throw_validation(op_, std::string(what) + " has shape " + shape_text(x.shape()) +
                              ", the operator's vectors have shape " + shape_text(shape_));
  }
  EagerTensor v = x.dtype() == dtype_ ? prims::contiguous(x) : prims::cast(x, dtype_);
  return prims::reshape(v, Shape{dim_});
}

EagerTensor VectorSpace::shaped(const EagerTensor& v) const {
  return prims::reshape(v, shape_);
}

EagerTensor VectorSpace::apply(const EagerTensor& v) {
  EagerTensor y = a_(shaped(v));
  ++matvecs_;
  if (!y.defined()) throw_validation(op_, "the operator returned an empty tensor");
  if (y.runtime() != runtime_) {
    throw_error(ErrorKind::ContextMismatch, ErrorPhase::Execute, op_,
                "the operator returned a tensor of another runtime; write it with eager ops on "
                "its argument's runtime (no transfer happens inside the solver)");
  }
  if (y.shape() != shape_) {
    throw_validation(op_, "the operator changed the shape: it returned " + shape_text(y.shape()) +
                              " for a vector of shape " + shape_text(shape_));
  }
  if (y.dtype() != dtype_) {
    throw_validation(op_, std::string("the operator returned ") +
                              std::string(dtype_name(y.dtype())) + " for a " +
                              std::string(dtype_name(dtype_)) +
                              " vector; a complex operator needs a complex start vector (cast it)");
  }
  return prims::reshape(prims::contiguous(y), Shape{dim_});
}

std::vector<cplx> VectorSpace::read(const EagerTensor& t) const {
  const EagerTensor c = prims::contiguous(t);
  const std::int64_t n = c.numel();
  const std::size_t bytes = static_cast<std::size_t>(n) * dtype_size(c.dtype());
  std::vector<std::byte> raw(bytes);
  if (bytes > 0) {
    runtime_->backend().read(*c.buffer(),
                             static_cast<std::size_t>(c.layout().offset) * dtype_size(c.dtype()),
                             std::span<std::byte>(raw.data(), bytes));
  }
  runtime_internal::RuntimeAccess::count_scalar_read(*runtime_, bytes);
  std::vector<cplx> out;
  out.reserve(static_cast<std::size_t>(n));
  switch (c.dtype()) {
    case DType::F32:
      append_values<float>(raw.data(), n, out);
      break;
    case DType::F64:
      append_values<double>(raw.data(), n, out);
      break;
    case DType::C32:
      append_values<std::complex<float>>(raw.data(), n, out);
      break;
    case DType::C64:
      append_values<std::complex<double>>(raw.data(), n, out);
      break;
  }
  for (const cplx& z : out) {
    if (!std::isfinite(z.real()) || !std::isfinite(z.imag())) {
      throw_error(ErrorKind::Numerical, ErrorPhase::Execute, op_,
                  "a non-finite value appeared (after " + std::to_string(matvecs_) +
                      " matvecs): the operator or the start vector holds Inf/NaN, or overflowed");
    }
  }
  return out;
}

double VectorSpace::norm(const EagerTensor& v) const {
  return read(prims::norm(v))[0].real();
}

EagerTensor VectorSpace::write(std::span<const cplx> values, std::int64_t rows,
                               std::int64_t cols) const {
  Tensor host = Tensor::zeros(dtype_, Shape{rows, cols});
  switch (dtype_) {
    case DType::F32:
      store_values<float>(values, host.raw_data());
      break;
    case DType::F64:
      store_values<double>(values, host.raw_data());
      break;
    case DType::C32:
      store_values<std::complex<float>>(values, host.raw_data());
      break;
    case DType::C64:
      store_values<std::complex<double>>(values, host.raw_data());
      break;
  }
  const std::size_t bytes = host.nbytes();
  std::shared_ptr<Buffer> buffer = runtime_->backend().allocate(bytes);
  if (bytes > 0)
    runtime_->backend().write(*buffer, 0, std::span<const std::byte>(host.raw_data(), bytes));
  runtime_internal::RuntimeAccess::count_scalar_write(*runtime_, bytes);
  return EagerTensor(runtime_, std::move(buffer), host.layout());
}

EagerTensor VectorSpace::random_vector(std::uint64_t seed) const {
  return prims::random_normal(runtime_, dtype_, Shape{dim_}, seed);
}

}  // namespace tenferro::krylov_internal
