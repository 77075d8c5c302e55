// LinalgOp: names, payload identity, and the shape rules of every linalg op.
#include "ops/linalg/linalg_op.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>

#include "core/enum_check.hpp"
#include "ops/linalg/truncation.hpp"
#include "runtime/op_cast.hpp"
#include "tenferro/core/error.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

namespace tenferro::linalg_internal {
namespace {

// The numbers that identify a payload, in a fixed order (hash and equality read the same list,
// so they can never disagree).
std::vector<std::uint64_t> payload_words(LinalgKind kind, const LinalgPayload& p) {
  const auto& t = p.svd.truncation;
  return {static_cast<std::uint64_t>(kind),
          static_cast<std::uint64_t>(p.qr.mode),
          static_cast<std::uint64_t>(p.qr.gauge),
          p.svd.full_matrices,
          p.svd.compute_uv,
          t.max_rank.has_value(),
          static_cast<std::uint64_t>(t.max_rank.value_or(0)),
          static_cast<std::uint64_t>(t.cutoff_kind),
          std::bit_cast<std::uint64_t>(t.cutoff),
          static_cast<std::uint64_t>(t.min_rank),
          static_cast<std::uint64_t>(p.svd.gauge),
          p.eigh.values_only,
          p.triangular.lower,
          p.triangular.left,
          static_cast<std::uint64_t>(p.triangular.transpose),
          p.triangular.unit_diagonal,
          p.lstsq.rcond.has_value(),
          std::bit_cast<std::uint64_t>(p.lstsq.rcond.value_or(0.0))};
}

[[noreturn]] void fail(const LinalgOp& op, const std::string& message) {
  throw_validation(std::string(op.name()), message);
}

void require_matrix(const LinalgOp& op, const InputView& input, const char* what) {
  const Shape& shape = input.shape;
  if (shape.size() < 2) {
    fail(op, std::string(what) + " must be a matrix [m, n, batch...] but has shape " +
                 shape_to_string(shape));
  }
  for (std::size_t axis = 0; axis < 2; ++axis) {
    if (shape[axis] > std::numeric_limits<std::int32_t>::max()) {
      fail(op, std::string(what) + " extent " + std::to_string(shape[axis]) +
                   " exceeds LAPACK's 32-bit index range");
    }
  }
}

void require_square(const LinalgOp& op, const InputView& a) {
  if (a.shape[0] != a.shape[1]) {
    fail(op, "needs square matrices but A has shape " + shape_to_string(a.shape));
  }
}

Shape batch_of(const Shape& shape, std::size_t leading) {
  return Shape(shape.begin() + static_cast<std::ptrdiff_t>(leading), shape.end());
}

// Right-hand side rules shared by solve, triangular_solve and lstsq. Returns whether B is a
// vector; `rows_axis` is the axis of B that must equal `rows`.
bool check_rhs(const LinalgOp& op, const InputView& a, const InputView& b, std::int64_t rows,
               bool right_side) {
  if (a.dtype != b.dtype) {
    fail(op, "A and B must have one dtype (A is " + std::string(dtype_name(a.dtype)) + ", B is " +
                 std::string(dtype_name(b.dtype)) + ")");
  }
  const bool vector = b.shape.size() + 1 == a.shape.size();
  if (!vector && b.shape.size() != a.shape.size()) {
    fail(op, "B must be [rows, batch...] or [rows, k, batch...] matching A " +
                 shape_to_string(a.shape) + " but has shape " + shape_to_string(b.shape));
  }
  const std::size_t rows_axis = (!vector && right_side) ? 1 : 0;
  if (b.shape[rows_axis] != rows) {
    fail(op, "B has " + std::to_string(b.shape[rows_axis]) + " along axis " +
                 std::to_string(rows_axis) + " but A needs " + std::to_string(rows) + " (A " +
                 shape_to_string(a.shape) + ", B " + shape_to_string(b.shape) + ")");
  }
  // The batch axes (A's after its two matrix axes, B's after its one or two) match exactly;
  // compared in place, so a valid call allocates nothing here.
  if (!std::equal(b.shape.begin() + (vector ? 1 : 2), b.shape.end(), a.shape.begin() + 2,
                  a.shape.end())) {
    fail(op, "batch shapes differ (A " + shape_to_string(a.shape) + ", B " +
                 shape_to_string(b.shape) + "); batch axes are trailing and must match exactly");
  }
  if (!vector && b.shape[1 - rows_axis] > std::numeric_limits<std::int32_t>::max()) {
    fail(op, "B has too many columns for LAPACK's 32-bit index range");
  }
  return vector;
}

void check_truncation(const LinalgOp& op, const linalg::SvdOptions& o) {
  if (const char* problem = linalg_internal::truncation_problem(o.truncation)) fail(op, problem);
  if (o.truncation.active() && o.full_matrices) {
    fail(op, "truncation cannot be combined with full_matrices (a truncated basis is not full)");
  }
}

#define TENFERRO_LINALG_NAME(Kind, name) #name,
constexpr std::string_view kKindNames[] = {TENFERRO_LINALG_OPS(TENFERRO_LINALG_NAME)};
#undef TENFERRO_LINALG_NAME
#define TENFERRO_LINALG_ERROR_NAME(Kind, name) "linalg." #name,
constexpr std::string_view kErrorNames[] = {TENFERRO_LINALG_OPS(TENFERRO_LINALG_ERROR_NAME)};
#undef TENFERRO_LINALG_ERROR_NAME
static_assert(std::size(kKindNames) == kLinalgKindCount);
}  // namespace

std::string_view kind_name(LinalgKind kind) noexcept {
  const auto k = static_cast<std::size_t>(kind);
  return k < kLinalgKindCount ? kKindNames[k] : "unknown";
}

std::string_view error_op_name(LinalgKind kind) noexcept {
  const auto k = static_cast<std::size_t>(kind);
  return k < kLinalgKindCount ? kErrorNames[k] : "linalg.unknown";
}

std::size_t LinalgOp::arity() const noexcept {
  switch (kind_) {
    case LinalgKind::Solve:
    case LinalgKind::TriangularSolve:
    case LinalgKind::Lstsq:
      return 2;
    default:
      return 1;
  }
}

std::uint64_t LinalgOp::payload_hash() const noexcept {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the payload words
  for (std::uint64_t w : payload_words(kind_, payload_)) {
    h ^= w;
    h *= 1099511628211ull;
  }
  return h;
}

bool LinalgOp::payload_equals(const ExtensionOp& other) const noexcept {
  const auto* o = runtime_internal::op_as<LinalgOp>(other);
  return o != nullptr && payload_words(kind_, payload_) == payload_words(o->kind_, o->payload_);
}

std::vector<TensorMeta> LinalgOp::infer_outputs(std::span<const TensorMeta> inputs) const {
  return validate_and_infer(*this, inputs);
}

MatrixDims matrix_dims(const Shape& shape) {
  MatrixDims d;
  d.rows = shape.at(0);
  d.cols = shape.at(1);
  d.batch_shape = batch_of(shape, 2);
  d.batch = checked_numel(d.batch_shape);
  return d;
}

Shape concat(std::initializer_list<std::int64_t> head, const Shape& batch_shape) {
  Shape s(head);
  s.insert(s.end(), batch_shape.begin(), batch_shape.end());
  return s;
}

bool validate_inputs(const LinalgOp& op, std::span<const InputView> inputs) {
  if (inputs.size() != op.arity()) {
    fail(op, "takes " + std::to_string(op.arity()) + " input(s) but got " +
                 std::to_string(inputs.size()));
  }
  const InputView& a = inputs[0];
  require_matrix(op, a, "A");
  const std::int64_t m = a.shape[0], n = a.shape[1];
  const auto& p = op.payload();
  const std::string_view name = op.name();
  switch (op.kind()) {
    case LinalgKind::Qr:
      require_enumerator(p.qr.mode, linalg::QrMode::Complete, name, "QrOptions::mode");
      require_enumerator(p.qr.gauge, linalg::QrGauge::PositiveDiagonal, name, "QrOptions::gauge");
      return false;
    case LinalgKind::Lu:
      return false;
    case LinalgKind::Svd:
      require_enumerator(p.svd.gauge, linalg::SvdGauge::Canonical, name, "SvdOptions::gauge");
      require_enumerator(p.svd.truncation.cutoff_kind, linalg::CutoffKind::AbsoluteDiscardedWeight,
                         name, "SvdTruncation::cutoff_kind");
      check_truncation(op, p.svd);
      return false;
    case LinalgKind::Eigh:
    case LinalgKind::Eig:
    case LinalgKind::Cholesky:
    case LinalgKind::Inv:
    case LinalgKind::Det:
    case LinalgKind::Slogdet:
      require_square(op, a);
      return false;
    case LinalgKind::Solve:
      require_square(op, a);
      return check_rhs(op, a, inputs[1], n, false);
    case LinalgKind::TriangularSolve:
      require_enumerator(p.triangular.transpose, linalg::TriangularOp::ConjugateTranspose, name,
                         "TriangularSolveOptions::transpose");
      require_square(op, a);
      return check_rhs(op, a, inputs[1], n, !p.triangular.left);
    case LinalgKind::Lstsq: {
      const bool vector = check_rhs(op, a, inputs[1], m, false);
      // LAPACK's gelsd silently replaces an rcond outside (0, 1) by machine epsilon, which
      // would not be the cutoff the caller asked for.
      if (p.lstsq.rcond && !(*p.lstsq.rcond > 0 && *p.lstsq.rcond < 1)) {
        fail(op, "rcond must lie in (0, 1) (got " + std::to_string(*p.lstsq.rcond) +
                     "): LAPACK's gelsd replaces any other value by eps without saying so (NumPy "
                     "passes rcond=0 on to it, so there it means eps); leave it unset for NumPy's "
                     "default eps * max(m, n)");
      }
      return vector;
    }
  }
  fail(op, "unknown linalg op");
}

void validate_unless_marked(const LinalgOp& op, std::span<const EagerTensor> inputs) {
  if (op.validated()) return;
  std::vector<InputView> views;
  views.reserve(inputs.size());
  for (const EagerTensor& input : inputs) views.push_back({input.dtype(), input.shape()});
  validate_inputs(op, views);
}

std::vector<TensorMeta> validate_and_infer(const LinalgOp& op, std::span<const TensorMeta> inputs) {
  std::vector<InputView> views;
  views.reserve(inputs.size());
  for (const TensorMeta& input : inputs) views.push_back({input.dtype, input.shape});
  const bool vector = validate_inputs(op, views);
  const TensorMeta& a = inputs[0];
  const MatrixDims d = matrix_dims(a.shape);
  const std::int64_t m = d.rows, n = d.cols, k = std::min(m, n);
  const Shape& bs = d.batch_shape;
  const DType t = a.dtype, real = real_dtype(a.dtype);
  const auto& p = op.payload();

  switch (op.kind()) {
    case LinalgKind::Qr:
      if (p.qr.mode == linalg::QrMode::Complete)
        return {{t, concat({m, m}, bs)}, {t, concat({m, n}, bs)}};
      return {{t, concat({m, k}, bs)}, {t, concat({k, n}, bs)}};
    case LinalgKind::Svd: {
      std::int64_t r = k;
      if (p.svd.truncation.max_rank) r = std::min(r, *p.svd.truncation.max_rank);
      std::vector<TensorMeta> out;
      if (p.svd.compute_uv) {
        const bool full = p.svd.full_matrices;
        out.push_back({t, concat({m, full ? m : r}, bs)});
        out.push_back({real, concat({r}, bs)});
        out.push_back({t, concat({full ? n : r, n}, bs)});
      } else {
        out.push_back({real, concat({r}, bs)});
      }
      out.push_back({real, bs});
      return out;
    }
    case LinalgKind::Eigh:
      if (p.eigh.values_only) return {{real, concat({n}, bs)}};
      return {{real, concat({n}, bs)}, {t, concat({n, n}, bs)}};
    case LinalgKind::Eig:
      return {{complex_dtype(t), concat({n}, bs)}, {complex_dtype(t), concat({n, n}, bs)}};
    case LinalgKind::Lu:
      return {{t, concat({m, m}, bs)}, {t, concat({m, k}, bs)}, {t, concat({k, n}, bs)}};
    case LinalgKind::Cholesky:
    case LinalgKind::Inv:
      return {{t, a.shape}};
    case LinalgKind::Det:
      return {{t, bs}};
    case LinalgKind::Slogdet:
      return {{t, bs}, {real, bs}};
    case LinalgKind::Solve:
    case LinalgKind::TriangularSolve:
      return {{t, inputs[1].shape}};
    case LinalgKind::Lstsq: {
      const Shape x = vector ? concat({n}, bs) : concat({n, inputs[1].shape[1]}, bs);
      return {{t, x}, {real, bs}, {real, concat({k}, bs)}};
    }
  }
  fail(op, "unknown linalg op");
}

}  // namespace tenferro::linalg_internal
