import numpy as np
import pytest

import tenferro as tf
from conftest import crandn


def test_upload_download_are_explicit_counted_copies(rt, rng):
    x = crandn(rng, 3, 4, 5)
    before = rt.stats()
    t = rt.upload(x)
    assert rt.stats()["uploads"] == before["uploads"] + 1
    assert rt.stats()["upload_bytes"] == before["upload_bytes"] + x.nbytes
    y = t.download()
    assert isinstance(y, np.ndarray)
    assert rt.stats()["downloads"] == before["downloads"] + 1
    np.testing.assert_array_equal(y, x)
    x[0, 0, 0] = 42.0  # upload copied: the tensor does not see later host writes
    assert t.download()[0, 0, 0] != 42.0


def test_tensor_metadata_is_numpys(rt, rng):
    t = rt.upload(crandn(rng, 2, 3, dtype=np.complex64))
    assert t.shape == (2, 3) and t.ndim == 2 and t.size == 6 and len(t) == 2
    assert t.dtype == np.dtype("complex64") and isinstance(t.dtype, np.dtype)
    assert t.runtime == rt
    assert "host/cpu:0" in t.placement and "host/cpu:0" in repr(t)
    assert "(2, 3)" in repr(t) and "complex64" in repr(t)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_every_dtype_round_trips(rt, rng, dtype):
    x = crandn(rng, 4, 3, dtype=dtype)
    np.testing.assert_array_equal(rt.upload(x).download(), x)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_one_element_tensors_convert_to_python_scalars(rt, dtype):
    value = 1.5 - 2.0j if np.dtype(dtype).kind == "c" else 1.5
    t = rt.upload(np.full((1, 1), value, dtype=dtype))
    item = t.item()
    assert item == value and type(item) is type(value)  # complex stays complex, not real
    assert complex(t) == value and complex(t[0, 0]) == value
    if np.dtype(dtype).kind == "f":
        assert float(t) == 1.5 and bool(t)


def test_array_likes_and_strided_sources_upload(rt):
    np.testing.assert_array_equal(rt.upload([[1, 2], [3, 4]]).download(), [[1.0, 2.0], [3.0, 4.0]])
    assert rt.upload([1, 2]).dtype == np.float64
    base = np.arange(24.0).reshape(4, 6)
    for view in (base[:, ::2], base.T, base[::-1], base[1:3, 2:5]):
        np.testing.assert_array_equal(rt.upload(view).download(), view)
    with pytest.raises(tf.ValidationError):
        rt.upload(np.array(["a"]))


def test_c_order_reshape_matches_numpy(rt):
    x = np.arange(24.0).reshape(2, 3, 4)
    t = rt.upload(x)
    for shape in [(6, 4), (4, 6), (24,), (2, 12), (3, -1), (4, 3, 2)]:
        np.testing.assert_array_equal(t.reshape(shape).download(), x.reshape(shape))
    # A non-viewable reshape (after a transpose) copies inside the runtime, as NumPy.
    np.testing.assert_array_equal(t.transpose(2, 0, 1).reshape(4, 6).download(),
                                  x.transpose(2, 0, 1).reshape(4, 6))


def test_views_transpose_and_basic_slicing(rt):
    x = np.arange(60.0).reshape(3, 4, 5)
    t = rt.upload(x)
    launches = sum(rt.stats()["kernel_launches"].values())
    views = {
        "T": (t.T, x.T),
        "mT": (t.mT, np.swapaxes(x, -1, -2)),
        "transpose": (t.transpose(1, 0, 2), x.transpose(1, 0, 2)),
        "slice": (t[1:, ::2, 3], x[1:, ::2, 3]),
        "ellipsis": (t[..., 1], x[..., 1]),
        "newaxis": (t[None, 0, :, None], x[None, 0, :, None]),
        "negative": (t[-1, -2], x[-1, -2]),
    }
    assert sum(rt.stats()["kernel_launches"].values()) == launches  # views launch nothing
    for name, (got, want) in views.items():
        assert got.shape == want.shape, name
        np.testing.assert_array_equal(got.download(), want, err_msg=name)
    with pytest.raises(tf.ValidationError):
        t[3]
    rows = list(t)  # iteration: views along the first axis
    assert len(rows) == 3
    np.testing.assert_array_equal(rows[2].download(), x[2])
    with pytest.raises(tf.UnsupportedError):
        t[::-1]


def test_operators_follow_numpy(rt, rng):
    a, b = crandn(rng, 3, 4), crandn(rng, 3, 4)
    ta, tb = rt.upload(a), rt.upload(b)
    cases = {
        "add": (ta + tb, a + b),
        "sub": (ta - tb, a - b),
        "mul": (ta * tb, a * b),
        "div": (ta / tb, a / b),
        "neg": (-ta, -a),
        "scalar": (2.0 * ta - 1.0, 2.0 * a - 1.0),
        "rsub": (1.0 - ta, 1.0 - a),
        "rdiv": (3.0 / tb, 3.0 / b),
        "pow": (abs(ta) ** 1.5, np.abs(a) ** 1.5),
        "square": (ta**2, a**2),
        "matmul": (ta @ tb.T, a @ b.T),
        "broadcast": (ta + rt.upload(b[0]), a + b[0]),
        "conj": (rt.upload(a + 1j * b).conj(), a - 1j * b),
        "real": (rt.upload(a + 1j * b).real, a),
        "np_scalar": (ta * np.float32(2.0), a * 2.0),
    }
    for name, (got, want) in cases.items():
        np.testing.assert_allclose(got.download(), want, rtol=1e-12, err_msg=name)


def test_batched_matmul_and_vectors(rt, rng):
    a, b, v = crandn(rng, 5, 3, 4), crandn(rng, 5, 4, 2), crandn(rng, 4)
    ta, tb, tv = rt.upload(a), rt.upload(b), rt.upload(v)
    np.testing.assert_allclose((ta @ tb).download(), a @ b, rtol=1e-12)
    np.testing.assert_allclose((ta @ tv).download(), a @ v, rtol=1e-12)
    np.testing.assert_allclose((tv @ tv).download(), v @ v, rtol=1e-12)


def test_reductions(rt, rng):
    x = crandn(rng, 3, 4, 5)
    t = rt.upload(x)
    np.testing.assert_allclose(t.sum().download(), x.sum(), rtol=1e-12)
    np.testing.assert_allclose(t.sum(axis=1).download(), x.sum(axis=1), rtol=1e-12)
    np.testing.assert_allclose(t.mean(axis=(0, 2), keepdims=True).download(),
                               x.mean(axis=(0, 2), keepdims=True), rtol=1e-12)
    np.testing.assert_allclose(t.max(axis=-1).download(), x.max(axis=-1))
    assert float(t.sum()) == pytest.approx(x.sum())
    # Explicit None is NumPy's default everywhere (autoray and opt_einsum pass it).
    np.testing.assert_allclose(t.sum(axis=None).download(), x.sum(), rtol=1e-12)
    np.testing.assert_allclose(tf.einsum("ijk->k", t, optimize=None).download(),
                               x.sum(axis=(0, 1)), rtol=1e-12)
    np.testing.assert_allclose(tf.fft.fft(t, n=None, norm=None).download(), np.fft.fft(x),
                               atol=1e-12)


def test_mixing_with_numpy_is_refused_not_uploaded(rt):
    t = rt.upload(np.ones(3))
    uploads = rt.stats()["uploads"]
    with pytest.raises(tf.PlacementError, match="upload"):
        t + np.ones(3)
    with pytest.raises(tf.PlacementError, match="upload"):
        np.ones(3) + t  # NumPy defers to tenferro (no __array__ conversion), which refuses
    assert rt.stats()["uploads"] == uploads


def test_creation_functions(rt):
    np.testing.assert_array_equal(tf.zeros((2, 3), runtime=rt).download(), np.zeros((2, 3)))
    np.testing.assert_array_equal(tf.eye(3, dtype="complex64", runtime=rt).download(),
                                  np.eye(3, dtype=np.complex64))
    np.testing.assert_array_equal(tf.arange(5, runtime=rt).download(), np.arange(5.0))
    assert tf.ones((2,), runtime=rt).runtime == rt


@pytest.mark.parametrize("name", ["float32", "float64", "complex64", "complex128"])
def test_every_spelling_of_a_dtype_names_it(rt, name):
    # The common spellings are recognised without asking NumPy (a fast path); the others go
    # through numpy.dtype: all must name the same dtype, and a dtype tenferro lacks stays a
    # typed error.
    want = np.dtype(name)
    x = rt.upload(np.arange(6.0).reshape(2, 3))
    short = {"float32": "f4", "float64": "f8", "complex64": "c8", "complex128": "c16"}[name]
    for spelled in [name, want, want.type, short, "<" + short, np.dtype(short).str, str(want)]:
        got = x.astype(spelled)
        assert got.dtype == want, spelled
        np.testing.assert_array_equal(got.download(), np.arange(6.0).reshape(2, 3).astype(want))
    with pytest.raises(tf.ValidationError):
        x.astype(name.replace("float", "int").replace("complex", "int"))
    with pytest.raises(tf.ValidationError):
        x.astype(name + "x")
