"""floor_divide, remainder (mod), fmod, divmod, the // and % operators, copysign, cbrt and exp2
against NumPy: bit for bit where NumPy's results are exact (signed zeros, infinities and NaNs
included), on the CPU in both precisions and on WebGPU in float32; Python numbers on either side;
the complex refusal; and gradients against finite differences."""

import numpy as np
import pytest

import tenferro as tf

SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 3.0, -7.0, 0.1, 1e-3, 1e30, -1e30, 1e-40, 5e-324,
           np.inf, -np.inf, np.nan]


def operand_pairs(rng, dtype):
    """Every pair of special values, then magnitudes 10^-5..10^5 apart with both signs (long
    quotients for fmod's exact reduction), and near-integer quotients (a = k b (1 +- eps))."""
    a, b = np.meshgrid(SPECIAL, SPECIAL)
    x = rng.uniform(-100, 100, 4000) * 10.0 ** rng.uniform(-5, 5, 4000)
    y = rng.uniform(-10, 10, 4000) * 10.0 ** rng.uniform(-5, 5, 4000)
    k = rng.integers(-50, 50, 1000).astype(np.float64)
    yb = rng.uniform(0.1, 3, 1000)
    near = k * yb * (1 + rng.choice([-1, 0, 1], 1000) * np.finfo(dtype).eps)
    with np.errstate(over="ignore", under="ignore"):
        return (np.concatenate([a.ravel(), x, near]).astype(dtype),
                np.concatenate([b.ravel(), y, yb]).astype(dtype))


def assert_same_bits(got, want):
    """Equal values with equal sign bits, or NaN where NumPy has NaN."""
    assert got.dtype == want.dtype and got.shape == want.shape
    same = ((got == want) & (np.signbit(got) == np.signbit(want))) | (np.isnan(got) &
                                                                      np.isnan(want))
    bad = np.flatnonzero(~same)
    assert bad.size == 0, f"{bad.size} differ, first: got {got.ravel()[bad[:5]]}, " \
        f"want {want.ravel()[bad[:5]]}"


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "fmod", "copysign"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_binary_values_are_numpys_bit_for_bit(rt, gpu_rt, rng, name, dtype):
    a, b = operand_pairs(rng, dtype)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(a, b)
    for r in [rt, gpu_rt] if dtype == np.float32 else [rt]:
        assert_same_bits(getattr(tf, name)(r.upload(a), r.upload(b)).download(), want)


def test_operators_and_divmod_match_python_semantics(rt, rng):
    a, b = operand_pairs(rng, np.float64)
    x, y = rt.upload(a), rt.upload(b)
    with np.errstate(all="ignore"):
        assert_same_bits((x // y).download(), a // b)
        assert_same_bits((x % y).download(), a % b)
        q, r = divmod(x, y)
        assert_same_bits(q.download(), np.floor_divide(a, b))
        assert_same_bits(r.download(), np.remainder(a, b))
        q, r = tf.divmod(x, y)
        assert_same_bits(r.download(), np.remainder(a, b))
        # A Python number on either side takes the tensor's dtype (NEP 50).
        assert_same_bits((x % 3).download(), a % 3.0)
        assert_same_bits((7.5 % y).download(), 7.5 % b)
        assert_same_bits((x // -2.5).download(), a // -2.5)
        assert_same_bits((-7 // y).download(), -7.0 // b)
        q, r = divmod(10.0, y)
        assert_same_bits(q.download(), np.floor_divide(10.0, b))
        assert_same_bits(r.download(), np.remainder(10.0, b))
    assert tf.mod is tf.remainder
    f = rt.upload(np.array([7.5, -7.5], dtype=np.float32))
    assert (f % 2).dtype == np.float32 and (f // np.float64(2)).dtype == np.float64
    assert tf.fmod(f, 2).download().tolist() == [1.5, -1.5]
    assert tf.copysign(3, f).download().tolist() == [3.0, -3.0]


def test_broadcasting(rt, rng):
    a = rng.uniform(-20, 20, (4, 1, 3))
    b = rng.uniform(0.5, 4, (5, 1)) * rng.choice([-1, 1], (5, 1))
    for name in ["floor_divide", "remainder", "fmod", "copysign"]:
        got = getattr(tf, name)(rt.upload(a), rt.upload(b)).download()
        assert_same_bits(got, getattr(np, name)(a, b))


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "fmod", "copysign", "cbrt"])
def test_complex_is_refused_as_an_input_error(rt, name):
    z = rt.upload(np.array([1 + 2j, 3 - 1j]))
    with pytest.raises(tf.ValidationError):
        getattr(tf, name)(*([z] if name == "cbrt" else [z, z]))
    if name == "remainder":
        with pytest.raises(tf.ValidationError):
            z % 2
        with pytest.raises(tf.ValidationError):
            rt.upload(np.array([1.0])) // (1 + 1j)


def test_host_data_is_refused(rt):
    x = rt.upload(np.array([1.0, 2.0]))
    with pytest.raises(tf.NoInputIngressError):
        x % np.array([1.0, 2.0])
    with pytest.raises(tf.NoInputIngressError):
        tf.floor_divide(np.array([1.0]), x)


def roots_and_powers(rng, dtype):
    x = np.concatenate([SPECIAL, -np.array(SPECIAL), rng.uniform(-200, 200, 3000),
                        10.0 ** rng.uniform(-300, 300, 3000) * rng.choice([-1, 1], 3000),
                        np.arange(-30, 31) ** 3.0])
    with np.errstate(over="ignore", under="ignore"):
        return x.astype(dtype)


@pytest.mark.parametrize("name", ["cbrt", "exp2"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cbrt_and_exp2_match_numpy(rt, gpu_rt, rng, name, dtype):
    x = roots_and_powers(rng, dtype)
    if name == "exp2":
        x = np.clip(x, -1200, 1200).astype(dtype)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(x)
    for r in [rt, gpu_rt] if dtype == np.float32 else [rt]:
        got = getattr(tf, name)(r.upload(x)).download()
        assert got.dtype == want.dtype
        tiny = np.finfo(dtype).tiny  # subnormal results: their own last place
        np.testing.assert_allclose(got, want, rtol=4 * np.finfo(dtype).eps, atol=8 * tiny
                                   * np.finfo(dtype).eps)
        np.testing.assert_array_equal(np.signbit(got[want == 0]), np.signbit(want[want == 0]))
    # Exact cubes and powers of two stay exact.
    ints = np.arange(-20, 21, dtype=dtype)
    assert tf.cbrt(rt.upload(ints ** 3)).download().tolist() == ints.tolist()
    assert tf.exp2(rt.upload(ints)).download().tolist() == (2.0 ** ints).tolist()


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_exp2_is_exp_of_z_ln2(rt, gpu_rt, rng, dtype):
    z = (rng.uniform(-20, 20, 500) + 1j * rng.uniform(-20, 20, 500)).astype(dtype)
    want = np.exp2(z.astype(np.complex128))  # the exact-input reference
    runtimes = [rt, gpu_rt] if dtype == np.complex64 else [rt]
    for r in runtimes:
        got = tf.exp2(r.upload(z)).download()
        assert got.dtype == dtype
        rtol = 16 * np.finfo(dtype).eps * (1 if r is rt else 4)
        np.testing.assert_allclose(got, want, rtol=rtol, atol=0)


def finite_difference(f, args, i, h=1e-6):
    """d sum(f) / d args[i], entry by entry, by central differences."""
    out = np.zeros_like(args[i])
    for k in np.ndindex(args[i].shape):
        plus = [a.copy() for a in args]
        minus = [a.copy() for a in args]
        plus[i][k] += h
        minus[i][k] -= h
        out[k] = (f(*plus).sum() - f(*minus).sum()) / (2 * h)
    return out


@pytest.mark.parametrize("name", ["remainder", "fmod", "floor_divide", "copysign", "cbrt",
                                  "exp2", "%", "//"])
def test_gradients_are_the_derivatives_between_the_jumps(rt, rng, name):
    a = rng.uniform(-9, 9, (3, 4))
    b = rng.uniform(0.3, 2.5, (4,)) * rng.choice([-1, 1], 4)
    np_f = {"%": np.remainder, "//": np.floor_divide}.get(name, getattr(np, name, None))
    if name in ("cbrt", "exp2"):
        def tf_f(x, y):
            return getattr(tf, name)(x) * y
        def ref(x, y):
            return np_f(x) * y
    else:
        def tf_f(x, y):
            return {"%": lambda: x % y, "//": lambda: x // y}.get(name, lambda: getattr(tf, name)(
                x, y))()
        ref = np_f
    g = tf.grad(lambda x, y: tf_f(x, y).sum(), argnums=(0, 1))(rt.upload(a), rt.upload(b))
    for i in range(2):
        np.testing.assert_allclose(g[i].download(), finite_difference(ref, [a, b], i),
                                   rtol=1e-6, atol=1e-6)
