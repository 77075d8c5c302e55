"""Random tensors made where they live, with NumPy's ``Generator`` names.

    rng = tf.random.default_rng(42, runtime=rt)   # rt: a CPU, WebGPU or CUDA runtime
    a = rng.standard_normal((64, 64), dtype=np.complex64)
    b = rng.uniform(-1.0, 1.0, size=8)

Each draw is made by a kernel of the generator's runtime (never on the host and uploaded), from
the counter-based Philox4x32-10 generator of the C++ ``prims::random_uniform`` /
``prims::random_normal`` (docs/prims.md, "Creation"): a value depends only on its draw's key
and its index, so a seed gives the same tensors on every backend and thread count (uniform
values bit for bit; normal ones to the device's rounding). Every call of a generator takes the
next key of its seed (SplitMix64 of the seed and the call's number), so consecutive draws are
independent and a generator replays exactly from its seed. ``size=None`` gives a 0-d tensor
(NumPy gives a Python number: that would be a download).
"""

import os as _os
import threading as _threading

import numpy as _np

from ._errors import ValidationError as _ValidationError
from ._errors import _error
from ._namespace import _real, _rt
from ._tenferro import prims as _p

__all__ = ["Generator", "default_rng"]

_MASK = (1 << 64) - 1


def _splitmix64(x):
    """SplitMix64's output function: a 64-bit key from a 64-bit counter (Steele et al.)."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def _shape(size):
    return () if size is None else size


def _dtype(dtype):
    return _np.float64 if dtype is None else dtype


class Generator:
    """Draws tensors in one runtime from one seed; see the module's documentation."""

    def __init__(self, seed, runtime):
        self._seed = seed
        self._runtime = runtime
        self._calls = 0
        self._lock = _threading.Lock()  # one key per call, also from several threads

    def __repr__(self):
        return f"tenferro.random.Generator(seed={self._seed}, runtime={self._runtime!r})"

    @property
    def runtime(self):
        return self._runtime

    def _next_key(self):
        with self._lock:
            call = self._calls
            self._calls += 1
        # The seed's stream of keys: seed and call number mixed twice, so that nearby seeds
        # and nearby calls give unrelated keys.
        return _splitmix64(_splitmix64(self._seed) ^ call)

    def random(self, size=None, dtype=_np.float64):
        """Uniform values in [0, 1)."""
        return self.uniform(0.0, 1.0, size, dtype)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=_np.float64):
        """Uniform values in [low, high) ((high, low] for low > high), in the dtype's precision;
        complex dtypes draw both parts so."""
        lo, hi = _real(low, "uniform", "low"), _real(high, "uniform", "high")
        return _p.random_uniform(self._runtime, _shape(size), self._next_key(), lo, hi,
                                 _dtype(dtype))

    def standard_normal(self, size=None, dtype=_np.float64):
        """Normal values of mean 0 and variance 1 (complex: variance 1/2 in each part)."""
        return self.normal(0.0, 1.0, size, dtype)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=_np.float64):
        """Normal values of mean ``loc`` and standard deviation ``scale`` (complex: a real mean,
        the variance split evenly between the parts)."""
        mean, sd = _real(loc, "normal", "loc"), _real(scale, "normal", "scale")
        return _p.random_normal(self._runtime, _shape(size), self._next_key(), mean, sd,
                                _dtype(dtype))


def default_rng(seed=None, *, runtime=None):
    """A Generator of ``runtime`` (the default CPU runtime when absent) from a non-negative
    integer seed, or from the operating system's entropy when ``seed`` is None."""
    if seed is None:
        seed = int.from_bytes(_os.urandom(8), "little")
    if isinstance(seed, bool) or not isinstance(seed, (int, _np.integer)):
        raise _error(_ValidationError, "default_rng",
                     f"seed must be a non-negative integer, got {type(seed).__name__}")
    if not 0 <= int(seed) < 2**64:
        raise _error(_ValidationError, "default_rng", f"seed must be in [0, 2**64), got {seed}")
    return Generator(int(seed), _rt(runtime, "default_rng"))
