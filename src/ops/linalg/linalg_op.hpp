// The one ExtensionOp of the linalg family: which decomposition/solver (LinalgKind) plus its
// options. Shapes are validated and output metadata inferred here, shared by the public
// functions (before dispatch) and every backend's executor.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tenferro/linalg.hpp"
#include "tenferro/runtime/extension.hpp"

namespace tenferro::linalg_internal {

// The linalg ops, one row each (enumerator, name): the enum, the admission table's op names,
// the names errors carry ("linalg.<name>") and the AD registry's linalg rows come from it.
#define TENFERRO_LINALG_OPS(X)         \
  X(Qr, qr)                            \
  X(Svd, svd)                          \
  X(Eigh, eigh)                        \
  X(Eig, eig)                          \
  X(Lu, lu)                            \
  X(Cholesky, cholesky)                \
  X(Solve, solve)                      \
  X(TriangularSolve, triangular_solve) \
  X(Lstsq, lstsq)                      \
  X(Inv, inv)                          \
  X(Det, det)                          \
  X(Slogdet, slogdet)

enum class LinalgKind : std::uint8_t {
#define TENFERRO_LINALG_ENUMERATOR(Kind, name) Kind,
  TENFERRO_LINALG_OPS(TENFERRO_LINALG_ENUMERATOR)
#undef TENFERRO_LINALG_ENUMERATOR
};
#define TENFERRO_LINALG_COUNT(Kind, name) +1
inline constexpr std::size_t kLinalgKindCount = 0 TENFERRO_LINALG_OPS(TENFERRO_LINALG_COUNT);
#undef TENFERRO_LINALG_COUNT

// The admission-table name ("qr", "triangular_solve", ...).
std::string_view kind_name(LinalgKind kind) noexcept;
// The name errors carry ("linalg.qr", ...).
std::string_view error_op_name(LinalgKind kind) noexcept;

// Every option any op may take; an op reads only its own part.
struct LinalgPayload {
  linalg::QrOptions qr;
  linalg::SvdOptions svd;
  linalg::EighOptions eigh;
  linalg::TriangularSolveOptions triangular;
  linalg::LstsqOptions lstsq;
};

class LinalgOp final : public ExtensionOp {
 public:
  LinalgOp(LinalgKind kind, LinalgPayload payload = {}) : kind_(kind), payload_(payload) {}
  std::string_view family() const noexcept override { return linalg_family::kFamily; }
  std::string_view name() const noexcept override { return error_op_name(kind_); }
  std::size_t arity() const noexcept override;
  std::uint64_t payload_hash() const noexcept override;
  bool payload_equals(const ExtensionOp& other) const noexcept override;
  // For a truncated SVD the rank depends on the data: the inferred shapes are the untruncated
  // upper bound and the executed outputs may have fewer columns/rows.
  std::vector<TensorMeta> infer_outputs(std::span<const TensorMeta> inputs) const override;

  LinalgKind kind() const noexcept { return kind_; }
  const LinalgPayload& payload() const noexcept { return payload_; }
  // Set by the public functions once validate_and_infer passed for the inputs they dispatch,
  // so the kernels do not validate (and allocate) a second time on the warm path.
  void mark_validated() noexcept { validated_ = true; }
  bool validated() const noexcept { return validated_; }

 private:
  LinalgKind kind_;
  LinalgPayload payload_;
  bool validated_ = false;
};

// One input as the shape rules read it: a view, so checking a call copies no shape.
struct InputView {
  DType dtype;
  const Shape& shape;
};

// Throws Validation for bad shapes (rank, square, rows, batch) or options; allocates nothing
// for a valid call. Returns whether the right-hand side B (solve, triangular_solve, lstsq) is
// a vector.
bool validate_inputs(const LinalgOp& op, std::span<const InputView> inputs);
// validate_inputs, then the inferred outputs (same as LinalgOp::infer_outputs).
std::vector<TensorMeta> validate_and_infer(const LinalgOp& op, std::span<const TensorMeta> inputs);
// Every backend's row kernel starts here: the public functions have validated `op` for these
// inputs (and marked it); an op a caller built itself gets the same Validation errors, before
// any kernel runs.
void validate_unless_marked(const LinalgOp& op, std::span<const EagerTensor> inputs);

// Shape helpers shared with the executors.
struct MatrixDims {
  std::int64_t rows = 0, cols = 0, batch = 1;  // batch = product of the batch extents
  Shape batch_shape;
};
MatrixDims matrix_dims(const Shape& shape);  // requires rank >= 2
Shape concat(std::initializer_list<std::int64_t> head, const Shape& batch_shape);

}  // namespace tenferro::linalg_internal
