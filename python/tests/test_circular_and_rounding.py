"""tan, sinh, cosh, the inverse circular and hyperbolic functions, arctan2, hypot, angle,
floor/ceil/rint/trunc and round against NumPy: values (special values and domain edges included), dtypes, the complex
refusal of the real-only ones, NumPy 2's array-API spellings, WebGPU, and their gradients."""

import warnings

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


def pairs(rng, dtype):
    special = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e300, -1e-300])
    a, b = np.meshgrid(special, special)
    m = 10.0 ** rng.uniform(-30, 30, (2, 400)) * np.sign(rng.standard_normal((2, 400)))
    with np.errstate(over="ignore"):  # 1e300 is inf in float32
        return (np.concatenate([a.ravel(), m[0]]).astype(dtype),
                np.concatenate([b.ravel(), m[1]]).astype(dtype))


@pytest.mark.parametrize("name", ["arctan2", "hypot"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_binary_values_match_numpy(rt, gpu_rt, rng, name, dtype):
    a, b = pairs(rng, dtype)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(a, b)
    runtimes = [rt, gpu_rt] if dtype == np.float32 else [rt]
    for r in runtimes:
        got = getattr(tf, name)(r.upload(a), r.upload(b)).download()
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=4 * np.finfo(dtype).eps, atol=0)
        zero = want == 0
        np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]))
    # Numbers on either side, broadcasting, the array-API name.
    t = rt.upload(a[:5])
    np.testing.assert_allclose(getattr(tf, name)(t, 2.0).download(), getattr(np, name)(a[:5], 2.0),
                               rtol=4 * np.finfo(dtype).eps)
    np.testing.assert_allclose(getattr(tf, name)(1.5, t).download(), getattr(np, name)(1.5, a[:5]),
                               rtol=4 * np.finfo(dtype).eps)
    with pytest.raises(tf.ValidationError, match="real dtypes"):
        getattr(tf, name)(rt.upload(np.array([1j])), rt.upload(np.array([1.0])))


def test_atan2_and_angle(rt, rng):
    y, x = rng.standard_normal(50), rng.standard_normal(50)
    np.testing.assert_array_equal(tf.atan2(rt.upload(y), rt.upload(x)).download(),
                                  tf.arctan2(rt.upload(y), rt.upload(x)).download())
    z = np.concatenate([x + 1j * y, [0j, -1 + 0j, complex(-1, -0.0), 1j]])
    for deg in (False, True):
        np.testing.assert_allclose(tf.angle(rt.upload(z), deg).download(), np.angle(z, deg),
                                   rtol=1e-15)
        r = np.array([-2.0, -0.0, 0.0, 3.0])
        np.testing.assert_array_equal(tf.angle(rt.upload(r), deg).download(), np.angle(r, deg))


def test_arctan2_and_hypot_gradients(rt, rng):
    y, x = rng.standard_normal(8), rng.standard_normal(8)
    gy, gx = tf.grad(lambda a, b: tf.arctan2(a, b).sum(), argnums=(0, 1))(rt.upload(y),
                                                                           rt.upload(x))
    r2 = x * x + y * y
    np.testing.assert_allclose(gy.download(), x / r2, rtol=1e-13)
    np.testing.assert_allclose(gx.download(), -y / r2, rtol=1e-13)
    gy, gx = tf.grad(lambda a, b: tf.hypot(a, b).sum(), argnums=(0, 1))(rt.upload(y),
                                                                         rt.upload(x))
    np.testing.assert_allclose(gy.download(), y / np.hypot(x, y), rtol=1e-13)
    np.testing.assert_allclose(gx.download(), x / np.hypot(x, y), rtol=1e-13)


def test_arctan2_gradient_at_extreme_magnitudes_and_the_origin(rt):
    """x / (x^2 + y^2) overflowed or underflowed (0 at 1e200, inf at 1e-200); at the origin the
    subgradient 0, so angle's gradient at 0 is 0 (PyTorch's), not NaN."""
    y = np.array([1e200, 1e300, 1e-200, 3.0, 0.0])
    x = np.array([1e200, 1.0, 1e-200, 4.0, 0.0])
    gy, gx = tf.grad(lambda a, b: tf.arctan2(a, b).sum(), argnums=(0, 1))(rt.upload(y),
                                                                           rt.upload(x))
    h = np.hypot(x, y)
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(gy.download()[:4], ((x / h) / h)[:4], rtol=1e-14)
        np.testing.assert_allclose(gx.download()[:4], ((-y / h) / h)[:4], rtol=1e-14)
    assert gy.download()[4] == 0 and gx.download()[4] == 0
    z = np.array([0j, 1e200 + 1e200j, -2.0 + 0j])
    g = tf.grad(lambda t: tf.angle(t).sum())(rt.upload(z)).download()
    assert np.all(np.isfinite(g)) and g[0] == 0
    r = np.array([-2.0, 0.0, -0.0, 5.0])
    np.testing.assert_array_equal(tf.grad(lambda t: tf.angle(t).sum())(rt.upload(r)).download(),
                                  np.zeros(4))


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


# Past 22 decimals NumPy's 10^d is 1e9 times 10 repeatedly (not 10.0 ** d, off by an ulp from
# 1e23 on), and from 309 on it is inf (NaN results, where 10.0 ** d raised OverflowError).
@pytest.mark.parametrize("decimals", [0, 1, 2, 3, -1, -2, 23, 30, 308, 309, -30, -309])
def test_round_matches_numpy(rt, rng, decimals):
    x = np.concatenate([rng.uniform(-1000, 1000, 500), 10.0 ** rng.uniform(-300, 300, 500),
                        [0.5, 1.5, 2.5, -0.5, 0.125, 0.375, 15.0, 25.0, -35.0, 1e300, np.nan]])
    with warnings.catch_warnings():  # NumPy's overflow past 10^308 (its NaN results are ours)
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.round(x, decimals)
    np.testing.assert_array_equal(tf.round(rt.upload(x), decimals).download(), want)
    np.testing.assert_array_equal(tf.around(rt.upload(x), decimals).download(), want)
    z = x + 1j * x[::-1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.round(z, decimals)
    np.testing.assert_array_equal(tf.round(rt.upload(z), decimals).download(), want)


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


def test_inverse_hyperbolic_gradients_at_huge_arguments(rt):
    """asinh' = 1 / sqrt(x^2 + 1) and acosh' = 1 / sqrt(x^2 - 1) are about 1 / x there; the
    square overflowed and the gradient was 0."""
    x = np.array([1e200, -1e300, 1e160, 3.0])
    g = tf.grad(lambda t: tf.arcsinh(t).sum())(rt.upload(x)).download()
    np.testing.assert_allclose(g, 1 / np.hypot(x, 1.0), rtol=1e-14)
    y = np.abs(x)
    g = tf.grad(lambda t: tf.arccosh(t).sum())(rt.upload(y)).download()
    np.testing.assert_allclose(g, 1 / (np.sqrt(y - 1) * np.sqrt(y + 1)), rtol=1e-14)


def test_traced_cholesky_upper_reads_the_upper_triangle(rt):
    """The differentiated cholesky(upper=True) factored the lower triangle (the plain one was
    fixed first): a matrix whose triangles differ gave another R under tf.grad."""
    a = np.array([[4.0, 2.0, 0.4], [0.1, 5.0, 1.0], [0.3, 0.2, 3.0]])
    want = np.linalg.cholesky(a, upper=True)
    value, vjp = tf.vjp(lambda t: tf.linalg.cholesky(t, upper=True), rt.upload(a))
    np.testing.assert_allclose(value.download(), want, rtol=1e-14)
    # d sum(R) against finite differences of NumPy's, which reads a[i, j] (i <= j) only: the
    # gradient is symmetric (the rule's convention, a Hermitian input), so along the symmetric
    # direction E_ij + E_ji it is g[i, j] + g[j, i].
    g = tf.grad(lambda t: tf.linalg.cholesky(t, upper=True).sum())(rt.upload(a)).download()
    eps = 1e-6
    for i, j in [(0, 1), (1, 2), (0, 0)]:
        e = np.zeros_like(a)
        e[i, j] = eps
        fd = (np.linalg.cholesky(a + e, upper=True).sum() -
              np.linalg.cholesky(a - e, upper=True).sum()) / (2 * eps)
        along = g[i, j] + g[j, i] if i != j else g[i, i]
        assert abs(along - fd) < 1e-7, (i, j)


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
