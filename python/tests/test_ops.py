"""einsum, linalg and fft against NumPy, with NumPy's conventions (leading batch axes)."""

import numpy as np
import pytest

import tenferro as tf
from conftest import crandn


@pytest.mark.parametrize("optimize", ["auto", "greedy", "optimal", True, False])
def test_einsum_matches_numpy(rt, rng, optimize):
    a, b, c = crandn(rng, 3, 4), crandn(rng, 4, 5), crandn(rng, 5, 2)
    got = tf.einsum("ij,jk,kl->il", rt.upload(a), rt.upload(b), rt.upload(c), optimize=optimize)
    np.testing.assert_allclose(got.download(), a @ b @ c, rtol=1e-12)
    assert got.runtime == rt


def test_einsum_explicit_path_and_einsum_path(rt, rng):
    ops = [crandn(rng, 3, 4), crandn(rng, 4, 5), crandn(rng, 5, 2)]
    path, report = tf.einsum_path("ij,jk,kl->il", *ops, optimize="optimal")
    want, _ = np.einsum_path("ij,jk,kl->il", *ops, optimize="optimal")
    assert path[0] == "einsum_path" and len(path) == len(want)
    assert isinstance(report, str) and report
    ts = [rt.upload(x) for x in ops]
    for p in (path, [(1, 2), (0, 1)]):
        got = tf.einsum("ij,jk,kl->il", *ts, optimize=p)
        np.testing.assert_allclose(got.download(), ops[0] @ ops[1] @ ops[2], rtol=1e-12)


def test_einsum_forms(rt, rng):
    a = crandn(rng, 2, 3, 4, dtype=np.complex128)
    b = crandn(rng, 2, 4, 5, dtype=np.complex128)
    ta, tb = rt.upload(a), rt.upload(b)
    np.testing.assert_allclose(tf.einsum("...ij,...jk", ta, tb).download(),
                               np.einsum("...ij,...jk", a, b), rtol=1e-12)
    np.testing.assert_allclose(tf.einsum("bij->", ta).download(), a.sum(), rtol=1e-12)
    np.testing.assert_allclose(tf.einsum(ta, [0, 1, 2], tb, [0, 2, 3], [0, 1, 3]).download(),
                               np.einsum(a, [0, 1, 2], b, [0, 2, 3], [0, 1, 3]), rtol=1e-12)
    # Operands as strided views (a transpose, a slice) work without copies.
    np.testing.assert_allclose(tf.einsum("ji,jk->ik", ta[0].T, tb[1]).download(),
                               a[0] @ b[1], rtol=1e-12)


def test_tensordot_matches_numpy(rt, rng):
    a, b = crandn(rng, 3, 4, 5), crandn(rng, 5, 4, 2)
    got = tf.tensordot(rt.upload(a), rt.upload(b), axes=([1, 2], [1, 0]))
    np.testing.assert_allclose(got.download(), np.tensordot(a, b, axes=([1, 2], [1, 0])),
                               rtol=1e-12)


def test_tensordot_counts_and_inner_of_0d_as_numpy(rt, rng):
    # A NumPy integer count (operator.index) was a bare "cannot unpack" TypeError; a 0-d operand
    # of inner is a product in NumPy (tenferro raised AxisError).
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((3, 4))
    ta, tb = rt.upload(a), rt.upload(b)
    for axes in [np.int64(1), np.int32(0), (np.int64(1), np.int64(0)), ([1], [0])]:
        np.testing.assert_allclose(tf.tensordot(ta, tb, axes).download(),
                                   np.tensordot(a, b, axes), rtol=1e-12)
    with pytest.raises(tf.AxisError):  # NumPy's IndexError: a has no third-last axis
        tf.tensordot(ta, tb, 3)
    with pytest.raises(tf.ValidationError):
        tf.tensordot(ta, tb, (1,))
    two = np.array(2.0)
    np.testing.assert_array_equal(tf.inner(rt.upload(two), ta).download(), np.inner(two, a))
    np.testing.assert_array_equal(tf.inner(ta, rt.upload(two)).download(), np.inner(a, two))


def batched(rng, dtype=np.float64):
    return crandn(rng, 2, 3, 5, 4, dtype=dtype)  # batch (2, 3) LEADING, matrices 5 x 4


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_qr_svd_batched_with_leading_batch_axes(rt, rng, dtype):
    a = batched(rng, dtype)
    t = rt.upload(a)
    q, r = tf.linalg.qr(t)
    assert q.shape == (2, 3, 5, 4) and r.shape == (2, 3, 4, 4)
    np.testing.assert_allclose((q @ r).download(), a, atol=1e-12)
    u, s, vh = tf.linalg.svd(t, full_matrices=False)
    np.testing.assert_allclose(s.download(), np.linalg.svd(a, compute_uv=False), rtol=1e-12)
    np.testing.assert_allclose((u * s[..., None, :] @ vh).download(), a, atol=1e-12)
    u, s, vh = tf.linalg.svd(t)  # NumPy's default: full matrices
    assert u.shape == (2, 3, 5, 5) and vh.shape == (2, 3, 4, 4)
    u, s, vh = tf.linalg.svd(t, max_rank=2)
    assert u.shape == (2, 3, 5, 2) and s.shape == (2, 3, 2) and vh.shape == (2, 3, 2, 4)


def test_eigh_solve_inv_det_against_numpy(rt, rng):
    x = crandn(rng, 3, 4, 4)
    h = x + np.swapaxes(x, -1, -2) + 8 * np.eye(4)
    t = rt.upload(h)
    w, v = tf.linalg.eigh(t)
    np.testing.assert_allclose(w.download(), np.linalg.eigvalsh(h), rtol=1e-10)
    np.testing.assert_allclose((t @ v).download(), (v * w[..., None, :]).download(), atol=1e-10)
    np.testing.assert_allclose(tf.linalg.eigvalsh(t, UPLO="U").download(),
                               np.linalg.eigvalsh(h, UPLO="U"), rtol=1e-10)
    b = crandn(rng, 3, 4, 2)
    np.testing.assert_allclose(tf.linalg.solve(t, rt.upload(b)).download(),
                               np.linalg.solve(h, b), rtol=1e-10)
    np.testing.assert_allclose(tf.linalg.inv(t).download(), np.linalg.inv(h), rtol=1e-10)
    np.testing.assert_allclose(tf.linalg.det(t).download(), np.linalg.det(h), rtol=1e-10)
    sign, logdet = tf.linalg.slogdet(t)
    nsign, nlogdet = np.linalg.slogdet(h)
    np.testing.assert_allclose(sign.download(), nsign)
    np.testing.assert_allclose(logdet.download(), nlogdet, rtol=1e-10)
    l = tf.linalg.cholesky(t)
    np.testing.assert_allclose(l.download(), np.linalg.cholesky(h), rtol=1e-10)
    np.testing.assert_allclose(tf.linalg.cholesky(t, upper=True).download(),
                               np.swapaxes(np.linalg.cholesky(h), -1, -2), rtol=1e-10)


def test_lstsq_lu_eig_triangular(rt, rng):
    a, b = crandn(rng, 6, 3), crandn(rng, 6)
    x, res, rank, s = tf.linalg.lstsq(rt.upload(a), rt.upload(b))
    nx, nres, nrank, ns = np.linalg.lstsq(a, b, rcond=None)
    np.testing.assert_allclose(x.download(), nx, rtol=1e-10)
    np.testing.assert_allclose(res.download(), nres, rtol=1e-10)
    assert rank.item() == nrank
    np.testing.assert_allclose(s.download(), ns, rtol=1e-10)
    m = crandn(rng, 4, 4)
    p, l, u = tf.linalg.lu(rt.upload(m))
    np.testing.assert_allclose((p @ l @ u).download(), m, atol=1e-12)
    w, v = tf.linalg.eig(rt.upload(m))
    np.testing.assert_allclose(np.sort_complex(w.download()), np.sort_complex(np.linalg.eigvals(m)),
                               rtol=1e-10)
    tri = np.triu(m) + 4 * np.eye(4)
    rhs = crandn(rng, 4, 2)
    got = tf.linalg.solve_triangular(rt.upload(tri), rt.upload(rhs), upper=True)
    np.testing.assert_allclose(got.download(), np.linalg.solve(tri, rhs), rtol=1e-10)


def test_fft_matches_numpy_fft(rt, rng):
    x = crandn(rng, 4, 8, dtype=np.complex128)
    r = crandn(rng, 4, 8)
    tx, tr = rt.upload(x), rt.upload(r)
    np.testing.assert_allclose(tf.fft.fft(tx).download(), np.fft.fft(x), atol=1e-12)
    np.testing.assert_allclose(tf.fft.ifft(tx, n=5, axis=0, norm="ortho").download(),
                               np.fft.ifft(x, n=5, axis=0, norm="ortho"), atol=1e-12)
    np.testing.assert_allclose(tf.fft.rfft(tr).download(), np.fft.rfft(r), atol=1e-12)
    np.testing.assert_allclose(tf.fft.irfft(tf.fft.rfft(tr)).download(), r, atol=1e-12)
    np.testing.assert_allclose(tf.fft.fftn(tx).download(), np.fft.fftn(x), atol=1e-12)
    np.testing.assert_allclose(tf.fft.fft2(tx, norm="forward").download(),
                               np.fft.fft2(x, norm="forward"), atol=1e-12)
    np.testing.assert_allclose(tf.fft.irfftn(tf.fft.rfftn(tr), s=r.shape).download(), r,
                               atol=1e-12)


def test_webgpu_einsum_and_prims_stay_on_device(gpu_rt, rng):
    a, b = crandn(rng, 8, 8, dtype=np.float32), crandn(rng, 8, 8, dtype=np.float32)
    ta, tb = gpu_rt.upload(a), gpu_rt.upload(b)
    c = tf.einsum("ij,jk->ik", ta, tb)
    assert "webgpu" in c.placement
    np.testing.assert_allclose(c.download(), a @ b, rtol=1e-4, atol=1e-4)
    # Element-wise prims on WebGPU: either they run there, or they are refused with a typed
    # error before execution (while the backend's prims kernels are not in) -- never on the CPU.
    try:
        d = c * 2.0 + ta
    except tf.UnsupportedError as e:
        assert "webgpu" in str(e)
    else:
        assert "webgpu" in d.placement
        np.testing.assert_allclose(d.download(), 2.0 * a @ b + a, rtol=1e-4, atol=1e-4)
    with pytest.raises(tf.UnsupportedError):
        tf.linalg.qr(ta)  # no WebGPU linalg: refused, never run on the CPU
