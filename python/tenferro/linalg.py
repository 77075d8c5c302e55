"""Batched linear algebra with NumPy/PyTorch names and conventions: batch axes lead
(``[..., m, n]``), results stay in the input's runtime, numerical failures raise
``tenferro.LinAlgError`` (a ``numpy.linalg.LinAlgError`` too).

The C++ library keeps batch axes trailing; the mapping is a permuted view both ways (no
copy).
"""

import operator as _operator
from collections import namedtuple as _nt

import numpy as _np

from . import _namespace as _ns
from ._namespace import _require_tensor
from ._tenferro import linalg as _l
from ._tenferro import prims as _p
from ._errors import LinAlgError  # noqa: F401 - numpy.linalg's name
from ._errors import UnsupportedError as _UnsupportedError
from ._errors import ValidationError as _ValidationError
from ._errors import _axes, _error
from ._tenferro import Tensor as _Tensor
from ._tenferro import Tracer as _Tracer

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


def _common_dtype(a, b):
    """a and b in NumPy's common dtype (float32 with float64 is float64, with complex128
    complex128): the C++ solvers take one dtype, NumPy promotes. The cast runs in the runtime."""
    dtype = _np.result_type(a.dtype, b.dtype)
    return (a if a.dtype == dtype else a.astype(dtype)), (b if b.dtype == dtype else b.astype(dtype))


def _broadcast_batch(op, a, b):
    """NumPy 2's rule for a right-hand side: b is a vector only when b.ndim == 1 (else a matrix,
    [..., n, k]), and the batch axes of a and b broadcast. Returns (a, b, b is a vector) with
    both batches spelled out as stride-0 views, so that the C++ call, whose batches must be
    equal, can never read a matrix b of k == batch columns as a batch of vectors."""
    if a.ndim < 2:
        raise _error(_ValidationError, op, f"a must have at least 2 axes, got shape {a.shape}")
    a, b = _common_dtype(a, b)
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
    total = (a ** float(ord)).sum(axis, keepdims)
    if isinstance(x, _Tracer):
        # The p-th root's derivative is infinite at a zero sum: 0 * inf = NaN for a zero
        # vector, where PyTorch gives the subgradient 0 (as the 2-norm's here). Both selects
        # keep the root off 0, so nothing infinite is multiplied (an adversarial sweep).
        nonzero = _ns.greater(total, 0.0)
        safe = _ns.where(nonzero, total, 1.0)
        return _ns.where(nonzero, safe ** (1.0 / float(ord)), 0.0)
    return total ** (1.0 / float(ord))


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


# --- numpy.linalg's compositions: built from svd, inv, matmul and the reductions above -------

_NO_VALUE = object()


def _per_matrix(value):
    """A threshold per matrix of a batch (NumPy's value[..., newaxis]) against the singular values
    [..., k]: a Tensor gains a trailing axis; a number is one threshold for all."""
    if isinstance(value, (_Tensor, _Tracer)):
        return _ns.expand_dims(value, -1)
    return float(value)


def pinv(a, rcond=None, hermitian=False, *, rtol=_NO_VALUE):
    """numpy.linalg.pinv: V diag(1/s) U^H over the singular values above rcond * max(s)
    (rcond's default 1e-15; rtol=None is max(m, n) eps, as NumPy 2; a Tensor rcond holds one
    value per matrix of the batch), the rest dropped."""
    del hermitian  # the SVD serves Hermitian matrices too (NumPy's hint only picks eigh)
    _require_tensor(a, "pinv", 0)
    if rcond is None:
        if rtol is _NO_VALUE:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * float(_np.finfo(_np.dtype(a.dtype)).eps)
        else:
            rcond = rtol
    elif rtol is not _NO_VALUE:
        raise _error(_ValidationError, "pinv", "rtol and rcond can't be both set")
    u, s, vh = svd(a, full_matrices=False)
    cutoff = _max_or_zero(s, -1, True) * _per_matrix(rcond)
    large = _ns.greater(s, cutoff)
    inverse = _ns.where(large, 1.0 / _ns.where(large, s, 1.0), 0.0)
    return _ns.matmul(vh.mT.conj() * _ns.expand_dims(inverse, -2), u.mT.conj())


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """numpy.linalg.matrix_rank: the singular values above tol (default max(s) max(m, n) eps;
    a Tensor tol or rtol holds one value per matrix), counted; a float tensor (tenferro has no
    integer dtype). A 1-D or 0-d A: 1 unless all zero."""
    del hermitian
    _require_tensor(A, "matrix_rank", 0)
    if rtol is not None and tol is not None:
        raise _error(_ValidationError, "matrix_rank", "tol and rtol can't be both set")
    if A.ndim < 2:
        return _ns.greater(_ns.not_equal(A, 0.0).sum(), 0.0)
    s = svdvals(A)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * float(_np.finfo(_np.dtype(s.dtype)).eps)
        threshold = _max_or_zero(s, -1, True) * _per_matrix(rtol)
    else:
        threshold = _per_matrix(tol)
    return _ns.greater(s, threshold).sum(-1)


def matrix_power(a, n):
    """numpy.linalg.matrix_power: a^n by repeated squaring; n = 0 the identity, n < 0 inv(a)^-n."""
    _require_tensor(a, "matrix_power", 0)
    try:
        n = _operator.index(n)
    except TypeError:
        raise _error(_ValidationError, "matrix_power", f"exponent must be an integer, got {n!r}") \
            from None
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise _error(_ValidationError, "matrix_power",
                     f"a must be a stack of square matrices, got shape {tuple(a.shape)}")
    if n == 0:
        eye = _p.eye(a.runtime, a.shape[-1], a.shape[-1], 0, a.dtype)
        return _p.broadcast_to(eye, tuple(a.shape)) * 1.0
    if n < 0:
        a, n = inv(a), -n
    result, power = None, a
    while True:
        if n & 1:
            result = power if result is None else _ns.matmul(result, power)
        n >>= 1
        if not n:
            return result
        power = _ns.matmul(power, power)


def multi_dot(arrays):
    """numpy.linalg.multi_dot: the chain product in a cheap order (einsum plans it, in the
    sublist form, so any number of operands); a 1-D first (last) operand is a row (column)
    vector, dropped from the result as NumPy does. Inner extents must agree exactly (einsum alone
    would broadcast an extent of 1)."""
    arrays = list(arrays)
    if len(arrays) < 2:
        raise _error(_ValidationError, "multi_dot", "expecting at least two arrays")
    args, inner = [], None
    last = len(arrays) - 1
    for i, x in enumerate(_require_tensor(x, "multi_dot", i) for i, x in enumerate(arrays)):
        if x.ndim == 2:
            (rows, cols), labels = x.shape, [i, i + 1]
        elif x.ndim == 1 and i == 0:  # a row vector
            (rows, cols), labels = (None, x.shape[0]), [i + 1]
        elif x.ndim == 1 and i == last:  # a column vector
            (rows, cols), labels = (x.shape[0], None), [i]
        else:
            raise _error(_ValidationError, "multi_dot",
                         f"operand {i} has {x.ndim} dimensions; 2 (1 at the ends) expected")
        if i > 0 and rows != inner:
            raise _error(_ValidationError, "multi_dot", f"shapes not aligned: operand {i - 1} "
                         f"has {inner} columns, operand {i} has {rows} rows")
        inner = cols
        args += [x, labels]
    out = ([] if arrays[0].ndim == 1 else [0]) + ([] if arrays[-1].ndim == 1 else [last + 1])
    return _ns.einsum(*args, out)


def cond(x, p=None):
    """numpy.linalg.cond: s_max / s_min for p None, 2 (and s_min / s_max for -2), inf for a
    singular matrix without NaN (NumPy's); otherwise norm(x, p) norm(inv(x), p), where a singular
    x raises LinAlgError (NumPy returns inf). Not defined on empty matrices (LinAlgError)."""
    _require_tensor(x, "cond", 0)
    if x.ndim >= 2 and x.shape[-1] * x.shape[-2] == 0:
        raise _error(LinAlgError, "cond", "cond is not defined on empty arrays",
                     kind="Numerical")
    if p in (None, 2, -2):
        s = svdvals(x)
        big, small = _max_or_zero(s, -1, False), _min_or_raise(s, -1, False, p)
        r = big / small if p != -2 else small / big
        # 0 / 0 of a zero matrix is NaN: inf where the input holds no NaN, as NumPy.
        clean = _ns.equal(_ns.isnan(x).sum((-2, -1)), 0.0)
        return _ns.where(_ns.isnan(r) * clean, float("inf"), r)
    return norm(x, p, axis=(-2, -1)) * norm(inv(x), p, axis=(-2, -1))


def vector_norm(x, axis=None, keepdims=False, ord=2):
    """numpy.linalg.vector_norm: over every axis (None) or the given ones as one vector."""
    _require_tensor(x, "vector_norm", 0)
    axes = tuple(range(x.ndim)) if axis is None else _axes(axis, x.ndim, "vector_norm")
    if len(axes) == 1:
        return _vector_norm(x, ord, axes[0], keepdims)
    rest = [i for i in range(x.ndim) if i not in axes]
    moved = _ns.moveaxis(x, axes, tuple(range(x.ndim - len(axes), x.ndim)))
    length = 1
    for i in axes:
        length *= x.shape[i]
    r = _vector_norm(moved.reshape(tuple(x.shape[i] for i in rest) + (length,)), ord, -1, False)
    if keepdims:
        r = r.reshape(tuple(1 if i in axes else x.shape[i] for i in range(x.ndim)))
    return r


def matrix_norm(x, keepdims=False, ord="fro"):
    """numpy.linalg.matrix_norm: the norm of the last two axes."""
    _require_tensor(x, "matrix_norm", 0)
    return _matrix_norm(x, ord, (x.ndim - 2, x.ndim - 1), keepdims)


def vecdot(x1, x2, axis=-1):
    """numpy.linalg.vecdot: sum(conj(x1) x2) over ``axis`` of each operand (NumPy's gufunc
    (n),(n)->(): the axis is each operand's own, both extents must agree), the other axes
    broadcast."""
    x1, x2 = _require_tensor(x1, "vecdot", 0), _require_tensor(x2, "vecdot", 1)
    if x1.ndim == 0 or x2.ndim == 0:
        raise _error(_ValidationError, "vecdot", "operands must have at least one axis")
    a, b = _ns.moveaxis(x1, axis, -1), _ns.moveaxis(x2, axis, -1)
    if a.shape[-1] != b.shape[-1]:
        raise _error(_ValidationError, "vecdot", f"the vectors along axis {axis} have "
                     f"{a.shape[-1]} and {b.shape[-1]} entries")
    return (a.conj() * b).sum(-1)
