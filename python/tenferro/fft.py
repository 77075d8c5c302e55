"""numpy.fft's functions on tenferro tensors (results stay in the input's runtime).

The twelve transforms are the C++ module's; the Hermitian transforms, the sample frequencies and
the shifts below are built from them and from the namespace's arrays, as NumPy builds them."""

import numpy as _np

from ._arrays import _count
from ._arrays import roll as _roll
from ._errors import ValidationError as _ValidationError
from ._errors import _error
from ._namespace import arange as _arange
from ._namespace import concatenate as _concatenate
from ._namespace import float64 as _float64
from ._tenferro.fft import (  # noqa: F401
    fft, fft2, fftn, ifft, ifft2, ifftn, irfft, irfft2, irfftn, rfft, rfft2, rfftn)

__all__ = ["fft", "ifft", "rfft", "irfft", "fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2",
           "rfft2", "irfft2", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

# The norm of the transform in the other direction (numpy.fft's _swap_direction).
_SWAPPED = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _swapped(norm, op):
    if not isinstance(norm, (str, type(None))) or norm not in _SWAPPED:
        raise _error(_ValidationError, op,
                     f"norm must be None, 'backward', 'forward' or 'ortho', not {norm!r}")
    return _SWAPPED[norm]


def hfft(a, n=None, axis=-1, norm=None):
    """numpy.fft.hfft: the real spectrum of a signal with Hermitian symmetry, given its first
    half: irfft of conj(a) with the normalisation of the other direction."""
    return irfft(a.conj(), n, axis, _swapped(norm, "hfft"))


def ihfft(a, n=None, axis=-1, norm=None):
    """numpy.fft.ihfft: the inverse of hfft, conj(rfft(a)) normalised as an inverse."""
    return rfft(a, n, axis, _swapped(norm, "ihfft")).conj()


def _length(n, op):
    n = _count(n, op, "n")
    if n < 1:
        raise _error(_ValidationError, op, f"n must be positive, got {n}")
    return n


def fftfreq(n, d=1.0, *, dtype=_float64, runtime=None):
    """numpy.fft.fftfreq: [0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d n), in ``runtime``
    (the default CPU runtime when None); ``dtype`` float64 as NumPy's, or float32 (a runtime
    without float64, WebGPU's, needs it)."""
    n = _length(n, "fftfreq")
    k = _concatenate([_arange((n - 1) // 2 + 1, dtype=dtype, runtime=runtime),
                      _arange(-(n // 2), 0, dtype=dtype, runtime=runtime)])
    return k * (1.0 / (n * float(d)))  # a Python float: a NumPy d would promote (NEP 50)


def rfftfreq(n, d=1.0, *, dtype=_float64, runtime=None):
    """numpy.fft.rfftfreq: [0, 1, ..., n // 2] / (d n), in ``runtime`` (``dtype`` as fftfreq's)."""
    n = _length(n, "rfftfreq")
    return _arange(n // 2 + 1, dtype=dtype, runtime=runtime) * (1.0 / (n * float(d)))


def _shifted(x, axes, sign):
    if axes is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axes, (int, _np.integer)):
        axes = (axes,)
    axes = tuple(axes)
    if not axes:
        return x
    return _roll(x, [sign * (x.shape[ax] // 2) for ax in axes], axes)


def fftshift(x, axes=None):
    """numpy.fft.fftshift: the zero frequency moved to the centre (a roll by n // 2)."""
    return _shifted(x, axes, 1)


def ifftshift(x, axes=None):
    """numpy.fft.ifftshift: fftshift undone (a roll by -(n // 2))."""
    return _shifted(x, axes, -1)
