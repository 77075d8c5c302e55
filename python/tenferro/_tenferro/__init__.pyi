"""
tenferro C++ runtime bindings (use the `tenferro` package, not this module)
"""

from collections.abc import Callable
import types

from tenferro._tenferro import (
    ad as ad,
    fft as fft,
    krylov as krylov,
    linalg as linalg,
    prims as prims
)


def blas_info() -> dict:
    """
    The BLAS/LAPACK tenferro's CPU backend links and the kernel it runs on this CPU, as `tenferro info` reports them; 'line' is its BLAS line, 'warning' its one-line warning or note, or empty.
    """

class Runtime:
    """
    One backend (CPU, WebGPU or CUDA device) and the tensors that live on it. Data moves in and out only through upload() and download().
    """

    @staticmethod
    def cpu() -> Runtime:
        """A new CPU runtime."""

    @staticmethod
    def webgpu() -> Runtime:
        """A new WebGPU runtime (adapter 0). UnsupportedError when not built in."""

    @staticmethod
    def cuda(device: int = 0) -> Runtime:
        """A new CUDA runtime. UnsupportedError when not built in."""

    @property
    def backend(self) -> str: ...

    @property
    def device(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def id(self) -> int: ...

    def upload(self, data: object, dtype: object | None = None) -> Tensor:
        """
        Copies array-like host data into this runtime (explicit, counted in stats()). Integer and boolean data become float64 unless dtype is given.
        """

    def synchronize(self) -> None: ...

    def stats(self) -> dict:
        """
        The runtime's counters: transfers, caches, module installs, kernel launches.
        """

    def __repr__(self) -> str: ...

    def __eq__(self, arg: object, /) -> bool: ...

    def __hash__(self) -> int: ...

def add(arg0: object, arg1: object, /) -> object: ...

def subtract(arg0: object, arg1: object, /) -> object: ...

def multiply(arg0: object, arg1: object, /) -> object: ...

def divide(arg0: object, arg1: object, /) -> object: ...

def power(arg0: object, arg1: object, /) -> object: ...

def floor_divide(arg0: object, arg1: object, /) -> object: ...

def remainder(arg0: object, arg1: object, /) -> object: ...

def negative(arg: object, /) -> object: ...

def maximum(x1: object, x2: object) -> object:
    """numpy.maximum (NaN propagates)."""

def minimum(x1: object, x2: object) -> object:
    """numpy.minimum (NaN propagates)."""

def arctan2(x1: object, x2: object) -> object:
    """
    numpy.arctan2: the angle of the point (x2, x1), C's atan2 (signed zeros and infinities included).
    """

def hypot(x1: object, x2: object) -> object:
    """
    numpy.hypot: sqrt(x1^2 + x2^2) without overflow or underflow in between.
    """

def fmod(x1: object, x2: object) -> object:
    """
    numpy.fmod: C's fmod, the remainder of x1 / x2 with x1's sign (remainder, Python's %, takes x2's).
    """

def copysign(x1: object, x2: object) -> object:
    """
    numpy.copysign: |x1| with the sign bit of x2 (-0.0 and NaN signs included).
    """

class Tensor:
    """
    A tensor living in one tenferro.Runtime (logical C-order shape, as NumPy). Move data only with runtime.upload() and tensor.download().
    """

    @property
    def shape(self) -> tuple: ...

    @property
    def ndim(self) -> int: ...

    @property
    def size(self) -> int: ...

    @property
    def dtype(self) -> object: ...

    @property
    def runtime(self) -> Runtime: ...

    @property
    def placement(self) -> str: ...

    @property
    def device(self) -> str: ...

    @property
    def strides(self) -> tuple:
        """Byte strides, as NumPy's."""

    def __repr__(self) -> str: ...

    def __len__(self) -> int: ...

    def download(self) -> object:
        """
        An explicit copy to host memory as a numpy.ndarray (counted in runtime.stats()).
        """

    def __array__(self, dtype: object | None = None, copy: bool | None = None) -> object:
        """
        Zero-copy NumPy view of a host tensor; HostAccessError for device tensors (call download()).
        """

    def __dlpack__(self, *, stream: object | None = None, max_version: object | None = None, dl_device: object | None = None, copy: bool | None = None) -> object: ...

    def __dlpack_device__(self) -> tuple: ...

    def item(self) -> object: ...

    def __float__(self) -> float: ...

    def __complex__(self) -> object: ...

    def __bool__(self) -> bool: ...

    @property
    def T(self) -> Tensor: ...

    @property
    def mT(self) -> Tensor: ...

    def transpose(self, *args) -> Tensor:
        """
        NumPy's transpose: a view with permuted axes (reversed when none are given).
        """

    def reshape(self, *args) -> Tensor:
        """
        C-order (row-major) reshape, as NumPy: a view when the strides allow, else a copy made inside the runtime.
        """

    def __getitem__(self, key: object | None) -> Tensor: ...

    def __iter__(self) -> object: ...

    def __array_namespace__(self, api_version: object | None = None) -> types.ModuleType: ...

    def conj(self) -> Tensor: ...

    def conjugate(self) -> Tensor: ...

    @property
    def real(self) -> Tensor: ...

    @property
    def imag(self) -> Tensor: ...

    def __neg__(self) -> Tensor: ...

    def __pos__(self) -> Tensor: ...

    def __abs__(self) -> Tensor: ...

    def astype(self, dtype: object, copy: bool = True) -> Tensor: ...

    def copy(self) -> Tensor: ...

    def __copy__(self) -> Tensor: ...

    def __deepcopy__(self, memo: object) -> Tensor: ...

    def __reduce_ex__(self, protocol: int) -> object: ...

    def __add__(self, arg: object, /) -> object: ...

    def __radd__(self, arg: object, /) -> object: ...

    def __sub__(self, arg: object, /) -> object: ...

    def __rsub__(self, arg: object, /) -> object: ...

    def __mul__(self, arg: object, /) -> object: ...

    def __rmul__(self, arg: object, /) -> object: ...

    def __truediv__(self, arg: object, /) -> object: ...

    def __rtruediv__(self, arg: object, /) -> object: ...

    def __pow__(self, arg: object, /) -> object: ...

    def __rpow__(self, arg: object, /) -> object: ...

    def __floordiv__(self, arg: object, /) -> object: ...

    def __rfloordiv__(self, arg: object, /) -> object: ...

    def __mod__(self, arg: object, /) -> object: ...

    def __rmod__(self, arg: object, /) -> object: ...

    def __divmod__(self, arg: object, /) -> object: ...

    def __rdivmod__(self, arg: object, /) -> object: ...

    def __matmul__(self, arg: object, /) -> object: ...

    def __rmatmul__(self, arg: object, /) -> object: ...

    def __eq__(self, other: object | None) -> object: ...

    def __ne__(self, other: object | None) -> object: ...

    def __gt__(self, arg: object, /) -> Tensor: ...

    def __ge__(self, arg: object, /) -> Tensor: ...

    def __lt__(self, arg: object, /) -> Tensor: ...

    def __le__(self, arg: object, /) -> Tensor: ...

    def __int__(self) -> object: ...

    def sum(self, axis: object | None = None, keepdims: bool = False) -> Tensor: ...

    def mean(self, axis: object | None = None, keepdims: bool = False) -> Tensor: ...

    def prod(self, axis: object | None = None, keepdims: bool = False) -> Tensor: ...

    def max(self, axis: object | None = None, keepdims: bool = False) -> Tensor: ...

    def min(self, axis: object | None = None, keepdims: bool = False) -> Tensor: ...

    def __hash__(self, /):
        """Return hash(self)."""

    __array_ufunc__: None = None

    __array_priority__: int = 1000

def from_dlpack(x: object, *, runtime: Runtime, copy: bool | None = None) -> Tensor:
    """
    A tensor of `runtime` viewing x's memory (zero copy for host memory on a CPU runtime; the producer stays alive meanwhile). copy=True copies; a device mismatch is a PlacementError, never a silent transfer.
    """

def register_path_planner(name: str, fn: Callable) -> None:
    """
    Registers fn(inputs, output, size_dict, memory_limit) -> [(i, j), ...] (opt_einsum's path-function convention; labels are ints) as einsum's planner `name`: einsum(..., optimize=name).
    """

def unregister_path_planner(name: str) -> bool:
    """Removes a registered planner; False when there is none of that name."""

def path_planner_names() -> list[str]:
    """
    Planner names einsum's optimize= accepts: the built-ins, then registered ones.
    """

def einsum(subscripts: object, *operands, optimize: object | None = 'auto') -> object:
    """
    numpy.einsum on tenferro tensors of one runtime; optimize: a planner name ('auto', 'greedy', 'optimal', 'hyper' or a registered one), a bool or an explicit path. The result stays in the operands' runtime.
    """

def einsum_path(subscripts: str, *operands, optimize: object | None = 'greedy') -> tuple:
    """
    numpy.einsum_path: (['einsum_path', (i, j), ...], report) from the operands' shapes. When every operand is a tenferro Tensor, the plan einsum would run on their runtime (optimize='auto' is einsum's default), from or into its plan cache: the report says when the plan came from that cache or reused the steps of an earlier plan for other shapes.
    """

class Tracer:
    """
    A value traced by tenferro.grad / vjp / jvp (the C++ ad::Variable): the argument a differentiated function receives. tenferro's ops on it record on the tape; .value is the plain Tensor (not traced).
    """

    def __init__(self, arg: Tensor, /) -> None: ...

    @property
    def shape(self) -> tuple: ...

    @property
    def ndim(self) -> int: ...

    @property
    def size(self) -> int: ...

    @property
    def dtype(self) -> object: ...

    @property
    def runtime(self) -> Runtime: ...

    @property
    def value(self) -> Tensor:
        """The traced value as a plain Tensor (ops on it are not recorded)."""

    @property
    def tracked(self) -> bool: ...

    def __repr__(self) -> str: ...

    def __len__(self) -> int: ...

    @property
    def T(self) -> Tracer: ...

    @property
    def mT(self) -> Tracer: ...

    def transpose(self, *args) -> Tracer: ...

    def reshape(self, *args) -> Tracer: ...

    def __getitem__(self, key: object | None) -> Tracer: ...

    def __array_namespace__(self, api_version: object | None = None) -> types.ModuleType: ...

    def conj(self) -> Tracer: ...

    def conjugate(self) -> Tracer: ...

    @property
    def real(self) -> Tracer: ...

    @property
    def imag(self) -> Tracer: ...

    def __neg__(self) -> Tracer: ...

    def __pos__(self) -> Tracer: ...

    def __abs__(self) -> Tracer: ...

    def astype(self, arg: object, /) -> Tracer: ...

    def __add__(self, arg: object, /) -> Tracer: ...

    def __radd__(self, arg: object, /) -> Tracer: ...

    def __sub__(self, arg: object, /) -> Tracer: ...

    def __rsub__(self, arg: object, /) -> Tracer: ...

    def __mul__(self, arg: object, /) -> Tracer: ...

    def __rmul__(self, arg: object, /) -> Tracer: ...

    def __truediv__(self, arg: object, /) -> Tracer: ...

    def __rtruediv__(self, arg: object, /) -> Tracer: ...

    def __pow__(self, arg: object, /) -> Tracer: ...

    def __rpow__(self, arg: object, /) -> Tracer: ...

    def __floordiv__(self, arg: object, /) -> Tracer: ...

    def __rfloordiv__(self, arg: object, /) -> Tracer: ...

    def __mod__(self, arg: object, /) -> Tracer: ...

    def __rmod__(self, arg: object, /) -> Tracer: ...

    def __divmod__(self, arg: object, /) -> tuple: ...

    def __rdivmod__(self, arg: object, /) -> tuple: ...

    def __matmul__(self, arg: object, /) -> Tracer: ...

    def __rmatmul__(self, arg: object, /) -> Tracer: ...

    def __eq__(self, other: object | None) -> object: ...

    def __ne__(self, other: object | None) -> object: ...

    def __gt__(self, arg: object, /) -> Tensor: ...

    def __ge__(self, arg: object, /) -> Tensor: ...

    def __lt__(self, arg: object, /) -> Tensor: ...

    def __le__(self, arg: object, /) -> Tensor: ...

    def sum(self, axis: object | None = None, keepdims: bool = False) -> Tracer: ...

    def mean(self, axis: object | None = None, keepdims: bool = False) -> Tracer: ...

    def prod(self, axis: object | None = None, keepdims: bool = False) -> Tracer: ...

    def max(self, axis: object | None = None, keepdims: bool = False) -> Tracer: ...

    def min(self, axis: object | None = None, keepdims: bool = False) -> Tracer: ...

    def __hash__(self, /):
        """Return hash(self)."""

    __array_ufunc__: None = None

    __array_priority__: int = 1000
