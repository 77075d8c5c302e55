"""NumPy's memory order across the boundary (issue #32): a dense array of any axis order is
uploaded and downloaded as one block and keeps its strides, so C-order batches stay batches of
contiguous matrices; every layout round-trips bit for bit."""

import numpy as np
import pytest

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    x = x.astype(dtype)
    if x.size:  # special values travel untouched too
        flat = x.reshape(-1)
        flat[0] = np.nan
        flat[-1] = -0.0
    return x


LAYOUTS = {
    "C order": lambda x: x,
    "F order": lambda x: np.asfortranarray(x),
    "permuted (dense)": lambda x: x.transpose(1, 2, 0),
    "sliced (gaps)": lambda x: x[:, ::2, 1:],
    "negative strides": lambda x: x[::-1],
    "broadcast (zero stride)": lambda x: np.broadcast_to(x[:1], x.shape),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_round_trip_is_bit_exact(rt, dtype, layout):
    x = LAYOUTS[layout](_data((3, 4, 5), dtype))
    got = rt.upload(x).download()
    assert got.dtype == x.dtype and got.shape == x.shape
    assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(x).tobytes()


@pytest.mark.parametrize("dtype", DTYPES)
def test_dense_arrays_keep_their_memory_order(rt, dtype):
    c = _data((6, 4, 3), dtype)
    t = rt.upload(c)
    assert t.strides == c.strides  # a C-order batch of matrices stays one
    down = t.download()
    assert down.flags["C_CONTIGUOUS"] and down.strides == c.strides
    f = np.asfortranarray(c)
    tf_ = rt.upload(f)
    assert tf_.strides == f.strides
    assert tf_.download().flags["F_CONTIGUOUS"]
    p = c.transpose(2, 0, 1)
    assert rt.upload(p).strides == p.strides


@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3), (1,), (1, 1, 7)])
def test_degenerate_shapes_round_trip(rt, shape):
    x = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    got = rt.upload(x).download()
    assert got.shape == x.shape and np.array_equal(got, x)


@pytest.mark.parametrize("dtype", DTYPES)
def test_ops_on_c_order_batches_match_numpy(rt, dtype):
    a, b = _data((7, 5, 3), dtype, 1), _data((7, 3, 4), dtype, 2)
    a.reshape(-1)[0] = 1.0  # finite operands for the products
    b.reshape(-1)[-1] = 1.0
    ta, tb = rt.upload(a), rt.upload(b)
    tol = 1e-5 if dtype in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose((ta @ tb).download(), a @ b, rtol=tol, atol=tol)
    np.testing.assert_allclose((ta + ta).download(), a + a, rtol=tol)
    np.testing.assert_allclose(ta.sum(axis=1).download(), a.sum(axis=1), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", DTYPES)
def test_matmul_of_any_layout_is_numpys_and_c_ordered(rt, dtype):
    a, b = _data((2, 3, 5, 4), dtype, 3), _data((2, 3, 4, 6), dtype, 4)
    a.reshape(-1)[0] = 1.0
    b.reshape(-1)[-1] = 1.0
    tol = 1e-5 if dtype in (np.float32, np.complex64) else 1e-12
    for x, y in [(a, b), (np.asfortranarray(a), b), (a.transpose(1, 0, 2, 3), b.transpose(1, 0, 2, 3)),
                 (a[:, :, ::2], b[:, :, :, :])]:  # C, F, batch-permuted, gapped
        if x.shape[-1] != y.shape[-2]:
            y = y[:, :, : x.shape[-1]]
        got = (rt.upload(x) @ rt.upload(y)).download()
        np.testing.assert_allclose(got, x @ y, rtol=tol, atol=tol)
    assert (rt.upload(a) @ rt.upload(b)).download().flags["C_CONTIGUOUS"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_elementwise_results_keep_numpys_memory_order(rt, dtype):
    # NumPy's element-wise results take their inputs' order (order K): C in, C out; F in, F out.
    # Before, every result was Fortran-ordered, so C-ordered operands were read across their
    # rows (x + y of 1024^2 float64 ran 15x slower than NumPy).
    import tenferro as tf

    a, b = _data((6, 5, 4), dtype, 5), _data((6, 5, 4), dtype, 6)
    for x, y in [(a, b), (np.asfortranarray(a), np.asfortranarray(b))]:
        tx, ty = rt.upload(x), rt.upload(y)
        tol = 1e-6 if dtype in (np.float32, np.complex64) else 1e-15
        for got, want in [((tx + ty).download(), x + y), (tf.negative(tx).download(), -x),
                          ((tx * ty[:1]).download(), x * y[:1])]:  # the last: a broadcast
            assert got.flags["C_CONTIGUOUS"] == want.flags["C_CONTIGUOUS"]
            assert got.flags["F_CONTIGUOUS"] == want.flags["F_CONTIGUOUS"]
            np.testing.assert_allclose(got, want, rtol=tol, atol=0)
