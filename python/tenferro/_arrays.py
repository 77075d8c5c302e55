"""NumPy's array-manipulation names that autoray and quimb reach beyond ``_namespace``: flip,
roll, pad, split, repeat, tile, tril/triu, dot, linspace, indices, meshgrid, any/all,
argmax/argmin, nan_to_num and the small creation helpers. flip and argmax/argmin are prims of
their own; the others are built from the prims the backends already run (slices, joins,
broadcasts, reshapes, one select), so each runs on the operands' runtime, differentiates
through a Tracer, and multiplies nothing by a mask: Inf and NaN stay where NumPy puts them.

tenferro's tensors have no negative strides, so a reversal is a copy (the flip prim reads its
input backwards) where NumPy returns a view.
"""

import builtins as _builtins
import math as _math
import operator as _operator

import numpy as _np

from ._errors import UnsupportedError as _UnsupportedError
from ._errors import ValidationError as _ValidationError
from ._errors import _axis, _error
from ._tenferro import Tensor, Tracer
from ._tenferro import prims as _p
from ._namespace import (_real, _rt, arange, astype, broadcast_to, concatenate, equal, eye,
                         float32, float64, full, greater, less_equal, moveaxis, not_equal, reshape,
                         stack, tensordot, where, zeros, zeros_like)
from ._namespace import imag as _imag_part
from ._namespace import isnan as _isnan
from ._namespace import real as _real_part
from ._tenferro.prims import complex as _complex


def _count(value, op, what):
    """A non-negative Python int from an int-like ``value``; anything else is a ValidationError."""
    try:
        n = _operator.index(value)
    except TypeError:
        raise _error(_ValidationError, op, f"{what} must be an integer, got {value!r}") from None
    if n < 0:
        raise _error(_ValidationError, op, f"{what} must be non-negative, got {n}")
    return n


def _along(x, axis, start, stop):
    """x[start:stop] along ``axis`` (a view)."""
    return x[(slice(None),) * axis + (slice(start, stop),)]


def _tiled(x, axis, reps, each=False):
    """x repeated ``reps`` times along ``axis``: the whole axis (tile), or each entry in turn
    (repeat) with ``each``; a broadcast over a new axis and one copy."""
    lead, n, tail = x.shape[:axis], x.shape[axis], x.shape[axis + 1:]
    inner = (n, 1) if each else (1, n)
    spread = (n, reps) if each else (reps, n)
    return reshape(broadcast_to(reshape(x, lead + inner + tail), lead + spread + tail),
                   lead + (n * reps,) + tail)


def flip(m, axis=None):
    """numpy.flip: the entries along ``axis`` (every axis when None) in reverse order; a copy
    (the flip prim: tenferro's tensors have no negative strides), NumPy's values bit for bit."""
    return _p.flip(m, axis)  # one copy; the binding normalises the axes (AxisError)


def fliplr(m):
    if m.ndim < 2:
        raise _error(_ValidationError, "fliplr", f"needs at least 2 axes, got {m.ndim}")
    return flip(m, 1)


def flipud(m):
    if m.ndim < 1:
        raise _error(_ValidationError, "flipud", "needs at least 1 axis, got a 0-d tensor")
    return flip(m, 0)


def _ints(value, op, what):
    """``value`` as a list of Python ints: an int-like scalar (a bool, an integral float, a
    NumPy integer, a 0-d array) or a sequence of them; anything else is a ValidationError."""
    arr = None if isinstance(value, (Tensor, Tracer)) else _np.asarray(value)
    if arr is not None and arr.dtype.kind in "iub":  # the common case, without a Python loop
        return arr.reshape(-1).astype(_np.int64 if arr.dtype.kind != "u" else object).tolist()
    items = list(value) if _np.ndim(value) else [value]
    out = []
    for v in items:
        v = v.item() if isinstance(v, _np.generic) or (isinstance(v, _np.ndarray)) else v
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        try:
            out.append(_operator.index(v))
        except TypeError:
            raise _error(_ValidationError, op, f"{what} must be integers, got {value!r}") from None
    return out


def roll(a, shift, axis=None):
    """numpy.roll: entries shifted along ``axis`` (of the flattened tensor when None), those
    past the end coming back at the start; shift and axis may be matching sequences (one of
    them of length 1 broadcasts)."""
    if axis is None:
        return reshape(roll(reshape(a, (-1,)), shift, 0), a.shape)
    shifts, axes = _ints(shift, "roll", "shift"), _ints(axis, "roll", "axis")
    if len(shifts) != len(axes) and 1 not in (len(shifts), len(axes)):
        raise _error(_ValidationError, "roll", f"{len(shifts)} shifts for {len(axes)} axes")
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(axes) == 1:
        axes = axes * len(shifts)
    total = [0] * a.ndim
    for s, ax in zip(shifts, axes):
        total[_axis(ax, a.ndim, "roll")] += s
    for ax, s in enumerate(total):
        n = a.shape[ax]
        if n and s % n:
            k = n - s % n
            a = concatenate([_along(a, ax, k, n), _along(a, ax, 0, k)], ax)
    return a


def _runs(x, idx, axis):
    """x's entries at the integer positions ``idx`` along ``axis``, as pieces to join: runs of
    steps +1, -1 and 0 become a slice, a reversed slice and a broadcast. A run breaks wherever
    the step changes (found by NumPy over the whole map, not element by element); a map that
    repeats with a short period (pad's wrap, reflect and symmetric modes far past the axis) is
    gathered once per period and tiled."""
    idx = _np.asarray(idx, dtype=_np.int64)
    n = len(idx)
    if n == 0:
        return [_along(x, axis, 0, 0)]
    period = _period(idx)
    if period and n > 2 * period:
        block = concatenate(_runs(x, idx[:period], axis), axis)
        return [_along(_tiled(block, axis, -(-n // period)), axis, 0, n)]
    d = _np.diff(idx)
    small = _np.abs(d) <= 1
    # A run starts at 0, after a step that is not -1/0/+1, and where the step changes.
    breaks = (~small[1:]) | (d[1:] != d[:-1])
    starts = _np.flatnonzero(_np.concatenate(([True], ~small[:1], breaks)))
    ends = _np.concatenate((starts[1:], [n]))
    pieces = []
    for i, j in zip(starts.tolist(), ends.tolist()):
        step = int(d[i]) if j - i > 1 else 1
        lo, hi = int(_builtins.min(idx[i], idx[j - 1])), int(_builtins.max(idx[i], idx[j - 1]))
        piece = _along(x, axis, lo, hi + 1)
        if step == -1:
            piece = _p.flip(piece, axis)
        elif step == 0:
            shape = list(x.shape)
            shape[axis] = j - i
            piece = broadcast_to(piece, tuple(shape))
        pieces.append(piece)
    return pieces


def _period(idx):
    """The shortest period (below half the map's length) with which ``idx`` repeats, found among
    the distances to the next occurrences of its first entry; 0 when none."""
    for p in _np.flatnonzero(idx[1:] == idx[0])[:8] + 1:
        if 2 * p < len(idx) and _np.array_equal(idx[p:], idx[:-p]):
            return int(p)
    return 0


def _pad_pairs(value, ndim, what):
    if isinstance(value, dict):  # NumPy 2.3's {axis: width}, the other axes unpadded
        pairs = _np.zeros((ndim, 2), dtype=_np.int64 if what == "pad_width" else object)
        for ax, w in value.items():
            pairs[_axis(ax, ndim, "pad")] = _pad_pairs(w, 1, what)[0]
        return pairs
    v = _np.asarray(value)
    try:
        pairs = _np.broadcast_to(v, (ndim, 2))
    except ValueError:
        raise _error(_ValidationError, "pad", f"{what} {value!r} does not fit {ndim} axes "
                     "(NumPy's forms: n, (before, after) or one pair per axis)") from None
    return pairs


_SELECTING_MODES = ("edge", "wrap", "reflect", "symmetric")


def pad(array, pad_width, mode="constant", **kwargs):
    """numpy.pad for the modes that place values: "constant" (``constant_values``), "empty"
    (zeros here), and the modes that repeat the array's own entries ("edge", "wrap", "reflect",
    "symmetric", with NumPy's ``reflect_type`` "even"). Axes are padded in order, as NumPy does,
    so corners take the later axis's constant. The arithmetic modes (mean, linear_ramp, ...)
    and a callable mode are an UnsupportedError."""
    x = array
    widths = _pad_pairs(pad_width, x.ndim, "pad_width")
    if widths.dtype.kind not in "iu":
        raise _error(_ValidationError, "pad", f"pad_width must be integers, got {pad_width!r}")
    if (widths < 0).any():
        raise _error(_ValidationError, "pad", f"pad_width must be non-negative, got {pad_width!r}")
    allowed = {"constant": {"constant_values"}, "empty": set(),
               "reflect": {"reflect_type"}, "symmetric": {"reflect_type"}}
    if not isinstance(mode, str) or mode not in ("constant", "empty") + _SELECTING_MODES:
        raise _error(_UnsupportedError, "pad", f"mode {mode!r} is not supported; tenferro pads "
                     "with 'constant', 'empty', 'edge', 'wrap', 'reflect' or 'symmetric'")
    unknown = set(kwargs) - allowed.get(mode, set())
    if unknown:
        raise _error(_ValidationError, "pad", f"mode {mode!r} takes no {sorted(unknown)}")
    if kwargs.get("reflect_type", "even") == "odd":
        raise _error(_UnsupportedError, "pad", "reflect_type 'odd' (arithmetic) is not supported")
    constant = kwargs.get("constant_values", 0)
    if isinstance(constant, dict):
        raise _error(_ValidationError, "pad", "constant_values must be a number, a pair or one "
                     "pair per axis, not a dict")
    values = _pad_pairs(constant, x.ndim, "constant_values")
    for ax in range(x.ndim):
        before, after = int(widths[ax, 0]), int(widths[ax, 1])
        if before == after == 0:
            continue
        n = x.shape[ax]
        if mode in ("constant", "empty"):
            pieces = []
            for width, value in ((before, values[ax, 0]), (after, values[ax, 1])):
                shape = list(x.shape)
                shape[ax] = width
                v = value.item() if mode == "constant" else 0
                pieces.append(full(tuple(shape), v, x.dtype, runtime=x.runtime))
            x = concatenate([pieces[0], x, pieces[1]], ax)
            continue
        if n == 0:
            raise _error(_ValidationError, "pad", f"can't extend empty axis {ax} using modes "
                         "other than 'constant' or 'empty'")
        # NumPy's own index map for this axis says which entry each padded place repeats.
        idx = _np.pad(_np.arange(n), (before, after), mode=mode)
        x = concatenate(_runs(x, idx, ax), ax)
    return x


def _sections(n, indices_or_sections, op):
    try:  # NumPy's order: a sequence of cut indices, else a count (int() of it)
        len(indices_or_sections)
        is_count = False
    except TypeError:
        is_count = True
    if is_count:
        try:
            k = int(indices_or_sections)
        except (TypeError, ValueError):
            raise _error(_ValidationError, op, f"sections must be an integer or a sequence of "
                         f"indices, got {indices_or_sections!r}") from None
        if k <= 0:
            raise _error(_ValidationError, op, f"number of sections must be larger than 0, got {k}")
        if op == "split" and n % k:
            raise _error(_ValidationError, op, f"array split does not result in an equal "
                         f"division ({n} into {k})")
        q, r = divmod(n, k)
        bounds = [0]
        for i in range(k):
            bounds.append(bounds[-1] + q + (1 if i < r else 0))
        return list(zip(bounds[:-1], bounds[1:]))
    cuts = _ints(indices_or_sections, op, "split indices") if len(indices_or_sections) else []
    starts, stops = [0] + cuts, cuts + [n]
    # Python's slice rules, as NumPy's: negative cuts count from the end, past-the-end clamps.
    return [slice(a, b).indices(n)[:2] for a, b in zip(starts, stops)]


def _split(ary, indices_or_sections, axis, op):
    axis = _axis(axis, ary.ndim, op)
    return [_along(ary, axis, a, _builtins.max(a, b))
            for a, b in _sections(ary.shape[axis], indices_or_sections, op)]


def split(ary, indices_or_sections, axis=0):
    """numpy.split: views of equal sections (a count that does not divide the axis is a
    ValidationError) or between the given indices."""
    return _split(ary, indices_or_sections, axis, "split")


def array_split(ary, indices_or_sections, axis=0):
    """numpy.array_split: as split, the first n % k sections one longer when k does not divide
    n."""
    return _split(ary, indices_or_sections, axis, "array_split")


def repeat(a, repeats, axis=None):
    """numpy.repeat: each entry ``repeats`` times along ``axis`` (of the flattened tensor when
    None); ``repeats`` an int or one count per entry."""
    if axis is None or a.ndim == 0:
        a, axis = reshape(a, (-1,)), 0
    axis = _axis(axis, a.ndim, "repeat")
    if type(repeats) is int and repeats >= 0:  # the common form, without NumPy's small arrays
        return _tiled(a, axis, repeats, each=True)
    counts = _np.asarray(_ints(repeats, "repeat", "repeats"), dtype=_np.int64)
    if _np.ndim(repeats) == 0:
        counts = counts.reshape(())
    if counts.ndim > 1:
        raise _error(_ValidationError, "repeat", f"repeats must be an integer or a sequence of "
                     f"integers, got {repeats!r}")
    if (counts < 0).any():
        raise _error(_ValidationError, "repeat", "repeats may not contain negative values")
    n = a.shape[axis]
    if counts.ndim == 0 or counts.size == 1 or (counts.size and (counts == counts[0]).all()):
        return _tiled(a, axis, int(counts.reshape(-1)[0]), each=True)
    if counts.size != n:
        raise _error(_ValidationError, "repeat", f"{counts.size} repeats for an axis of {n}")
    # Unequal counts: one broadcast piece per entry (there is no gather kernel).
    return concatenate(_runs(a, _np.repeat(_np.arange(n), counts), axis), axis)


def tile(A, reps):
    """numpy.tile: A repeated ``reps`` times along each axis (leading axes added as NumPy
    does)."""
    reps = tuple(_count(r, "tile", "reps") for r in _ints(reps, "tile", "reps"))
    d = _builtins.max(len(reps), A.ndim)
    A = reshape(A, (1,) * (d - A.ndim) + A.shape)
    reps = (1,) * (d - len(reps)) + reps
    # Each axis k of A becomes (reps[k], A.shape[k]): a broadcast over new axes, one copy.
    expanded = reshape(A, tuple(v for s in A.shape for v in (1, s)))
    out = broadcast_to(expanded, tuple(v for r, s in zip(reps, A.shape) for v in (r, s)))
    return reshape(out, tuple(r * s for r, s in zip(reps, A.shape)))


def _index_dtype(*extents):
    """float32 holds every index below 2^24 exactly and runs on every backend; float64 above."""
    return float32 if _builtins.max(extents, default=0) < 2**24 else float64


def _triangle(m, k, keep, op):
    if m.ndim == 0:
        raise _error(_ValidationError, op, "needs at least 1 axis, got a 0-d tensor")
    rows, cols = m.shape[-2:] if m.ndim >= 2 else (m.shape[-1], m.shape[-1])
    # NumPy takes a real k (the diagonal j - i <= k); past the matrix it keeps all or nothing.
    k = _real(k, op, "k")
    if k != k:
        raise _error(_ValidationError, op, "k is NaN: no diagonal")
    k = _builtins.min(_builtins.max(k, -rows - 1.0), cols + 1.0)
    # For integers j - i: j - i <= k is j <= i + floor(k), j - i >= k is j >= i + ceil(k); the
    # shifted rows (one column) are exact in dt, so the mask is one compare over the matrix
    # (j - i, then the compare, took two passes).
    shift = float(_math.floor(k) if op == "tril" else _math.ceil(k))
    dt = _index_dtype(rows + cols + 2)
    i = reshape(arange(rows, dtype=dt, runtime=m.runtime), (rows, 1)) + shift
    j = reshape(arange(cols, dtype=dt, runtime=m.runtime), (1, cols))
    return where(keep(j, i), m, 0)


def tril(m, k=0):
    """numpy.tril: the entries on and below the k-th diagonal of the last two axes, the others
    zero (a select: an Inf or NaN above it does not leak)."""
    return _triangle(m, k, less_equal, "tril")  # j <= i + floor(k)


def triu(m, k=0):
    """numpy.triu: the entries on and above the k-th diagonal of the last two axes."""
    return _triangle(m, k, lambda j, i: less_equal(i, j), "triu")  # j >= i + ceil(k)


def dot(a, b):
    """numpy.dot: a product for a 0-d operand, else the sum over a's last axis and b's
    second-to-last (its only one when 1-d)."""
    if not isinstance(a, (Tensor, Tracer)) or not isinstance(b, (Tensor, Tracer)) or \
            a.ndim == 0 or b.ndim == 0:
        return a * b  # a number is a 0-d operand (the operators' rules; host arrays refused)
    return tensordot(a, b, axes=([a.ndim - 1], [_builtins.max(b.ndim - 2, 0)]))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             runtime=None):
    """numpy.linspace for real scalar ends, with NumPy's arithmetic (in float64, then cast):
    start + i * step, the last value ``stop`` exactly when ``endpoint``. A runtime without
    float64 kernels (WebGPU) refuses it rather than round differently from NumPy."""
    num = _count(num, "linspace", "num")
    if dtype is None:  # NumPy's result_type(start, stop, float(num)): float32 ends stay float32
        dtype = _np.result_type(start, stop, float(num))
    start, stop = _real(start, "linspace", "start"), _real(stop, "linspace", "stop")
    _axis(axis, 1, "linspace")
    div = num - 1 if endpoint else num
    delta = stop - start
    y = arange(num, dtype=float64, runtime=runtime)
    if div > 0:
        step = delta / div
        y = y / div * delta if step == 0 else y * step
    else:
        step = float("nan")
        y = y * delta
    y = y + start
    if endpoint and num > 1:
        y = concatenate([y[:-1], full((1,), stop, float64, runtime=y.runtime)])
    if y.dtype != dtype:
        y = astype(y, dtype)
    return (y, step) if retstep else y


def indices(dimensions, dtype=float64, sparse=False, *, runtime=None):
    """numpy.indices as float64 (tenferro has no integer dtype; every index below 2^53 is
    exact): the grid's coordinates, stacked (or, with sparse, one broadcastable tensor per
    axis)."""
    dims = tuple(_count(d, "indices", "each dimension") for d in dimensions)
    rt = _rt(runtime, "indices")
    grids = []
    for ax, n in enumerate(dims):
        shape = tuple(n if i == ax else 1 for i in range(len(dims)))
        grids.append(reshape(arange(n, dtype=dtype, runtime=rt), shape))
    if sparse:
        return tuple(grids)
    if not dims:
        return zeros((0,), dtype, runtime=rt)
    return stack([broadcast_to(g, dims) for g in grids])


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """numpy.meshgrid of 1-d tensors ("xy": the first two outputs' axes swapped, as NumPy's)."""
    if indexing not in ("xy", "ij"):
        raise _error(_ValidationError, "meshgrid", f"indexing must be 'xy' or 'ij', not "
                     f"{indexing!r}")
    n = len(xi)
    shapes = [[1] * n for _ in xi]
    for i, x in enumerate(xi):
        shapes[i][i] = -1
    if indexing == "xy" and n > 1:
        for s in shapes:
            s[0], s[1] = s[1], s[0]
    grids = [reshape(x, tuple(s)) for x, s in zip(xi, shapes)]
    if sparse:
        return tuple(astype(g, g.dtype, copy=True) if copy else g for g in grids)
    full_shape = tuple(_np.broadcast_shapes(*(g.shape for g in grids)))
    out = [broadcast_to(g, full_shape) for g in grids]
    return tuple(astype(g, g.dtype, copy=True) if copy else g for g in out)


def any(a, axis=None, keepdims=False):  # noqa: A001 - NumPy's name
    """numpy.any as a 0.0/1.0 tensor (tenferro has no boolean dtype); NaN counts as true."""
    return greater(not_equal(a, 0).sum(axis, keepdims), 0)


def all(a, axis=None, keepdims=False):  # noqa: A001 - NumPy's name
    """numpy.all as a 0.0/1.0 tensor; True over an empty axis, as NumPy's."""
    return equal(equal(a, 0).sum(axis, keepdims), 0)


def _arg_extreme(a, axis, keepdims, op):
    """The first index of the extreme along ``axis`` (of the flattened tensor when None), or of
    the first NaN (NumPy's rule), as a tensor of a's dtype: tenferro has no integer dtype, and
    the prim refuses an axis whose indices the dtype does not hold exactly (more than 2^24
    entries in float32). One reduction kernel (``prims.argmax`` / ``argmin``) on a's runtime; a
    constant under differentiation."""
    if axis is None:
        if a.ndim != 1:
            flat = _arg_extreme(reshape(a, (-1,)), 0, False, op)
            return reshape(flat, (1,) * a.ndim) if keepdims else flat
        axis = 0
    if a.dtype.kind == "c":
        raise _error(_UnsupportedError, op, "complex tensors are not supported (NumPy orders them "
                     "by real, then imaginary part); take the real part or abs first")
    return getattr(_p, op)(a, axis, keepdims)  # the binding normalises the axis (AxisError)


def argmax(a, axis=None, out=None, *, keepdims=False):
    """numpy.argmax, the indices as a tensor of a's dtype (see _arg_extreme)."""
    if out is not None:
        raise _error(_UnsupportedError, "argmax", "out= is not supported: tensors are immutable")
    return _arg_extreme(a, axis, keepdims, "argmax")


def argmin(a, axis=None, out=None, *, keepdims=False):
    """numpy.argmin, the indices as a tensor of a's dtype (see _arg_extreme)."""
    if out is not None:
        raise _error(_UnsupportedError, "argmin", "out= is not supported: tensors are immutable")
    return _arg_extreme(a, axis, keepdims, "argmin")


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """numpy.nan_to_num: NaN to ``nan``, +-Inf to ``posinf``/``neginf`` (the dtype's largest
    finite values by default), each part of a complex tensor on its own; selects, no
    arithmetic."""
    if x.dtype.kind == "c":
        return _complex(nan_to_num(_real_part(x), copy, nan, posinf, neginf),
                        nan_to_num(_imag_part(x), copy, nan, posinf, neginf))
    info = _np.finfo(x.dtype)
    hi = float(info.max) if posinf is None else _real(posinf, "nan_to_num", "posinf")
    lo = float(info.min) if neginf is None else _real(neginf, "nan_to_num", "neginf")
    fill = _real(nan, "nan_to_num", "nan")
    # One select per value, each with a tensor branch, so the result keeps x's dtype.
    y = where(equal(x, float("inf")), hi, x)
    y = where(equal(x, float("-inf")), lo, y)
    return where(_isnan(x), fill, y)


def empty(shape, dtype=float64, *, runtime=None):
    """numpy.empty: zeros here (a new tensor's memory is never left undefined)."""
    return zeros(shape, dtype, runtime=runtime)


def empty_like(x, dtype=None):
    return zeros_like(x, dtype)


def full_like(x, fill_value, dtype=None):
    return full(x.shape, fill_value, x.dtype if dtype is None else dtype, runtime=x.runtime)


def identity(n, dtype=float64, *, runtime=None):
    return eye(n, dtype=dtype, runtime=runtime)


def copy(a):
    return astype(a, a.dtype, copy=True)


def ravel(a, order="C"):
    if order != "C":
        raise _error(_UnsupportedError, "ravel", f"order {order!r}: only 'C' is supported")
    return reshape(a, (-1,))


def _at_least(arys, k):
    out = []
    for i, a in enumerate(arys):
        if not isinstance(a, (Tensor, Tracer)):
            _p._refuse_host(a, f"atleast_{k}d", i)
            raise _error(_ValidationError, f"atleast_{k}d", f"operand {i} is not a tensor: "
                         f"{type(a).__name__}")
        if a.ndim == 0:
            a = reshape(a, (1,) * k)
        elif a.ndim < k:  # NumPy's placement: (N,) -> (1, N) or (1, N, 1); (M, N) -> (M, N, 1)
            a = reshape(a, (1,) + a.shape if k == 2 else
                        (1,) + a.shape + (1,) if a.ndim == 1 else a.shape + (1,))
        out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys):
    return _at_least(arys, 1)


def atleast_2d(*arys):
    return _at_least(arys, 2)


def atleast_3d(*arys):
    return _at_least(arys, 3)


def finfo(dtype):
    """numpy.finfo of a dtype or of a tensor's dtype (float32, float64, complex64, complex128)."""
    return _np.finfo(dtype.dtype if isinstance(dtype, (Tensor, Tracer)) else dtype)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """numpy.diff: the n-th forward difference along ``axis`` (a[1:] - a[:-1], n times), after
    ``prepend``/``append`` (a number or a tensor; a number is one entry along the axis)."""
    n = _count(n, "diff", "n")
    if n == 0:  # NumPy's: a itself, before prepend/append are looked at
        return a
    if a.ndim == 0:
        raise _error(_ValidationError, "diff", "diff requires input that is at least one "
                     "dimensional")
    axis = _axis(axis, a.ndim, "diff")

    def piece(extra):
        """A number or 0-d tensor is one entry along the axis, broadcast over the others (a
        number in its NumPy dtype: 0.1 makes a float32 a float64, 1j complex, as NumPy's
        concatenation promotes)."""
        shape = list(a.shape)
        shape[axis] = 1
        if isinstance(extra, (Tensor, Tracer)):
            return broadcast_to(extra, tuple(shape)) if extra.ndim == 0 else extra
        if not isinstance(extra, (int, float, complex, _np.generic)):
            _p._refuse_host(extra, "diff", 1)  # host data: the operators' error
            raise _error(_ValidationError, "diff", "prepend/append must be a number or a tensor")
        dtype = _np.result_type(a.dtype, _np.asarray(extra).dtype)
        return full(tuple(shape), extra, dtype, runtime=a.runtime)

    pieces = ([piece(prepend)] if prepend is not None else []) + [a] + \
        ([piece(append)] if append is not None else [])
    x = concatenate(pieces, axis) if len(pieces) > 1 else a
    for _ in range(n):
        x = _along(x, axis, 1, None) - _along(x, axis, None, -1)
    return x


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """numpy.cross of 3-vectors along ``axisa``/``axisb`` (``axis`` sets all three), the other
    axes broadcast, the result's vectors along ``axisc``. 2-vectors (deprecated in NumPy 2) are
    refused."""
    if axis is not None:
        axisa = axisb = axisc = axis
    u = moveaxis(a, _axis(axisa, a.ndim, "cross"), -1)
    v = moveaxis(b, _axis(axisb, b.ndim, "cross"), -1)
    if u.shape[-1] != 3 or v.shape[-1] != 3:
        raise _error(_UnsupportedError, "cross", "only vectors of 3 entries are supported "
                     f"(got {u.shape[-1]} and {v.shape[-1]}); NumPy 2 deprecates 2-vectors",
                     kind="Unsupported")
    u0, u1, u2 = (u[..., i] for i in range(3))
    v0, v1, v2 = (v[..., i] for i in range(3))
    c = stack([u1 * v2 - u2 * v1, u2 * v0 - u0 * v2, u0 * v1 - u1 * v0], -1)
    return moveaxis(c, -1, _axis(axisc, c.ndim, "cross"))


__all__ = ["flip", "fliplr", "flipud", "roll", "pad", "split", "array_split", "repeat", "tile",
           "tril", "triu", "dot", "linspace", "indices", "meshgrid", "any", "all", "empty",
           "empty_like", "full_like", "identity", "copy", "ravel", "atleast_1d", "atleast_2d",
           "atleast_3d", "finfo", "argmax", "argmin", "nan_to_num", "diff", "cross"]
