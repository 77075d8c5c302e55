"""
tenferro C++ runtime bindings (use the `tenferro` package, not this module)
"""

import types
from collections.abc import Callable, Sequence

from tenferro._tenferro import (
    fft as fft,
    linalg as linalg,
    prims as prims
)


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

    def __complex__(self) -> "std::complex<double>": ...

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

    def __getitem__(self, arg: object, /) -> Tensor: ...

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

    def astype(self, arg: object, /) -> Tensor: ...

    def copy(self) -> Tensor: ...

    def __add__(self, arg: object, /) -> Tensor: ...

    def __radd__(self, arg: object, /) -> Tensor: ...

    def __sub__(self, arg: object, /) -> Tensor: ...

    def __rsub__(self, arg: object, /) -> Tensor: ...

    def __mul__(self, arg: object, /) -> Tensor: ...

    def __rmul__(self, arg: object, /) -> Tensor: ...

    def __truediv__(self, arg: object, /) -> Tensor: ...

    def __rtruediv__(self, arg: object, /) -> Tensor: ...

    def __pow__(self, arg: object, /) -> Tensor: ...

    def __rpow__(self, arg: object, /) -> Tensor: ...

    def __matmul__(self, arg: object, /) -> Tensor: ...

    def __rmatmul__(self, arg: object, /) -> Tensor: ...

    def __gt__(self, arg: object, /) -> Tensor: ...

    def __ge__(self, arg: object, /) -> Tensor: ...

    def __lt__(self, arg: object, /) -> Tensor: ...

    def __le__(self, arg: object, /) -> Tensor: ...

    def __int__(self) -> int: ...

    def sum(self, axis: object | None = None, keepdims: bool = False) -> Tensor: ...

    def mean(self, axis: object | None = None, keepdims: bool = False) -> Tensor: ...

    def prod(self, axis: object | None = None, keepdims: bool = False) -> Tensor: ...

    def max(self, axis: object | None = None, keepdims: bool = False) -> Tensor: ...

    def min(self, axis: object | None = None, keepdims: bool = False) -> Tensor: ...

    __array_ufunc__: None = None

    __array_priority__: int = 1000

def from_dlpack(x: object, *, runtime: Runtime, copy: bool | None = None) -> Tensor:
    """
    A tensor of `runtime` viewing x's memory (zero copy for host memory on a CPU runtime; the producer stays alive meanwhile). copy=True copies; a device mismatch is a PlacementError, never a silent transfer.
    """

def einsum(subscripts: object, *operands, optimize: object | None = 'auto') -> Tensor:
    """
    numpy.einsum on tenferro tensors of one runtime; optimize: a planner name ('auto', 'greedy', 'optimal', 'hyper' or a registered one), a bool or an explicit path. The result stays in the operands' runtime.
    """

def register_path_planner(name: str, fn: Callable[[list[set[int]], set[int], dict[int, int], int | None], Sequence[tuple[int, int]]]) -> None:
    """
    Registers fn(inputs, output, size_dict, memory_limit) -> [(i, j), ...] (opt_einsum's path-function convention; labels are ints) as einsum's planner `name`: einsum(..., optimize=name).
    """

def unregister_path_planner(name: str) -> bool:
    """
    Removes a registered planner; False when there is none of that name.
    """

def path_planner_names() -> list[str]:
    """
    Planner names einsum's optimize= accepts: the built-ins, then registered ones.
    """

def einsum_path(subscripts: str, *operands, optimize: object | None = 'greedy') -> tuple:
    """
    numpy.einsum_path: (['einsum_path', (i, j), ...], report) from the operands' shapes.
    """
