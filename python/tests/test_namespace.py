"""The NumPy-named functions of the tenferro module (what autoray and opt_einsum call)."""

import numpy as np
import pytest

import tenferro as tf
from conftest import crandn


def test_functions_match_numpy(rt, rng):
    x, y = crandn(rng, 3, 4), crandn(rng, 3, 4)
    tx, ty = rt.upload(x), rt.upload(y)
    cases = {
        "concatenate": (tf.concatenate([tx, ty], axis=1), np.concatenate([x, y], axis=1)),
        "stack": (tf.stack([tx, ty]), np.stack([x, y])),
        "diagonal": (tf.diagonal(tx, 1), np.diagonal(x, 1)),
        "trace": (tf.trace(tx), np.trace(x)),
        "diag": (tf.diag(tx[0]), np.diag(x[0])),
        "swapaxes": (tf.swapaxes(tx, 0, 1), np.swapaxes(x, 0, 1)),
        "moveaxis": (tf.moveaxis(rt.upload(x.reshape(3, 2, 2)), 0, -1),
                     np.moveaxis(x.reshape(3, 2, 2), 0, -1)),
        "expand_dims": (tf.expand_dims(tx, 1), np.expand_dims(x, 1)),
        "squeeze": (tf.squeeze(tx[:, None]), x),
        "greater": (tx > ty, (x > y).astype(float)),
        "less_equal": (tx <= 0.0, (x <= 0.0).astype(float)),
        "equal": (tf.equal(tx, tx[0]), (x == x[0]).astype(float)),
        "where": (tf.where(tx > 0.0, tx, ty), np.where(x > 0, x, y)),
        "count_nonzero": (tf.count_nonzero(tx > 0.0, axis=-1), np.count_nonzero(x > 0, axis=-1)),
        "cumsum": (tf.cumsum(tx, axis=1), np.cumsum(x, axis=1)),
        "clip": (tf.clip(tx, -0.5, 0.5), np.clip(x, -0.5, 0.5)),
        "kron": (tf.kron(tx, ty), np.kron(x, y)),
        "outer": (tf.outer(tx[0], ty[1]), np.outer(x[0], y[1])),
        "vdot": (tf.vdot(tx, ty), np.vdot(x, y)),
        "norm": (tf.linalg.norm(tx), np.linalg.norm(x)),
        "exp": (tf.exp(tx), np.exp(x)),
        "tanh": (tf.tanh(tx), np.tanh(x)),
        "maximum": (tf.maximum(tx, ty), np.maximum(x, y)),
    }
    for name, (got, want) in cases.items():
        assert got.shape == np.shape(want), name
        np.testing.assert_allclose(got.download(), want, rtol=1e-12, atol=1e-14, err_msg=name)
        assert got.runtime == rt, name


def test_svd_truncation_by_rank_and_cutoff(rt, rng):
    q1, _ = np.linalg.qr(rng.standard_normal((6, 6)))
    q2, _ = np.linalg.qr(rng.standard_normal((5, 5)))
    s = np.array([10.0, 1.0, 1e-3, 1e-6, 0.0])
    a = q1[:, :5] * s @ q2
    u, sv, vh = tf.linalg.svd(rt.upload(a), cutoff=1e-2)
    assert sv.shape == (2,)
    np.testing.assert_allclose(sv.download(), s[:2], rtol=1e-10)
    _, sv, _ = tf.linalg.svd(rt.upload(a), cutoff=1e-4, cutoff_mode="absolute", max_rank=2)
    assert sv.shape == (2,)
    np.testing.assert_allclose(tf.linalg.svd(rt.upload(a), compute_uv=False).download(), s,
                               atol=1e-12)


def test_creation_without_runtime_uses_the_default_cpu_runtime(rt):
    z = tf.zeros((2,))
    assert z.runtime == tf.default_runtime() and z.runtime != rt
    with pytest.raises(tf.ContextMismatchError):
        z + rt.upload(np.ones(2))
    with pytest.raises(tf.PlacementError):
        tf.asarray(np.ones(2))  # an upload needs an explicit runtime
    assert tf.asarray(np.ones(2), runtime=rt).runtime == rt


def test_every_elementwise_op_of_the_op_list_is_numpys_function(rt, rng):
    # The prims op list reaches Python by one loop (python/src/prims.cpp) and tenferro's
    # namespace by another (_namespace.py): every op NumPy has must come out under NumPy's name
    # and agree with NumPy, on real and complex operands where its dtypes allow them.
    from tenferro._tenferro import prims as p

    assert "tanh" in p.unary_ops and "maximum" in p.binary_ops
    x = rng.uniform(0.5, 2.0, (3, 4))
    y = rng.uniform(0.5, 2.0, (3, 4))
    z = x + 1j * rng.uniform(-1.0, 1.0, (3, 4))
    # Real-only in tenferro (NumPy computes the inverse functions of complex values; the rest
    # are real-only in NumPy too): a complex operand is a ValidationError.
    real_only = {"maximum", "minimum", "power", "arctan2", "hypot", "arcsin", "arccos", "arctan",
                 "arcsinh", "arccosh", "arctanh", "floor", "ceil", "rint", "trunc", "cbrt",
                 "floor_divide", "remainder", "fmod", "copysign"}
    checked = 0
    for name in p.unary_ops + p.binary_ops:
        if not hasattr(np, name):
            assert not hasattr(tf, name), name  # not exported under a name NumPy lacks
            continue
        f, g = getattr(tf, name), getattr(np, name)
        operands = [(x,)] if name in p.unary_ops else [(x, y)]
        if name not in real_only:
            operands.append((z,) if name in p.unary_ops else (z, z))
        else:
            with pytest.raises(tf.ValidationError, match="real dtypes"):
                f(*[rt.upload(z)] * (1 if name in p.unary_ops else 2))
        for args in operands:
            got = f(*[rt.upload(a) for a in args]).download()
            np.testing.assert_allclose(got, g(*args), rtol=1e-13, atol=1e-14, err_msg=name)
            checked += 1
    assert checked >= 2 * len(p.unary_ops)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_var_and_std_are_numpys(rt, rng, dtype):
    # Offset data: a one-pass formula (mean of squares less the squared mean) loses the digits
    # that NumPy's two-pass one keeps, and would fail the tolerance.
    x = (crandn(rng, 4, 5, 6) + 100).astype(dtype)
    tx = rt.upload(x)
    tol = 2e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12
    for axis in [None, 0, -1, (0, 2)]:
        for ddof in [0, 1]:
            for keepdims in [False, True]:
                for ours, theirs in [(tf.var, np.var), (tf.std, np.std)]:
                    got = ours(tx, axis=axis, ddof=ddof, keepdims=keepdims)
                    want = theirs(x, axis=axis, ddof=ddof, keepdims=keepdims)
                    assert got.shape == want.shape, (axis, ddof, keepdims)
                    assert got.dtype == want.dtype, (axis, ddof, keepdims)
                    np.testing.assert_allclose(got.download(), want, rtol=tol,
                                               err_msg=f"{ours.__name__} {axis} {ddof}")


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_var_and_std_with_a_complex_dtype_are_complex_as_numpy(rt, dtype):
    x = np.array([[1.0, 2.0, 4.0], [0.5, -3.0, 2.0]])
    for xin in (x, x + 1j * x[::-1]):
        for ours, theirs in [(tf.var, np.var), (tf.std, np.std)]:
            got, want = ours(rt.upload(xin), axis=1, dtype=dtype), theirs(xin, axis=1, dtype=dtype)
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got.download(), want, rtol=1e-6)


def test_var_with_too_few_terms_divides_by_zero_as_numpy(rt):
    x = np.array([[1.0, 2.0], [3.0, 5.0]])
    with np.errstate(divide="ignore", invalid="ignore"), pytest.warns(RuntimeWarning):
        want = np.var(x, axis=0, ddof=2)
    np.testing.assert_array_equal(tf.var(rt.upload(x), axis=0, ddof=2).download(), want)
    assert np.isnan(tf.std(rt.upload(np.ones(1)), ddof=1).download())
    with pytest.raises(tf.UnsupportedError):
        tf.var(rt.upload(x), out=np.zeros(2))


def test_var_is_differentiated_through_its_steps(rt, rng):
    # d var / dx_i = 2 (x_i - mean) / (n - ddof): the mean's own gradient sums to zero.
    x = rng.standard_normal(7)
    g = tf.grad(lambda t: tf.var(t, ddof=1))(rt.upload(x))
    np.testing.assert_allclose(g.download(), 2 * (x - x.mean()) / 6, rtol=1e-12)


def test_var_of_a_constant_has_a_zero_gradient(rt):
    # The squares are explicit under a Tracer: the norm's derivative is not defined at 0.
    g = tf.grad(lambda t: tf.var(t))(rt.upload(np.full(5, 3.0)))
    np.testing.assert_array_equal(g.download(), np.zeros(5))


@pytest.mark.parametrize("indices,axis", [
    (1, 1), (-1, 2), ([0, 2], 1), (np.array([[3, 0], [1, 1]]), 2), ([], 0), (5, None),
    ([23, 0, 1, 2], None), (np.int64(1), 0), ([2, 1, 0], 1), (range(1, 3), 2)])
def test_take_is_numpys(rt, indices, axis):
    a = np.arange(24.0).reshape(2, 3, 4)
    a[0, 1, 2] = np.inf  # no products: inf stays where it is, NaN appears nowhere
    got = tf.take(rt.upload(a), indices, axis=axis).download()
    want = np.take(a, indices, axis=axis)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_take_refuses_what_numpy_refuses(rt):
    t = rt.upload(np.arange(24.0).reshape(2, 3, 4))
    with pytest.raises(tf.IndexingError):
        tf.take(t, [0, 5], axis=2)
    with pytest.raises(IndexError):
        tf.take(t, 3, axis=1)
    with pytest.raises(tf.ValidationError):
        tf.take(t, [0.5], axis=1)
    with pytest.raises(tf.ValidationError):
        tf.take(t, t, axis=1)


def test_take_is_differentiated_and_drives_quimbs_sample(rt):
    g = tf.grad(lambda x: tf.take(x, [0, 2, 2], axis=0).sum())(rt.upload(np.arange(4.0)))
    np.testing.assert_array_equal(g.download(), [1.0, 0.0, 2.0, 0.0])
    qtn = pytest.importorskip("quimb.tensor")
    rt0 = tf.default_runtime()
    psi = qtn.MPS_rand_state(6, 4, seed=1)
    ref = qtn.MPS_rand_state(6, 4, seed=1)
    psi.apply_to_arrays(lambda x: rt0.upload(np.ascontiguousarray(x)))
    (config, p), (want_config, want_p) = next(psi.sample(1, seed=3)), next(ref.sample(1, seed=3))
    assert config == want_config
    assert p == pytest.approx(want_p, rel=1e-12)


def test_take_modes_bools_and_huge_indices_as_numpy(rt):
    a = np.arange(12.0).reshape(3, 4)
    t = rt.upload(a)
    for indices, kw in [([5, -6, 1], {"mode": "wrap"}), ([7, -3], {"mode": "clip"}),
                        (np.array([True, False, True]), {}), (9, {"mode": "wrap"})]:
        np.testing.assert_array_equal(tf.take(t, indices, axis=1, **kw).download(),
                                      np.take(a, indices, axis=1, **kw))
    with pytest.raises(tf.IndexingError, match="18446744073709551615"):
        tf.take(t, np.array([2**64 - 1], np.uint64), axis=1)
    with pytest.raises(tf.IndexingError, match="take"):
        tf.take(t, 7, axis=1)
