"""Batched linear algebra with NumPy/PyTorch names and conventions: batch axes lead
(``[..., m, n]``), results stay in the input's runtime, numerical failures raise
``tenferro.LinAlgError`` (a ``numpy.linalg.LinAlgError`` too).

The C++ library keeps batch axes trailing; the mapping is a permuted view both ways (no
copy).
"""

from collections import namedtuple as _nt

from ._tenferro import linalg as _l
from ._tenferro import prims as _p
from ._errors import LinAlgError  # noqa: F401 - numpy.linalg's name

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
        raise NotImplementedError("tenferro.linalg.svd: hermitian=True; use eigh")
    truncating = max_rank is not None or cutoff is not None
    if full_matrices is None:
        full_matrices = not truncating
    out = _l.svd(a, full_matrices, compute_uv, max_rank, cutoff, cutoff_mode)
    return SVDResult(*out) if compute_uv else out[0]


def svdvals(a):
    return _l.svd(a, False, False, None, None, "relative")[0]


def eigh(a, UPLO="L"):
    """numpy.linalg.eigh: ascending eigenvalues (real) and orthonormal eigenvectors."""
    return EighResult(*_l.eigh(a, UPLO, False))


def eigvalsh(a, UPLO="L"):
    return _l.eigh(a, UPLO, True)[0]


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


def solve(a, b):
    """numpy.linalg.solve (NumPy 2: b is a vector only when b.ndim == 1)."""
    return _l.solve(a, b)


def solve_triangular(a, b, *, upper, left=True, unitriangular=False):
    """torch.linalg.solve_triangular."""
    return _l.solve_triangular(a, b, upper, left, unitriangular)


def triangular_solve(a, b, *, upper=False, left=True, unitriangular=False):
    return _l.solve_triangular(a, b, upper, left, unitriangular)


def lstsq(a, b, rcond=None):
    """numpy.linalg.lstsq: (x, residuals, rank, s). Residuals are the squared 2-norms of
    b - a x per column when m > n (NumPy gives them only at full rank), else empty."""
    x, rank, s = _l.lstsq(a, b, rcond)
    m, n = a.shape[-2], a.shape[-1]
    if m > n:
        r = a @ x - b
        residuals = (_p.abs(r) ** 2).sum(axis=-2 if b.ndim > 1 else -1)
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
    """numpy.linalg.norm for ord None/'fro' (the 2-norm of vectors, Frobenius of matrices)."""
    if ord not in (None, "fro", 2) or (ord == 2 and (axis is None and x.ndim != 1)):
        raise NotImplementedError("tenferro.linalg.norm: ord None or 'fro' (2 for vectors)")
    return _p.norm(x, axis, keepdims)


def matrix_transpose(x):
    return x.mT
