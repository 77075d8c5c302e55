"""IEEE special values through division by scalars, comparisons, where, isfinite/isnan/isinf,
isclose/allclose, count_nonzero and cumsum, against NumPy on the same arrays: +-0, +-inf, NaN,
subnormals, the largest and smallest normal values; float32 and float64 (complex where the
function takes it), on the CPU runtime and on WebGPU (float32/complex64: WGSL has no f64)."""

import os

import numpy as np
import pytest

import tenferro as tf

# NumPy warns about the very values under test (inf - inf, 0 * inf, x / 0).
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

_webgpu = []


def runtime(kind):
    if kind == "cpu":
        return tf.Runtime.cpu()
    if not _webgpu:
        try:
            _webgpu.append(tf.Runtime.webgpu())
        except (tf.UnsupportedError, tf.BackendError) as e:
            if os.environ.get("TENFERRO_REQUIRE_WEBGPU") == "1":
                raise
            pytest.skip(f"no WebGPU runtime here (float32 checks need one): {e}")
    return _webgpu[0]


REAL = [("cpu", np.float32), ("cpu", np.float64), ("webgpu", np.float32)]
COMPLEX = [("cpu", np.complex64), ("cpu", np.complex128), ("webgpu", np.complex64)]
ALL = REAL + COMPLEX


def ids(case):
    return f"{case[0]}-{np.dtype(case[1]).name}"


def specials(dtype):
    """The special values of dtype's real type, exactly representable in it."""
    real = np.finfo(dtype).dtype
    fi = np.finfo(real)
    return np.array([0.0, -0.0, 1.0, -1.0, 0.5, 3.0, np.inf, -np.inf, np.nan,
                     fi.smallest_subnormal, -fi.smallest_subnormal, fi.tiny, fi.max, -fi.max,
                     1e-30, -1e30], dtype=real)


def special_array(dtype, shape=None):
    s = specials(dtype)
    if np.dtype(dtype).kind == "c":
        re, im = np.meshgrid(s, s[::3])
        s = (re + 1j * im).ravel().astype(dtype)
    return s if shape is None else s.reshape(shape)


def same_bits(got, want):
    """Equal values, NaN where NaN, and the same sign of every non-NaN value, zeros included
    (both parts; a NaN's sign bit is unspecified)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    parts = (lambda a: (a.real, a.imag)) if got.dtype.kind == "c" else (lambda a: (a,))
    for g, w in zip(parts(got), parts(want)):
        np.testing.assert_array_equal(g, w)
        keep = ~np.isnan(w)
        np.testing.assert_array_equal(np.signbit(g[keep]), np.signbit(w[keep]))


def real_of(dtype):
    return np.finfo(dtype).dtype


# --- division by a scalar -----------------------------------------------------------------
@pytest.mark.parametrize("case", REAL, ids=ids)
@pytest.mark.parametrize("s", [0.0, -0.0, np.inf, -np.inf, np.nan, 3.0, -0.5, 1e-310, 1e-40])
def test_division_by_a_scalar_is_numpys(case, s):
    kind, dtype = case
    rt = runtime(kind)
    x = specials(dtype)
    t = rt.upload(x)
    with np.errstate(all="ignore"):
        want, rwant = x / s, s / x
    got, rgot = (t / s).download(), (s / t).download()
    assert got.dtype == np.dtype(dtype) and rgot.dtype == np.dtype(dtype)
    if kind == "cpu":  # one correctly rounded division, as NumPy's
        same_bits(got, want)
        same_bits(rgot, rwant)
    else:  # WGSL bounds f32 division by 2.5 ulp; specials and zeros must still match exactly
        for g, w in ((got, want), (rgot, rwant)):
            exact = ~np.isfinite(w) | (w == 0)
            same_bits(g[exact], w[exact])
            np.testing.assert_allclose(g[~exact], w[~exact], rtol=4 * np.finfo(dtype).eps,
                                       atol=0)


def test_division_by_a_tiny_scalar_does_not_overflow_its_reciprocal():
    rt = tf.Runtime.cpu()
    got = (rt.upload(np.array([1e-300])) / 1e-310).download()
    np.testing.assert_allclose(got, np.array([1e-300]) / 1e-310, rtol=1e-15)
    assert got.dtype == np.float64


@pytest.mark.parametrize("case", COMPLEX, ids=ids)
def test_complex_division_by_zero_and_complex_scalars(case):
    kind, dtype = case
    rt = runtime(kind)
    x = np.array([1 + 2j, -1j, 0j], dtype=dtype)
    with np.errstate(all="ignore"):
        np.testing.assert_allclose((rt.upload(x) / 2.0).download(), x / 2.0, rtol=1e-6)
    # A complex scalar makes a real tensor complex (NumPy promotes the same way).
    r = rt.upload(np.array([1.0, -2.0], dtype=real_of(dtype)))
    got = (r / 2j).download()
    assert got.dtype.kind == "c"
    np.testing.assert_allclose(got, np.array([1.0, -2.0]) / 2j, rtol=1e-6)


# --- comparisons ----------------------------------------------------------------------------
COMPARISONS = [
    ("greater", np.greater), ("greater_equal", np.greater_equal), ("less", np.less),
    ("less_equal", np.less_equal), ("equal", np.equal), ("not_equal", np.not_equal),
]


@pytest.mark.parametrize("case", REAL, ids=ids)
@pytest.mark.parametrize("name,ref", COMPARISONS, ids=[c[0] for c in COMPARISONS])
def test_comparisons_of_every_special_pair(case, name, ref):
    kind, dtype = case
    rt = runtime(kind)
    a = specials(dtype)[:, None]
    b = specials(dtype)[None, :]
    got = getattr(tf, name)(rt.upload(a), rt.upload(b)).download()
    same_bits(got, ref(a, b).astype(dtype))


@pytest.mark.parametrize("case", REAL, ids=ids)
@pytest.mark.parametrize("s", [np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-40, 0.1])
def test_operators_against_scalars(case, s):
    kind, dtype = case
    rt = runtime(kind)
    x = specials(dtype)
    t = rt.upload(x)
    for got, want in ((t > s, x > s), (t >= s, x >= s), (t < s, x < s), (t <= s, x <= s),
                      (tf.equal(t, s), x == s), (tf.not_equal(t, s), x != s)):
        same_bits(got.download(), want.astype(dtype))


@pytest.mark.parametrize("case", ALL, ids=ids)
@pytest.mark.parametrize("s", [0.0, -0.0, 1.5, -np.inf, np.nan])
def test_adding_and_subtracting_scalars_is_ieee(case, s):
    """x + 0.0 is +0 at x = -0 (IEEE, NumPy): a shift by zero is an addition, not a no-op; the
    other zero signs of x +- s and s +- x are NumPy's too, on every part of a complex value."""
    kind, dtype = case
    x = special_array(dtype)
    t = runtime(kind).upload(x)
    for got, want in ((t + s, x + s), (s + t, s + x), (t - s, x - s), (s - t, s - x),
                      (tf.add(t, s), np.add(x, s)), (tf.subtract(s, t), np.subtract(s, x))):
        same_bits(got.download(), want)


@pytest.mark.parametrize("case", REAL, ids=ids)
@pytest.mark.parametrize("s", [0.0, -0.0, 2.0, -1.0, np.inf])
def test_multiplying_by_scalars_keeps_numpys_zero_signs(case, s):
    """A scale is a product alone: -0 * 2 stays -0 (no hidden + 0)."""
    kind, dtype = case
    x = specials(dtype)
    t = runtime(kind).upload(x)
    for got, want in ((t * s, x * s), (s * t, s * x), (tf.multiply(t, s), np.multiply(x, s))):
        same_bits(got.download(), want)


@pytest.mark.parametrize("case", ALL, ids=ids)
@pytest.mark.parametrize("s", [0j, -0j, complex(-0.0, -0.0), 2 - 0j, 1.5j, np.complex64(2)])
def test_complex_scalars_are_complex_numbers(case, s):
    """A complex scalar is complex also with a zero imaginary part: a real tensor becomes complex
    and products are complex products (x * (2-0j) is not x * 2.0 in the sign of zeros), as
    NumPy; finite values (no division by zero)."""
    kind, dtype = case
    real = real_of(dtype)
    x = np.array([1.0, -0.0, 0.0, -2.5, 3.0], dtype=real)
    if np.dtype(dtype).kind == "c":
        x = (x + 1j * np.array([-0.0, 1.0, -1.0, 0.0, 2.0], dtype=real)).astype(dtype)
    t = runtime(kind).upload(x)
    forms = [(lambda a: a + s), (lambda a: s + a), (lambda a: a - s), (lambda a: s - a),
             (lambda a: a * s), (lambda a: s * a)]
    if s != 0 and complex(s).imag == 0:  # other quotients round as std::complex, not NumPy
        forms.append(lambda a: a / s)
    for f in forms:
        want = f(x)
        if np.dtype(dtype) == np.complex64 or np.dtype(dtype) == np.float32:
            want = want.astype(np.complex64)  # weak Python scalars keep the tensor's precision
        same_bits(f(t).download(), want)


@pytest.mark.parametrize("case", COMPLEX, ids=ids)
def test_complex_equality_compares_both_parts(case):
    kind, dtype = case
    rt = runtime(kind)
    z = special_array(dtype)
    a, b = z[:, None], z[None, :]
    real = real_of(dtype)
    same_bits(tf.equal(rt.upload(a), rt.upload(b)).download(), (a == b).astype(real))
    same_bits(tf.not_equal(rt.upload(a), rt.upload(b)).download(), (a != b).astype(real))
    with pytest.raises(tf.ValidationError):
        tf.greater(rt.upload(a), rt.upload(b))


# --- classification, isclose, allclose -------------------------------------------------------
@pytest.mark.parametrize("case", ALL, ids=ids)
def test_isfinite_isnan_isinf(case):
    kind, dtype = case
    rt = runtime(kind)
    x = special_array(dtype)
    t = rt.upload(x)
    real = real_of(dtype)
    for name in ("isfinite", "isnan", "isinf"):
        same_bits(getattr(tf, name)(t).download(), getattr(np, name)(x).astype(real))


@pytest.mark.parametrize("case", ALL, ids=ids)
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose_and_allclose_are_numpys(case, equal_nan):
    kind, dtype = case
    rt = runtime(kind)
    z = special_array(dtype)
    a, b = z[:, None], z[None, :]
    ta, tb = rt.upload(a), rt.upload(b)
    real = real_of(dtype)
    got = tf.isclose(ta, tb, equal_nan=equal_nan).download()
    same_bits(got, np.isclose(a, b, equal_nan=equal_nan).astype(real))
    # Near misses around the tolerance, and a scalar on either side.
    x = np.array([1.0, 1.0 + 2e-5, 100.0, 1e-9, np.inf, np.nan], dtype=dtype)
    y = np.array([1.0, 1.0, 100.0 + 5e-4, 0.0, np.inf, np.nan], dtype=dtype)
    tx, ty = rt.upload(x), rt.upload(y)
    same_bits(tf.isclose(tx, ty, equal_nan=equal_nan).download(),
              np.isclose(x, y, equal_nan=equal_nan).astype(real))
    same_bits(tf.isclose(tx, 1.0).download(), np.isclose(x, 1.0).astype(real))
    if kind != "cpu":  # a Python bool needs the host: the typed error, never a transfer
        downloads = rt.stats()["downloads"]
        with pytest.raises(tf.HostAccessError):
            tf.allclose(tx, ty)
        assert rt.stats()["downloads"] == downloads
        return
    for i in range(len(x)):
        assert tf.allclose(tx[i:i + 1], ty[i:i + 1], equal_nan=equal_nan) == \
            np.allclose(x[i:i + 1], y[i:i + 1], equal_nan=equal_nan), i
    assert tf.allclose(tx, tx, equal_nan=True) == np.allclose(x, x, equal_nan=True)
    assert tf.allclose(tx, tx) == np.allclose(x, x)  # NaN is not close to itself


def test_allclose_with_nan_is_false_as_numpys():
    rt = tf.Runtime.cpu()
    assert not tf.allclose(rt.upload(np.array([1.0, np.nan])), rt.upload(np.array([1.0, 2.0])))
    assert tf.allclose(rt.upload(np.zeros(0)), rt.upload(np.zeros(0)))


# --- where, count_nonzero, cumsum -------------------------------------------------------------
@pytest.mark.parametrize("case", ALL, ids=ids)
def test_where_picks_branches_bit_for_bit(case):
    kind, dtype = case
    rt = runtime(kind)
    c = special_array(dtype)[:, None]
    x = special_array(dtype)[None, :]
    y = np.roll(special_array(dtype), 5)[::-1][:, None] * np.ones_like(x)
    got = tf.where(rt.upload(c), rt.upload(x), rt.upload(y)).download()
    same_bits(got, np.where(c != 0, x, y))
    # The brief's case: the branch not taken holds inf.
    c1 = rt.upload(np.array([1.0, 0.0], dtype=real_of(dtype)))
    got = tf.where(c1, rt.upload(np.array([1.0, np.inf], dtype=dtype)),
                   rt.upload(np.array([2.0, 3.0], dtype=dtype))).download()
    same_bits(got, np.array([1.0, 3.0], dtype=dtype))
    # Scalars in either branch.
    t = rt.upload(special_array(dtype))
    ref = special_array(dtype)
    same_bits(tf.where(tf.isnan(t), 0.0, t).download(),
              np.where(np.isnan(ref), 0.0, ref).astype(dtype))


@pytest.mark.parametrize("case", ALL, ids=ids)
def test_count_nonzero(case):
    kind, dtype = case
    rt = runtime(kind)
    x = special_array(dtype).reshape(-1, 4)
    got = tf.count_nonzero(rt.upload(x), axis=1).download()
    np.testing.assert_array_equal(got, np.count_nonzero(x, axis=1))
    nan_zero_two = rt.upload(np.array([np.nan, 0.0, 2.0], dtype=dtype))
    assert float(tf.count_nonzero(nan_zero_two).download()) == 2.0


@pytest.mark.parametrize("case", ALL, ids=ids)
def test_cumsum_propagates_inf_and_nan_as_numpy(case):
    kind, dtype = case
    rt = runtime(kind)
    for row in ([1.0, np.inf, 2.0], [1.0, np.nan, 2.0], [np.inf, -np.inf, 1.0],
                [-np.inf, 1.0, 2.0, 3.0, np.inf], [0.0, -0.0, -0.0]):
        x = np.array(row, dtype=dtype)
        with np.errstate(all="ignore"):
            same_bits(tf.cumsum(rt.upload(x)).download(), np.cumsum(x))
    # Every special at every position of a longer axis (several doubling rounds), along axis 0
    # of a 2-D array: NaN and infinities must land exactly where NumPy's running sum puts them.
    s = special_array(dtype)
    x = np.stack([np.roll(s, k) for k in range(3)], axis=1)
    with np.errstate(all="ignore"):
        want = np.cumsum(x, axis=0)
    got = tf.cumsum(rt.upload(x), axis=0).download()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    finite = np.isfinite(want)
    np.testing.assert_array_equal(got[~finite & ~np.isnan(want)], want[~finite & ~np.isnan(want)])


@pytest.mark.parametrize("case", REAL, ids=ids)
def test_cumsum_of_finite_values_matches_numpy(case):
    kind, dtype = case
    rt = runtime(kind)
    x = np.random.default_rng(3).standard_normal((5, 37)).astype(dtype)
    eps = np.finfo(dtype).eps
    np.testing.assert_allclose(tf.cumsum(rt.upload(x), axis=1).download(), np.cumsum(x, axis=1),
                               rtol=64 * eps, atol=64 * eps * np.abs(x).sum())


# --- gradients through where --------------------------------------------------------------------
def test_where_gradient_skips_the_branch_not_taken():
    rt = tf.Runtime.cpu()
    x = rt.upload(np.array([1.0, np.inf, 2.0]))
    y = rt.upload(np.array([np.nan, 5.0, np.inf]))

    def loss(x, y):
        return (tf.where(tf.isfinite(x), x, y) * 2.0).sum()

    value, (gx, gy) = tf.value_and_grad(loss, argnums=(0, 1))(x, y)
    assert float(value) == 2.0 * (1.0 + 5.0 + 2.0)
    np.testing.assert_array_equal(gx.download(), [2.0, 0.0, 2.0])
    np.testing.assert_array_equal(gy.download(), [0.0, 2.0, 0.0])


def test_traced_division_by_zero_stays_real():
    rt = tf.Runtime.cpu()
    value, g = tf.value_and_grad(lambda x: (x / 0.0).sum())(rt.upload(np.array([1.0, 2.0])))
    assert value.dtype == np.float64 and float(value) == np.inf
    np.testing.assert_array_equal(g.download(), [np.inf, np.inf])  # d(x/0)/dx = 1/0
    value, g = tf.value_and_grad(lambda x: (2.0 / x).sum())(rt.upload(np.array([1.0, 2.0])))
    assert value.dtype == np.float64 and float(value) == 3.0
    np.testing.assert_allclose(g.download(), [-2.0, -0.5])
    value, g = tf.value_and_grad(lambda x: (x / 1e-310).sum())(rt.upload(np.array([1e-300])))
    np.testing.assert_allclose(float(value), 1e10)  # a real division, not x * (1 / 1e-310)


# --- every element-wise prim on the special values ----------------------------------------
UNARY = ["exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tanh", "sqrt", "abs",
         "sign", "reciprocal", "square",
         "negative"]


def close_or_same_special(got, want, ulps):
    """NaN where NaN; infinities and zeros exactly, with their sign; finite values within
    `ulps` units in the last place of NumPy's."""
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    exact = ~nan & (np.isinf(want) | (want == 0))
    np.testing.assert_array_equal(got[exact], want[exact])
    np.testing.assert_array_equal(np.signbit(got[exact]), np.signbit(want[exact]))
    rest = ~nan & ~exact
    w, g = want[rest], got[rest]
    # One ulp of |w|, measured below it: the float max has no finite neighbour above.
    ulp = np.abs(w) - np.nextafter(np.abs(w), np.zeros_like(w))
    bad = ~(np.abs(g - w) <= ulps * ulp)
    assert not bad.any(), list(zip(g[bad], w[bad]))


@pytest.mark.parametrize("case", REAL, ids=ids)
@pytest.mark.parametrize("name", UNARY)
def test_every_unary_prim_on_the_special_values(case, name):
    kind, dtype = case
    x = specials(dtype)
    if kind == "webgpu" and name in ("sin", "cos"):
        x = x[np.abs(x) < 1e4]  # WGSL bounds sin/cos only on a limited range (docs/prims.md)
    f = getattr(tf, name)
    got = f(runtime(kind).upload(x)).download()
    close_or_same_special(got, getattr(np, name)(x), 4)


@pytest.mark.parametrize("case", REAL, ids=ids)
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "maximum", "minimum"])
def test_every_binary_prim_on_every_special_pair(case, name):
    kind, dtype = case
    s = specials(dtype)
    a, b = np.meshgrid(s, s)
    rt = runtime(kind)
    got = getattr(tf, name)(rt.upload(a), rt.upload(b)).download()
    want = getattr(np, name)(a, b)
    if name in ("maximum", "minimum"):
        # -0 < +0, as IEEE 754-2019 (NumPy's x86 SIMD returns the second operand of a pair of
        # zeros instead, which depends on the operand order).
        zeros = (a == 0) & (b == 0)
        pick = np.signbit(a) if name == "maximum" else ~np.signbit(a)
        want[zeros] = np.where(pick, b, a)[zeros]
    close_or_same_special(got, want, 4 if name == "divide" else 0)


# --- complex64 at the ends of the range (an adversarial review of the WebGPU kernels) ------
@pytest.mark.parametrize("case", COMPLEX, ids=ids)
def test_complex_quotients_of_huge_parts_do_not_overflow(case):
    rt = runtime(case[0])
    a = np.array([3e38 + 3e38j, 3e38 + 3e38j, 3e38j, 2e38 + 2e38j, 1 + 1j], dtype=case[1])
    b = np.array([1 + 1j, 3e38 + 3e38j, 3e38 + 3e38j, 2 + 2j, 3e38 - 3e38j], dtype=case[1])
    want = (a.astype(np.complex128) / b.astype(np.complex128)).astype(case[1])
    got = (rt.upload(a) / rt.upload(b)).download()
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("case", COMPLEX, ids=ids)
def test_complex_sqrt_of_subnormal_parts_is_finite(case):
    rt = runtime(case[0])
    tiny = np.finfo(real_of(case[1])).smallest_subnormal
    z = np.array([tiny * 1j, -tiny * 1j, 2 * tiny * 1j, tiny + tiny * 1j, 1e-35 + 2e-35j],
                 dtype=case[1])
    want = np.sqrt(z.astype(np.complex128))
    got = tf.sqrt(rt.upload(z)).download()
    np.testing.assert_allclose(got, want, rtol=2e-6)


def test_complex_products_recover_infinities_as_annex_g():
    """A product that comes out NaN + iNaN but has an infinite factor (or overflowed parts) is
    infinite, as C99 Annex G and std::complex make it, and sin/cos of non-finite values follow
    Annex G's tables (sin(inf + 0i) is NaN + 0i): WebGPU against the CPU's complex64, which part
    is finite, infinite or NaN."""
    cpu, gpu = tf.Runtime.cpu(), runtime("webgpu")
    s = np.array([0.0, -0.0, 1.0, -2.0, np.inf, -np.inf, np.nan, 3e38], np.float32)
    re, im = np.meshgrid(s, s)
    z = (re + 1j * im).ravel().astype(np.complex64)
    a, b = np.repeat(z, z.size), np.tile(z, z.size)

    def kind(v):  # per part: 0 finite, 1 inf, 2 nan
        return np.where(np.isnan(v), 2, np.where(np.isinf(v), 1, 0))

    for op in (lambda x, y: x * y, lambda x, y: tf.square(x), lambda x, y: tf.sin(x),
               lambda x, y: tf.cos(x)):
        want = op(cpu.upload(a), cpu.upload(b)).download()
        got = op(gpu.upload(a), gpu.upload(b)).download()
        for part in (np.real, np.imag):
            bad = kind(part(got)) != kind(part(want))
            assert not bad.any(), (a[bad][:3], b[bad][:3], got[bad][:3], want[bad][:3])


# --- expm1 and log1p where their digits are hard to keep (an adversarial review) --------------
@pytest.mark.parametrize("case", COMPLEX, ids=ids)
def test_complex_log1p_keeps_its_digits_near_the_circle(case):
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.prec = 200
    # |1 + z| = 1 to within a few roundings: x (2 + x) + y^2 cancelled (a third of the digits
    # of the real part were left at z = -0.125 + 0.484i).
    rng = np.random.default_rng(5)
    theta = rng.uniform(0.2, 0.5, 64)
    z = (np.cos(theta) - 1 + 1j * np.sin(theta)).astype(case[1])
    got = tf.log1p(runtime(case[0]).upload(z)).download()
    for g, w in zip(got, z):
        exact = mpmath.log(1 + mpmath.mpc(complex(w)))
        tol = 8 * np.finfo(real_of(case[1])).eps
        assert abs(g.real - float(exact.real)) <= tol * abs(float(exact.real)), (w, g, exact)
        assert abs(g.imag - float(exact.imag)) <= tol * abs(float(exact.imag)), (w, g, exact)


@pytest.mark.parametrize("case", REAL, ids=ids)
def test_expm1_and_log1p_of_tiny_arguments_are_the_arguments(case):
    # WebGPU's expm1 of -1e-38 was -2.35e-38 and of -1e-40 -0; its log1p of the smallest
    # subnormal 0.
    info = np.finfo(case[1])
    x = np.array([info.smallest_subnormal, -info.smallest_subnormal, info.tiny, -info.tiny,
                  1e-40 if case[1] == np.float32 else 1e-310, -1e-33, 3e-36, -1e-30],
                 dtype=case[1])
    rt = runtime(case[0])
    for name in ("expm1", "log1p"):
        got = getattr(tf, name)(rt.upload(x)).download()
        np.testing.assert_array_equal(got, x, err_msg=name)


@pytest.mark.parametrize("case", COMPLEX, ids=ids)
def test_complex_expm1_past_exps_overflow_is_exps(case):
    big = 88.9 if case[1] == np.complex64 else 709.9
    z = np.array([big + 1j, big - 2j], dtype=case[1])
    got = tf.expm1(runtime(case[0]).upload(z)).download()
    want = np.exp(z.astype(np.complex256)).astype(case[1])  # the 1 is below an ulp there
    for part in (np.real, np.imag):  # parts apart: assert_allclose mis-compares complex infs
        np.testing.assert_allclose(part(got), part(want), rtol=1e-5)
    assert np.isfinite(got.real).all()  # e^x cos y is finite (the formula's expm1(x) was not)
