"""einsum, linalg and fft against NumPy, with NumPy's conventions (leading batch axes)."""

import warnings

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


def test_minus_one_in_s_is_the_whole_axis_as_numpy_2(rt, rng):
    """NumPy 2: -1 in s uses the input's whole length along that axis; irfftn's last axis had
    taken the default 2 (m - 1) there (a (4, 6) result for NumPy's (4, 4))."""
    z = crandn(rng, 4, 4, dtype=np.complex128)
    tz = rt.upload(z)
    for f, s, axes in [("irfftn", (-1, -1), None), ("irfft2", (-1, -1), (-2, -1)),
                       ("irfftn", (5, -1), None), ("irfftn", (-1,), (0,)),
                       ("irfftn", (-1,), None), ("fftn", (-1, 3), None),
                       ("rfftn", (-1, -1), (1, 0)), ("ifftn", (-1,), (0,))]:
        args = {"s": s} if axes is None else {"s": s, "axes": axes}
        x = z.real if f == "rfftn" else z
        t = rt.upload(np.ascontiguousarray(x)) if f == "rfftn" else tz
        got = getattr(tf.fft, f)(t, **args).download()
        with warnings.catch_warnings():  # NumPy 2 deprecates s without axes; tenferro keeps it
            warnings.simplefilter("ignore", DeprecationWarning)
            want = getattr(np.fft, f)(x, **args)
        assert got.shape == want.shape, (f, s, axes)
        np.testing.assert_allclose(got, want, atol=1e-12)
    # A last transformed axis of length 1 is a length-1 output, not a refused 0.
    one = crandn(rng, 3, 1, dtype=np.complex128)
    np.testing.assert_allclose(tf.fft.irfftn(rt.upload(one), s=(-1, -1)).download(),
                               np.fft.irfftn(one, s=(-1, -1), axes=(0, 1)), atol=1e-12)


def test_hermitian_transforms_frequencies_and_shifts(rt, rng):
    z = crandn(rng, 5, 6, dtype=np.complex128)
    r = crandn(rng, 5, 7)
    for norm in (None, "backward", "ortho", "forward"):
        for n in (None, 9):
            np.testing.assert_allclose(tf.fft.hfft(rt.upload(z), n, 0, norm).download(),
                                       np.fft.hfft(z, n, 0, norm), atol=1e-11)
            np.testing.assert_allclose(tf.fft.ihfft(rt.upload(r), n, -1, norm).download(),
                                       np.fft.ihfft(r, n, -1, norm), atol=1e-12)
    for n in (1, 2, 7, 8):
        for d in (1.0, 0.1):
            np.testing.assert_allclose(tf.fft.fftfreq(n, d).download(), np.fft.fftfreq(n, d),
                                       rtol=1e-15)
            np.testing.assert_allclose(tf.fft.rfftfreq(n, d).download(), np.fft.rfftfreq(n, d),
                                       rtol=1e-15)
    for axes in (None, 0, (1,), (-1, 0), ()):
        np.testing.assert_array_equal(tf.fft.fftshift(rt.upload(r), axes).download(),
                                      np.fft.fftshift(r, axes))
        np.testing.assert_array_equal(tf.fft.ifftshift(rt.upload(r), axes).download(),
                                      np.fft.ifftshift(r, axes))
    with pytest.raises(tf.ValidationError):
        tf.fft.hfft(rt.upload(z), norm="both")
    with pytest.raises(tf.ValidationError):
        tf.fft.fftfreq(0)


def test_sample_frequencies_in_float32_on_webgpu(gpu_rt):
    """WebGPU holds no float64: dtype=float32 builds the frequencies there."""
    for n in (1, 6, 7):
        f = tf.fft.fftfreq(n, 0.5, dtype=np.float32, runtime=gpu_rt)
        assert f.dtype == np.float32 and "webgpu" in f.placement
        np.testing.assert_allclose(f.download(), np.fft.fftfreq(n, 0.5), rtol=1e-7)
        np.testing.assert_allclose(tf.fft.rfftfreq(n, 0.5, dtype=np.float32,
                                                   runtime=gpu_rt).download(),
                                   np.fft.rfftfreq(n, 0.5), rtol=1e-7)


def test_cholesky_upper_reads_the_upper_triangle(rt, rng):
    """NumPy 2's cholesky(a, upper=True) factors a's upper triangle (LAPACK's 'U'); the lower
    one was factored, so an a stored in its upper triangle only gave a wrong R."""
    for dtype in (np.float64, np.complex128):
        m = crandn(rng, 2, 4, 4, dtype=dtype)
        h = m @ np.conj(np.swapaxes(m, -1, -2)) + 4 * np.eye(4)
        upper_only = np.triu(h)
        got = tf.linalg.cholesky(rt.upload(upper_only), upper=True).download()
        np.testing.assert_allclose(got, np.linalg.cholesky(upper_only, upper=True), rtol=1e-10,
                                   atol=1e-12)
        np.testing.assert_allclose(np.conj(np.swapaxes(got, -1, -2)) @ got, h, rtol=1e-10)
        lower_only = np.tril(h)
        np.testing.assert_allclose(tf.linalg.cholesky(rt.upload(lower_only)).download(),
                                   np.linalg.cholesky(lower_only), rtol=1e-10, atol=1e-12)


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
