"""JAX-style functional automatic differentiation over the C++ ``tenferro::ad`` tape.

    import tenferro as tf
    loss = lambda x, w: (tf.einsum("ij,jk->ik", x, w) ** 2).sum()
    g = tf.grad(loss)(x, w)                      # d loss / d x, a Tensor on x's runtime
    value, (gx, gw) = tf.value_and_grad(loss, argnums=(0, 1))(x, w)
    y, vjp_fn = tf.vjp(f, x);  (gx,) = vjp_fn(cotangent)
    y, ju = tf.jvp(f, (x,), (u,))

Inside ``f`` the differentiated arguments are ``tenferro.Tracer`` objects: tenferro's own
functions (einsum, the operators, tenferro.linalg, tenferro.fft, the NumPy-named functions)
record on the tape when given one; every rule is the C++ library's (``docs/ad.md``), including
its conventions: complex gradients are PyTorch's conjugate Wirtinger ones (``z - lr * grad``
descends a real loss), spectral rules need gauge-invariant losses. Arguments that are not
differentiated are passed to ``f`` as they are (plain Tensors are constants). ``f`` returns a
Tensor/Tracer, or a tuple or list of them (vjp, jvp). Errors keep their tenferro types: a
cotangent or tangent of another runtime is a ContextMismatchError, one of another shape or
dtype a ValidationError, a non-real or non-scalar loss given to grad a ValidationError.
"""

import operator
from typing import Any, Callable, Sequence, Tuple, Union

from ._errors import ContextMismatchError, UnsupportedError, ValidationError, _error
from ._tenferro import Tensor, Tracer
from ._tenferro import ad as _ad

ArgNums = Union[int, Sequence[int]]

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "stop_gradient", "Tracer"]


def _argnums(argnums, nargs, op):
    """argnums normalised, as JAX takes them; typed errors for anything else."""
    try:
        nums = (operator.index(argnums),)
    except TypeError:
        try:
            nums = tuple(operator.index(i) for i in argnums)
        except TypeError:
            raise _error(ValidationError, op, f"argnums must be an int or a sequence of ints, "
                         f"got {argnums!r}") from None
    if not nums:
        raise _error(ValidationError, op, "argnums must name at least one argument")
    for i in nums:
        if not -nargs <= i < nargs:
            raise _error(ValidationError, op, f"argnums {i} is out of range for {nargs} "
                         "positional arguments")
    return tuple(i % nargs for i in nums)


def _check_primals(values, op):
    """A Tracer given to grad/vjp/jvp means differentiating through a differentiation (grad of
    grad, grad of jvp): nested tapes are not implemented, so this is refused before any work
    rather than failing inside the argument conversion."""
    for v in values:
        if type(v) is Tracer:
            raise _error(UnsupportedError, op, "higher-order differentiation (grad of grad, "
                         "grad of jvp/vjp) is not supported yet: the argument is already "
                         "being differentiated by an outer tenferro.grad/vjp/jvp",
                         kind="Unsupported")
        if not isinstance(v, Tensor):
            raise _error(ValidationError, op, "differentiated arguments, cotangents and "
                         f"tangents must be tenferro.Tensor, got {type(v).__name__} (upload "
                         "host data with runtime.upload first)")


def _check_one_runtime(args, nums, op):
    """The differentiated arguments share one runtime; the error names the caller's own
    argument positions (the C++ layer sees only the differentiated ones, renumbered)."""
    first = args[nums[0]].runtime
    for i in nums[1:]:
        if args[i].runtime is not first:
            raise _error(ContextMismatchError, op,
                         f"argument {i} lives in runtime {args[i].runtime.id} but argument "
                         f"{nums[0]} lives in runtime {first.id}; move it explicitly with "
                         "tensor.download() and runtime.upload(...)", kind="ContextMismatch")


def _with(args, nums, values):
    full = list(args)
    for i, v in zip(nums, values):
        full[i] = v
    return full


def value_and_grad(f: Callable[..., Any],
                   argnums: ArgNums = 0) -> Callable[..., Tuple[Tensor, Any]]:
    """A function returning ``(f(*args), gradient)``; the gradient has one Tensor per argument
    in ``argnums`` (a tuple when argnums is a tuple), each of its argument's shape, dtype and
    runtime. ``f`` must return a real 0-d value."""

    def wrapped(*args):
        nums = _argnums(argnums, len(args), "grad")
        # Each argument is watched once; a repeated argnum gets its gradient again (JAX).
        unique = list(dict.fromkeys(nums))
        _check_primals([args[i] for i in unique], "grad")
        _check_one_runtime(args, unique, "grad")
        value, grads = _ad.value_and_grad(lambda *xs: [f(*_with(args, unique, xs))],
                                          [args[i] for i in unique])
        by_arg = dict(zip(unique, grads))
        single = isinstance(argnums, int) or hasattr(argnums, "__index__")
        return value, (by_arg[nums[0]] if single else tuple(by_arg[i] for i in nums))

    return wrapped


def grad(f: Callable[..., Any], argnums: ArgNums = 0) -> Callable[..., Any]:
    """``jax.grad``: d f / d args[argnums] for an ``f`` returning a real 0-d value."""
    vg = value_and_grad(f, argnums)

    def wrapped(*args):
        return vg(*args)[1]

    return wrapped


def _flat(out):
    """f's result as a list and a function that rebuilds its structure."""
    if isinstance(out, (tuple, list)):
        kind = type(out)
        if hasattr(kind, "_fields"):  # a namedtuple (linalg's QRResult, SVDResult, ...)
            return list(out), (lambda xs: kind(*xs))
        return list(out), (lambda xs: kind(xs))
    return [out], (lambda xs: xs[0])


def vjp(f: Callable[..., Any],
        *primals: Tensor) -> Tuple[Any, Callable[[Any], Tuple[Tensor, ...]]]:
    """``jax.vjp``: ``(f(*primals), vjp_fn)``; ``vjp_fn(cotangent)`` returns one Tensor per
    primal. The cotangent has f's output structure (a tuple of Tensors for a tuple output; None
    for an output that gets no cotangent, as zeros would).
    vjp_fn frees the tape: a second call is a RuntimeStateError."""
    rebuild = []

    def flat_f(*xs):
        seq, unflat = _flat(f(*xs))
        rebuild.append(unflat)
        return seq

    _check_primals(primals, "vjp")
    outs, pullback = _ad.vjp(flat_f, list(primals))
    unflat = rebuild[0]

    def vjp_fn(cotangent):
        cts = list(cotangent) if isinstance(cotangent, (tuple, list)) else [cotangent]
        _check_primals([c for c in cts if c is not None], "vjp")
        return tuple(pullback(cts))

    return unflat(outs), vjp_fn


def jvp(f: Callable[..., Any], primals: Sequence[Tensor],
        tangents: Sequence[Tensor]) -> Tuple[Any, Any]:
    """``jax.jvp``: ``(f(*primals), J tangents)`` in forward mode, with f's output structure."""
    rebuild = []

    def flat_f(*xs):
        seq, unflat = _flat(f(*xs))
        rebuild.append(unflat)
        return seq

    _check_primals(list(primals) + list(tangents), "jvp")
    outs, touts = _ad.jvp(flat_f, list(primals), list(tangents))
    return rebuild[0](outs), rebuild[0](touts)


def stop_gradient(x: Union[Tensor, Tracer]) -> Tensor:
    """x's value as a plain Tensor: nothing flows back through it (x itself for a Tensor)."""
    return _ad.stop_gradient(x) if type(x) is Tracer else x
