"""NumPy's NaN-ignoring reductions (nansum, nanmean, nanmax, nanmin), ptp and average, built from
the reductions and one select each, so they run on the operand's runtime and differentiate
through a Tracer (a NaN entry gets gradient 0)."""

from ._arrays import full_like
from ._errors import UnsupportedError as _UnsupportedError
from ._errors import ValidationError as _ValidationError
from ._errors import _axis, _error
from ._namespace import _require_tensor, broadcast_to, equal, isnan, where
from ._tenferro import Tracer


def _no_out(out, op):
    if out is not None:
        raise _error(_UnsupportedError, op, "out= is not supported: tensors are immutable",
                     kind="Unsupported")


def _present(a):
    """1.0 where a holds a number, 0.0 at a NaN (either part of a complex value)."""
    return 1.0 - isnan(a)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False):
    """numpy.nansum: the sum with NaNs taken as zero (0 over an all-NaN slice)."""
    _no_out(out, "nansum")
    s = where(isnan(a), 0.0, a).sum(axis, keepdims)
    return s if dtype is None else s.astype(dtype)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False):
    """numpy.nanmean: the mean of the non-NaN entries (NaN over an all-NaN slice, as NumPy's,
    which also warns)."""
    _no_out(out, "nanmean")
    m = nansum(a, axis, None, None, keepdims) / _present(a).sum(axis, keepdims)
    return m if dtype is None else m.astype(dtype)


def _nan_extreme(a, axis, keepdims, out, op, fill, extreme):
    _no_out(out, op)
    if a.dtype.kind == "c":
        raise _error(_ValidationError, op, f"{op} is defined for real dtypes, not {a.dtype}")
    r = extreme(where(isnan(a), fill, a), axis, keepdims)
    # An all-NaN slice is NaN (NumPy's, with a warning), not the fill.
    return where(equal(_present(a).sum(axis, keepdims), 0.0), float("nan"), r)


def nanmax(a, axis=None, out=None, keepdims=False):
    """numpy.nanmax: the largest non-NaN entry (NaN over an all-NaN slice)."""
    return _nan_extreme(a, axis, keepdims, out, "nanmax", float("-inf"),
                        lambda x, ax, kd: x.max(ax, kd))


def nanmin(a, axis=None, out=None, keepdims=False):
    """numpy.nanmin: the smallest non-NaN entry (NaN over an all-NaN slice)."""
    return _nan_extreme(a, axis, keepdims, out, "nanmin", float("inf"),
                        lambda x, ax, kd: x.min(ax, kd))


def ptp(a, axis=None, out=None, keepdims=False):
    """numpy.ptp: max - min ("peak to peak")."""
    _no_out(out, "ptp")
    return a.max(axis, keepdims) - a.min(axis, keepdims)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """numpy.average: sum(a w) / sum(w) over ``axis`` (the mean without weights); 1-D weights
    along a single ``axis`` as NumPy's; with ``returned``, (average, sum of weights). Weights
    that sum to zero raise ZeroDivisionError, as NumPy's (one small download to check)."""
    if weights is None:
        avg = a.mean(axis, keepdims)
        return (avg, full_like(avg, float(_entries_per_result(a, axis)))) if returned else avg
    w = _require_tensor(weights, "average", 1)
    if tuple(w.shape) != tuple(a.shape):
        if axis is None:
            raise _error(_ValidationError, "average",
                         "axis must be given when the weights' shape differs from a's")
        if isinstance(axis, int):
            axis = _axis(axis, a.ndim, "average")
        if not isinstance(axis, int) or w.ndim != 1 or w.shape[0] != a.shape[axis]:
            raise _error(_ValidationError, "average", "1-D weights must have the length of a's "
                         f"axis {axis}; got weights of shape {tuple(w.shape)}")
        shape = [1] * a.ndim
        shape[axis] = w.shape[0]
        w = w.reshape(tuple(shape))
    total = broadcast_to(w, tuple(a.shape)).sum(axis, keepdims)
    plain = total.value if isinstance(total, Tracer) else total
    if float(equal(plain, 0.0).sum().download()) > 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    avg = (a * w).sum(axis, keepdims) / total
    # NumPy returns the weights' sum in the result's dtype.
    return (avg, total if total.dtype == avg.dtype else total.astype(avg.dtype)) if returned \
        else avg


def _entries_per_result(a, axis):
    """How many entries of a one result of a reduction over ``axis`` takes."""
    if axis is None:
        return a.size
    axes = axis if isinstance(axis, tuple) else (axis,)
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return n


__all__ = ["nansum", "nanmean", "nanmax", "nanmin", "ptp", "average"]
