// Automatic differentiation on the eager runtime: reverse mode (VJP) and forward mode (JVP).
//
//   auto rt = EagerRuntime::cpu();
//   ad::GradientTape tape(rt);
//   ad::Variable x = tape.watch(rt->upload(host_x));          // a leaf to differentiate
//   ad::Variable loss = ad::sum(ad::square(ad::einsum("ij,jk->ik", {x, w})));
//   std::vector<EagerTensor> g = tape.gradient(loss, {x});     // d loss / d x, frees the graph
//
//   auto [y, dy] = ad::jvp(f, {x0}, {u});                      // forward mode: J u
//
// Design:
// - A GradientTape records, in call order, every differentiable op applied to the Variables it
//   watches (a Wengert list). One tape belongs to one EagerRuntime; nothing is global or
//   thread-local except the no_grad flag, so separate tapes on separate threads run
//   concurrently. A tape may be shared by threads (recording takes the tape's own lock), but
//   the usual pattern is one tape per thread.
// - Every rule is written with the public eager ops (prims, einsum, linalg, fft) on the values
//   it saved, so a gradient runs on the backend that owns the data, with no transfer.
// - Reverse mode walks the tape backwards, summing the cotangents of a value used several
//   times. Unless retain_graph is set it then frees the graph (the saved tensors); a second
//   reverse pass through a freed tape is a RuntimeState error.
// - Forward mode (jvp) records f on a private tape and pushes the tangents through each op's
//   JVP rule in call order.
// - The same-runtime contract: primals, cotangents and tangents from another runtime are
//   ContextMismatch errors before any work; a cotangent or tangent whose shape or dtype differs
//   from its primal's is a Validation error.
//
// Complex numbers (PyTorch's convention, also JAX's for real losses): for a real loss L of a
// complex z = x + iy the gradient is dL/dx + i dL/dy = 2 dL/dz* (the conjugate Wirtinger
// derivative, doubled), so z - lr * grad descends. For w = f(z), a cotangent g_w maps to
// g_z = conj(dw/dz) g_w + dw/dz* conj(g_w); for a holomorphic f that is conj(f'(z)) g_w. The
// VJP is the adjoint of the JVP under the real inner product <a, b> = Re sum conj(a) b, which
// is what the tests check. A real input that meets a complex value gets the real part of its
// cotangent.
//
// Hermitian inputs (eigh, cholesky): the gradient is the Hermitian one (PyTorch's), correct for
// losses of a Hermitian input; compose with (X + X^H)/2 when X itself is free. Spectral rules
// (eigh, svd) divide by eigenvalue / singular value gaps: losses must be gauge invariant, and
// degenerate spectra give inf unless a broadening eps > 0 is set (see EighAdOptions).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tenferro/einsum.hpp"
#include "tenferro/fft.hpp"
#include "tenferro/krylov.hpp"
#include "tenferro/linalg.hpp"
#include "tenferro/prims.hpp"
#include "tenferro/runtime/eager_tensor.hpp"

// The public API: exported from the shared library (the rest of it is hidden).
#pragma GCC visibility push(default)

namespace tenferro::ad {

namespace detail {
struct TapeState;
}

// A value of one runtime, tracked by a tape (a leaf or an op's output) or a constant.
class Variable {
 public:
  Variable() = default;
  Variable(EagerTensor value);  // NOLINT(google-explicit-constructor): a constant

  const EagerTensor& value() const noexcept { return value_; }
  bool defined() const noexcept { return value_.defined(); }
  DType dtype() const noexcept { return value_.dtype(); }
  const Shape& shape() const noexcept { return value_.shape(); }
  std::int64_t rank() const noexcept { return value_.rank(); }
  // True when a tape records ops on this value.
  bool tracked() const noexcept { return tape_ != nullptr; }
  // The same value, no longer tracked: ops on it record nothing.
  Variable detach() const { return Variable(value_); }

 private:
  friend struct Access;
  EagerTensor value_;
  std::shared_ptr<detail::TapeState> tape_;
  std::int64_t slot_ = -1;
};

struct GradientOptions {
  // Keep the saved tensors so the tape can run reverse mode again.
  bool retain_graph = false;
};

class GradientTape {
 public:
  explicit GradientTape(std::shared_ptr<EagerRuntime> runtime);
  ~GradientTape();
  GradientTape(const GradientTape&) = delete;
  GradientTape& operator=(const GradientTape&) = delete;

  const std::shared_ptr<EagerRuntime>& runtime() const noexcept;
  // A leaf. ContextMismatch when x lives in another runtime.
  Variable watch(const EagerTensor& x);

  // Vector-Jacobian product: the cotangents of `outputs` pulled back to `inputs` (zeros for an
  // input the outputs do not depend on). An undefined cotangent counts as zero.
  std::vector<EagerTensor> vjp(std::span<const Variable> outputs,
                               std::span<const EagerTensor> cotangents,
                               std::span<const Variable> inputs, GradientOptions options = {});
  // d loss / d inputs for a real 0-d loss (cotangent 1).
  std::vector<EagerTensor> gradient(const Variable& loss, std::span<const Variable> inputs,
                                    GradientOptions options = {});
  std::vector<EagerTensor> gradient(const Variable& loss, std::initializer_list<Variable> inputs,
                                    GradientOptions options = {});
  // PyTorch style: pulls back `loss` (a real 0-d value) and adds the result to every leaf's
  // accumulated gradient, read with grad().
  void backward(const Variable& loss, GradientOptions options = {});
  // The gradient accumulated for a leaf by backward() (undefined before any).
  EagerTensor grad(const Variable& leaf) const;
  // True once a reverse pass freed the graph.
  bool freed() const noexcept;

 private:
  friend struct Access;
  std::shared_ptr<detail::TapeState> state_;
};

// While alive, ops on this thread record nothing (their outputs are constants).
class NoGradGuard {
 public:
  NoGradGuard();
  ~NoGradGuard();
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;
};
bool grad_enabled() noexcept;

using Function = std::function<std::vector<Variable>(std::span<const Variable>)>;

// Forward mode: f's outputs and their tangents J u (zeros where f does not depend on the
// primals), for tangents u of the primals' shapes and dtypes.
std::pair<std::vector<EagerTensor>, std::vector<EagerTensor>> jvp(
    const Function& f, std::span<const EagerTensor> primals, std::span<const EagerTensor> tangents);
// Reverse mode as a function: f's outputs and their pullback (callable once).
using Pullback = std::function<std::vector<EagerTensor>(std::span<const EagerTensor>)>;
std::pair<std::vector<EagerTensor>, Pullback> vjp(const Function& f,
                                                  std::span<const EagerTensor> primals);
// d f / d primals for an f with one real 0-d output.
std::vector<EagerTensor> grad(const Function& f, std::span<const EagerTensor> primals);

// ---- The list of differentiable ops ----------------------------------------------------------
struct DifferentiableOp {
  std::string family;      // e.g. "tenferro.prims.v1"
  std::string op;          // the family's op name (prims' scale/shift are its "affine" row)
  std::string kernel_row;  // for views (no kernel): the row their rules' kernels stand on
};
// Every op with VJP and JVP rules, one entry each (the creation ops have no inputs to
// differentiate and are not listed).
const std::vector<DifferentiableOp>& differentiable_ops();
// (op, backend) -> dtypes where the op is differentiable: where its forward op runs, as the
// rules use only eager ops. Printed by `tenferro info`.
const AdmissionTable& admission_table();

// ---- Differentiable ops: the eager ops of the same names, on Variables ----------------------
using prims::Axes;
using prims::Scalar;

Variable neg(const Variable& x);
Variable conj(const Variable& x);
Variable abs(const Variable& x);
Variable real(const Variable& x);
Variable imag(const Variable& x);
Variable sqrt(const Variable& x);
Variable exp(const Variable& x);
Variable exp2(const Variable& x);
Variable expm1(const Variable& x);
Variable log(const Variable& x);
Variable log1p(const Variable& x);
Variable log2(const Variable& x);
Variable log10(const Variable& x);
Variable sin(const Variable& x);
Variable cos(const Variable& x);
Variable tan(const Variable& x);
Variable sinh(const Variable& x);
Variable cosh(const Variable& x);
Variable tanh(const Variable& x);
Variable asin(const Variable& x);
Variable acos(const Variable& x);
Variable atan(const Variable& x);
Variable asinh(const Variable& x);
Variable acosh(const Variable& x);
Variable atanh(const Variable& x);
// Piecewise constant: gradient zero (JAX's choice; the jumps have none).
Variable floor(const Variable& x);
Variable ceil(const Variable& x);
Variable rint(const Variable& x);
Variable trunc(const Variable& x);
Variable cbrt(const Variable& x);  // infinite slope at 0
Variable reciprocal(const Variable& x);
Variable square(const Variable& x);
Variable sign(const Variable& x);  // real: gradient zero; complex: z/|z| is smooth off 0

Variable add(const Variable& a, const Variable& b);
Variable sub(const Variable& a, const Variable& b);
Variable mul(const Variable& a, const Variable& b);
Variable div(const Variable& a, const Variable& b);
// floor_div: piecewise constant (gradient zero). mod: d/da = 1, d/db = -floor(a / b); fmod:
// d/da = 1, d/db = -trunc(a / b) (PyTorch's, the derivatives between the jumps).
Variable floor_div(const Variable& a, const Variable& b);
Variable mod(const Variable& a, const Variable& b);
Variable fmod(const Variable& a, const Variable& b);
// Ties send half of the cotangent to each side (as JAX).
Variable maximum(const Variable& a, const Variable& b);
Variable minimum(const Variable& a, const Variable& b);
Variable pow(const Variable& a, const Variable& b);  // real; d/db needs a > 0
Variable atan2(const Variable& a, const Variable& b);
// At (0, 0) the subgradient 0, as abs's.
Variable hypot(const Variable& a, const Variable& b);
// d/da = sign(a) sign(b), 0 at a = 0 (as PyTorch); d/db = 0.
Variable copysign(const Variable& a, const Variable& b);
Variable complex(const Variable& re, const Variable& im);

// Comparisons (prims::greater ..): piecewise constant, so their outputs are constants (zero
// gradient, never tracked), computed from the values.
Variable greater(const Variable& a, const Variable& b);
Variable greater_equal(const Variable& a, const Variable& b);
Variable less(const Variable& a, const Variable& b);
Variable less_equal(const Variable& a, const Variable& b);
Variable equal(const Variable& a, const Variable& b);
Variable not_equal(const Variable& a, const Variable& b);
// x where cond != 0, else y (prims::where). cond is a constant mask (a comparison's result is
// piecewise constant: it has no derivative to carry); the cotangent goes to x where cond holds
// and to y elsewhere, by the same select, so an Inf/NaN of the branch not taken never reaches
// the other's gradient.
Variable where(const EagerTensor& cond, const Variable& x, const Variable& y);

Variable scale(const Variable& x, Scalar alpha);
// x / v and v / x as prims::div with a 0-d constant (IEEE: x / 0 is +-inf or NaN, a real v
// keeps x real), never scale(x, 1 / v).
Variable div(const Variable& x, Scalar v);
Variable div(Scalar v, const Variable& x);
Variable shift(const Variable& x, Scalar beta);
Variable axpby(Scalar alpha, const Variable& x, Scalar beta, const Variable& y);

Variable sum(const Variable& x, std::optional<Axes> axes = std::nullopt, bool keepdims = false);
Variable mean(const Variable& x, std::optional<Axes> axes = std::nullopt, bool keepdims = false);
// d prod / d x_i = prod / x_i: needs non-zero entries (a zero gives NaN, never a silent 0).
Variable prod(const Variable& x, std::optional<Axes> axes = std::nullopt, bool keepdims = false);
// Ties share the cotangent equally (as PyTorch's amax/amin).
Variable max(const Variable& x, std::optional<Axes> axes = std::nullopt, bool keepdims = false);
Variable min(const Variable& x, std::optional<Axes> axes = std::nullopt, bool keepdims = false);
Variable norm(const Variable& x, std::optional<Axes> axes = std::nullopt, bool keepdims = false);
// Indices (prims::argmax / argmin): piecewise constant, their outputs are constants.
Variable argmax(const Variable& x, std::int64_t axis, bool keepdims = false);
Variable argmin(const Variable& x, std::int64_t axis, bool keepdims = false);
// The running sum along one axis (prims::cumsum): linear.
Variable cumsum(const Variable& x, std::int64_t axis);
// The running product (prims::cumprod), differentiated exactly where x has zeros.
Variable cumprod(const Variable& x, std::int64_t axis);

Variable cast(const Variable& x, DType to);

Variable permute(const Variable& x, std::span<const std::int64_t> perm);
Variable transpose(const Variable& x, std::int64_t axis_a = 0, std::int64_t axis_b = 1);
Variable reshape(const Variable& x, Shape shape);  // a compact copy first when needed
Variable slice(const Variable& x, std::span<const prims::Slice> slices);
Variable diagonal(const Variable& x, std::int64_t offset = 0, std::int64_t axis_a = 0,
                  std::int64_t axis_b = 1);
Variable broadcast_to(const Variable& x, Shape shape);
Variable contiguous(const Variable& x);
Variable flip(const Variable& x, std::optional<Axes> axes = std::nullopt);
Variable concatenate(std::span<const Variable> xs, std::int64_t axis = 0);
Variable stack(std::span<const Variable> xs, std::int64_t axis = 0);

Variable einsum(std::string_view subscripts, std::span<const Variable> operands,
                const EinsumOptions& options = {});
Variable einsum(std::string_view subscripts, std::initializer_list<Variable> operands,
                const EinsumOptions& options = {});

Variable operator-(const Variable& x);
Variable operator+(const Variable& a, const Variable& b);
Variable operator-(const Variable& a, const Variable& b);
Variable operator*(const Variable& a, const Variable& b);
Variable operator/(const Variable& a, const Variable& b);
Variable operator*(const Variable& x, Scalar alpha);
Variable operator*(Scalar alpha, const Variable& x);
Variable operator+(const Variable& x, Scalar beta);
Variable operator-(const Variable& x, Scalar beta);

// ---- Linear algebra ---------------------------------------------------------------------------
// Lorentzian broadening of the spectral rules: 1/(x_j - x_i) becomes (x_j - x_i)/((x_j - x_i)^2
// + eps), finite for degenerate spectra (eps = 0: the exact rule).
struct SpectralAdOptions {
  double eps = 0.0;
};
struct EighVariables {
  Variable w, v;
};
EighVariables eigh(const Variable& a, SpectralAdOptions ad = {});
struct SvdVariables {
  Variable u, s, vh;
};
// Thin SVD, and truncated SVD (options.truncation): the truncated rule includes the coupling to
// the discarded singular subspace through the residual B = A - U S V^H, solving
// (s_j^2 - B B^H) x = rhs per kept value (no full SVD; see docs/ad.md). With full_matrices the
// extra columns of U (rows of Vh) are differentiated as the orthogonal complement of the thin
// ones: right for losses that depend on them through I - U U^H (I - V V^H) only, the only
// losses well defined for them. The gauge option must stay Raw.
SvdVariables svd(const Variable& a, SpectralAdOptions ad = {});
SvdVariables svd(const Variable& a, const linalg::SvdOptions& options, SpectralAdOptions ad = {});
struct QrVariables {
  Variable q, r;
};
QrVariables qr(const Variable& a);  // reduced QR (tall and wide)
// Reduced or complete mode (Raw gauge only). Complete and tall: the extra columns of Q are the
// orthogonal complement of the reduced Q (as svd's full_matrices), R's zero rows are constants.
QrVariables qr(const Variable& a, const linalg::QrOptions& options);
Variable cholesky(const Variable& a);
Variable solve(const Variable& a, const Variable& b);
Variable inv(const Variable& a);
Variable det(const Variable& a);
// op(tri(A)) X = B or X op(tri(A)) = B; the gradient of A lives on the triangle read.
Variable triangular_solve(const Variable& a, const Variable& b,
                          const linalg::TriangularSolveOptions& options = {});
struct LuVariables {
  Variable p, l, u;
};
LuVariables lu(const Variable& a);  // square A; P gets no gradient (piecewise constant)
// A of full rank: full column rank (m >= n) or full row rank (m < n, the minimum-norm
// solution). Rank-deficient A has no derivative where its rank changes and is not covered.
Variable lstsq(const Variable& a, const Variable& b);
struct EigVariables {
  Variable w, v;
};
// General square A (CPU only, as linalg::eig); eigenvector losses must be phase invariant.
EigVariables eig(const Variable& a);
struct SlogdetVariables {
  Variable sign, logabsdet;
};
SlogdetVariables slogdet(const Variable& a);

// ---- FFT (all eight ops, every norm, with padding/truncation) ---------------------------------
Variable fft(const Variable& x, std::optional<std::int64_t> n = std::nullopt,
             std::int64_t axis = -1, fft::Norm norm = fft::Norm::Backward);
Variable ifft(const Variable& x, std::optional<std::int64_t> n = std::nullopt,
              std::int64_t axis = -1, fft::Norm norm = fft::Norm::Backward);
Variable rfft(const Variable& x, std::optional<std::int64_t> n = std::nullopt,
              std::int64_t axis = -1, fft::Norm norm = fft::Norm::Backward);
Variable irfft(const Variable& x, std::optional<std::int64_t> n = std::nullopt,
               std::int64_t axis = -1, fft::Norm norm = fft::Norm::Backward);
Variable fftn(const Variable& x, fft::Lengths s = std::nullopt, fft::Lengths axes = std::nullopt,
              fft::Norm norm = fft::Norm::Backward);
Variable ifftn(const Variable& x, fft::Lengths s = std::nullopt, fft::Lengths axes = std::nullopt,
               fft::Norm norm = fft::Norm::Backward);
Variable rfftn(const Variable& x, fft::Lengths s = std::nullopt, fft::Lengths axes = std::nullopt,
               fft::Norm norm = fft::Norm::Backward);
// The imaginary parts of the self-mirrored bins (0, and n/2 for even n) do not reach the
// output, so they get a zero gradient (as NumPy's irfft ignores them).
Variable irfftn(const Variable& x, fft::Lengths s = std::nullopt, fft::Lengths axes = std::nullopt,
                fft::Norm norm = fft::Norm::Backward);

// ---- Krylov solvers (tenferro/krylov.hpp) through an operator's parameters -------------------
// The operator is written on Variables; what is differentiated are the tracked Variables it
// captures (a Hamiltonian's couplings, an MPS environment) and the right-hand side, never the
// iterations (KrylovKit's approach). The solvers themselves run untracked; each result is then
// recorded as the primal value plus a correction whose value is zero and whose derivative is
// the implicit function's:
//   - eigsh: eigenvalue lambda = Re <x, A x> with x held fixed (Hellmann-Feynman); eigenvector
//     x* + N(A x* - lambda x*) with N = -(A - lambda)^+ on the complement of x*, applied by a
//     GMRES solve of the projected, shifted operator. The eigenvalue must be non-degenerate
//     for its eigenvector's derivative (else that solve fails: a Numerical error naming
//     krylov.eigsh), and eigenvector losses must be phase invariant.
//   - cg / gmres: x* + A^{-1}(b - A x*): a solve with A in forward mode, with A^H in reverse
//     mode (cg: A itself; gmres: the `adjoint` operator, required for reverse mode).
//   - expm_multiply: y = exp(tA) v, dy = exp(tA) dv + t int_0^1 exp((1-s)tA) dA exp(s tA) v ds.
//     The integral is a composite Gauss-Legendre sum over nodes s_k at which a(exp(s_k tA) v)
//     is recorded (carrying dA to the captures); the rules chain Krylov exponentials between
//     the nodes: with A in forward mode, with the `adjoint` operator A^H and conj(t) in
//     reverse mode (required there, an Unsupported error without it; pass `a` itself for a
//     Hermitian A). Nodes: at most 16 per piece of [0, 1], pieces and nodes chosen so that
//     the a-priori Gauss-Legendre bound c_m (2|t| ||A|| / P)^(2m) stays below options.tol
//     (relative to the derivative's scale; ||A|| from a few power steps, times 1.5), so the
//     count grows with |t| ||A|| as the primal's substeps do (src/ad/rules_krylov_expm.cpp).
// Forward and reverse mode both work, on every backend (the rules are eager ops and solves).
using VariableOperator = std::function<Variable(const Variable&)>;
struct EigshVariables {
  std::vector<Variable> eigenvalues;   // k 0-d real values
  std::vector<Variable> eigenvectors;  // k unit vectors of v0's shape
  krylov::EigshResult primal;          // the solver's own result (counts, residuals)
};
// `derivative_solve` sets the tolerance of the solves inside the rules (rtol 1e-10 default).
// `vectors` false: the eigenvectors come back untracked (constants) and need no solve, so the
// eigenvalues of a degenerate eigenspace can be differentiated in forward mode too.
EigshVariables eigsh(const VariableOperator& a, const EagerTensor& v0,
                     const krylov::EigOptions& options = {},
                     const krylov::SolveOptions& derivative_solve = {.rtol = 1e-10},
                     bool vectors = true);
Variable cg(const VariableOperator& a, const Variable& b, const krylov::SolveOptions& options = {});
Variable gmres(const VariableOperator& a, const Variable& b,
               const krylov::SolveOptions& options = {}, const VariableOperator& adjoint = {});
// exp(t A) v, of krylov::expm_multiply's dtype (complex when t is); `options` serve the primal,
// the rules' exponentials and the quadrature's tolerance.
Variable expm_multiply(const VariableOperator& a, const Variable& v, std::complex<double> t,
                       const krylov::ExpmOptions& options = {},
                       const VariableOperator& adjoint = {});

}  // namespace tenferro::ad

#pragma GCC visibility pop
