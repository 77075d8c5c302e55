"""The Python package on a CUDA runtime: einsum, linalg, FFT, prims and gradients run on the
device and agree with NumPy (the Krylov solvers too); nothing moves between devices unless the caller asks (upload,
download and the counted transfers prove it); a CPU tensor meeting a CUDA tensor, NumPy's host
views, DLPack towards another device and PyTorch's CUDA tensors (whose zero-copy exchange is not
implemented) are typed errors that leave every tensor usable.

Skipped, with the reason, where the build or the machine has no CUDA; scripts/gpu-check.sh
runs this file on the GPU machine with TENFERRO_REQUIRE_CUDA=1, where a skip is a failure."""

import os

import numpy as np
import pytest

import tenferro as tf
from conftest import crandn

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
DTYPE_IDS = ["f32", "f64", "c64", "c128"]


def tolerance(dtype):
    return 2e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-11


def test_cuda_runtime_reports_its_device(cuda_rt):
    t = cuda_rt.upload(np.arange(6.0).reshape(2, 3))
    assert t.device == "cuda:0" and "cuda" in t.placement
    assert t.__dlpack_device__() == (2, 0)  # kDLCUDA, device 0
    np.testing.assert_array_equal(t.download(), np.arange(6.0).reshape(2, 3))


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_einsum_chain_runs_on_the_device_and_matches_numpy(cuda_rt, rng, dtype):
    a, b, c = (crandn(rng, *s, dtype=dtype) for s in ((30, 40), (40, 50), (50, 20)))
    ta, tb, tc = (cuda_rt.upload(x) for x in (a, b, c))
    before = cuda_rt.stats()
    got = tf.einsum("ij,jk,kl->il", ta, tb, tc)
    after = cuda_rt.stats()
    assert got.device == "cuda:0" and got.dtype == dtype
    assert after["uploads"] == before["uploads"] and after["downloads"] == before["downloads"]
    want = a.astype(np.complex128) @ b @ c
    np.testing.assert_allclose(got.download(), want, rtol=tolerance(dtype),
                               atol=tolerance(dtype) * np.abs(want).max())


def test_linalg_on_the_device_reconstructs_and_matches_numpy(cuda_rt, rng):
    a = rng.standard_normal((5, 40, 30))  # NumPy's convention: leading batch axes
    t = cuda_rt.upload(a)
    q, r = tf.linalg.qr(t)
    assert q.device == "cuda:0" and r.device == "cuda:0"
    np.testing.assert_allclose(q.download() @ r.download(), a, atol=1e-12)
    u, s, vh = tf.linalg.svd(t, full_matrices=False)
    np.testing.assert_allclose(s.download(), np.linalg.svd(a, compute_uv=False), rtol=1e-12)
    np.testing.assert_allclose((u.download() * s.download()[..., None, :]) @ vh.download(), a,
                               atol=1e-12)
    sym = a[:, :30, :] + np.swapaxes(a[:, :30, :], -1, -2)
    w, v = tf.linalg.eigh(cuda_rt.upload(sym))
    np.testing.assert_allclose(w.download(), np.linalg.eigvalsh(sym), atol=1e-12)
    vv = v.download()
    np.testing.assert_allclose(vv @ (w.download()[..., None] * np.swapaxes(vv, -1, -2)), sym,
                               atol=1e-11)
    x = tf.linalg.solve(cuda_rt.upload(sym[0] + 60 * np.eye(30)), cuda_rt.upload(a[0, :30, 0]))
    np.testing.assert_allclose(x.download(),
                               np.linalg.solve(sym[0] + 60 * np.eye(30), a[0, :30, 0]), rtol=1e-11)


def test_fft_on_the_device_matches_numpy(cuda_rt, rng):
    x = crandn(rng, 6, 64, dtype=np.complex128)
    r = rng.standard_normal((4, 48))
    np.testing.assert_allclose(tf.fft.fft(cuda_rt.upload(x)).download(), np.fft.fft(x),
                               atol=1e-12)
    tr = cuda_rt.upload(r)
    np.testing.assert_allclose(tf.fft.rfft(tr).download(), np.fft.rfft(r), atol=1e-12)
    np.testing.assert_allclose(tf.fft.irfft(tf.fft.rfft(tr), n=48).download(), r, atol=1e-12)


def test_prims_and_reductions_on_the_device(cuda_rt, rng):
    a = rng.standard_normal((64, 33))
    b = rng.standard_normal((64, 33))
    ta, tb = cuda_rt.upload(a), cuda_rt.upload(b)
    got = tf.exp(ta) * tb + tf.maximum(ta, tb) - ta / 3.0
    assert got.device == "cuda:0"
    np.testing.assert_allclose(got.download(), np.exp(a) * b + np.maximum(a, b) - a / 3.0,
                               rtol=1e-13)
    np.testing.assert_allclose(ta.sum(axis=0).download(), a.sum(axis=0), rtol=1e-12)
    long = rng.standard_normal(1 << 20)  # a long reduction keeps its precision
    np.testing.assert_allclose(cuda_rt.upload(long).sum().download(), long.sum(), rtol=1e-10)


def test_gradients_on_the_device_match_the_cpu_runtime(cuda_rt, rt, rng):
    a, b = rng.standard_normal((7, 5)), rng.standard_normal((5, 6))

    def loss(x, y):
        return (tf.einsum("ij,jk->ik", x, y) ** 2).sum() + tf.linalg.svd(
            x, full_matrices=False)[1].sum()

    g_cuda = tf.grad(loss, argnums=(0, 1))(cuda_rt.upload(a), cuda_rt.upload(b))
    g_cpu = tf.grad(loss, argnums=(0, 1))(rt.upload(a), rt.upload(b))
    for gd, gc in zip(g_cuda, g_cpu):
        assert gd.device == "cuda:0"
        np.testing.assert_allclose(gd.download(), gc.download(), rtol=1e-10, atol=1e-12)


def test_krylov_solvers_on_the_device_move_no_tensor(cuda_rt, rng):
    # eigsh, expm_multiply and gmres in float64 on CUDA: the only transfers are the uploads and
    # downloads made here; the solvers' scalars are counted apart.
    import scipy.linalg

    n = 60
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    a = (q * np.linspace(-3.0, 5.0, n)) @ q.T
    m = cuda_rt.upload(a)
    v0 = cuda_rt.upload(rng.standard_normal(n))
    b = cuda_rt.upload(rng.standard_normal(n))
    general = cuda_rt.upload(np.eye(n) * 4 + rng.standard_normal((n, n)) / np.sqrt(n))
    before = cuda_rt.stats()
    w, v = tf.krylov.eigsh(lambda x: tf.einsum("ij,j->i", m, x), k=3, which="SA", v0=v0,
                           tol=1e-12)
    x = tf.krylov.expm_multiply(m, v0, -0.5, tol=1e-13)
    y, info = tf.krylov.gmres(general, b, rtol=1e-12, restart=30)
    after = cuda_rt.stats()
    assert (after["uploads"], after["downloads"]) == (before["uploads"], before["downloads"])
    assert v.device == x.device == y.device == "cuda:0" and info == 0
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a)[:3], atol=1e-10)
    ref = scipy.linalg.expm(-0.5 * a) @ v0.download()
    np.testing.assert_allclose(x.download(), ref, atol=1e-11 * np.linalg.norm(ref))
    np.testing.assert_allclose(y.download(), np.linalg.solve(general.download(), b.download()),
                               rtol=1e-9, atol=1e-10)


def test_a_cpu_tensor_meeting_a_cuda_tensor_is_a_typed_error(cuda_rt, rt):
    g = cuda_rt.upload(np.ones((3, 3)))
    c = rt.upload(np.ones((3, 3)))
    # Two runtimes: the context check refuses before anything runs, and says how to move data.
    with pytest.raises(tf.ContextMismatchError, match="download"):
        tf.einsum("ij,jk->ik", g, c)
    with pytest.raises(tf.ContextMismatchError):
        g + c
    # Both stay usable.
    np.testing.assert_array_equal((g + g).download(), 2 * np.ones((3, 3)))
    np.testing.assert_array_equal((c + c).download(), 2 * np.ones((3, 3)))


def test_host_views_of_device_memory_are_refused_not_downloaded(cuda_rt):
    g = cuda_rt.upload(np.arange(4.0))
    downloads = cuda_rt.stats()["downloads"]
    with pytest.raises(tf.HostAccessError, match="download"):
        np.asarray(g)  # __array__ never downloads
    with pytest.raises(tf.HostAccessError):
        g[1].item()
    with pytest.raises(tf.PlacementError):
        g.__dlpack__(dl_device=(1, 0))  # DLPack towards the host: no hidden copy either
    with pytest.raises(tf.PlacementError):
        tf.from_dlpack(np.ones(3), runtime=cuda_rt)  # a host array: only copy=True moves it
    assert cuda_rt.stats()["downloads"] == downloads
    t = tf.from_dlpack(np.ones(3), runtime=cuda_rt, copy=True)
    assert t.device == "cuda:0"
    np.testing.assert_array_equal(g.download(), np.arange(4.0))


def test_torch_cuda_tensors_and_dlpack(cuda_rt, rt):
    if os.environ.get("TENFERRO_REQUIRE_TORCH") == "1":
        import torch
    else:
        torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        if os.environ.get("TENFERRO_REQUIRE_CUDA") == "1":
            pytest.fail("TENFERRO_REQUIRE_CUDA=1 but torch sees no CUDA device")
        pytest.skip("needs a CUDA GPU visible to torch")
    x = torch.arange(6, dtype=torch.float64, device="cuda").reshape(2, 3)
    # Into a CPU runtime: a placement error naming both devices (never a hidden download).
    with pytest.raises(tf.PlacementError) as info:
        tf.from_dlpack(x, runtime=rt)
    assert "cuda:0" in str(info.value) and "cpu:0" in str(info.value)
    # Zero-copy exchange of CUDA memory is not implemented: a typed error saying what to call,
    # in both directions, and nothing breaks.
    with pytest.raises(tf.UnsupportedError, match="upload"):
        tf.from_dlpack(x, runtime=cuda_rt)
    g = cuda_rt.upload(np.arange(6.0).reshape(2, 3))
    with pytest.raises(tf.UnsupportedError, match="download"):
        torch.from_dlpack(g)
    # The explicit route: download from one, upload to the other.
    np.testing.assert_array_equal(cuda_rt.upload(x.cpu().numpy()).download(), g.download())
