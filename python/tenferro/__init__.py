"""tenferro: placement-aware eager tensors on the CPU, WebGPU and CUDA, with NumPy's
conventions at the surface.

    import numpy as np, tenferro as tf
    rt = tf.Runtime.cpu()                       # or Runtime.webgpu() / Runtime.cuda(0)
    a = rt.upload(np.eye(3))                    # explicit, counted copy
    c = tf.einsum("ij,jk->ik", a, a)            # runs where a lives
    c.download()                                # explicit copy back: a numpy.ndarray

Data never moves on its own: a call with operands of another runtime or device raises a
typed error that says what to call. ``tf.grad``, ``tf.value_and_grad``, ``tf.vjp`` and
``tf.jvp`` differentiate Python functions of tenferro ops (JAX's functional API over the C++
tape; see ``tenferro._ad``). DLPack (``tf.from_dlpack``, ``__dlpack__``) shares host
memory with NumPy and PyTorch without copies.
"""

from . import _errors
from ._errors import *  # noqa: F401,F403
from ._tenferro import (Runtime, Tensor, einsum, einsum_path, from_dlpack, path_planner_names,
                        register_path_planner, unregister_path_planner)
from . import fft, krylov, linalg, random
from ._config import show_config
from ._ad import Tracer, grad, jvp, stop_gradient, value_and_grad, vjp
from ._namespace import *  # noqa: F401,F403
from ._namespace import __all__ as _namespace_all
from ._arrays import *  # noqa: F401,F403
from ._arrays import __all__ as _arrays_all
from ._statistics import *  # noqa: F401,F403
from ._statistics import __all__ as _statistics_all

__version__ = "0.1.0"
__all__ = (["Runtime", "Tensor", "einsum", "einsum_path", "from_dlpack", "fft", "krylov", "linalg",
            "random", "register_path_planner", "unregister_path_planner", "path_planner_names", "grad",
            "value_and_grad", "vjp", "jvp", "stop_gradient", "Tracer", "show_config"] +
           _errors.__all__ + _namespace_all + _arrays_all + _statistics_all)

from . import _autoray

_autoray.register()
