"""The exception family: one class per C++ ``tenferro::ErrorKind``, each also deriving from the
built-in a NumPy user would catch. Every instance carries ``kind``, ``phase``, ``op`` and
``message`` (the C++ error's fields); ``str(e)`` is ``"<op>: <message>"``.
"""

import numpy as _np

from . import _tenferro


class Error(Exception):
    """Base of every tenferro error."""

    kind = ""
    phase = ""
    op = ""
    message = ""


class ValidationError(Error, ValueError):
    """Bad argument: shapes, axes, dtypes, options (checked before anything runs)."""


class AxisError(ValidationError, _np.exceptions.AxisError):
    """An axis out of range for the tensor's rank (also ``numpy.exceptions.AxisError``, so an
    ``IndexError`` and a ``ValueError``, as NumPy raises)."""

    def __init__(self, message=""):
        # NumPy's AxisError takes a ready message as its single argument.
        _np.exceptions.AxisError.__init__(self, message)


class ArgumentTypeError(ValidationError, TypeError):
    """An argument of the wrong type: no integer where one is due (an axis of 1.0, a shape
    entry of "3"), no Tensor where an operand is due. Also a ``TypeError``, as NumPy raises."""


class IndexingError(ValidationError, IndexError):
    """An index out of bounds, or a key that is not an index (also an ``IndexError``, as
    NumPy raises)."""


class ContextMismatchError(Error, ValueError):
    """Operands of one call come from different runtimes."""


class PlacementError(Error, ValueError, BufferError):
    """Data is not where the call needs it. tenferro never moves it on its own: the message
    says what to call (``runtime.upload``, ``tensor.download``, ``copy=True``)."""


class NoInputIngressError(PlacementError):
    """An input's placement is not accepted by the runtime's engine (or a DLPack device
    mismatch)."""


class HostAccessError(PlacementError):
    """Host access to device memory (``__array__``, ``item()`` on a device tensor)."""


class UnsupportedError(Error, NotImplementedError):
    """The runtime's backend has no implementation for this op or dtype."""


class MissingEngineError(Error, RuntimeError):
    """The runtime's backend has no direct engine."""


class MissingExtensionEngineError(Error, RuntimeError):
    """A module offered for an engine registers no executor for it."""


class NumericalError(Error, ArithmeticError):
    """Singular matrix, non-convergence, non-finite input."""


class LinAlgError(NumericalError, _np.linalg.LinAlgError):
    """A numerical failure of a ``tenferro.linalg`` call (also ``numpy.linalg.LinAlgError``)."""


class NotConvergedError(NumericalError):
    """A ``tenferro.krylov`` solver did not converge within ``maxiter``. ``best`` holds the best
    iterates (Tensors) and ``residual_norms`` their residual norms."""

    best = ()
    residual_norms = ()


class ResourceError(Error, MemoryError):
    """An allocation that cannot succeed."""


class BackendError(Error, RuntimeError):
    """The device or its driver failed."""


class RuntimeStateError(Error, RuntimeError):
    """The runtime or tensor handle is in a state that cannot serve the call."""


_BY_KIND = {
    "Validation": ValidationError,
    "ContextMismatch": ContextMismatchError,
    "Unsupported": UnsupportedError,
    "MissingEngine": MissingEngineError,
    "NoInputIngress": NoInputIngressError,
    "MissingExtensionEngine": MissingExtensionEngineError,
    "HostAccess": HostAccessError,
    "Numerical": NumericalError,
    "Resource": ResourceError,
    "Backend": BackendError,
    "RuntimeState": RuntimeStateError,
    "LinAlgError": LinAlgError,
    "NotConvergedError": NotConvergedError,
    "AxisError": AxisError,
    "IndexingError": IndexingError,
    "ArgumentTypeError": ArgumentTypeError,
}
_tenferro._set_error_classes(_BY_KIND)



def _error(cls, op, message, kind="Validation", phase="input"):
    """An instance of ``cls`` raised by the pure-Python layer, with the fields a C++ error
    carries (``str(e)`` is ``"<op>: <message>"``, as theirs)."""
    e = cls(f"{op}: {message}")
    e.kind, e.phase, e.op, e.message = kind, phase, op, message
    return e


def _axis(axis, ndim, op):
    """NumPy's normalize_axis_index: an int axis in [-ndim, ndim), else AxisError."""
    import operator

    try:
        axis = operator.index(axis)
    except TypeError:
        raise _error(ArgumentTypeError, op, f"axis must be an integer, got {type(axis).__name__}")
    if not -ndim <= axis < ndim:
        raise _error(AxisError, op,
                     f"axis {axis} is out of bounds for a tensor of dimension {ndim}")
    return axis % ndim if ndim else axis


def _axes(axes, ndim, op):
    """An int or a sequence of ints, each normalised; a repeated axis is a ValidationError."""
    import operator

    try:
        seq = [operator.index(axes)]
    except TypeError:
        seq = list(axes) if not isinstance(axes, (str, bytes)) else [axes]
    out = [_axis(a, ndim, op) for a in seq]
    if len(set(out)) != len(out):
        raise _error(ValidationError, op, f"repeated axis in {tuple(seq)}")
    return out


__all__ = [c.__name__ for c in _BY_KIND.values()] + ["Error", "PlacementError"]
