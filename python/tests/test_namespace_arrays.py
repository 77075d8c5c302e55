"""NumPy's array-manipulation names of the tenferro module (python/tenferro/_arrays.py), each
against NumPy itself on values that include Inf and NaN (nothing may multiply them by a mask)."""

import numpy as np
import pytest

import tenferro as tf


def special(rng, *shape, dtype=np.float64):
    a = rng.standard_normal(shape).astype(dtype)
    if a.size:
        a.flat[::5] = np.inf
        a.flat[1::7] = np.nan
        a.flat[2::11] = -np.inf
    return a


def complex_special(rng, *shape):
    c = np.empty(shape, np.complex128)
    c.real, c.imag = special(rng, *shape), special(rng, *shape)
    return c


def same(got, want):
    got = got.download() if hasattr(got, "download") else got
    assert got.shape == np.shape(want)
    np.testing.assert_array_equal(got, want)  # NaN == NaN here; values must be NumPy's bits


@pytest.mark.parametrize("n", [0, 1, 2, 15, 16, 17, 33, 255, 257, 1000, 4097])
def test_flip_reverses_every_axis_length(rt, rng, n):
    a = special(rng, 3, n, 2)
    t = rt.upload(a)
    for axis in (0, 1, 2, -1, None, (0, 1)):
        same(tf.flip(t, axis), np.flip(a, axis))
    same(tf.fliplr(t), np.fliplr(a))
    same(tf.flipud(t), np.flipud(a))


def test_flip_of_views_and_complex(rt, rng):
    a = complex_special(rng, 40, 6)
    t = rt.upload(a)
    same(tf.flip(t.T, 1), np.flip(a.T, 1))
    same(tf.flip(t[::3, 1:5], 0), np.flip(a[::3, 1:5], 0))
    with pytest.raises(tf.ValidationError):
        tf.fliplr(t[0])
    with pytest.raises(tf.AxisError):
        tf.flip(t, 2)


@pytest.mark.parametrize("shift,axis", [(1, None), (-5, None), (2, 1), ((1, 2), (0, 2)),
                                        (7, 2), (0, 0), ((1, 1), (1, 1)), (-25, 1)])
def test_roll_is_numpys(rt, rng, shift, axis):
    a = special(rng, 2, 3, 4)
    same(tf.roll(rt.upload(a), shift, axis), np.roll(a, shift, axis))


@pytest.mark.parametrize("mode", ["constant", "edge", "wrap", "reflect", "symmetric"])
@pytest.mark.parametrize("width", [1, (2, 3), ((1, 0), (0, 2), (3, 1)), ((5, 7),),
                                   ((0, 0), (9, 10), (1, 1))])
def test_pad_is_numpys(rt, rng, mode, width):
    a = special(rng, 2, 3, 4)
    kw = {"constant_values": ((1, 2), (3, 4), (5, np.inf))} if mode == "constant" else {}
    same(tf.pad(rt.upload(a), width, mode=mode, **kw), np.pad(a, width, mode=mode, **kw))


def test_pad_refuses_what_it_cannot_do(rt):
    t = rt.upload(np.ones((2, 3)))
    with pytest.raises(tf.UnsupportedError, match="mean"):
        tf.pad(t, 1, mode="mean")
    with pytest.raises(tf.ValidationError):
        tf.pad(t, -1)
    with pytest.raises(tf.ValidationError):
        tf.pad(t, ((1, 2), (3, 4), (5, 6)))
    with pytest.raises(tf.ValidationError, match="empty axis"):
        tf.pad(rt.upload(np.ones((0, 3))), 1, mode="edge")
    same(tf.pad(rt.upload(np.ones((0, 3))), 1), np.pad(np.ones((0, 3)), 1))


def test_split_and_array_split_are_numpys(rt, rng):
    a = special(rng, 7, 6)
    t = rt.upload(a)
    for sections in (1, 2, 3, 6):
        for g, w in zip(tf.split(t, sections, axis=1), np.split(a, sections, axis=1)):
            same(g, w)
    for how in (3, 4, 7, 9, [2, 5], [-3, 9], [5, 2], []):
        got, want = tf.array_split(t, how), np.array_split(a, how)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
    with pytest.raises(tf.ValidationError, match="equal division"):
        tf.split(t, 4)
    with pytest.raises(ValueError):
        tf.array_split(t, 0)


def test_repeat_and_tile_are_numpys(rt, rng):
    a = special(rng, 2, 3)
    t = rt.upload(a)
    for repeats, axis in [(2, None), (3, 0), (0, 1), ([1, 0, 2], 1), ([2], 0), (np.int64(2), 1)]:
        same(tf.repeat(t, repeats, axis), np.repeat(a, repeats, axis))
    for reps in (2, (2, 1), (1, 3), (2, 2, 2), 0, (0, 2)):
        same(tf.tile(t, reps), np.tile(a, reps))
    with pytest.raises(tf.ValidationError):
        tf.repeat(t, [1, 2], axis=1)
    with pytest.raises(tf.ValidationError):
        tf.repeat(t, -1)


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (2, 3, 4), (4,), (0, 3)])
def test_tril_and_triu_select_without_arithmetic(rt, rng, shape):
    a = complex_special(rng, *shape)
    t = rt.upload(a)
    for k in (-2, -1, 0, 1, 3):
        same(tf.tril(t, k), np.tril(a, k))
        same(tf.triu(t, k), np.triu(a, k))


def test_dot_linspace_indices_meshgrid_are_numpys(rt, rng):
    for sa, sb in [((), (3,)), ((3,), (3,)), ((2, 3), (3,)), ((2, 3), (3, 4)),
                   ((2, 2, 3), (4, 3, 5)), ((3,), (2, 3, 4))]:
        x, y = rng.standard_normal(sa), rng.standard_normal(sb)
        got = tf.dot(rt.upload(x), rt.upload(y)).download()
        np.testing.assert_allclose(got, np.dot(x, y), rtol=1e-13, atol=1e-13)
    for args in [(0, 1, 5), (-3.5, 2.25, 7, False), (1, 1, 4), (0, 1, 1), (0, 1, 0),
                 (1e-300, 2e-300, 9), (2, -1e3, 1000)]:
        got, step = tf.linspace(*args, retstep=True, runtime=rt)
        want, wstep = np.linspace(*args, retstep=True)
        same(got, want)
        assert np.isnan(step) if np.isnan(wstep) else step == wstep
    same(tf.linspace(0, 1, 9, dtype=tf.float32, runtime=rt), np.linspace(0, 1, 9, dtype=np.float32))
    same(tf.indices((2, 3, 4), runtime=rt), np.indices((2, 3, 4)).astype(float))
    for g, w in zip(tf.indices((2, 3), sparse=True, runtime=rt), np.indices((2, 3), sparse=True)):
        same(g, w.astype(float))
    xs = [rng.standard_normal(n) for n in (2, 3, 4)]
    for indexing in ("xy", "ij"):
        for sparse in (False, True):
            got = tf.meshgrid(*(rt.upload(x) for x in xs), indexing=indexing, sparse=sparse)
            for g, w in zip(got, np.meshgrid(*xs, indexing=indexing, sparse=sparse)):
                same(g, w)


def test_any_all_and_small_helpers_are_numpys(rt, rng):
    a = np.array([[0.0, np.nan, 0.0], [0.0, 0.0, 0.0], [1.0, -2.0, np.inf]])
    t = rt.upload(a)
    for axis in (None, 0, 1):
        same(tf.any(t, axis), np.any(a, axis).astype(float))
        same(tf.all(t, axis), np.all(a, axis).astype(float))
    same(tf.all(rt.upload(np.ones((0, 2))), 0), np.ones(2))
    same(tf.any(rt.upload(np.ones((0, 2))), 0), np.zeros(2))
    same(tf.full_like(t, 2.5), np.full_like(a, 2.5))
    same(tf.empty_like(t), np.zeros_like(a))
    same(tf.empty((2, 1), runtime=rt), np.zeros((2, 1)))
    same(tf.identity(3, runtime=rt), np.identity(3))
    same(tf.copy(t), a)
    same(tf.ravel(t.T), np.ravel(a.T))
    for x in (np.float64(3.0) * np.ones(()), np.ones(4), np.ones((2, 3)), np.ones((2, 3, 4))):
        for f, g in ((tf.atleast_1d, np.atleast_1d), (tf.atleast_2d, np.atleast_2d),
                     (tf.atleast_3d, np.atleast_3d)):
            assert f(rt.upload(x)).shape == g(x).shape
    assert tf.finfo(t).eps == np.finfo(np.float64).eps
    assert tf.finfo(tf.complex64).tiny == np.finfo(np.complex64).tiny


def test_new_functions_run_on_the_operands_device(gpu_rt, rng):
    a = special(rng, 5, 20, dtype=np.float32)
    t = gpu_rt.upload(a)
    for got, want in [(tf.flip(t, 1), np.flip(a, 1)), (tf.roll(t, 3, 1), np.roll(a, 3, 1)),
                      (tf.pad(t, 2, mode="reflect"), np.pad(a, 2, mode="reflect")),
                      (tf.tril(t, 1), np.tril(a, 1)), (tf.repeat(t, 2, 0), np.repeat(a, 2, 0)),
                      (tf.tile(t, (1, 2)), np.tile(a, (1, 2)))]:
        assert got.runtime == gpu_rt
        same(got, want)


def test_gradients_flow_through_flip_pad_and_tril(rt, rng):
    a = rng.standard_normal((4, 19))
    w = rng.standard_normal((6, 23))
    tw = rt.upload(w)

    def f(x):
        return (tf.pad(tf.flip(tf.tril(x), 1), ((1, 1), (2, 2)), mode="reflect") * tw).sum()

    g = tf.grad(f)(rt.upload(a)).download()
    # The map is linear: its gradient is the adjoint applied to w, found by NumPy one basis
    # vector at a time.
    want = np.zeros_like(a)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            e = np.zeros_like(a)
            e[i, j] = 1.0
            image = np.pad(np.flip(np.tril(e), 1), ((1, 1), (2, 2)), mode="reflect")
            want[i, j] = (image * w).sum()
    np.testing.assert_allclose(g, want, rtol=1e-13, atol=1e-13)


def test_argmax_and_argmin_are_numpys_first_index_and_nan_rule(rt, rng):
    for trial in range(60):
        shape = tuple(rng.integers(1, 5, size=rng.integers(1, 4)))
        a = rng.integers(-3, 3, size=shape).astype(float)  # ties: the first index wins
        for value in (np.nan, np.inf, -np.inf):
            if rng.random() < 0.4:
                a.flat[rng.integers(a.size)] = value
        t = rt.upload(a)
        for axis in [None] + list(range(-a.ndim, a.ndim)):
            for keepdims in (False, True):
                same(tf.argmax(t, axis, keepdims=keepdims), np.argmax(a, axis, keepdims=keepdims))
                same(tf.argmin(t, axis, keepdims=keepdims), np.argmin(a, axis, keepdims=keepdims))
    with pytest.raises(tf.ValidationError, match="empty"):
        tf.argmax(rt.upload(np.ones((2, 0))), 1)
    with pytest.raises(tf.UnsupportedError, match="complex"):
        tf.argmin(rt.upload(np.ones(3, complex)))


def test_argmax_is_a_constant_under_differentiation(rt, rng):
    a = rng.standard_normal((4, 6))
    # f(x) = sum_j x[argmax_j, j] * argmax_j: the indices are constants, so the gradient is
    # argmax_j at each column's largest entry and 0 elsewhere (the traced argmax runs the prim).
    def f(x):
        idx = tf.argmax(x, 0, keepdims=True)
        return (tf.max(x, 0, keepdims=True) * idx).sum() + tf.argmin(x, 1).sum()

    g = tf.grad(f)(rt.upload(a)).download()
    want = np.zeros_like(a)
    cols = np.arange(a.shape[1])
    want[np.argmax(a, 0), cols] = np.argmax(a, 0)
    np.testing.assert_array_equal(g, want)


def test_nan_to_num_and_cumprod_are_numpys(rt):
    x = np.array([np.nan, np.inf, -np.inf, 1.5, -0.0])
    c = np.array([complex(np.nan, np.inf), complex(-np.inf, -0.0), 1 - 2j])
    for kw in ({}, {"nan": 7.0, "posinf": 1e30, "neginf": -2.0}):
        same(tf.nan_to_num(rt.upload(x), **kw), np.nan_to_num(x, **kw))
        same(tf.nan_to_num(rt.upload(c), **kw), np.nan_to_num(c, **kw))
        same(tf.nan_to_num(rt.upload(x.astype(np.float32)), **kw),
             np.nan_to_num(x.astype(np.float32), **kw))
    y = np.array([[2.0, 0.0, np.inf, 3.0], [-1.5, 2.0, 0.5, -4.0]])
    for axis in (None, 0, 1):
        with np.errstate(invalid="ignore"):  # NumPy's own 0 * inf
            want = np.cumprod(y, axis)
        same(tf.cumprod(rt.upload(y), axis), want)
    same(tf.cumprod(rt.upload(y[:, :1]), 1), np.cumprod(y[:, :1], 1))


def test_cumprod_gradient_with_zeros_is_the_products_of_the_others(rt, rng):
    # Rows with no zero, one zero and two zeros: d/dx_j sum_i w_i prod_{k <= i} x_k is
    # sum_{i >= j} w_i prod_{k <= i, k != j} x_k, written out here term by term.
    a = rng.standard_normal((3, 7))
    a[1, 2] = 0.0
    a[2, 1] = a[2, 5] = 0.0
    w = rng.standard_normal(a.shape)
    g = tf.grad(lambda x: (tf.cumprod(x, axis=1) * rt.upload(w)).sum())(rt.upload(a)).download()
    want = np.zeros_like(a)
    for r in range(3):
        for j in range(7):
            for i in range(j, 7):
                others = np.delete(a[r, :i + 1], j)
                want[r, j] += w[r, i] * np.prod(others)
    np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-12)


def test_argument_forms_numpy_takes(rt, rng):
    # Found by a review of the first version: each raised (or was refused) where NumPy answers.
    a = special(rng, 3, 4)
    t = rt.upload(a)
    for g, w in zip(tf.meshgrid(rt.upload(np.ones(0)), rt.upload(np.ones(3))),
                    np.meshgrid(np.ones(0), np.ones(3))):
        same(g, w)
    assert tf.finfo(np.float32).eps == np.finfo(np.float32).eps
    for sections in (2.0, np.array(3)):
        for g, w in zip(tf.array_split(t, sections), np.array_split(a, sections)):
            same(g, w)
    same(tf.tile(t, np.array(2)), np.tile(a, np.array(2)))
    same(tf.tril(t, 1.5), np.tril(a, 1.5))
    same(tf.triu(t, 2**70), np.zeros_like(a))
    same(tf.repeat(rt.upload(np.ones(0)), []), np.repeat(np.ones(0), []))
    same(tf.repeat(rt.upload(np.array(5.0)), 2, axis=0), np.repeat(np.array(5.0), 2, axis=0))
    same(tf.repeat(t, np.full(4, 3), axis=1), np.repeat(a, np.full(4, 3), axis=1))
    same(tf.roll(t, [], []), np.roll(a, [], []))
    same(tf.roll(t, 1.0, 1), np.roll(a, 1, 1))
    same(tf.roll(t, 10**30, 1), np.roll(a, 10**30 % 4, 1))
    same(tf.pad(t, {1: (1, 2)}), np.pad(a, ((0, 0), (1, 2))))
    same(tf.pad(t, 1, mode="reflect", reflect_type="even"), np.pad(a, 1, mode="reflect"))
    same(tf.dot(t, 2.0), a * 2.0)
    got = tf.linspace(np.float32(0), np.float32(1), 5, runtime=rt)
    assert got.dtype == np.linspace(np.float32(0), np.float32(1), 5).dtype
    with pytest.raises(tf.AxisError):
        tf.linspace(0, 1, 5, axis=1, runtime=rt)
    with pytest.raises(tf.ValidationError):
        tf.tril(rt.upload(np.array(1.0)))
    with pytest.raises(tf.ValidationError, match="NaN"):  # NumPy: a ValueError from arange
        tf.triu(t, float("nan"))
    with pytest.raises(tf.ValidationError):
        tf.pad(t, 1, constant_values={0: 5})
    with pytest.raises(tf.NoInputIngressError):
        tf.atleast_1d(np.ones(2))


def test_pad_far_past_the_axis_is_tiled_not_sliced_per_entry(rt):
    # A width of 10^5 on a length-2 axis was one slice per padded entry (seconds); the index
    # map repeats with a short period, so one period is gathered and tiled.
    a = np.array([1.0, -2.0])
    for mode in ("reflect", "symmetric", "wrap", "edge"):
        same(tf.pad(rt.upload(a), 100000, mode=mode), np.pad(a, 100000, mode=mode))
