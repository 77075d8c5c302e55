// tenferro._tenferro.krylov: the Krylov family (eigsh, eigs, svds, gmres, cg, minres,
// expm_multiply) on a
// linear operator given as a Python callable Tensor -> Tensor, or as a square 2-D Tensor (then
// the matvec is an einsum in the matrix's runtime). SciPy's names, defaults and ordering live
// in tenferro/krylov.py; this layer only converts arguments and results.
//
// Differentiation: when the operator captures Tracers (its first result is a Tracer), or A, b
// or v is a Tracer, eigsh, cg, gmres and expm_multiply run again through the C++ ad:: solvers
// (include/tenferro/ad.hpp: implicit-function rules, never the iterations), with the callable
// applied to Tracers, and return Tracers. The probe costs the plain solve's first matvec, and
// nothing when no Tracer is involved. eigs and minres have no rule: a typed Unsupported error.
//
// A callable runs with the GIL held: the solver calls back into Python once per matvec, so the
// GIL stays taken for the whole solve (releasing it around every callback would cost more than
// a small matvec). A Tensor operator runs without the GIL. An exception raised by the callable
// reaches the caller unchanged (the Python exception object, not a wrapper).
#include <nanobind/stl/complex.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <utility>

#include "ad_bridge.hpp"
#include "bindings.hpp"
#include "errors.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/krylov.hpp"
#include "tenferro/prims.hpp"

namespace tenferro::python {

namespace {

struct Operator {
  krylov::LinearOperator apply;
  bool python = false;  // a callable: keep the GIL for the whole solve
};

// Thrown by a callable operator that returned a Tracer: the solve must be differentiated.
struct TracedOperator : std::exception {
  const char* what() const noexcept override { return "the operator returned a Tracer"; }
};

// Whether `e`, or an exception nested in it, is a TracedOperator.
bool traced_cause(const std::exception& e) {
  if (dynamic_cast<const TracedOperator*>(&e) != nullptr) return true;
  try {
    std::rethrow_if_nested(e);
  } catch (const std::exception& inner) {
    return traced_cause(inner);
  } catch (...) {
  }
  return false;
}

// A matrix operator must be square (both paths, plain and differentiated, check it here).
void require_square(const EagerTensor& m, const char* op) {
  if (m.rank() != 2 || m.shape()[0] != m.shape()[1]) {
    throw_validation(op, "A must be a callable or a square 2-D Tensor");
  }
}

// An operator that is not a matrix must be a callable (both paths).
void require_callable(nb::handle a, const char* op) {
  if (!PyCallable_Check(a.ptr())) {
    throw_validation(op, "A must be a callable Tensor -> Tensor or a square 2-D Tensor, not " +
                             std::string(nb::type_name(a.type()).c_str()));
  }
}

Operator operator_of(nb::handle a, const char* op) {
  if (nb::isinstance<EagerTensor>(a)) {
    const auto m = nb::cast<EagerTensor>(a);
    require_square(m, op);
    // einsum wants one dtype: the matrix meets vectors of a wider dtype (eigs's complex ones,
    // a float64 b against a float32 matrix: `promoted`) cast to theirs once, on first use, in
    // the matrix's runtime.
    auto cast_m = std::make_shared<EagerTensor>();
    // The solve runs without the GIL and its loops have no other exit: Python's signal
    // handlers run here, at most every 20 ms (Ctrl-C reached a cg of 55 s only at its end; the
    // GIL on every matvec would cost a tenth of a small one).
    auto last_check =
        std::make_shared<std::chrono::steady_clock::time_point>(std::chrono::steady_clock::now());
    return {[m, cast_m, last_check, interrupt = python_interrupt_hook()](const EagerTensor& x) {
              const auto now = std::chrono::steady_clock::now();
              if (now - *last_check > std::chrono::milliseconds(20)) {
                *last_check = now;
                interrupt();
              }
              if (x.dtype() == m.dtype()) return einsum("ij,j->i", {m, x});
              if (!cast_m->defined() || cast_m->dtype() != x.dtype())
                *cast_m = prims::cast(m, x.dtype());
              return einsum("ij,j->i", {*cast_m, x});
            },
            false};
  }
  require_callable(a, op);
  nb::object f = nb::borrow(a);
  std::string name = op;
  return {[f, name](const EagerTensor& x) {
            nb::gil_scoped_acquire gil;  // a no-op: the solve keeps the GIL (see above)
            nb::object y = f(x);         // a Python exception leaves as nb::python_error
            if (is_tracer(y)) throw TracedOperator();
            if (!nb::isinstance<EagerTensor>(y)) {
              throw_validation(name.c_str(), "the operator A must return a tenferro.Tensor, not " +
                                                 std::string(nb::type_name(y.type()).c_str()));
            }
            return nb::cast<EagerTensor>(y);
          },
          true};
}

// An exception of the callable, wherever the solver nested it, leaves as itself.
[[noreturn]] void rethrow_python_cause(const std::exception& e) {
  try {
    std::rethrow_if_nested(e);
  } catch (const nb::python_error&) {
    throw;
  } catch (const std::exception& inner) {
    rethrow_python_cause(inner);
  } catch (...) {
  }
  throw;  // the exception being handled by the caller
}

// Runs the solve (without the GIL unless its operator is Python: keep_gil) and maps its
// errors: a NotConvergedError becomes tenferro.NotConvergedError with .best and
// .residual_norms.
template <class F>
auto solve(bool keep_gil, F&& f) {
  try {
    if (keep_gil) return f();
    return released(std::forward<F>(f));
  } catch (const nb::python_error&) {
    throw;
  } catch (const TracedOperator&) {
    throw;
  } catch (const krylov::NotConvergedError& e) {
    nb::object err = python_error_object(e, "NotConvergedError");
    nb::list best;
    for (const auto& t : e.best()) best.append(nb::cast(t));
    err.attr("best") = best;
    err.attr("residual_norms") = nb::cast(e.residual_norms());
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(err.ptr())), err.ptr());
    throw nb::python_error();
  } catch (const std::exception& e) {
    if (traced_cause(e)) throw TracedOperator();
    rethrow_python_cause(e);
  }
}

// ---- The differentiated path --------------------------------------------------------------

// A as an operator on Variables: a callable applied to Tracers (a Tensor result is a constant),
// or a matrix (a Tracer or a Tensor) as an einsum.
ad::VariableOperator variable_operator(nb::handle a, const char* op) {
  if (is_tracer(a) || nb::isinstance<EagerTensor>(a)) {
    const ad::Variable m = as_variable(a, op, 0);
    require_square(m.value(), op);
    return [m](const ad::Variable& x) {
      if (x.dtype() == m.dtype()) return ad::einsum("ij,j->i", {m, x});
      return ad::einsum("ij,j->i", {ad::cast(m, x.dtype()), x});
    };
  }
  require_callable(a, op);
  // The rules keep the operator on the tape, which copies and frees it without the GIL (the
  // backward pass runs released): the callable is held through a shared_ptr whose last owner
  // takes the GIL to drop it.
  struct Held {
    nb::object f;
    ~Held() {
      nb::gil_scoped_acquire gil;
      f.reset();
    }
  };
  auto held = std::make_shared<Held>();
  held->f = nb::borrow(a);
  std::string name = op;
  return [held, name](const ad::Variable& x) {
    nb::gil_scoped_acquire gil;
    nb::object y = held->f(nb::cast(x));
    if (!is_tracer(y) && !nb::isinstance<EagerTensor>(y)) {
      throw_validation(name.c_str(),
                       "the operator A must return a tenferro.Tensor or Tracer, not " +
                           std::string(nb::type_name(y.type()).c_str()));
    }
    return as_variable(y, name.c_str(), 0);
  };
}

// The optional adjoint operator of gmres/expm_multiply (reverse mode needs A^H): None, a
// callable or a square matrix (a Tensor or a Tracer). Checked on the plain path too, which does
// not use it: a bad argument is refused whether or not the call is differentiated.
void check_adjoint(nb::handle adjoint, const char* op) {
  if (adjoint.is_none() || is_tracer(adjoint) || nb::isinstance<EagerTensor>(adjoint) ||
      PyCallable_Check(adjoint.ptr()))
    return;
  throw_validation(op,
                   "adjoint (A^H) must be None, a callable Tensor -> Tensor or a square 2-D "
                   "Tensor, not " +
                       std::string(nb::type_name(adjoint.type()).c_str()));
}
ad::VariableOperator optional_operator(nb::handle a, const char* op) {
  if (a.is_none()) return {};
  return variable_operator(a, op);
}

[[noreturn]] void no_rule(const char* op) {
  throw_error(ErrorKind::Unsupported, ErrorPhase::Input, op,
              std::string(op) +
                  " has no differentiation rule: its operator or vectors are "
                  "Tracers. eigsh, cg, gmres and expm_multiply have one");
}

// Runs `plain` unless a Tracer is involved (given, or returned by the operator), then `traced`.
template <class Plain, class Traced>
nb::object plain_or_traced(bool any_tracer, Plain&& plain, Traced&& traced) {
  if (!any_tracer) {
    try {
      return plain();
    } catch (const TracedOperator&) {
    }
  }
  return traced();
}

// The start vector of a Tensor operator without v0: seeded normal numbers in its runtime.
EagerTensor start_vector(nb::handle a, std::optional<EagerTensor> v0, const char* op) {
  if (v0) return *v0;
  if (!nb::isinstance<EagerTensor>(a)) {
    throw_validation(op, "v0 is required when A is a callable (it gives the vectors' shape)");
  }
  const auto m = nb::cast<EagerTensor>(a);
  return prims::random_normal(m.runtime(), m.dtype(), {m.shape()[0]}, 0x5eed);
}

// The dtype a solve runs in: the matrix's and the vector's promoted as NumPy and SciPy promote
// them (complex if either is, double if either is). A float64 matrix with a float32 b solves in
// float64, a complex64 matrix with a float64 b in complex128; the operator casts the matrix to
// it once, the vector is cast here. (The vector's dtype alone cast a float64 matrix down to
// float32 and solved in single precision.)
DType solve_dtype(DType matrix, DType vector) {
  const DType real = is_double(matrix) || is_double(vector) ? DType::F64 : DType::F32;
  return is_complex(matrix) || is_complex(vector) ? complex_dtype(real) : real;
}

// The right-hand side/start in the solve's dtype (a matrix operator's; a callable's vector
// stays as it is).
EagerTensor promoted(nb::handle a, const EagerTensor& v) {
  if (!nb::isinstance<EagerTensor>(a)) return v;
  const DType d = solve_dtype(nb::cast<EagerTensor>(a).dtype(), v.dtype());
  return d == v.dtype() ? v : prims::cast(v, d);
}

// The same for the differentiated path, whose matrix may be a Tracer: the cast is on the tape,
// so a real b's cotangent is the real part of the complex one (a float32 b's, the float64 one
// rounded).
ad::Variable promoted(nb::handle a, const ad::Variable& v) {
  if (!is_tracer(a) && !nb::isinstance<EagerTensor>(a)) return v;
  const DType d = solve_dtype(as_variable(a, "krylov", 0).dtype(), v.dtype());
  return d == v.dtype() ? v : ad::cast(v, d);
}

krylov::EigOptions eig_options(std::int64_t k, const std::string& which, std::int64_t ncv,
                               std::int64_t maxiter, double tol, bool eager) {
  krylov::EigOptions o;
  o.eager = eager;
  o.k = k;
  o.which = krylov::which_from_string(which);
  o.ncv = ncv;
  o.maxiter = maxiter;
  o.tol = tol;
  return o;
}

krylov::SolveOptions solve_options(std::optional<EagerTensor> x0, double rtol, double atol,
                                   std::int64_t restart, std::int64_t maxiter) {
  krylov::SolveOptions o;
  o.x0 = std::move(x0);
  o.rtol = rtol;
  o.atol = atol;
  o.restart = restart;
  o.maxiter = maxiter;
  return o;
}

}  // namespace

void bind_krylov(nb::module_& m) {
  nb::module_ k = m.def_submodule("krylov", "Krylov solvers (use tenferro.krylov).");
  // Each returns its C++ result's fields as a tuple; tenferro/krylov.py orders them as SciPy.
  // eigsh and eigs share one binding: the same arguments, results of the same fields.
  // Differentiated (see the top), eigsh returns its eigenvalues and vectors as Tracers.
  const auto bind_eigen = [&k](const char* name, auto solver, bool differentiable) {
    k.def(name, [name, solver, differentiable](
                    nb::handle a, std::int64_t kk, const std::string& which,
                    std::optional<EagerTensor> v0, std::int64_t ncv, std::int64_t maxiter,
                    double tol, bool eager, bool vectors) {
      const auto o = eig_options(kk, which, ncv, maxiter, tol, eager);
      return plain_or_traced(
          is_tracer(a),
          [&] {
            const Operator op = operator_of(a, name);
            const EagerTensor start = promoted(a, start_vector(a, v0, name));
            auto r = solve(op.python, [&] { return solver(op.apply, start, o); });
            return nb::object(
                nb::make_tuple(r.eigenvalues, r.eigenvectors, r.residual_norms, r.matvecs));
          },
          [&] {
            if (!differentiable) no_rule(name);
            const ad::VariableOperator vop = variable_operator(a, name);
            // A matrix operator (Tracer or Tensor) by its value, for the start vector's
            // dtype.
            const nb::object matrix =
                is_tracer(a) ? nb::cast(as_variable(a, name, 0).value()) : nb::borrow(a);
            const EagerTensor start = promoted(matrix, start_vector(matrix, v0, name));
            // The eigenvector derivatives' solves: 1e-10 in double precision; single precision
            // cannot reach that (every float32 eigenvector gradient failed).
            const double rtol = is_double(start.dtype()) ? 1e-10 : 1e-5;
            auto r = solve(true, [&] { return ad::eigsh(vop, start, o, {.rtol = rtol}, vectors); });
            return nb::object(nb::make_tuple(r.eigenvalues, r.eigenvectors, r.primal.residual_norms,
                                             r.primal.matvecs));
          });
    });
  };
  bind_eigen("eigsh", &krylov::eigsh, true);
  bind_eigen("eigs", &krylov::eigs, false);
  k.def("svds", [](const EagerTensor& a, std::int64_t kk, double tol, std::uint64_t seed) {
    auto r = released([&] { return krylov::svds(a, kk, tol, seed); });
    return nb::make_tuple(r.u, r.s, r.vh, r.matvecs);
  });
  // The linear solvers share one binding: gmres takes `restart`, cg and minres ignore it.
  using Solver = krylov::SolveResult (*)(const krylov::LinearOperator&, const EagerTensor&,
                                         const krylov::SolveOptions&);
  // Differentiated (see the top) through `traced`, x comes back as a Tracer (gmres's reverse
  // mode needs `adjoint`, A^H); a solver without a rule passes nullptr.
  using TracedSolver =
      ad::Variable (*)(const ad::VariableOperator&, const ad::Variable&,
                       const krylov::SolveOptions&, const ad::VariableOperator& adjoint);
  const auto bind_solver = [&k](const char* name, Solver solver, TracedSolver traced) {
    k.def(
        name,
        [name, solver, traced](nb::handle a, nb::handle b, std::optional<EagerTensor> x0,
                               double rtol, double atol, std::int64_t restart, std::int64_t maxiter,
                               nb::handle adjoint) {
          check_adjoint(adjoint, name);
          const auto o = solve_options(std::move(x0), rtol, atol, restart, maxiter);
          return plain_or_traced(
              is_tracer(a) || is_tracer(b),
              [&] {
                const Operator op = operator_of(a, name);
                const EagerTensor rhs = promoted(a, as_variable(b, name, 1).value());
                auto r = solve(op.python, [&] { return solver(op.apply, rhs, o); });
                return nb::object(nb::make_tuple(r.x, r.residual_norm, r.matvecs, r.iterations));
              },
              [&] {
                if (traced == nullptr) no_rule(name);
                const ad::VariableOperator vop = variable_operator(a, name);
                const ad::Variable rhs = promoted(a, as_variable(b, name, 1));
                const ad::Variable x = solve(
                    true, [&] { return traced(vop, rhs, o, optional_operator(adjoint, name)); });
                return nb::object(nb::make_tuple(x, nb::none(), nb::none(), nb::none()));
              });
        },
        nb::arg("a"), nb::arg("b"), nb::arg("x0").none(), nb::arg("rtol"), nb::arg("atol"),
        nb::arg("restart"), nb::arg("maxiter"), nb::arg("adjoint").none());
  };
  bind_solver(
      "gmres", &krylov::gmres,
      [](const ad::VariableOperator& a, const ad::Variable& b, const krylov::SolveOptions& o,
         const ad::VariableOperator& adjoint) { return ad::gmres(a, b, o, adjoint); });
  bind_solver("cg", &krylov::cg,
              [](const ad::VariableOperator& a, const ad::Variable& b,
                 const krylov::SolveOptions& o, const ad::VariableOperator&) {
                return ad::cg(a, b, o);  // A is Hermitian: its own adjoint
              });
  bind_solver("minres", &krylov::minres, nullptr);
  k.def(
      "expm_multiply",
      [](nb::handle a, nb::handle v, std::complex<double> t, double tol, std::int64_t ncv,
         std::int64_t max_substeps, nb::handle adjoint) {
        check_adjoint(adjoint, "expm_multiply");
        krylov::ExpmOptions o;
        o.tol = tol;
        o.ncv = ncv;
        o.max_substeps = max_substeps;
        return plain_or_traced(
            is_tracer(a) || is_tracer(v),
            [&] {
              const Operator op = operator_of(a, "expm_multiply");
              const EagerTensor start = promoted(a, as_variable(v, "expm_multiply", 1).value());
              auto r =
                  solve(op.python, [&] { return krylov::expm_multiply(op.apply, start, t, o); });
              return nb::object(nb::make_tuple(r.x, r.error_estimate, r.substeps, r.matvecs));
            },
            [&] {
              const ad::Variable x = solve(true, [&] {
                return ad::expm_multiply(variable_operator(a, "expm_multiply"),
                                         promoted(a, as_variable(v, "expm_multiply", 1)), t, o,
                                         optional_operator(adjoint, "expm_multiply"));
              });
              return nb::object(nb::make_tuple(x, nb::none(), nb::none(), nb::none()));
            });
      },
      nb::arg("a"), nb::arg("v"), nb::arg("t"), nb::arg("tol"), nb::arg("ncv"),
      nb::arg("max_substeps"), nb::arg("adjoint").none());
}

}  // namespace tenferro::python
