"""tan, sinh, cosh, the inverse circular and hyperbolic functions, floor/ceil/rint/trunc and
round against NumPy: values (special values and domain edges included), dtypes, the complex
refusal of the real-only ones, NumPy 2's array-API spellings, WebGPU, and their gradients."""

import numpy as np
import pytest

import tenferro as tf

SPECIAL = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -2.5, 2.5, 3.0, 1e-30, -1e-20, 1e30, 700.0,
           -0.999999, 0.999999, np.nan, np.inf, -np.inf]
REAL_ONLY = ["arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "floor", "ceil",
             "rint", "trunc"]
ALL_DTYPES = ["tan", "sinh", "cosh"]


def samples(rng, dtype):
    x = np.concatenate([SPECIAL, rng.uniform(-3, 3, 200), rng.uniform(-1, 1, 200),
                        10.0 ** rng.uniform(-30, 30, 100)])
    return x.astype(dtype)


@pytest.mark.parametrize("name", REAL_ONLY + ALL_DTYPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_real_values_match_numpy(rt, rng, name, dtype):
    x = samples(rng, dtype)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(x)
    got = getattr(tf, name)(rt.upload(x)).download()
    assert got.dtype == want.dtype
    rtol = 4 * np.finfo(dtype).eps
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0)
    # Signed zeros as NumPy (ceil(-0.5) = -0, trunc(-0.5) = -0, asin(-0) = -0).
    zero = want == 0
    np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]))


def test_rint_rounds_ties_to_even(rt):
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, 4.5, 2.0**52 + 0.5, -(2.0**52) - 1])
    np.testing.assert_array_equal(tf.rint(rt.upload(x)).download(), np.rint(x))
    assert np.signbit(tf.rint(rt.upload(np.array([-0.5]))).download()[0])


@pytest.mark.parametrize("name", ALL_DTYPES)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_values_match_numpy(rt, rng, name, dtype):
    z = (rng.uniform(-4, 4, 300) + 1j * rng.uniform(-4, 4, 300)).astype(dtype)
    z = np.concatenate([z, np.array([0, 1j, -1j, 2, -3 + 0j, 1e-20 + 1e-20j], dtype)])
    got = getattr(tf, name)(rt.upload(z)).download()
    want = getattr(np, name)(z)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=8 * np.finfo(dtype).eps, atol=0)


@pytest.mark.parametrize("name", REAL_ONLY)
def test_real_only_functions_refuse_complex_as_an_input_error(rt, name):
    z = rt.upload(np.array([0.5 + 0.5j]))
    with pytest.raises(tf.ValidationError, match="real dtypes"):
        getattr(tf, name)(z)
    # The runtime is still usable.
    assert getattr(tf, name)(rt.upload(np.array([0.5]))).download().shape == (1,)


def test_array_api_spellings_and_fix(rt, rng):
    x = rng.uniform(-0.9, 0.9, 16)
    t = rt.upload(x)
    for short, long in [("asin", "arcsin"), ("acos", "arccos"), ("atan", "arctan"),
                        ("asinh", "arcsinh"), ("atanh", "arctanh")]:
        np.testing.assert_array_equal(getattr(tf, short)(t).download(),
                                      getattr(tf, long)(t).download())
    np.testing.assert_array_equal(tf.acosh(rt.upload(x + 2)).download(),
                                  tf.arccosh(rt.upload(x + 2)).download())
    np.testing.assert_array_equal(tf.fix(rt.upload(x * 5)).download(), np.fix(x * 5))


@pytest.mark.parametrize("decimals", [0, 1, 2, 3, -1, -2])
def test_round_matches_numpy(rt, rng, decimals):
    x = np.concatenate([rng.uniform(-1000, 1000, 500),
                        [0.5, 1.5, 2.5, -0.5, 0.125, 0.375, 15.0, 25.0, -35.0, 1e300, np.nan]])
    np.testing.assert_array_equal(tf.round(rt.upload(x), decimals).download(),
                                  np.round(x, decimals))
    np.testing.assert_array_equal(tf.around(rt.upload(x), decimals).download(),
                                  np.around(x, decimals))
    z = x + 1j * x[::-1]
    np.testing.assert_array_equal(tf.round(rt.upload(z), decimals).download(),
                                  np.round(z, decimals))


@pytest.mark.parametrize("name", REAL_ONLY + ALL_DTYPES)
def test_webgpu_float32(gpu_rt, rng, name):
    x = samples(rng, np.float32)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(x.astype(np.float64)).astype(np.float32)
    got = getattr(tf, name)(gpu_rt.upload(x)).download()
    np.testing.assert_allclose(got, want, rtol=8 * np.finfo(np.float32).eps, atol=0)


@pytest.mark.parametrize("name", ALL_DTYPES)
def test_webgpu_complex64(gpu_rt, rng, name):
    z = (rng.uniform(-4, 4, 300) + 1j * rng.uniform(-4, 4, 300)).astype(np.complex64)
    want = getattr(np, name)(z.astype(np.complex128))
    got = getattr(tf, name)(gpu_rt.upload(z)).download()
    np.testing.assert_allclose(got, want, rtol=16 * np.finfo(np.float32).eps, atol=0)


DERIVATIVES = {
    "tan": lambda x: 1 / np.cos(x) ** 2,
    "sinh": np.cosh,
    "cosh": np.sinh,
    "arcsin": lambda x: 1 / np.sqrt(1 - x * x),
    "arccos": lambda x: -1 / np.sqrt(1 - x * x),
    "arctan": lambda x: 1 / (1 + x * x),
    "arcsinh": lambda x: 1 / np.sqrt(1 + x * x),
    "arccosh": lambda x: 1 / np.sqrt(x * x - 1),
    "arctanh": lambda x: 1 / (1 - x * x),
    "floor": np.zeros_like,
    "rint": np.zeros_like,
}


@pytest.mark.parametrize("name", sorted(DERIVATIVES))
def test_gradients_are_the_derivatives(rt, rng, name):
    x = rng.uniform(-0.9, 0.9, 12)
    if name == "arccosh":
        x = x + 2.0
    g = tf.grad(lambda t: getattr(tf, name)(t).sum())(rt.upload(x)).download()
    np.testing.assert_allclose(g, DERIVATIVES[name](x), rtol=1e-12, atol=1e-15)
    # The piecewise-constant ones give exact zeros, even for an infinite cotangent.
    if name in ("floor", "rint"):
        g = tf.grad(lambda t: (getattr(tf, name)(t) * np.inf).sum())(rt.upload(x)).download()
        np.testing.assert_array_equal(g, np.zeros_like(x))
