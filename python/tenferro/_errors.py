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
}
_tenferro._set_error_classes(_BY_KIND)

__all__ = [c.__name__ for c in _BY_KIND.values()] + ["Error", "PlacementError"]
