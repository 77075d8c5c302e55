"""NumPy's names for the prims family and the array functions that autoray, opt_einsum,
cotengra and quimb look up in the ``tenferro`` module. Every function keeps its operands'
runtime: none uploads or downloads on its own.
"""

import builtins as _builtins
import threading as _threading

import numpy as _np

from . import _tenferro
from ._tenferro import Runtime, Tensor, Tracer, einsum
from ._tenferro import prims as _p

float32 = _np.dtype("float32")
float64 = _np.dtype("float64")
complex64 = _np.dtype("complex64")
complex128 = _np.dtype("complex128")

_default = None
_default_lock = _threading.Lock()


def default_runtime():
    """The process's default CPU runtime, for creation functions called without ``runtime=``
    (as autoray does). Tensors of other runtimes never mix with it silently: a call that
    mixes them raises ContextMismatchError."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Runtime.cpu()
        return _default


def _rt(runtime):
    return default_runtime() if runtime is None else runtime


# --- creation -----------------------------------------------------------------------------
def zeros(shape, dtype=float64, *, runtime=None):
    return _p.zeros(_rt(runtime), shape, dtype)


def ones(shape, dtype=float64, *, runtime=None):
    return _p.ones(_rt(runtime), shape, dtype)


def full(shape, fill_value, dtype=float64, *, runtime=None):
    return _p.full(_rt(runtime), shape, fill_value, dtype)


def eye(N, M=None, k=0, dtype=float64, *, runtime=None):
    return _p.eye(_rt(runtime), N, M, k, dtype)


def arange(start, stop=None, step=1, dtype=float64, *, runtime=None):
    if stop is None:
        start, stop = 0, start
    return _p.arange(_rt(runtime), float(start), float(stop), float(step), dtype)


def zeros_like(x, dtype=None):
    return _p.zeros(x.runtime, x.shape, x.dtype if dtype is None else dtype)


def ones_like(x, dtype=None):
    return _p.ones(x.runtime, x.shape, x.dtype if dtype is None else dtype)


def asarray(x, dtype=None, *, runtime=None):
    """A tenferro tensor as is (cast when ``dtype`` differs). Anything else needs an explicit
    ``runtime=`` and is uploaded to it (a counted copy)."""
    if isinstance(x, (Tensor, Tracer)):
        return x if dtype is None or _np.dtype(dtype) == x.dtype else x.astype(dtype)
    if runtime is None:
        raise _tenferro_placement(
            f"asarray: {type(x).__name__} is not in any tenferro runtime; pass runtime=rt for "
            "an explicit upload (tenferro never uploads on its own)")
    return runtime.upload(x, dtype)


def _tenferro_placement(message):
    from ._errors import NoInputIngressError

    e = NoInputIngressError(message)
    e.kind, e.phase, e.op, e.message = "NoInputIngress", "input", "asarray", message
    return e


def to_numpy(x):
    """An explicit host copy (``x.download()``)."""
    return x.download()


# --- element-wise ---------------------------------------------------------------------------
def add(a, b):
    return a + b


def subtract(a, b):
    return a - b


def multiply(a, b):
    return a * b


def divide(a, b):
    return a / b


true_divide = divide


def power(a, b):
    return a**b


def negative(x):
    return -x


conj = _p.conj
conjugate = _p.conj
absolute = _p.abs
sqrt = _p.sqrt
exp = _p.exp
log = _p.log
sin = _p.sin
cos = _p.cos
tanh = _p.tanh
sign = _p.sign
square = _p.square
reciprocal = _p.reciprocal
maximum = _p.maximum
minimum = _p.minimum


def abs(x):  # noqa: A001 - NumPy's name
    return _p.abs(x)


def real(x):
    return _p.real(x)


def imag(x):
    return _p.imag(x)


def astype(x, dtype, copy=True):
    return x.astype(dtype)


def iscomplexobj(x):
    return _np.dtype(x.dtype).kind == "c"


def clip(x, a_min=None, a_max=None):
    if a_min is not None:
        x = _p.maximum(x, full((), a_min, x.dtype, runtime=x.runtime))
    if a_max is not None:
        x = _p.minimum(x, full((), a_max, x.dtype, runtime=x.runtime))
    return x


# --- reductions -----------------------------------------------------------------------------
def sum(x, axis=None, keepdims=False):  # noqa: A001
    return x.sum(axis, keepdims)


def mean(x, axis=None, keepdims=False):
    return x.mean(axis, keepdims)


def prod(x, axis=None, keepdims=False):
    return x.prod(axis, keepdims)


def max(x, axis=None, keepdims=False):  # noqa: A001
    return x.max(axis, keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    return x.min(axis, keepdims)


amax, amin = max, min


# --- shapes and views -----------------------------------------------------------------------
def shape(x):
    return x.shape


def ndim(x):
    return x.ndim


def size(x):
    return x.size


def reshape(x, newshape, order="C"):
    if order != "C":
        raise NotImplementedError("tenferro.reshape: NumPy's C order only")
    return x.reshape(newshape)


def transpose(x, axes=None):
    return x.transpose(axes)


def matrix_transpose(x):
    return x.mT


def moveaxis(x, source, destination):
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    src = [s % x.ndim for s in src]
    dst = [d % x.ndim for d in dst]
    order = [i for i in range(x.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return x.transpose(order)


def expand_dims(x, axis):
    axis = axis % (x.ndim + 1)
    return x.reshape(x.shape[:axis] + (1,) + x.shape[axis:])


def squeeze(x, axis=None):
    if axis is None:
        axes = {i for i, d in enumerate(x.shape) if d == 1}
    else:
        axes = {a % x.ndim for a in ((axis,) if isinstance(axis, int) else axis)}
    return x.reshape(tuple(d for i, d in enumerate(x.shape) if i not in axes))


def diagonal(x, offset=0, axis1=0, axis2=1):
    return _p.diagonal(x, offset, axis1, axis2)


def diag(x, k=0):
    if x.ndim == 2:
        return _p.diagonal(x, k, 0, 1)
    if x.ndim != 1 or k != 0:
        raise NotImplementedError("tenferro.diag: 2-D input, or 1-D input with k=0")
    return einsum("i,ij->ij", x, eye(x.shape[0], dtype=x.dtype, runtime=x.runtime))


def trace(x, offset=0, axis1=0, axis2=1):
    return _p.diagonal(x, offset, axis1, axis2).sum(-1)


def broadcast_to(x, shape):
    return _p.broadcast_to(x, shape)


def concatenate(arrays, axis=0):
    return _p.concatenate(list(arrays), axis)


def stack(arrays, axis=0):
    return _p.stack(list(arrays), axis)


def ascontiguousarray(x):
    return _p.ascontiguousarray(x)


# --- contractions ---------------------------------------------------------------------------
matmul = _p.matmul


def tensordot(a, b, axes=2):
    """numpy.tensordot through einsum (one planned contraction, no reshapes)."""
    if isinstance(axes, int):
        axes_a = list(range(a.ndim - axes, a.ndim))
        axes_b = list(range(axes))
    else:
        axes_a, axes_b = axes
        axes_a = [axes_a] if isinstance(axes_a, int) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, int) else list(axes_b)
    axes_a = [i % a.ndim for i in axes_a]
    axes_b = [i % b.ndim for i in axes_b]
    if len(axes_a) != len(axes_b):
        raise ValueError("tensordot: shape-mismatch for sum")
    letters = iter("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    la = [next(letters) for _ in range(a.ndim)]
    lb = [next(letters) for _ in range(b.ndim)]
    for i, j in zip(axes_a, axes_b):
        lb[j] = la[i]
    out = [la[i] for i in range(a.ndim) if i not in axes_a]
    out += [lb[j] for j in range(b.ndim) if j not in axes_b]
    return einsum("".join(la) + "," + "".join(lb) + "->" + "".join(out), a, b)


def vdot(a, b):
    return einsum("i,i->", _p.conj(a.reshape(-1)), b.reshape(-1))


def inner(a, b):
    return tensordot(a, b, ([-1], [-1]))


def outer(a, b):
    return einsum("i,j->ij", a.reshape(-1), b.reshape(-1))


def kron(a, b):
    if a.ndim != 2 or b.ndim != 2:
        raise NotImplementedError("tenferro.kron: 2-D operands")
    m, n = a.shape
    p, q = b.shape
    return einsum("ij,kl->ikjl", a, b).reshape(m * p, n * q)


__all__ = [n for n in dir()
           if not n.startswith("_") and n not in ("Runtime", "Tensor", "Tracer", "einsum")]
del _builtins


# --- comparisons and selection (0.0/1.0 tensors: tenferro has no boolean dtype) --------------
# Each comparison is one IEEE kernel (a NaN operand gives 0, or 1 for not_equal; inf == inf).
equal = _p.equal
not_equal = _p.not_equal
greater = _p.greater
greater_equal = _p.greater_equal
less = _p.less
less_equal = _p.less_equal
isfinite = _p.isfinite
isnan = _p.isnan
isinf = _p.isinf


def where(condition, x, y):
    """numpy.where(condition, x, y): x where condition != 0 (NaN counts as nonzero), else y.
    One select kernel: the branch not chosen never leaks its Inf/NaN; with a Tracer branch the
    gradient flows to the chosen side only."""
    return _p.where(condition, x, y)


def count_nonzero(x, axis=None, keepdims=False):
    return not_equal(x, 0).sum(axis, keepdims)


def cumsum(x, axis=-1):
    """Inclusive prefix sums along one axis by Hillis-Steele doubling: ceil(log2 n) rounds of
    y[i] += y[i - s] (two slices, one add, one concatenate each), so every backend runs it with
    its own kernels and Inf/NaN propagate as in NumPy's running sum (nothing is multiplied by
    0). The additions are associated differently, as in any parallel scan: finite partial sums
    can round (or overflow) differently from a sequential loop."""
    axis = axis % x.ndim
    n = x.shape[axis]
    y = moveaxis(x, axis, -1)
    s = 1
    while s < n:
        y = concatenate([y[..., :s], y[..., s:] + y[..., :n - s]], axis=-1)
        s *= 2
    return moveaxis(y, -1, axis)


def swapaxes(x, axis1, axis2):
    perm = list(range(x.ndim))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return x.transpose(perm)


def _tensor_operands(op, a, b):
    """a and b as tensors of one runtime: a Python scalar becomes a 0-d tensor of the other
    operand's dtype (complex when the scalar is)."""
    ta, tb = isinstance(a, (Tensor, Tracer)), isinstance(b, (Tensor, Tracer))
    if not (ta or tb):
        raise TypeError(f"tenferro.{op}: at least one operand must be a tenferro Tensor")

    def lift(v, like):
        dtype = like.dtype
        if isinstance(v, complex) and dtype.kind != "c":
            dtype = complex128 if dtype == float64 else complex64
        return full((), v, dtype, runtime=like.runtime)

    return (a if ta else lift(a, b)), (b if tb else lift(b, a))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """numpy.isclose: (|a - b| <= atol + rtol * |b| and b finite) or a == b (so equal
    infinities are close, NaN never is unless equal_nan). 1.0/0.0 in the real dtype."""
    a, b = _tensor_operands("isclose", a, b)
    near = less_equal(_p.abs(a - b), _p.abs(b) * rtol + atol)
    close = where(isfinite(b), near, 0.0)
    close = _p.maximum(close, equal(a, b))  # logical or of 0/1 values
    if equal_nan:
        close = _p.maximum(close, isnan(a) * isnan(b))
    return close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """numpy.allclose: isclose everywhere (True for no elements)."""
    # One explicit download of the count (a device tensor has no host view); a Tensor's == is
    # Python's identity, so the comparison happens on the host number.
    misses = not_equal(isclose(a, b, rtol, atol, equal_nan), 1.0).sum()
    return float(misses.download()) == 0.0


__all__ += ["equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "where",
            "isfinite", "isnan", "isinf", "count_nonzero", "cumsum", "swapaxes", "isclose",
            "allclose"]
