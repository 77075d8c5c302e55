"""nansum, nanmean, nanmax, nanmin, ptp, average, diff and cross against NumPy: values, shapes,
NaN slices, argument forms, errors and gradients."""

import warnings

import numpy as np
import pytest

import tenferro as tf


@pytest.fixture
def with_nans(rng):
    y = rng.standard_normal((4, 5))
    y[0, 1] = y[3, 3] = np.nan
    y[2, :] = np.nan  # an all-NaN row
    return y


@pytest.mark.parametrize("name", ["nansum", "nanmean", "nanmax", "nanmin"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_nan_reductions_match_numpy(rt, with_nans, name, axis, keepdims):
    with warnings.catch_warnings():  # NumPy warns on all-NaN slices
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, name)(with_nans, axis=axis, keepdims=keepdims)
    got = getattr(tf, name)(rt.upload(with_nans), axis=axis, keepdims=keepdims).download()
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=1e-14, equal_nan=True)


def test_nan_reductions_of_complex_and_float32(rt, rng):
    z = rng.standard_normal(6) + 1j * rng.standard_normal(6)
    z[2] = complex(np.nan, 1.0)
    np.testing.assert_allclose(tf.nansum(rt.upload(z)).download(), np.nansum(z), rtol=1e-14)
    np.testing.assert_allclose(tf.nanmean(rt.upload(z)).download(), np.nanmean(z), rtol=1e-14)
    with pytest.raises(tf.ValidationError):
        tf.nanmax(rt.upload(z))
    x = np.array([1.0, np.nan, -3.0], dtype=np.float32)
    got = tf.nanmin(rt.upload(x))
    assert got.dtype == np.float32 and got.download() == -3.0


def test_nansum_gradient_skips_the_nans(rt, with_nans):
    g = tf.grad(lambda t: tf.nansum(t))(rt.upload(with_nans)).download()
    np.testing.assert_array_equal(g, np.where(np.isnan(with_nans), 0.0, 1.0))


def test_ptp_and_average(rt, rng):
    x = rng.standard_normal((3, 5))
    for axis in (None, 0, 1):
        np.testing.assert_allclose(tf.ptp(rt.upload(x), axis).download(), np.ptp(x, axis))
    w = rng.uniform(0.1, 1.0, 5)
    for kw in ({}, {"axis": 0}, {"axis": 1, "weights": w}, {"axis": None, "weights": x * x},
               {"axis": 1, "weights": w, "keepdims": True}):
        t_kw = {k: (rt.upload(v) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
        np.testing.assert_allclose(tf.average(rt.upload(x), **t_kw).download(),
                                   np.average(x, **kw), rtol=1e-14)
        avg, total = tf.average(rt.upload(x), returned=True, **t_kw)
        navg, ntotal = np.average(x, returned=True, **kw)
        np.testing.assert_allclose(total.download(), ntotal, rtol=1e-14)
    with pytest.raises(ZeroDivisionError):
        tf.average(rt.upload(x), axis=1, weights=rt.upload(np.zeros(5)))
    with pytest.raises(tf.ValidationError):
        tf.average(rt.upload(x), axis=1, weights=rt.upload(np.ones(4)))


@pytest.mark.parametrize("kw", [{}, {"n": 2}, {"n": 0}, {"n": 9}, {"axis": 0}, {"axis": -2},
                                {"prepend": 1.5}, {"append": -2.0, "n": 2},
                                {"prepend": "tensor", "axis": 0}])
def test_diff_matches_numpy(rt, rng, kw):
    x = rng.standard_normal((4, 6))
    if kw.get("prepend") == "tensor":
        pre = rng.standard_normal((2, 6))
        kw = {**kw, "prepend": pre}
        got = tf.diff(rt.upload(x), prepend=rt.upload(pre), axis=0).download()
    else:
        got = tf.diff(rt.upload(x), **kw).download()
    want = np.diff(x, **kw)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-14)


def test_diff_errors_and_gradient(rt, rng):
    with pytest.raises(tf.ValidationError):
        tf.diff(rt.upload(np.array(1.0)))
    with pytest.raises(tf.ValidationError):
        tf.diff(rt.upload(np.ones(3)), n=-1)
    x = rng.standard_normal(5)
    g = tf.grad(lambda t: (tf.diff(t) ** 2).sum())(rt.upload(x)).download()
    d = np.diff(x)
    want = np.zeros(5)
    want[1:] += 2 * d
    want[:-1] -= 2 * d
    np.testing.assert_allclose(g, want, rtol=1e-13)


def test_cross_of_three_vectors(rt, rng):
    a, b = rng.standard_normal((4, 3)), rng.standard_normal(3)
    np.testing.assert_allclose(tf.cross(rt.upload(a), rt.upload(b)).download(), np.cross(a, b),
                               rtol=1e-14)
    a2, b2 = rng.standard_normal((3, 4, 2)), rng.standard_normal((3, 2))
    for kw in ({"axisa": 0, "axisb": 0}, {"axisa": 0, "axisb": 0, "axisc": 0}):
        np.testing.assert_allclose(tf.cross(rt.upload(a2), rt.upload(b2), **kw).download(),
                                   np.cross(a2, b2, **kw), rtol=1e-14)
    c = rng.standard_normal((2, 3, 5))
    np.testing.assert_allclose(tf.cross(rt.upload(c), rt.upload(c[::-1]), axis=1).download(),
                               np.cross(c, c[::-1], axis=1), rtol=1e-14)
    with pytest.raises(tf.UnsupportedError):
        tf.cross(rt.upload(np.ones(2)), rt.upload(np.ones(2)))
    # d (a x b) . c / d a = b x c
    u, v, w = (rng.standard_normal(3) for _ in range(3))
    g = tf.grad(lambda t: (tf.cross(t, rt.upload(v)) * rt.upload(w)).sum())(rt.upload(u))
    np.testing.assert_allclose(g.download(), np.cross(v, w), rtol=1e-14)


def test_review_findings(rt, rng):
    """diff with n = 0 is a itself (prepend ignored, 0-d allowed), a number prepended keeps its
    NumPy dtype (float32 with 0.1 is float64), a 0-d tensor prepend broadcasts; average's
    returned sum of weights has the result's dtype, an out-of-range axis is an AxisError, host
    weights the NoInputIngressError."""
    x = np.array([1.0, 4.0, 9.0])
    np.testing.assert_array_equal(tf.diff(rt.upload(x), n=0, prepend=0.0).download(),
                                  np.diff(x, n=0, prepend=0.0))
    assert tf.diff(rt.upload(np.array(2.0)), n=0).download() == 2.0
    x32 = x.astype(np.float32)
    got = tf.diff(rt.upload(x32), prepend=0.1)
    want = np.diff(x32, prepend=0.1)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.download(), want, rtol=1e-15)
    np.testing.assert_allclose(tf.diff(rt.upload(x), prepend=1j).download(),
                               np.diff(x, prepend=1j))
    np.testing.assert_allclose(tf.diff(rt.upload(x), prepend=rt.upload(np.array(0.5))).download(),
                               np.diff(x, prepend=0.5))
    with pytest.raises(tf.NoInputIngressError):
        tf.diff(rt.upload(x), prepend=np.ones(1))
    a = rng.standard_normal((3, 4))
    w = rng.uniform(0.5, 1.0, 4).astype(np.float32)
    avg, total = tf.average(rt.upload(a), axis=1, weights=rt.upload(w), returned=True)
    navg, ntotal = np.average(a, axis=1, weights=w, returned=True)
    assert avg.dtype == navg.dtype and total.dtype == ntotal.dtype
    with pytest.raises(tf.AxisError):
        tf.average(rt.upload(a), axis=5, weights=rt.upload(w))
    with pytest.raises(tf.NoInputIngressError):
        tf.average(rt.upload(a), axis=1, weights=w)
