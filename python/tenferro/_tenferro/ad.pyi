"""Automatic differentiation (tenferro::ad)."""

from collections.abc import Callable, Sequence

import tenferro._tenferro


def value_and_grad(arg0: Callable, arg1: Sequence[tenferro._tenferro.Tensor], /) -> tuple: ...

def vjp(arg0: Callable, arg1: Sequence[tenferro._tenferro.Tensor], /) -> tuple: ...

def jvp(arg0: Callable, arg1: Sequence[tenferro._tenferro.Tensor], arg2: Sequence[tenferro._tenferro.Tensor], /) -> tuple: ...

def stop_gradient(arg: tenferro._tenferro.Tracer, /) -> tenferro._tenferro.Tensor:
    """The value of x as a plain Tensor: nothing flows back through it."""
