"""NumPy's names for the prims family and the array functions that autoray, opt_einsum,
cotengra and quimb look up in the ``tenferro`` module. Every function keeps its operands'
runtime: none uploads or downloads on its own.
"""

import builtins as _builtins
import operator as _operator
import threading as _threading

import numpy as _np

from . import _tenferro
from ._tenferro import Runtime, Tensor, Tracer, einsum
from ._tenferro import prims as _p
from ._errors import ArgumentTypeError as _ArgumentTypeError
from ._errors import ContextMismatchError as _ContextMismatchError
from ._errors import IndexingError as _IndexingError
from ._errors import UnsupportedError as _UnsupportedError
from ._errors import ValidationError as _ValidationError
from ._errors import _axes, _axis, _error

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


def _rt(runtime, op="runtime"):
    """``runtime=`` as given (the default CPU runtime when None); anything but a Runtime is a
    ValidationError naming ``op``."""
    if runtime is None:
        return default_runtime()
    if not isinstance(runtime, Runtime):
        raise _error(_ValidationError, op,
                     f"runtime= must be a tenferro.Runtime, got {type(runtime).__name__}")
    return runtime


def _real(value, op, what):
    """``value`` as a float64; a complex or non-number value, or an int past float64's range, is
    a ValidationError (float() dropped a NumPy complex scalar's imaginary part with only a
    warning, and raised a bare OverflowError from 2**1024 - 2**970 on)."""
    if isinstance(value, (complex, _np.complexfloating, str, bytes)):
        raise _error(_ValidationError, op, f"{what} must be a real number, got {value!r}")
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError) as e:
        raise _error(_ValidationError, op,
                     f"{what} must be a real number finite as float64 ({e})") from None


def _fill_dtype(fill_value):
    """NumPy's dtype for ``full`` without ``dtype=``: a NumPy scalar's own (float32, complex64,
    ...), complex128 for a Python complex, float64 otherwise (tenferro has no integer dtypes)."""
    if isinstance(fill_value, _np.generic) and fill_value.dtype.kind in "fc":
        if fill_value.dtype.kind == "c":
            return complex64 if fill_value.dtype.itemsize <= 8 else complex128
        return float32 if fill_value.dtype.itemsize <= 4 else float64
    return complex128 if isinstance(fill_value, complex) else float64


# --- creation -----------------------------------------------------------------------------
def zeros(shape, dtype=float64, *, runtime=None):
    return _p.zeros(_rt(runtime), shape, dtype)


def ones(shape, dtype=float64, *, runtime=None):
    return _p.ones(_rt(runtime), shape, dtype)


def full(shape, fill_value, dtype=None, *, runtime=None):
    if isinstance(fill_value, _np.ndarray) and fill_value.ndim == 0:
        fill_value = fill_value[()]  # a 0-d array is its scalar, as NumPy takes it
    return _p.full(_rt(runtime), shape, fill_value,
                   _fill_dtype(fill_value) if dtype is None else dtype)


def eye(N, M=None, k=0, dtype=float64, *, runtime=None):
    return _p.eye(_rt(runtime), N, M, k, dtype)


_PLAIN_REALS = (int, float)


def arange(start, stop=None, step=1, dtype=float64, *, runtime=None):
    if stop is None:
        start, stop = 0, start
    # The common call, Python numbers within float64's exact integers, without the checks below
    # (they were 2.5 us of a 2^10-element arange's 3.6).
    if (type(start) in _PLAIN_REALS and type(stop) in _PLAIN_REALS and type(step) in _PLAIN_REALS
            and -2**53 <= start <= 2**53 and -2**53 <= stop <= 2**53):
        return _p.arange(_rt(runtime), float(start), float(stop), float(step), dtype)
    if all(isinstance(v, (int, _np.integer)) for v in (start, stop, step)) and \
            _builtins.max(_builtins.abs(int(start)), _builtins.abs(int(stop))) > 2**53:
        # Integers past float64's exact range: the count from exact integer arithmetic (as
        # NumPy's), the values start + i * step rounded to the dtype.
        start, stop, step = int(start), int(stop), int(step)
        if step == 0:
            raise _error(_ValidationError, "arange", "step must be nonzero")
        n = _builtins.max(0, -((start - stop) // step))  # ceil((stop - start) / step)
        if n >= 2**63:
            raise _error(_ValidationError, "arange", f"too many elements ({n})")
        fstep, fstart = _real(step, "arange", "step"), _real(start, "arange", "start")
        return _p.arange(_rt(runtime), 0.0, float(n), 1.0, dtype) * fstep + fstart
    start, stop, step = (_real(v, "arange", w) for v, w in ((start, "start"), (stop, "stop"),
                                                           (step, "step")))
    return _p.arange(_rt(runtime), start, stop, step, dtype)


def zeros_like(x, dtype=None):
    return _p.zeros(x.runtime, x.shape, x.dtype if dtype is None else dtype)


def ones_like(x, dtype=None):
    return _p.ones(x.runtime, x.shape, x.dtype if dtype is None else dtype)


def asarray(x, dtype=None, *, runtime=None):
    """A tenferro tensor as is (cast when ``dtype`` differs; a ``runtime=`` other than its own is
    a ContextMismatchError). Anything else needs an explicit ``runtime=`` and is uploaded to it
    (a counted copy)."""
    if isinstance(x, (Tensor, Tracer)):
        # Never a silent other runtime (and a runtime= that is not one is a ValidationError).
        if runtime is not None and x.runtime is not _rt(runtime, "asarray"):
            raise _error(_ContextMismatchError, "asarray",
                         f"the tensor lives in runtime {x.runtime.id}, runtime= is runtime "
                         f"{runtime.id}; move it explicitly: runtime.upload(tensor.download())",
                         kind="ContextMismatch")
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
# The element-wise math of the prims op list (src/ops/prims/prim_kind_enum.hpp), one loop, under
# its NumPy name where NumPy has the function (so not `complex`). The functions defined below
# replace the ones that must also take Python scalars (add, subtract, ..., negative).
globals().update({_n: getattr(_p, _n) for _n in _p.unary_ops + _p.binary_ops if hasattr(_np, _n)})


# The operators themselves (Tensor and Tracer define them, with Python scalars on either side),
# through C++ that first refuses host data (operator.add gave NumPy's own result for two
# ndarrays): no Python frame of ours in between, which was a tenth of a small call's time.
add = _tenferro.add
subtract = _tenferro.subtract
multiply = _tenferro.multiply
divide = true_divide = _tenferro.divide
power = _tenferro.power
floor_divide = _tenferro.floor_divide
remainder = mod = _tenferro.remainder
negative = _tenferro.negative


def divmod(x1, x2):  # noqa: A001 - NumPy's name
    """numpy.divmod: (floor_divide(x1, x2), remainder(x1, x2)), Python's divmod of each entry."""
    return floor_divide(x1, x2), remainder(x1, x2)

conjugate = _p.conj
abs = absolute = _p.abs  # noqa: A001 - NumPy's name
# NumPy 2's array-API spellings of the inverse functions, and fix (rounding toward zero).
asin, acos, atan = _p.arcsin, _p.arccos, _p.arctan
asinh, acosh, atanh = _p.arcsinh, _p.arccosh, _p.arctanh
fix = _p.trunc


def _power_of_ten(n):
    """NumPy's power_of_ten (PyArray_Round): exact up to 1e8, then 1e9 times 10 n - 9 times,
    which is not correctly rounded past 1e22 (so neither is 10.0 ** n equal to it) and reaches
    inf from n = 309 instead of raising."""
    if n < 9:
        return 10.0 ** n
    r = 1e9
    for _ in range(n - 9):
        r *= 10.0
        if r == float("inf"):
            break
    return r


def round(x, decimals=0):  # noqa: A001 - NumPy's name
    """numpy.round: to ``decimals`` places, ties to even, as NumPy computes it (x times 10^d
    rounded by rint and divided back, or x over 10^-d for negative d, with NumPy's 10^d); a
    complex value's parts apart."""
    d = _operator.index(decimals)
    if not isinstance(x, (Tensor, Tracer)):
        return _p.rint(x)  # rint's refusal of anything else (host data, a number)
    if x.dtype.kind == "c":
        return _p.complex(round(_p.real(x), d), round(_p.imag(x), d))
    if d == 0:
        return _p.rint(x)
    if d > 0:
        scale = _power_of_ten(d)
        return _p.rint(x * scale) / scale
    scale = _power_of_ten(-d)
    return _p.rint(x / scale) * scale


around = round


# prims' binary math takes tensors only; NumPy's functions take numbers on either side too,
# typed as the operators type them (NEP 50, see _tensor_operands). maximum .. copysign are C++
# functions (python/src/tensor.cpp, namespace_lifted) that run two Tensors directly and hand
# anything else here.
def _lifted(name, x1, x2):
    return getattr(_p, name)(*_tensor_operands(name, x1, x2))


maximum = _tenferro.maximum
minimum = _tenferro.minimum
arctan2 = _tenferro.arctan2
hypot = _tenferro.hypot
atan2 = arctan2  # NumPy 2's array-API spelling
fmod = _tenferro.fmod
copysign = _tenferro.copysign


def angle(z, deg=False):
    """numpy.angle: arctan2(imag, real) (pi for a negative real, -0.0 included), in degrees when
    ``deg``."""
    a = _p.arctan2(_p.imag(z), _p.real(z))
    return a * (180.0 / _np.pi) if deg else a


def real(x):
    return _p.real(x)


def imag(x):
    return _p.imag(x)


def astype(x, dtype, copy=True):
    if isinstance(x, Tensor):
        return x.astype(dtype, copy=copy)
    return x.astype(dtype)  # a Tracer: a value on the tape, never aliased memory


def iscomplexobj(x):
    return _np.dtype(x.dtype).kind == "c"


def clip(x, a_min=None, a_max=None):
    """numpy.clip: bounds are numbers or tensors (broadcast); with neither, a copy (NumPy)."""
    if a_min is None and a_max is None:
        return astype(x, x.dtype, copy=True)
    if a_min is not None:
        x = _p.maximum(*_tensor_operands("clip", x, a_min))
    if a_max is not None:
        x = _p.minimum(*_tensor_operands("clip", x, a_max))
    return x


# --- reductions -----------------------------------------------------------------------------
# NumPy's signatures. A dtype= casts before reducing (NumPy accumulates in it: float32 summed
# as float64 is the sum of the float64 values); out= has no meaning for immutable tensors.
def _reduced(op, x, dtype, out):
    if not isinstance(x, (Tensor, Tracer)):
        _p._refuse_host(x, op, 0)  # host data: the operators' NoInputIngressError
        raise TypeError(f"tenferro.{op}: expected a tenferro Tensor, got {type(x).__name__}")
    if out is not None:
        raise _error(_UnsupportedError, op, "out= is not supported: tenferro tensors are "
                     "immutable (use the returned tensor)", kind="Unsupported")
    return x if dtype is None or _np.dtype(dtype) == x.dtype else x.astype(dtype)


def sum(x, axis=None, dtype=None, out=None, keepdims=False):  # noqa: A001
    if (type(x) is Tensor or type(x) is Tracer) and dtype is None and out is None:  # one frame
        return x.sum(axis, keepdims)
    return _reduced("sum", x, dtype, out).sum(axis, keepdims)


def mean(x, axis=None, dtype=None, out=None, keepdims=False):
    if (type(x) is Tensor or type(x) is Tracer) and dtype is None and out is None:  # one frame
        return x.mean(axis, keepdims)
    return _reduced("mean", x, dtype, out).mean(axis, keepdims)


def prod(x, axis=None, dtype=None, out=None, keepdims=False):
    if (type(x) is Tensor or type(x) is Tracer) and dtype is None and out is None:  # one frame
        return x.prod(axis, keepdims)
    return _reduced("prod", x, dtype, out).prod(axis, keepdims)


def max(x, axis=None, out=None, keepdims=False):  # noqa: A001
    if (type(x) is Tensor or type(x) is Tracer) and out is None:
        return x.max(axis, keepdims)
    return _reduced("max", x, None, out).max(axis, keepdims)


def min(x, axis=None, out=None, keepdims=False):  # noqa: A001
    if (type(x) is Tensor or type(x) is Tracer) and out is None:
        return x.min(axis, keepdims)
    return _reduced("min", x, None, out).min(axis, keepdims)


amax, amin = max, min


def var(x, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """numpy.var: the sum of |x - mean|^2 over ``axis`` divided by n - ddof (NumPy's two-pass
    algorithm: the mean, the centred values, the sum of their squared magnitudes; a real result
    for complex input). n - ddof <= 0 divides by 0 as NumPy does (inf or NaN). The sum of
    squares is the norm's kernel squared (one rounding more than NumPy's; the centred values
    are not squared into a third array: var of 1024^2 float64 took 1.6x NumPy's time that way);
    a Tracer takes the explicit squares, whose gradient is 0 at a constant input (the norm's is
    not defined at 0)."""
    return _as_requested(_variance(x, axis, dtype, out, ddof, keepdims, "var"), dtype)


def std(x, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """numpy.std: the square root of ``var`` (same arguments). A Tracer takes the 2-norm of
    the centred values over sqrt(n - ddof), the same value with the norm's subgradient 0 at a
    constant input: sqrt of the variance gave 0 * inf = NaN there (PyTorch gives 0)."""
    if isinstance(x, Tracer):
        x, centred, axes, n = _centred(x, axis, dtype, out, "std")
        den = float(_builtins.max(n - ddof, 0)) ** 0.5
        return _as_requested(_p.norm(centred, axes, keepdims) / den, dtype)
    return _as_requested(_p.sqrt(_variance(x, axis, dtype, out, ddof, keepdims, "std")), dtype)


def _as_requested(result, dtype):
    """NumPy's var/std with a complex ``dtype=`` return that dtype (a zero imaginary part);
    the computation itself gives the real magnitude."""
    if dtype is not None and _np.dtype(dtype).kind == "c" and result.dtype != _np.dtype(dtype):
        return result.astype(dtype)
    return result


def _centred(x, axis, dtype, out, op):
    """x as the reduction takes it, x less its mean over ``axis``, the axes and their count."""
    x = _reduced(op, x, dtype, out)
    axes = None if axis is None else tuple(_axes(axis, x.ndim, op))
    n = 1
    for a in range(x.ndim) if axes is None else axes:
        n *= x.shape[a]
    return x, x - x.mean(axes, True), axes, n


def _variance(x, axis, dtype, out, ddof, keepdims, op):
    x, centred, axes, n = _centred(x, axis, dtype, out, op)
    if isinstance(x, Tracer):
        if iscomplexobj(x):
            re, im = _p.real(centred), _p.imag(centred)
            squares = (re * re + im * im).sum(axes, keepdims)
        else:
            squares = (centred * centred).sum(axes, keepdims)
    else:
        norm = _p.norm(centred, axes, keepdims)
        squares = norm * norm
    return squares / float(_builtins.max(n - ddof, 0))


# --- shapes and views -----------------------------------------------------------------------
def shape(x):
    return x.shape


def ndim(x):
    return x.ndim


def size(x):
    return x.size


def reshape(x, newshape, order="C"):
    if order != "C":
        raise _error(_UnsupportedError, "reshape", f"order={order!r}: NumPy's C order only "
                     "(reshape the transpose for Fortran order)", kind="Unsupported")
    return x.reshape(newshape)


def transpose(x, axes=None):
    return x.transpose(axes)


def matrix_transpose(x):
    return x.mT


def moveaxis(x, source, destination):
    src = _axes(source, x.ndim, "moveaxis")
    dst = _axes(destination, x.ndim, "moveaxis")
    if len(src) != len(dst):
        raise _error(_ValidationError, "moveaxis",
                     "source and destination must have the same number of elements")
    order = [i for i in range(x.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return x.transpose(order)


def expand_dims(x, axis):
    shape = list(x.shape)
    for a in sorted(_axes(axis, x.ndim + len(_axes_count(axis)), "expand_dims")):
        shape.insert(a, 1)
    return x.reshape(tuple(shape))


def _axes_count(axis):
    try:
        return [_operator.index(axis)]
    except TypeError:
        return list(axis)


def squeeze(x, axis=None):
    if axis is None:
        axes = {i for i, d in enumerate(x.shape) if d == 1}
    else:
        axes = set(_axes(axis, x.ndim, "squeeze"))
        if any(x.shape[a] != 1 for a in axes):
            raise _error(_ValidationError, "squeeze",
                         "cannot select an axis to squeeze out which has size not equal to one")
    return x.reshape(tuple(d for i, d in enumerate(x.shape) if i not in axes))


def diagonal(x, offset=0, axis1=0, axis2=1):
    return _p.diagonal(x, offset, axis1, axis2)


def diag(x, k=0):
    """numpy.diag: the k-th diagonal of a 2-D tensor, or a 2-D tensor with a 1-D one on its
    k-th diagonal. The latter is built by joins and a reshape only (no products), so inf and
    NaN stay where they are: x[i] sits at flat position i*(m+1) + offset of the m x m result."""
    k = _operator.index(k)
    if x.ndim == 2:
        return _p.diagonal(x, k, 0, 1)
    if x.ndim != 1:
        raise _error(_ValidationError, "diag", f"input must be 1-D or 2-D, got {x.ndim}-D")
    n = x.shape[0]
    m = n + _builtins.abs(k)
    offset = (-k if k < 0 else 0) * m + (k if k > 0 else 0)
    rows = concatenate([x.reshape(n, 1), zeros((n, m), x.dtype, runtime=x.runtime)], axis=1)
    flat = concatenate([zeros((offset,), x.dtype, runtime=x.runtime), rows.reshape(-1),
                        zeros((m * m,), x.dtype, runtime=x.runtime)])
    return flat[:m * m].reshape(m, m)


def trace(x, offset=0, axis1=0, axis2=1):
    return _p.diagonal(x, offset, axis1, axis2).sum(-1)


def broadcast_to(x, shape):
    return _p.broadcast_to(x, shape)


def concatenate(arrays, axis=0):
    """numpy.concatenate; axis=None joins the flattened arrays."""
    arrays = list(arrays)
    if axis is None:
        return _p.concatenate([reshape(a, (-1,)) for a in arrays], 0)
    if arrays:
        axis = _axis(axis, arrays[0].ndim, "concatenate")
    return _p.concatenate(arrays, axis)


def stack(arrays, axis=0):
    arrays = list(arrays)
    if arrays:
        axis = _axis(axis, arrays[0].ndim + 1, "stack")
    return _p.stack(arrays, axis)


def take(x, indices, axis=None, mode="raise"):
    """numpy.take: x's entries at ``indices`` along ``axis`` (of the flattened x when axis is
    None), quimb's ``isel``. Indices are Python or NumPy integers or bools (an int, a sequence or
    an array, whose shape replaces the axis); negative ones count from the end; one outside the
    axis is an IndexingError (NumPy's IndexError) unless ``mode`` is "wrap" or "clip". Built from
    slices and one join, no products, so inf and NaN stay where they are: a run of consecutive
    indices is one slice, and there is no gather kernel, so many scattered indices cost one slice
    each."""
    if mode not in ("raise", "wrap", "clip"):
        raise _error(_ValidationError, "take",
                     f"mode must be 'raise', 'wrap' or 'clip', not {mode!r}")
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    axis = _axis(axis, x.ndim, "take")
    if isinstance(indices, (Tensor, Tracer)):
        raise _error(_ValidationError, "take", "indices must be Python or NumPy integers; "
                     "tenferro has no integer dtype, so a Tensor cannot hold them")
    idx = _np.asarray(indices)
    if idx.dtype.kind not in "iub" and not (idx.size == 0 and idx.dtype.kind == "f"):
        raise _error(_ValidationError, "take", f"indices must be integers, not {idx.dtype}")
    n = x.shape[axis]
    flat = idx.reshape(-1)
    if flat.size and idx.dtype.kind == "u" and flat.max() > _np.iinfo(_np.int64).max:
        bad = int(flat[flat > _np.iinfo(_np.int64).max][0])  # before int64 would wrap it
        raise _error(_IndexingError, "take", f"index {bad} is out of bounds for axis {axis} with "
                     f"size {n}")
    flat = flat.astype(_np.int64)
    if mode == "wrap" and n:
        flat = flat % n
    elif mode == "clip":
        flat = _np.clip(flat, 0, _builtins.max(n - 1, 0))
    bad = (flat < -n) | (flat >= n)
    if bad.any():
        raise _error(_IndexingError, "take", f"index {int(flat[bad][0])} is out of bounds for "
                     f"axis {axis} with size {n}")
    flat = _np.where(flat < 0, flat + n, flat)
    lead = (slice(None),) * axis
    if idx.ndim == 0:
        return x[lead + (int(flat[0]),)]
    out_shape = x.shape[:axis] + idx.shape + x.shape[axis + 1:]
    if flat.size == 0:
        return x[lead + (slice(0, 0),)].reshape(out_shape)
    # Runs of consecutive indices, each one slice.
    breaks = _np.flatnonzero(_np.diff(flat) != 1) + 1
    starts = _np.concatenate(([0], breaks))
    ends = _np.concatenate((breaks, [flat.size]))
    pieces = [x[lead + (slice(int(flat[a]), int(flat[b - 1]) + 1),)] for a, b in zip(starts, ends)]
    joined = pieces[0] if len(pieces) == 1 else _p.concatenate(pieces, axis)
    return joined.reshape(out_shape)


def ascontiguousarray(x):
    """numpy.ascontiguousarray: C-ordered, at least one axis (a 0-d tensor becomes shape (1,))."""
    return _p.ascontiguousarray(reshape(x, (1,)) if x.ndim == 0 else x)


# --- contractions ---------------------------------------------------------------------------
matmul = _p.matmul


def tensordot(a, b, axes=2):
    """numpy.tensordot through einsum (one planned contraction, no reshapes)."""
    # NumPy's reading: anything operator.index takes (np.int64 too) is a count n, pairing a's
    # last n axes with b's first n; otherwise a pair whose members are an axis or a sequence.
    try:
        n = _operator.index(axes)
    except TypeError:
        try:
            axes_a, axes_b = axes
        except (TypeError, ValueError):
            raise _error(_ValidationError, "tensordot", "axes must be an integer or a pair of "
                         f"axis sequences, got {axes!r}") from None
        axes_a, axes_b = _axes_count(axes_a), _axes_count(axes_b)
    else:
        # Negative axes, as NumPy's range(-n, 0): more than a.ndim is an AxisError (NumPy's
        # IndexError), not a repeated axis. Built only up to one past the ranks (axes=2**62
        # built a list of 2**62 axes first).
        k = n if n <= a.ndim + b.ndim else a.ndim + b.ndim + 1  # this module's max is NumPy's
        axes_a, axes_b = list(range(-k, 0)), list(range(k))
    axes_a = _axes(axes_a, a.ndim, "tensordot")
    axes_b = _axes(axes_b, b.ndim, "tensordot")
    if len(axes_a) != len(axes_b):
        raise _error(_ValidationError, "tensordot", "shape-mismatch for sum")
    # NumPy's rule: the paired axes are equal (einsum would broadcast an extent of 1).
    for i, j in zip(axes_a, axes_b):
        if a.shape[i] != b.shape[j]:
            raise _error(_ValidationError, "tensordot",
                         f"shape-mismatch for sum: a's axis {i} has {a.shape[i]}, "
                         f"b's axis {j} has {b.shape[j]}")
    letters = iter("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    la = [next(letters) for _ in range(a.ndim)]
    lb = [next(letters) for _ in range(b.ndim)]
    for i, j in zip(axes_a, axes_b):
        lb[j] = la[i]
    out = [la[i] for i in range(a.ndim) if i not in axes_a]
    out += [lb[j] for j in range(b.ndim) if j not in axes_b]
    return einsum("".join(la) + "," + "".join(lb) + "->" + "".join(out), a, b)


def vdot(a, b):
    if a.size != b.size:  # NumPy's rule (einsum would broadcast a size of 1)
        raise _error(_ValidationError, "vdot",
                     f"vectors of different sizes: {a.size} and {b.size}")
    return einsum("i,i->", _p.conj(a.reshape(-1)), b.reshape(-1))


def inner(a, b):
    """numpy.inner: a 0-d operand multiplies (NumPy's rule; it has no last axis to pair)."""
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return tensordot(a, b, ([-1], [-1]))


def outer(a, b):
    return einsum("i,j->ij", a.reshape(-1), b.reshape(-1))


def kron(a, b):
    """numpy.kron for operands of any rank: the shorter shape is padded with leading 1s, then
    one einsum interleaves the axes (a's outer, b's inner) and a reshape merges each pair."""
    nd = _builtins.max(a.ndim, b.ndim)
    a = a.reshape((1,) * (nd - a.ndim) + tuple(a.shape))
    b = b.reshape((1,) * (nd - b.ndim) + tuple(b.shape))
    la = [_letter(2 * i) for i in range(nd)]
    lb = [_letter(2 * i + 1) for i in range(nd)]
    out = [c for pair in zip(la, lb) for c in pair]
    merged = tuple(p * q for p, q in zip(a.shape, b.shape))
    return einsum("".join(la) + "," + "".join(lb) + "->" + "".join(out), a, b).reshape(merged)


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _letter(i):
    if i >= len(_LETTERS):
        raise _error(_ValidationError, "kron", "operands of more than 26 axes")
    return _LETTERS[i]


__all__ = [n for n in dir()
           if not n.startswith("_") and n not in ("Runtime", "Tensor", "Tracer", "einsum")]


# --- comparisons and selection (0.0/1.0 tensors: tenferro has no boolean dtype) --------------
# Each comparison is one IEEE kernel (a NaN operand gives 0, or 1 for not_equal; inf == inf).
# The prims take a tensor first and a tensor or a number second (typed as the operators type
# it); a number first is the mirrored comparison (2 > x is x < 2, NaN false either way).
def _comparison(name, prim, mirrored):
    def compare(a, b):
        # Only a number is mirrored: anything else keeps its place, so an error names it as the
        # caller's operand 0.
        if isinstance(a, (int, float, complex, _np.generic)) and isinstance(b, (Tensor, Tracer)):
            return mirrored(b, a)
        return prim(a, b)

    compare.__name__ = compare.__qualname__ = name
    compare.__doc__ = f"numpy.{name} as a 0.0/1.0 tensor; a number may stand on either side."
    return compare


equal = _comparison("equal", _p.equal, _p.equal)
not_equal = _comparison("not_equal", _p.not_equal, _p.not_equal)
greater = _comparison("greater", _p.greater, _p.less)
greater_equal = _comparison("greater_equal", _p.greater_equal, _p.less_equal)
less = _comparison("less", _p.less, _p.greater)
less_equal = _comparison("less_equal", _p.less_equal, _p.greater_equal)
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


def _scan(x, axis, op):
    """numpy.cumsum / cumprod: one scan kernel (``prims.cumsum`` / ``cumprod``) on x's runtime
    along ``axis``, of the flattened values for axis=None; differentiable (cumprod exactly where
    x has zeros). Its terms are associated in blocks, as in any parallel scan (float32
    accumulates in float64 on the CPU), so finite results can differ from NumPy's left-to-right
    loop in the last bits (and a partial product can overflow where the loop's does not, or
    the other way round); Inf and NaN propagate as in that loop."""
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    return getattr(_p, op)(x, axis)  # the binding normalises the axis (AxisError)


def cumsum(x, axis=None):
    """numpy.cumsum (see _scan)."""
    return _scan(x, axis, "cumsum")


def cumprod(x, axis=None):
    """numpy.cumprod (see _scan)."""
    return _scan(x, axis, "cumprod")


def swapaxes(x, axis1, axis2):
    axis1, axis2 = _axis(axis1, x.ndim, "swapaxes"), _axis(axis2, x.ndim, "swapaxes")
    perm = list(range(x.ndim))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return x.transpose(perm)


def _require_tensor(x, op, index):
    """x itself when it is a Tensor or Tracer; host data is the operators' NoInputIngressError,
    anything else an ArgumentTypeError, a TypeError as NumPy's (a composition must not compute
    on an ndarray with NumPy)."""
    if not isinstance(x, (Tensor, Tracer)):
        _p._refuse_host(x, op, index)
        raise _error(_ArgumentTypeError, op,
                     f"operand {index} must be a tenferro Tensor, got {type(x).__name__}")
    return x


def _tensor_operands(op, a, b):
    """a and b as tensors of one runtime: a number becomes a 0-d tensor typed as the operators
    type it (python/src/operands.cpp): a NumPy scalar whose dtype widens the other operand's
    keeps its own (NEP 50: float32 with np.float64 is float64), any other number takes the other
    operand's dtype (complex when the number is)."""
    ta, tb = isinstance(a, (Tensor, Tracer)), isinstance(b, (Tensor, Tracer))
    if not (ta or tb):
        raise TypeError(f"tenferro.{op}: at least one operand must be a tenferro Tensor")

    def lift(v, like):
        if not isinstance(v, (int, float, complex, _np.generic)):
            _p._refuse_host(v, op, 0 if v is a else 1)  # host data: the operators' error
            raise TypeError(f"tenferro.{op}: operands must be tensors or numbers, got "
                            f"{type(v).__name__}")
        dtype = like.dtype
        strong = _numpy_scalar_dtype(v)
        if strong is not None and _np.promote_types(dtype, strong) != dtype:
            try:
                return full((), v, strong, runtime=like.runtime)
            except _UnsupportedError as e:  # a runtime without that dtype (WebGPU's float64)
                raise _error(_UnsupportedError, op,
                             f"a NumPy {type(v).__name__} scalar makes the result {strong} (NEP "
                             f"50), which this runtime cannot hold ({e}); pass a Python number, "
                             f"which keeps the tensor's {like.dtype}, or a NumPy scalar of that "
                             "dtype", kind="Unsupported") from None
        if isinstance(v, (complex, _np.complexfloating)) and dtype.kind != "c":
            dtype = complex128 if dtype == float64 else complex64
        return full((), v, dtype, runtime=like.runtime)

    return (a if ta else lift(a, b)), (b if tb else lift(b, a))


# The dtype a number brings to a promotion (NEP 50), None for a weak number (Python's
# int/float/complex, bool and np.bool_): the operators' own rule (python/src/operands.cpp).
_numpy_scalar_dtype = _p._nep50_dtype


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
    # A Python bool needs the host, as bool() and float() do: the count is read through the
    # host view, so a device tensor is the HostAccessError that says to download (tenferro never
    # transfers on its own).
    misses = not_equal(isclose(a, b, rtol, atol, equal_nan), 1.0).sum()
    return float(misses) == 0.0


__all__ += ["equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "where",
            "isfinite", "isnan", "isinf", "count_nonzero", "cumsum", "cumprod", "swapaxes",
            "isclose", "allclose"]
