"""Batched linear algebra with NumPy/PyTorch names and conventions: batch axes lead
(``[..., m, n]``), results stay in the input's runtime, numerical failures raise
``tenferro.LinAlgError`` (a ``numpy.linalg.LinAlgError`` too).

The C++ library keeps batch axes trailing; the mapping is a permuted view both ways (no
copy).
"""

from collections import namedtuple as _nt

import numpy as _np

from . import _namespace as _ns
from ._tenferro import linalg as _l
from ._tenferro import prims as _p
from ._errors import LinAlgError  # noqa: F401 - numpy.linalg's name
from ._errors import UnsupportedError as _UnsupportedError
from ._errors import ValidationError as _ValidationError
from ._errors import _axes, _error

QRResult = _nt("QRResult", "Q R")
SVDResult = _nt("SVDResult", "U S Vh")
EighResult = _nt("EighResult", "eigenvalues eigenvectors")
EigResult = _nt("EigResult", "eigenvalues eigenvectors")
LUResult = _nt("LUResult", "P L U")
SlogdetResult = _nt("SlogdetResult", "sign logabsdet")
LstsqResult = _nt("LstsqResult", "solution residuals rank singular_values")


def qr(a, mode="reduced"):
    """numpy.linalg.qr: (Q, R), or R alone for mode='r'."""
    out = _l.qr(a, mode)
    return out[0] if mode == "r" else QRResult(*out)


def svd(a, full_matrices=None, compute_uv=True, hermitian=False, *, max_rank=None, cutoff=None,
        cutoff_mode="relative"):
    """numpy.linalg.svd: (U, S, Vh) with A = U diag(S) Vh; S descending.

    full_matrices defaults to NumPy's True, and to False when truncating: ``max_rank`` keeps at
    most that many singular values; ``cutoff`` drops values by ``cutoff_mode`` ('relative':
    s_i <= cutoff * s_0, 'absolute': s_i <= cutoff, 'relative_weight'/'absolute_weight': the
    discarded squared weight). A batch keeps one common rank (the largest needed).
    """
    if hermitian:
        raise _error(_UnsupportedError, "svd", "hermitian=True is not implemented; use eigh",
                     kind="Unsupported")
    truncating = max_rank is not None or cutoff is not None
    if full_matrices is None:
        full_matrices = not truncating
    out = _l.svd(a, full_matrices, compute_uv, max_rank, cutoff, cutoff_mode)
    return SVDResult(*out) if compute_uv else out[0]


def svdvals(a):
    return _l.svd(a, False, False, None, None, "relative")[0]


def _uplo(uplo):
    """NumPy's UPLO, which it upper-cases ('l' is 'L')."""
    return uplo.upper() if isinstance(uplo, str) else uplo


def eigh(a, UPLO="L"):
    """numpy.linalg.eigh: ascending eigenvalues (real) and orthonormal eigenvectors."""
    return EighResult(*_l.eigh(a, _uplo(UPLO), False))


def eigvalsh(a, UPLO="L"):
    return _l.eigh(a, _uplo(UPLO), True)[0]


def eig(a):
    """numpy.linalg.eig (CPU): complex eigenvalues and unit-norm eigenvectors."""
    return EigResult(*_l.eig(a))


def eigvals(a):
    return _l.eig(a)[0]


def lu(a):
    """torch.linalg.lu / scipy.linalg.lu: A = P L U."""
    return LUResult(*_l.lu(a))


def cholesky(a, upper=False):
    """numpy.linalg.cholesky: lower L with A = L L^H (upper=True: L^H)."""
    return _l.cholesky(a, upper)


def _broadcast_batch(op, a, b):
    """NumPy 2's rule for a right-hand side: b is a vector only when b.ndim == 1 (else a matrix,
    [..., n, k]), and the batch axes of a and b broadcast. Returns (a, b, b is a vector) with
    both batches spelled out as stride-0 views, so that the C++ call, whose batches must be
    equal, can never read a matrix b of k == batch columns as a batch of vectors."""
    if a.ndim < 2:
        raise _error(_ValidationError, op, f"a must have at least 2 axes, got shape {a.shape}")
    vector = b.ndim == 1
    core = tuple(b.shape[-1:] if vector else b.shape[-2:])
    a_batch, b_batch = tuple(a.shape[:-2]), () if vector else tuple(b.shape[:-2])
    rank = max(len(a_batch), len(b_batch))
    pa, pb = (1,) * (rank - len(a_batch)) + a_batch, (1,) * (rank - len(b_batch)) + b_batch
    batch = []
    for x, y in zip(pa, pb):
        if x != y and x != 1 and y != 1:
            raise _error(_ValidationError, op, f"the batch axes of a {tuple(a.shape)} and b "
                         f"{tuple(b.shape)} do not broadcast (NumPy's rule: b is a vector only "
                         "when b.ndim == 1, else [..., n, k])")
        batch.append(y if x == 1 else x)
    batch = tuple(batch)
    if a_batch != batch:
        a = _p.broadcast_to(a, batch + tuple(a.shape[-2:]))
    if b_batch != batch or (vector and batch):
        b = _p.broadcast_to(b, batch + core)
    return a, b, vector


def solve(a, b):
    """numpy.linalg.solve (NumPy 2: b is a vector only when b.ndim == 1; batches broadcast)."""
    a, b, vector = _broadcast_batch("solve", a, b)
    return _l.solve(a, b, vector)


def solve_triangular(a, b, *, upper, left=True, unitriangular=False):
    """torch.linalg.solve_triangular (batches broadcast; b is a vector only when b.ndim == 1)."""
    a, b, vector = _broadcast_batch("solve_triangular", a, b)
    return _l.solve_triangular(a, b, upper, left, unitriangular, vector)


def triangular_solve(a, b, *, upper=False, left=True, unitriangular=False):
    return solve_triangular(a, b, upper=upper, left=left, unitriangular=unitriangular)


def lstsq(a, b, rcond=None):
    """numpy.linalg.lstsq: (x, residuals, rank, s). Residuals are the squared 2-norms of
    b - a x per column when m > n (NumPy gives them only at full rank), else empty."""
    a, b, vector = _broadcast_batch("lstsq", a, b)
    if rcond is not None and rcond < 0:  # LAPACK's (and older NumPy's) "machine precision"
        rcond = float(_np.finfo(_np.dtype(a.dtype)).eps)
    x, rank, s = _l.lstsq(a, b, rcond, vector)
    m, n = a.shape[-2], a.shape[-1]
    if m > n:
        r = a @ (_ns.expand_dims(x, -1) if vector else x) - (_ns.expand_dims(b, -1) if vector else b)
        # NumPy's shapes: (1,) for a vector b, (k,) for a matrix b.
        residuals = (_p.abs(r) ** 2).sum(axis=-2)
    else:
        residuals = _p.zeros(a.runtime, (0,), s.dtype)
    return LstsqResult(x, residuals, rank, s)


def inv(a):
    return _l.inv(a)


def det(a):
    return _l.det(a)


def slogdet(a):
    return SlogdetResult(*_l.slogdet(a))


def norm(x, ord=None, axis=None, keepdims=False):
    """numpy.linalg.norm: vector norms (ord None/2, inf, -inf, 0, 1, any real p) along one
    axis, matrix norms (None/'fro', 'nuc', inf, -inf, 1, -1, 2, -2) over two axes; with
    axis=None a 1-D or 2-D input picks by its rank, and ord=None is the 2-norm of everything.
    The imports are the module's: an import statement in the body cost twice the norm of 1024
    values."""
    if axis is None:
        if ord is None:
            return _p.norm(x, None, keepdims)
        if x.ndim not in (1, 2):
            raise _error(_ValidationError, "norm", "ord needs a 1-D or 2-D input, or an axis")
        axis = tuple(range(x.ndim))
    axes = _axes(axis, x.ndim, "norm")
    if len(axes) == 1:
        return _vector_norm(x, ord, axes[0], keepdims)
    if len(axes) == 2:
        return _matrix_norm(x, ord, axes, keepdims)
    raise _error(_ValidationError, "norm", "axis must name one axis (vector) or two (matrix)")


def _vector_norm(x, ord, axis, keepdims):
    if ord is None or ord == 2:
        return _p.norm(x, axis, keepdims)
    if isinstance(ord, str):
        raise _error(_ValidationError, "norm", f"invalid norm order {ord!r} for vectors")
    a = _p.abs(x)
    if ord == float("inf"):
        return _max_or_zero(a, axis, keepdims)
    if ord == -float("inf"):
        return _min_or_raise(a, axis, keepdims, ord)
    if ord == 0:
        return _ns.not_equal(x, 0.0).sum(axis, keepdims).astype(a.dtype)
    if ord == 1:
        return a.sum(axis, keepdims)
    return (a ** float(ord)).sum(axis, keepdims) ** (1.0 / float(ord))


def _matrix_norm(x, ord, axes, keepdims):
    row, col = axes
    if ord is None or ord == "fro":
        return _p.norm(x, tuple(axes), keepdims)
    if ord in (1, -1, float("inf"), -float("inf")):
        # 1: the largest column sum (sum over rows); inf: the largest row sum.
        inner, outer = (row, col) if ord in (1, -1) else (col, row)
        sums = _p.abs(x).sum(inner, True)
        r = _max_or_zero(sums, outer, True) if ord > 0 else _min_or_raise(sums, outer, True, ord)
        return r if keepdims else _ns.squeeze(r, (row, col))
    if ord in ("nuc", 2, -2):
        s = svdvals(_ns.moveaxis(x, (row, col), (-2, -1)))
        r = s.sum(-1) if ord == "nuc" else (_max_or_zero(s, -1, False) if ord == 2 else
                                            _min_or_raise(s, -1, False, ord))
        return _ns.expand_dims(r, tuple(sorted((row, col)))) if keepdims else r
    raise _error(_ValidationError, "norm", f"invalid norm order {ord!r} for matrices")


def _max_or_zero(a, axis, keepdims):
    """The largest of the non-negative values a along axis, 0 over an empty axis: NumPy's
    norms take max(..., initial=0) (the max prim has no identity). The sum over an empty axis
    is those zeros, in the reduced shape and dtype."""
    return a.max(axis, keepdims) if a.shape[axis] else a.sum(axis, keepdims)


def _min_or_raise(a, axis, keepdims, ord):
    """The smallest value along axis; an empty axis raises, as NumPy's min without initial does
    (also when the result would be empty, where the min prim returns an empty tensor)."""
    if not a.shape[axis]:
        raise _error(_ValidationError, "norm", f"ord={ord} takes a minimum over an empty axis, "
                     "which has no identity (zero-size array, as in NumPy)")
    return a.min(axis, keepdims)


def matrix_transpose(x):
    return x.mT
