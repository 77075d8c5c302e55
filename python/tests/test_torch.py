"""PyTorch CPU tensors and tenferro CPU tensors share memory through DLPack both ways: the
same data pointer, writes visible on both sides, the producer's memory kept alive by the
consumer, every tenferro dtype, strided torch views as zero-copy views (never a silent copy),
and typed errors where sharing is impossible. einsum, opt_einsum and gradients are checked
against torch.einsum and torch.autograd on the same (shared) inputs.

TENFERRO_REQUIRE_TORCH=1 (scripts/test-python.sh sets it; it installs torch) turns a missing
torch into a failure instead of a skip."""

import gc
import os

import numpy as np
import pytest

import tenferro as tf

if os.environ.get("TENFERRO_REQUIRE_TORCH") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

DTYPES = [(torch.float32, np.float32), (torch.float64, np.float64),
          (torch.complex64, np.complex64), (torch.complex128, np.complex128)]
DTYPE_IDS = ["f32", "f64", "c64", "c128"]


def ptr(t):
    """The address of a tenferro tensor's first element, as the NumPy DLPack tests take it."""
    return np.asarray(t).__array_interface__["data"][0]


def trandn(*shape, dtype=torch.float64, seed=0):
    return torch.randn(*shape, dtype=dtype, generator=torch.Generator().manual_seed(seed))


def torch_strides_bytes(x):
    return tuple(s * x.element_size() for s in x.stride())


@pytest.mark.parametrize("tdt,ndt", DTYPES, ids=DTYPE_IDS)
def test_torch_to_tenferro_is_zero_copy_and_shares_writes(rt, tdt, ndt):
    x = trandn(3, 4, dtype=tdt)
    uploads = rt.stats()["uploads"]
    t = tf.from_dlpack(x, runtime=rt, copy=False)
    assert rt.stats()["uploads"] == uploads  # no copy, no transfer
    assert t.dtype == ndt and t.shape == (3, 4)
    assert ptr(t) == x.data_ptr()
    assert t.strides == torch_strides_bytes(x)
    x[1, 2] = -7.0
    assert t[1, 2].item() == -7.0
    np.testing.assert_array_equal(tf.einsum("ij->ji", t).download(), x.numpy().T)


@pytest.mark.parametrize("tdt,ndt", DTYPES, ids=DTYPE_IDS)
def test_tenferro_to_torch_is_zero_copy_and_shares_writes(rt, tdt, ndt):
    a = np.arange(6.0).reshape(2, 3).astype(ndt)
    t = rt.upload(a)
    y = torch.from_dlpack(t)
    assert y.dtype == tdt and tuple(y.shape) == (2, 3)
    assert y.data_ptr() == ptr(t)
    # The upload is column-major; torch sees those strides, not a C-order copy.
    assert torch_strides_bytes(y) == t.strides
    np.testing.assert_array_equal(y.numpy(), a)
    y[0, 1] = 5.0  # torch writes, tenferro reads
    assert t[0, 1].item() == 5.0
    np.asarray(t)[1, 2] = -3.0  # a write through tenferro's exported buffer, torch reads
    assert y[1, 2].item() == -3.0


def test_tenferro_results_and_views_cross_to_torch_without_copy(rt, rng):
    a = rng.standard_normal((5, 6))
    t = tf.einsum("ij,jk->ik", rt.upload(a), rt.upload(np.eye(6)))  # a computed result
    view = t[1:4, ::2]  # an offset and a step: a strided view of the result
    y = torch.from_dlpack(view)
    assert y.data_ptr() == ptr(view) and y.data_ptr() != ptr(t)  # the offset is kept
    assert torch_strides_bytes(y) == view.strides
    np.testing.assert_allclose(y.numpy(), a[1:4, ::2], rtol=1e-14)
    yt = torch.from_dlpack(t.T)
    assert yt.data_ptr() == ptr(t)
    np.testing.assert_allclose(yt.numpy(), a.T, rtol=1e-14)


@pytest.mark.parametrize("make", [
    lambda b: b.T,
    lambda b: b[1:4, ::2],
    lambda b: b[:, 1:].permute(1, 0),
    lambda b: b.reshape(2, 3, 6).permute(2, 0, 1)[::2],
    lambda b: b[2].expand(4, 6),  # a zero stride: every row is the same memory
], ids=["transpose", "offset-and-step", "slice-permute", "3d-permute-step", "expand"])
def test_strided_torch_views_are_zero_copy_views(rt, make):
    base = trandn(6, 6)
    view = make(base)
    assert not view.is_contiguous()
    # copy=False: a copy would be an error, so success means tenferro views torch's memory.
    t = tf.from_dlpack(view, runtime=rt, copy=False)
    assert t.shape == tuple(view.shape)
    assert ptr(t) == view.data_ptr()
    assert t.strides == torch_strides_bytes(view)
    base.mul_(-2.0)  # in place on the base: the view sees it
    np.testing.assert_array_equal(t.download(), view.numpy())
    np.testing.assert_allclose((t * 3.0).sum().item(), float((view * 3.0).sum()), rtol=1e-12)
    # The default (copy=None) takes the same zero-copy route: never a silent copy.
    assert ptr(tf.from_dlpack(view, runtime=rt)) == view.data_ptr()


def test_torch_producer_deleted_while_tenferro_holds_it(rt):
    base = trandn(64, 64, seed=3)
    expected = base[8:40].numpy().copy()
    t = tf.from_dlpack(base[8:40], runtime=rt)
    del base
    gc.collect()
    # Fresh allocations of the same size would reuse freed memory and show a dangling view.
    junk = [torch.full((64, 64), 123.0, dtype=torch.float64) for _ in range(8)]
    np.testing.assert_array_equal(t.download(), expected)
    np.testing.assert_allclose(tf.einsum("ij->", t).item(), expected.sum(), rtol=1e-12)
    del junk


def test_tenferro_producer_deleted_while_torch_holds_it(rt, rng):
    a = rng.standard_normal((64, 64))
    t = rt.upload(a)
    y = torch.from_dlpack(t[8:40])
    del t
    gc.collect()
    junk = [rt.upload(np.full((64, 64), 123.0)) for _ in range(8)]
    np.testing.assert_array_equal(y.numpy(), a[8:40])
    assert float(y.sum()) == pytest.approx(a[8:40].sum(), rel=1e-12)
    del junk


def test_round_trip_torch_tenferro_torch_is_the_same_memory(rt):
    x = trandn(4, 5, dtype=torch.complex128)
    back = torch.from_dlpack(tf.from_dlpack(x, runtime=rt))
    assert back.data_ptr() == x.data_ptr() and back.stride() == x.stride()
    back[0, 0] = 1 + 2j
    assert x[0, 0].item() == 1 + 2j


@pytest.mark.parametrize("make,fix", [
    (lambda x: x.conj(), lambda v: v.resolve_conj()),  # the conjugate bit: lazily conjugated
    (lambda x: x.conj().imag, lambda v: v.resolve_neg()),  # the negative bit: lazily negated
    (lambda x: x.real.clone().requires_grad_(), lambda v: v.detach()),
], ids=["conj-bit", "neg-bit", "requires-grad"])
def test_what_torch_refuses_to_export_is_a_validation_error(rt, make, fix):
    # torch's __dlpack__ refuses the conjugate bit and requires_grad, but its legacy
    # to_dlpack() (nanobind's fallback) would hand over a lazy conjugate's raw memory: the
    # unconjugated values. torch 2.15's __dlpack__ exports a negated view's raw memory (the
    # wrong sign). Both would be silently wrong values.
    view = make(trandn(3, 3, dtype=torch.complex128))
    for copy in (None, False, True):
        with pytest.raises(tf.ValidationError, match="refuses|is_conj|is_neg"):
            tf.from_dlpack(view, runtime=rt, copy=copy)
    plain = fix(view)  # the explicit way: torch's own resolution, then zero copy
    t = tf.from_dlpack(plain, runtime=rt, copy=False)
    assert ptr(t) == plain.data_ptr()
    np.testing.assert_array_equal(t.download(), plain.detach().numpy())


@pytest.mark.parametrize("dt", [torch.int64, torch.float16, torch.bool],
                         ids=["int64", "float16", "bool"])
def test_dtypes_tenferro_lacks_are_a_validation_error(rt, dt):
    with pytest.raises(tf.ValidationError, match="float32"):
        tf.from_dlpack(torch.zeros(3, dtype=dt), runtime=rt)


def test_torch_cpu_tensor_for_a_webgpu_runtime_is_a_placement_error(gpu_rt):
    with pytest.raises(tf.PlacementError, match="upload"):
        tf.from_dlpack(torch.ones(3, dtype=torch.float32), runtime=gpu_rt)
    g = gpu_rt.upload(np.ones(3, dtype=np.float32))
    with pytest.raises((tf.Error, RuntimeError, BufferError, TypeError)):
        torch.from_dlpack(g)  # torch cannot take WebGPU memory; nothing is downloaded
    assert gpu_rt.stats()["downloads"] == 0


def test_torch_cuda_tensor_for_a_cpu_runtime_is_a_placement_error(rt):
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU visible to torch")
    x = torch.ones(3, device="cuda")
    with pytest.raises(tf.PlacementError) as info:
        tf.from_dlpack(x, runtime=rt)
    assert "cuda:0" in str(info.value) and "cpu:0" in str(info.value)


EINSUMS = [
    ("ij,jk->ik", [(5, 6), (6, 4)]),
    ("ij,jk,kl->il", [(7, 8), (8, 9), (9, 3)]),
    ("bij,bjk->bik", [(3, 4, 5), (3, 5, 2)]),
    ("abc,cd,bde->ae", [(3, 4, 5), (5, 6), (4, 6, 2)]),
    ("ii->i", [(5, 5)]),
    ("ij->", [(4, 7)]),
]


@pytest.mark.parametrize("tdt", [torch.float64, torch.complex128], ids=["f64", "c128"])
@pytest.mark.parametrize("eq,shapes", EINSUMS, ids=[e for e, _ in EINSUMS])
def test_einsum_and_opt_einsum_match_torch_einsum(rt, eq, shapes, tdt):
    oe = pytest.importorskip("opt_einsum")
    xs = [trandn(*s, dtype=tdt, seed=i) for i, s in enumerate(shapes)]
    ts = [tf.from_dlpack(x, runtime=rt, copy=False) for x in xs]  # torch's memory, shared
    want = torch.einsum(eq, *xs).numpy()
    np.testing.assert_allclose(tf.einsum(eq, *ts).download(), want, rtol=1e-11, atol=1e-12)
    got = oe.contract(eq, *ts, backend="tenferro")
    assert isinstance(got, tf.Tensor)
    np.testing.assert_allclose(got.download(), want, rtol=1e-11, atol=1e-12)


def test_complex_gradient_follows_torch_autograd(rt):
    """tenferro documents PyTorch's conjugate-Wirtinger convention: the same numbers."""
    x, w = trandn(4, 5, dtype=torch.complex128, seed=1), trandn(5, 3, dtype=torch.complex128)
    xt, wt = (tf.from_dlpack(v, runtime=rt) for v in (x, w))
    gx, gw = tf.grad(lambda a, b: (tf.abs(tf.einsum("ij,jk->ik", a, b)) ** 2).sum(),
                     argnums=(0, 1))(xt, wt)
    xr, wr = x.clone().requires_grad_(), w.clone().requires_grad_()
    (torch.einsum("ij,jk->ik", xr, wr).abs() ** 2).sum().backward()
    np.testing.assert_allclose(gx.download(), xr.grad.numpy(), rtol=1e-10)
    np.testing.assert_allclose(gw.download(), wr.grad.numpy(), rtol=1e-10)


def test_svd_and_eigh_gradients_follow_torch_autograd(rt):
    a = trandn(6, 6, seed=2)
    sym = a + a.T
    at, st = tf.from_dlpack(a, runtime=rt), tf.from_dlpack(sym, runtime=rt)

    def svd_loss(x):  # gauge invariant: singular values and U diag(S) Vh
        u, s, vh = tf.linalg.svd(x, full_matrices=False)
        return s.sum() + (tf.einsum("ij,j,jk->ik", u, s, vh) ** 2).sum()

    def eigh_loss(x):  # the lowest two eigenvalues and their projector's diagonal
        w, v = tf.linalg.eigh(x)
        return w[:2].sum() + (tf.einsum("ik,ik->i", v[:, :2], v[:, :2]) ** 2).sum()

    ar, sr = a.clone().requires_grad_(), sym.clone().requires_grad_()
    u, s, vh = torch.linalg.svd(ar, full_matrices=False)
    (s.sum() + (torch.einsum("ij,j,jk->ik", u, s, vh) ** 2).sum()).backward()
    w, v = torch.linalg.eigh(sr)
    (w[:2].sum() + (torch.einsum("ik,ik->i", v[:, :2], v[:, :2]) ** 2).sum()).backward()
    np.testing.assert_allclose(tf.grad(svd_loss)(at).download(), ar.grad.numpy(), rtol=1e-8,
                               atol=1e-10)
    np.testing.assert_allclose(tf.grad(eigh_loss)(st).download(), sr.grad.numpy(), rtol=1e-8,
                               atol=1e-10)
