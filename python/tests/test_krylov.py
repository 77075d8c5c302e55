"""tf.krylov against scipy.linalg / numpy.linalg references: eigenvalues of random Hermitian
and general matrices (real and complex, degenerate spectra, k up to 6), exp(tA)v against
scipy.linalg.expm (large t||A|| included), gmres/cg solutions, and the error contract
(NotConvergedError with .best, bad arguments, exceptions of the callable)."""

import numpy as np
import pytest
import scipy.linalg

import tenferro as tf

from conftest import crandn

DTYPES = [np.float64, np.complex128]


def hermitian(rng, n, dtype, spectrum=None):
    q, _ = np.linalg.qr(crandn(rng, n, n, dtype=dtype))
    w = rng.standard_normal(n) if spectrum is None else np.asarray(spectrum, dtype=float)
    return (q * w) @ q.conj().T, w


def as_op(rt, a):
    """A as a callable on tf Tensors (the path the DMRG examples use). einsum wants one dtype:
    a real A meets a complex vector (complex t) as complex."""
    m, mc = rt.upload(a), rt.upload(a.astype(np.complex128))
    return lambda x: tf.einsum("ij,j->i", m if x.dtype == m.dtype else mc, x)


def check_eigenpairs(a, w, v, tol):
    v = v.download()
    for i, wi in enumerate(w):
        assert np.linalg.norm(a @ v[:, i] - wi * v[:, i]) <= tol * max(1.0, abs(wi))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("which,k", [("SA", 1), ("LA", 3), ("LM", 6), ("SA", 6)])
def test_eigsh_matches_eigh(rt, rng, dtype, which, k):
    n = 40
    a, _ = hermitian(rng, n, dtype)
    ref = np.linalg.eigvalsh(a)
    want = {"SA": ref[:k], "LA": ref[-k:], "LM": np.sort(ref[np.argsort(-abs(ref))[:k]])}[which]
    v0 = rt.upload(crandn(rng, n, dtype=dtype))
    w, v = tf.krylov.eigsh(as_op(rt, a), k=k, which=which, v0=v0)
    assert w.dtype == np.float64 and v.shape == (n, k)
    np.testing.assert_allclose(w, want, atol=1e-10)  # ascending, as SciPy's
    check_eigenpairs(a, w, v, 1e-8)


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigsh_degenerate_spectrum_spans_the_eigenspace(rt, rng, dtype):
    # A threefold lowest eigenvalue: the three eigenvectors must span its eigenspace.
    spectrum = [-2.0, -2.0, -2.0] + list(np.linspace(0.0, 3.0, 27))
    a, _ = hermitian(rng, 30, dtype, spectrum)
    w, v = tf.krylov.eigsh(rt.upload(a), k=3, which="SA",
                           v0=rt.upload(crandn(rng, 30, dtype=dtype)))
    np.testing.assert_allclose(w, [-2.0] * 3, atol=1e-10)
    vv = v.download()
    np.testing.assert_allclose(vv.conj().T @ vv, np.eye(3), atol=1e-10)
    check_eigenpairs(a, w, v, 1e-8)


def test_eigsh_tensor_operator_without_v0_and_values_only(rt, rng):
    a, _ = hermitian(rng, 25, np.float64)
    w = tf.krylov.eigsh(rt.upload(a), k=2, which="LA", return_eigenvectors=False)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a)[-2:], atol=1e-10)


def test_eigsh_matches_scipy_on_shaped_vectors(rt, rng):
    # The callable's tensors keep their shape (here 3 x 4 x 2, a DMRG-like block).
    import scipy.sparse.linalg as sla

    a, _ = hermitian(rng, 24, np.float64)
    op = lambda x: tf.einsum("ij,j->i", rt.upload(a), x.reshape(24)).reshape(3, 4, 2)  # noqa
    v0 = rt.upload(rng.standard_normal((3, 4, 2)))
    w, v = tf.krylov.eigsh(op, k=2, which="SA", v0=v0)
    assert v.shape == (3, 4, 2, 2)
    ws = sla.eigsh(a, k=2, which="SA")[0]
    np.testing.assert_allclose(w, np.sort(ws), atol=1e-10)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("which", ["LM", "LR", "SR"])
def test_eigs_matches_eig(rt, rng, dtype, which):
    n, k = 30, 4
    a = crandn(rng, n, n, dtype=dtype)
    ref = np.linalg.eigvals(a)
    key = {"LM": -abs(ref), "LR": -ref.real, "SR": ref.real}[which]
    want = ref[np.argsort(key)[:k]]
    w, v = tf.krylov.eigs(rt.upload(a), k=k, which=which,
                          v0=rt.upload(crandn(rng, n, dtype=dtype)))
    assert w.dtype == np.complex128 and v.shape == (n, k)
    # Best first; conjugate pairs may come in either order, and where k splits a pair of a real
    # matrix either member is a right answer (they rank the same): compare the values that rank
    # them, then check that each one returned is an eigenvalue.
    rank = {"LM": lambda z: -abs(z), "LR": lambda z: -z.real, "SR": lambda z: z.real}[which]
    np.testing.assert_allclose(np.sort(rank(w)), np.sort(rank(want)), atol=1e-8)
    for wi in w:
        assert np.min(abs(ref - wi)) < 1e-8
    check_eigenpairs(a, w, v, 1e-7)


@pytest.mark.parametrize("dtype", DTYPES)
def test_svds_matches_svd(rt, rng, dtype):
    a = crandn(rng, 30, 18, dtype=dtype)
    u, s, vh = tf.krylov.svds(rt.upload(a), k=5)
    ref = np.linalg.svd(a, compute_uv=False)[:5]
    np.testing.assert_allclose(s.download(), ref, rtol=1e-10)  # descending, as NumPy's
    uu, vv = u.download(), vh.download()
    np.testing.assert_allclose(uu.conj().T @ uu, np.eye(5), atol=1e-10)
    np.testing.assert_allclose(vv @ vv.conj().T, np.eye(5), atol=1e-10)
    # The best rank-5 approximation: its error is the sixth singular value (spectral norm).
    err = np.linalg.norm(a - (uu * s.download()) @ vv, 2)
    np.testing.assert_allclose(err, np.linalg.svd(a, compute_uv=False)[5], rtol=1e-8)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("t", [0.5, -1j * 3.0, 25.0j])
def test_expm_multiply_matches_expm(rt, rng, dtype, t):
    # t ||A|| up to ~150: several substeps.
    n = 20
    a, _ = hermitian(rng, n, dtype)
    a *= 3.0
    v = crandn(rng, n, dtype=dtype)
    x = tf.krylov.expm_multiply(as_op(rt, a), rt.upload(v), t).download()
    ref = scipy.linalg.expm(t * a) @ v
    np.testing.assert_allclose(x, ref, atol=1e-9 * np.linalg.norm(ref))


def test_expm_multiply_nonhermitian_matrix_operator(rt, rng):
    a = crandn(rng, 15, 15) / 2
    v = crandn(rng, 15)
    x = tf.krylov.expm_multiply(rt.upload(a), rt.upload(v), 2.0).download()
    np.testing.assert_allclose(x, scipy.linalg.expm(2.0 * a) @ v, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("dtype", DTYPES)
def test_cg_on_spd(rt, rng, dtype):
    n = 40
    a, _ = hermitian(rng, n, dtype, np.linspace(1.0, 20.0, n))
    b = crandn(rng, n, dtype=dtype)
    x, info = tf.krylov.cg(as_op(rt, a), rt.upload(b), rtol=1e-10)
    assert info == 0
    np.testing.assert_allclose(x.download(), np.linalg.solve(a, b), rtol=1e-7, atol=1e-8)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gmres_nonsymmetric(rt, rng, dtype):
    n = 40
    a = np.eye(n) * 4 + crandn(rng, n, n, dtype=dtype) / np.sqrt(n)
    b = crandn(rng, n, dtype=dtype)
    x0 = rt.upload(np.zeros(n, dtype=dtype))
    x, info = tf.krylov.gmres(rt.upload(a), rt.upload(b), x0, rtol=1e-10, restart=15)
    assert info == 0
    np.testing.assert_allclose(x.download(), np.linalg.solve(a, b), rtol=1e-8, atol=1e-9)


def test_minres_hermitian_indefinite(rt, rng):
    n = 40
    a, _ = hermitian(rng, n, np.complex128, np.concatenate([-np.linspace(1, 5, 20),
                                                           np.linspace(1, 5, 20)]))
    b = crandn(rng, n, dtype=np.complex128)
    x, info = tf.krylov.minres(as_op(rt, a), rt.upload(b), rtol=1e-10)
    assert info == 0
    np.testing.assert_allclose(x.download(), np.linalg.solve(a, b), rtol=1e-7, atol=1e-8)


def test_nonconvergence_raises_with_best_iterate(rt, rng):
    n = 60
    a = np.diag(np.linspace(1.0, 1e4, n))  # ill-conditioned: 3 cg iterations cannot converge
    b = rng.standard_normal(n)
    with pytest.raises(tf.NotConvergedError) as e:
        tf.krylov.cg(rt.upload(a), rt.upload(b), rtol=1e-12, maxiter=3)
    assert isinstance(e.value, tf.NumericalError)
    assert len(e.value.best) == 1 and isinstance(e.value.best[0], tf.Tensor)
    assert e.value.residual_norms[0] > 1e-12 * np.linalg.norm(b)
    # The reported residual is the best iterate's.
    r = np.linalg.norm(b - a @ e.value.best[0].download())
    np.testing.assert_allclose(r, e.value.residual_norms[0], rtol=1e-6)


def test_bad_arguments(rt, rng):
    a = rt.upload(np.eye(5))
    v0 = rt.upload(np.ones(5))
    with pytest.raises(tf.ValidationError):
        tf.krylov.eigsh(a, k=5, v0=v0)  # k >= dimension
    with pytest.raises(tf.ValidationError):
        tf.krylov.eigsh(a, k=1, which="XX", v0=v0)
    with pytest.raises(tf.ValidationError):
        tf.krylov.eigsh(lambda x: x, k=1)  # a callable needs v0
    with pytest.raises(tf.ValidationError):
        tf.krylov.eigsh(rt.upload(np.ones((3, 4))), k=1)  # not square
    with pytest.raises(tf.ValidationError):
        tf.krylov.eigsh(lambda x: x[:3], k=1, v0=v0)  # shape-changing operator
    with pytest.raises(tf.ValidationError):
        tf.krylov.gmres(lambda x: x.download(), v0)  # not a Tensor
    with pytest.raises(tf.ValidationError):
        tf.krylov.cg(42, v0)
    other = tf.Runtime.cpu().upload(np.eye(5))
    with pytest.raises(tf.ContextMismatchError):
        tf.krylov.eigsh(lambda x: tf.einsum("ij,j->i", other, other[0]), k=1, v0=v0)
    with pytest.raises(tf.UnsupportedError):
        tf.krylov.eigsh(a, k=1, v0=v0, sigma=0.5)


def test_callable_exception_propagates_unchanged(rt):
    class Boom(Exception):
        pass

    calls = []

    def op(x):
        calls.append(1)
        if len(calls) == 3:
            raise boom
        return x * d  # a diagonal operator with distinct eigenvalues: no early breakdown

    d = rt.upload(np.arange(1.0, 9.0))
    v0 = rt.upload(np.ones(8))
    for solver in (lambda: tf.krylov.eigsh(op, k=1, v0=v0),
                   lambda: tf.krylov.eigs(op, k=1, v0=v0.astype(np.complex128)),
                   lambda: tf.krylov.gmres(op, v0),
                   lambda: tf.krylov.cg(op, v0),
                   lambda: tf.krylov.minres(op, v0),
                   lambda: tf.krylov.expm_multiply(op, v0, 1.0)):
        calls.clear()
        boom = Boom("from the operator")
        with pytest.raises(Boom) as e:
            solver()
        assert e.value is boom  # the very object, not a copy or a wrapper
        assert len(calls) == 3  # the solver stopped at the exception


def test_webgpu_float32_solvers_move_no_tensor(gpu_rt, rng):
    # eigsh and expm_multiply in float32 on WebGPU (lavapipe in CI): the only transfers are the
    # uploads and the final downloads made here; the solvers' scalars are counted apart.
    a, _ = hermitian(rng, 30, np.float64)
    a32 = a.astype(np.float32)
    m = gpu_rt.upload(a32)
    v0 = gpu_rt.upload(rng.standard_normal(30).astype(np.float32))
    before = gpu_rt.stats()
    w, v = tf.krylov.eigsh(lambda x: tf.einsum("ij,j->i", m, x), k=2, which="SA", v0=v0,
                           tol=1e-5)
    x = tf.krylov.expm_multiply(m, v0, -0.5, tol=1e-5)
    after = gpu_rt.stats()
    assert (after["uploads"], after["downloads"]) == (before["uploads"], before["downloads"])
    assert v.dtype == np.float32 and x.dtype == np.float32
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a32.astype(np.float64))[:2], atol=1e-4)
    ref = scipy.linalg.expm(-0.5 * a32.astype(np.float64)) @ v0.download().astype(np.float64)
    np.testing.assert_allclose(x.download(), ref, atol=1e-4 * np.linalg.norm(ref))


def test_eigsh_from_an_unwanted_eigenvector_finds_the_wanted_one(rt):
    """A start vector on (or next to) an excited state: the ground state all the same, as
    SciPy's; only eager=True may stop at the first converged pair (its documented trade)."""
    d = np.diag(np.arange(1.0, 11.0))
    w = tf.krylov.eigsh(rt.upload(d), k=1, which="SA", v0=rt.upload(np.eye(10)[2]),
                        return_eigenvectors=False)
    np.testing.assert_allclose(w, [1.0], atol=1e-10)
    rng = np.random.default_rng(1)
    h = rng.standard_normal((50, 50))
    a = (h + h.T) / 2
    ws, u = np.linalg.eigh(a)
    v0 = u[:, 3] + 1e-9 * rng.standard_normal(50)
    w = tf.krylov.eigsh(rt.upload(a), k=1, which="SA", v0=rt.upload(v0), tol=1e-6,
                        return_eigenvectors=False)
    np.testing.assert_allclose(w, ws[:1], atol=1e-5)
    eager = tf.krylov.eigsh(rt.upload(a), k=1, which="SA", v0=rt.upload(v0), tol=1e-6,
                            return_eigenvectors=False, eager=True)
    np.testing.assert_allclose(eager, ws[3:4], atol=1e-5)


@pytest.mark.parametrize("solver", ["cg", "minres", "gmres"])
def test_solvers_report_success_only_at_the_true_residual(rt, solver):
    rng = np.random.default_rng(7)
    n = 100
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    for cond in [1e9, 1e12]:
        a = (q * np.logspace(0, np.log10(cond), n)) @ q.T
        a = (a + a.T) / 2
        b = rng.standard_normal(n)
        try:
            x, info = getattr(tf.krylov, solver)(rt.upload(a), rt.upload(b), rtol=1e-8,
                                                 maxiter=200 if solver == "gmres" else 20000)
            assert info == 0
            assert np.linalg.norm(b - a @ x.download()) <= 1e-8 * np.linalg.norm(b) * (1 + 1e-9)
        except tf.NotConvergedError as e:
            best = e.best[0].download()
            np.testing.assert_allclose(e.residual_norms[0], np.linalg.norm(b - a @ best),
                                       rtol=1e-8)


@pytest.mark.parametrize("solver", ["cg", "minres", "gmres"])
def test_zero_right_hand_side_gives_zero_from_any_start(rt, solver):
    a = np.diag(np.arange(1.0, 6.0)) + 0.1 * np.ones((5, 5))
    x, info = getattr(tf.krylov, solver)(rt.upload(a), rt.upload(np.zeros(5)),
                                         rt.upload(np.ones(5)))
    assert info == 0
    np.testing.assert_array_equal(x.download(), np.zeros(5))


def test_gmres_near_the_attainable_accuracy_does_not_stop_early(rt):
    """float32 systems of condition 10 at rtol 3e-7 (a few eps32): a cycle that rounding keeps
    from lowering the residual must not end a solve that later cycles finish (a first version
    of the stagnation stop gave up on a dozen of these)."""
    failures = []
    for seed in range(60):
        rng = np.random.default_rng(seed)
        u, _, vh = np.linalg.svd(rng.standard_normal((20, 20)))
        a = ((u * np.linspace(1, 10, 20)) @ vh).astype(np.float32)
        b = rng.standard_normal(20).astype(np.float32)
        try:
            tf.krylov.gmres(rt.upload(a), rt.upload(b), rtol=3e-7, restart=20, maxiter=500)
        except tf.NotConvergedError:
            failures.append(seed)
    assert failures == []


def test_eigsh_smallest_magnitude_converges_at_machine_precision(rt):
    """tol=0 means machine precision: a residual at rounding level of ||H|| is converged (the
    ARPACK test alone stalled eigenvalues small next to ||H|| on a residual of ~4e-16)."""
    failures = []
    for seed in range(60):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(10, 40))
        m = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
        h = (m + m.conj().T) / 2
        w = np.linalg.eigvalsh(h)
        want = w[np.argsort(np.abs(w))][:1]
        try:
            got = tf.krylov.eigsh(rt.upload(h), k=1, which="SM", return_eigenvectors=False)
            np.testing.assert_allclose(got, want, atol=1e-12 * np.abs(w).max())
        except tf.NotConvergedError:
            failures.append(seed)
    assert failures == []


def test_eigsh_refuses_a_basis_of_k_plus_one(rt):
    """ncv = k + 1 keeps only the k Ritz vectors at a restart, so any eigenvector is a fixed
    point ('LM' settled on the wrong end of the spectrum): refused."""
    a = rt.upload(np.diag(np.arange(1.0, 11.0)))
    with pytest.raises(tf.ValidationError, match="ncv"):
        tf.krylov.eigsh(a, k=1, which="LM", ncv=2)
    w = tf.krylov.eigsh(a, k=1, which="LM", ncv=3, return_eigenvectors=False)
    np.testing.assert_allclose(w, [10.0], atol=1e-10)


def test_expm_multiply_beyond_doubles_range_is_a_numerical_error_not_a_hang(rt):
    # exp(710) overflows float64: the substep loop spun forever on a NaN step (Python and
    # Ctrl-C included). Found by a review against SciPy.
    one = rt.upload(np.array([1.0]))
    a = rt.upload(np.array([[1.0]]))
    assert float(tf.krylov.expm_multiply(a, one, 709.0).download()[0]) == pytest.approx(
        np.exp(709.0), rel=1e-12)
    with pytest.raises(tf.NumericalError):
        tf.krylov.expm_multiply(a, one, 710.0, max_substeps=3)
    d = rt.upload(np.diag(np.arange(1.0, 7.0)))
    with pytest.raises(tf.NumericalError):
        tf.krylov.expm_multiply(lambda x: tf.einsum("ij,j->i", d.astype(x.dtype), x),
                                rt.upload(np.ones(6)), 300 + 5j)


def test_krylov_on_an_operator_of_huge_norm_is_right(rt):
    # ||A|| above ~1e154: every first step looked invariant (a sum of squares overflowed) and
    # eigsh, eigs and expm_multiply answered after one step, silently wrong.
    a = np.diag(np.arange(1.0, 7.0)) + 0.1 * np.ones((6, 6))
    v = rt.upload(np.ones(6))
    want = np.linalg.eigvalsh(a)[-1]
    for s in (1e150, 1e155, 1e200):
        w = tf.krylov.eigsh(rt.upload(a * s), k=1, which="LA", v0=v, return_eigenvectors=False)
        assert w[0] / s == pytest.approx(want, rel=1e-10)
        x = tf.krylov.expm_multiply(rt.upload(a * s), v, 1 / s).download()
        np.testing.assert_allclose(x, scipy.linalg.expm(a) @ np.ones(6), rtol=1e-10)


def test_krylov_arguments_are_typed_errors(rt, rng):
    a = rt.upload(np.diag(np.arange(1.0, 7.0)))
    v = rt.upload(np.ones(6))
    for call in (lambda: tf.krylov.eigsh(a, k=2.0, v0=v),
                 lambda: tf.krylov.eigsh(a, k=2**70, v0=v),
                 lambda: tf.krylov.expm_multiply(a, v, 1.0, ncv=2**70),
                 lambda: tf.krylov.eigsh(a, k=1, v0=v, tol=float("nan")),
                 lambda: tf.krylov.expm_multiply(a, v, 1.0, tol=float("nan")),
                 lambda: tf.krylov.svds(lambda x: x, k=1),
                 lambda: tf.krylov.svds(a, k=1, seed=-1)):
        with pytest.raises(tf.ValidationError):
            call()
    # t has no derivative rule: a typed refusal, not Python's TypeError from complex().
    with pytest.raises(tf.UnsupportedError):
        tf.grad(lambda t: tf.krylov.expm_multiply(a, v, t, adjoint=a).sum())(
            rt.upload(np.array(0.3)))


def test_eigsh_refuses_a_matrix_that_is_not_hermitian(rt, rng):
    """Lanczos on a non-Hermitian matrix returned its Hermitian part's eigenvalue with no error
    (an adversarial sweep); the Lanczos pass refuses it, plain and traced, while an asymmetry
    at rounding level passes."""
    a = rng.standard_normal((6, 6))
    for dtype in (np.float64, np.float32, np.complex128):
        with pytest.raises(tf.ValidationError, match="not Hermitian"):
            tf.krylov.eigsh(rt.upload(a.astype(dtype)), k=1, which="LA")
    with pytest.raises(tf.ValidationError, match="not Hermitian"):
        tf.grad(lambda M: tf.krylov.eigsh(M, k=1, which="LA", return_eigenvectors=False).sum())(
            rt.upload(a))
    # A Gram matrix with an asymmetry at rounding level (as B^T B formed by a product can
    # have), of a scale far from 1: accepted, and right.
    b = rng.standard_normal((40, 30)) * 1e100
    g = b.T @ b
    g = g + 1e-14 * np.abs(g).max() * rng.standard_normal(g.shape)
    assert not np.array_equal(g, g.T)
    w = tf.krylov.eigsh(rt.upload(g), k=1, which="LA", return_eigenvectors=False)
    assert w[0] == pytest.approx(np.linalg.eigvalsh(g)[-1], rel=1e-10)
    # The runtime stays usable after the refusal.
    h = a + a.T
    w = tf.krylov.eigsh(rt.upload(h), k=1, which="LA", return_eigenvectors=False)
    assert w[0] == pytest.approx(np.linalg.eigvalsh(h)[-1], rel=1e-10)


def test_ctrl_c_reaches_a_solve_on_a_tensor_operator(rt):
    # The solve runs without the GIL: Python's signal handlers ran only when it ended (55 s for
    # this cg). The handler raises its own exception (pytest treats KeyboardInterrupt as the
    # session's end).
    import os
    import signal
    import threading
    import time

    class Interrupted(Exception):
        pass

    def handler(signum, frame):
        raise Interrupted()

    n = 1500  # ~0.5 ms a matvec: the solve cannot end (NotConvergedError) before the signal
    m = np.random.default_rng(0).standard_normal((n, n))
    s = rt.upload(m @ m.T)
    b = rt.upload(np.ones(n))
    old = signal.signal(signal.SIGINT, handler)
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    try:
        timer.start()
        start = time.monotonic()
        with pytest.raises(Interrupted):
            tf.krylov.cg(s, b, rtol=1e-300, maxiter=10**7)
        assert time.monotonic() - start < 5.0
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)
