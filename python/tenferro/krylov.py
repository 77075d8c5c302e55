"""Krylov solvers with scipy.sparse.linalg's names and conventions: ``eigsh``, ``eigs``,
``svds``, ``gmres``, ``cg``, ``minres`` and ``expm_multiply``.

``A`` is either a callable ``Tensor -> Tensor`` that returns its argument's shape, dtype and
runtime (the tensors keep their shape: a DMRG effective Hamiltonian acts on a 4-index tensor
directly), or a square 2-D ``Tensor`` (the matvec is an einsum in the matrix's runtime). The
solvers run in the runtime of ``v0``/``b``; no tensor is moved. A callable runs with the GIL
held, and an exception it raises reaches the caller unchanged.

Differences from SciPy, all deliberate:

- non-convergence raises :class:`tenferro.NotConvergedError` (a ``NumericalError``) carrying
  ``.best`` (the best iterates, Tensors) and ``.residual_norms``; no ``info > 0`` is returned.
  ``gmres``, ``cg`` and ``minres`` return ``(x, 0)`` so SciPy's ``x, info = ...`` unpacking still works;
- ``eigsh``/``eigs`` default to ``k=1``; ``v0`` is required for a callable (it gives the
  shape); for a 2-D Tensor without ``v0`` the start is a seeded normal vector of the runtime;
- eigenvectors come back as one Tensor of shape ``v0.shape + (k,)`` (SciPy's ``(n, k)`` for
  vectors): ``v[..., i]`` belongs to ``w[i]``;
- ``expm_multiply(A, v, t)`` computes ``exp(t A) v`` for real or complex ``t`` (SciPy has no
  ``t`` and computes ``exp(A) v``); ``tol`` bounds each substep's error relative to the
  evolving vector's norm.

Differentiation (``tenferro.grad``, ``vjp``, ``jvp``): ``eigsh``, ``cg``, ``gmres`` and
``expm_multiply`` differentiate through what the operator captures (a Tracer Hamiltonian, an
MPS environment) and through ``A``, ``b`` and ``v`` when they are Tracers, by the C++ rules
of ``tenferro::ad`` (implicit-function derivatives, never through the iterations; see
docs/krylov.md). Their results are then Tracers (``eigsh``'s ``w`` a 1-D Tracer). Reverse mode
through ``gmres`` and ``expm_multiply`` needs ``adjoint=`` (a callable applying ``A^H``; pass
``A`` itself when it is Hermitian). ``eigs`` and ``minres`` have no rule: a Tracer there is an
UnsupportedError, as is ``svds`` of a Tracer. A Tracer start vector (``v0``, ``x0``) is taken
by value: the solution does not depend on it.
"""

import operator as _operator

import numpy as _np

from . import _errors
from ._tenferro import Tracer as _Tracer
from ._tenferro import krylov as _k
from ._tenferro import prims as _p


def _stack(vectors, order):
    vs = [vectors[i] for i in order]
    return _p.stack(vs, vs[0].ndim)


def _traced(x):
    return type(x) is _Tracer


def _int(x, default, op="krylov", name="a count"):
    """A count argument (k, ncv, maxiter, ...): anything operator.index takes, within C++'s
    range, else a ValidationError (nanobind's own refusal was an untyped TypeError)."""
    if x is None:
        return default
    try:
        n = _operator.index(x)
    except TypeError:
        raise _errors._error(_errors.ValidationError, op, f"{name} must be an integer, got "
                             f"{type(x).__name__}") from None
    if not -2**62 <= n < 2**62:
        raise _errors._error(_errors.ValidationError, op, f"{name} = {n} is out of range")
    return n


def _tolerance(x, op, name="tol"):
    """A tolerance: a number >= 0 (a NaN used to fall back to the default silently)."""
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise _errors._error(_errors.ValidationError, op, f"{name} must be a number, got "
                             f"{type(x).__name__}") from None
    if not v >= 0:
        raise _errors._error(_errors.ValidationError, op, f"{name} must be >= 0, got {v}")
    return v


def _start(x):
    """A start vector (v0, x0) by value: the solution does not depend on where the iteration
    starts (up to the tolerance), so no derivative flows into it."""
    return x.value if _traced(x) else x


def eigsh(A, k=1, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
          return_eigenvectors=True, *, eager=False):
    """scipy.sparse.linalg.eigsh by thick-restart Lanczos: ``k`` eigenpairs of a Hermitian
    operator. Returns ``(w, v)`` with ``w`` a float64 NumPy array in ascending order (as
    SciPy) and ``v`` a Tensor of shape ``v0.shape + (k,)``; ``w`` alone when
    ``return_eigenvectors`` is false. ``which``: 'LM', 'SM', 'LA', 'SA'. ``tol=0`` means
    machine precision of the dtype; ``maxiter`` counts restarts (default 300). ``eager=True``
    judges convergence after every step instead of on whole ncv-step bases: a few matvecs from
    a start vector close to the wanted eigenvector (DMRG's previous state), but a start vector
    close to an unwanted eigenvector then passes as converged."""
    _no_shift_invert("eigsh", M, sigma)
    w, vs, _res, _mv = _k.eigsh(A, _int(k, 1, "eigsh", "k"), which, _start(v0),
                                _int(ncv, 0, "eigsh", "ncv"), _int(maxiter, 0, "eigsh", "maxiter"),
                                _tolerance(tol, "eigsh"), bool(eager), bool(return_eigenvectors))
    if w and _traced(w[0]):  # differentiated: w and v are Tracers
        order = _np.argsort([float(x.value.download()) for x in w], kind="stable")
        w = _p.stack([w[i] for i in order], 0)
    else:
        order = _np.argsort(w, kind="stable")
        w = _np.asarray(w, dtype=_np.float64)[order]
    return (w, _stack(vs, order)) if return_eigenvectors else w


def eigs(A, k=1, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
         return_eigenvectors=True, *, eager=False):
    """scipy.sparse.linalg.eigs by Krylov-Schur: ``k`` eigenpairs of a general operator.
    Returns ``(w, v)`` with ``w`` complex128, best first by ``which`` ('LM', 'SM', 'LR', 'SR',
    'LI', 'SI'), and ``v`` a complex Tensor of shape ``v0.shape + (k,)``. A real ``v0`` is
    cast to complex, so a callable must accept complex tensors."""
    _no_shift_invert("eigs", M, sigma)
    w, vs, _res, _mv = _k.eigs(A, _int(k, 1, "eigs", "k"), which, _start(v0),
                               _int(ncv, 0, "eigs", "ncv"), _int(maxiter, 0, "eigs", "maxiter"),
                               _tolerance(tol, "eigs"), bool(eager), bool(return_eigenvectors))
    w = _np.asarray(w, dtype=_np.complex128)
    return (w, _stack(vs, range(len(vs)))) if return_eigenvectors else w


def svds(A, k=6, tol=0, return_singular_vectors=True, *, seed=0):
    """scipy.sparse.linalg.svds for a 2-D Tensor: the ``k`` largest singular triplets
    (``1 <= k <= min(m, n)``: SciPy wants ``k < min(m, n)``, an untruncated
    bond needs them all), through eigsh on the smaller Gram matrix, on any backend (WebGPU
    included, which has no tf.linalg). Returns ``(U, S, Vh)`` as Tensors with ``S``
    **descending** (NumPy's svd order; SciPy's svds ascends). Singular values below
    sqrt(eps) times the largest have no relative accuracy, but their vectors still complete
    an orthonormal basis, which is what truncation needs. ``seed`` fixes the start vector."""
    if _traced(A):
        from ._errors import UnsupportedError, _error

        raise _error(UnsupportedError, "svds", "svds has no derivative rule: differentiate "
                     "tf.linalg.svd, or eigsh of the Gram operator A^H A", kind="Unsupported")
    if callable(A) and not hasattr(A, "ndim"):
        raise _errors._error(_errors.ValidationError, "svds", "A must be a 2-D Tensor (svds "
                             "forms the Gram operator from the matrix; a callable has no "
                             "adjoint to give it)")
    seed = _int(seed, 0, "svds", "seed")
    if seed < 0:
        raise _errors._error(_errors.ValidationError, "svds", f"seed must be >= 0, got {seed}")
    u, s, vh, _mv = _k.svds(A, _int(k, 6, "svds", "k"), _tolerance(tol, "svds"), seed)
    return (u, s, vh) if return_singular_vectors else s


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0.0, restart=None, maxiter=None, adjoint=None):
    """scipy.sparse.linalg.gmres (restarted GMRES): ``(x, 0)`` with
    ``||b - A x|| <= max(rtol ||b||, atol)``; ``maxiter`` counts restart cycles (default 100).
    Raises NotConvergedError instead of returning ``info > 0``. ``adjoint`` (``A^H``) serves
    reverse-mode differentiation only."""
    x, _res, _mv, _it = _k.gmres(A, b, _start(x0), float(rtol), float(atol),
                                 _int(restart, 20, "gmres", "restart"),
                                 _int(maxiter, 0, "gmres", "maxiter"), adjoint)
    return x, 0


def cg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None):
    """scipy.sparse.linalg.cg for a Hermitian positive-definite operator: ``(x, 0)``;
    ``maxiter`` counts iterations (default 10 * dimension). Raises NotConvergedError instead
    of returning ``info > 0``."""
    x, _res, _mv, _it = _k.cg(A, b, _start(x0), float(rtol), float(atol), 20,
                                 _int(maxiter, 0, "cg", "maxiter"), None)
    return x, 0


def minres(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None):
    """scipy.sparse.linalg.minres for a Hermitian, possibly indefinite operator: ``(x, 0)``;
    ``maxiter`` counts iterations (default 5 * dimension). Raises NotConvergedError instead
    of returning ``info > 0``."""
    x, _res, _mv, _it = _k.minres(A, b, _start(x0), float(rtol), float(atol), 20,
                                  _int(maxiter, 0, "minres", "maxiter"), None)
    return x, 0


def expm_multiply(A, v, t=1.0, *, tol=0.0, ncv=30, max_substeps=10000, adjoint=None):
    """``exp(t A) v`` by Krylov projection with automatic substeps, for real or complex ``t``
    (``t=-1j*dt`` for a time step of a Hamiltonian). ``tol`` is the target relative error
    (0: 100 times the dtype's epsilon). A real ``v`` is cast to complex when ``t`` is complex.
    ``adjoint`` (``A^H``) serves reverse-mode differentiation only."""
    if _traced(t):
        raise _errors._error(_errors.UnsupportedError, "expm_multiply", "t has no derivative "
                             "rule: differentiate through A (what it captures) and v, or "
                             "scale A by t inside the operator", kind="Unsupported")
    x, _err, _sub, _mv = _k.expm_multiply(A, v, complex(t), _tolerance(tol, "expm_multiply"),
                                          _int(ncv, 30, "expm_multiply", "ncv"),
                                          _int(max_substeps, 10000, "expm_multiply",
                                               "max_substeps"), adjoint)
    return x


def _no_shift_invert(op, M, sigma):
    if M is not None or sigma is not None:
        from ._errors import UnsupportedError, _error

        raise _error(UnsupportedError, op, "M and sigma (generalised and shift-invert modes) are "
                     "not implemented", kind="Unsupported")


__all__ = ["eigsh", "eigs", "svds", "gmres", "cg", "minres", "expm_multiply"]
