"""Differentiation through tf.krylov: eigsh, cg, gmres and expm_multiply under tf.grad and
tf.jvp, through a Hamiltonian captured by the operator callable and through A, b and v given
as Tracers, against closed forms (Hellmann-Feynman, the adjoint solve) and central finite
differences of scipy.linalg.expm; and the typed errors of the solvers without a rule."""

import numpy as np
import pytest
import scipy.linalg

import tenferro as tf


def symmetric(rng, n):
    h = rng.standard_normal((n, n))
    return h + h.T


def matvec(m):
    return lambda x: tf.einsum("ij,j->i", m, x)


def test_eigsh_eigenvalue_gradient_is_hellmann_feynman(rt, rng):
    h = symmetric(rng, 7)
    H, v0 = rt.upload(h), rt.upload(np.ones(7))
    _, u = np.linalg.eigh(h)

    def lowest_two(H):  # through a callable that captures H, and through H itself
        w, _ = tf.krylov.eigsh(matvec(H), k=1, which="SA", v0=v0, tol=1e-13)
        w2 = tf.krylov.eigsh(H, k=2, which="SA", v0=v0, tol=1e-13, return_eigenvectors=False)
        return w[0] + 2.0 * w2[1]

    g = tf.grad(lowest_two)(H).download()
    want = np.outer(u[:, 0], u[:, 0]) + 2.0 * np.outer(u[:, 1], u[:, 1])
    np.testing.assert_allclose(g, want, atol=1e-10)
    # Forward mode: d lambda_0 = u0^T dH u0.
    dh = symmetric(rng, 7)
    _, t = tf.jvp(lambda H: tf.krylov.eigsh(matvec(H), k=1, which="SA", v0=v0, tol=1e-13)[0],
                  (H,), (rt.upload(dh),))
    np.testing.assert_allclose(t.download()[0], u[:, 0] @ dh @ u[:, 0], atol=1e-10)


def test_eigsh_eigenvector_gradient_matches_finite_differences(rt, rng):
    h = symmetric(rng, 6)
    H, v0 = rt.upload(h), rt.upload(np.ones(6))
    c = rng.standard_normal(6)
    C = rt.upload(c)

    def loss(H):  # phase invariant: (c . v)^2
        _, v = tf.krylov.eigsh(matvec(H), k=1, which="SA", v0=v0, tol=1e-13)
        return tf.einsum("i,i->", C, v[..., 0]) ** 2

    def reference(h):
        return (c @ np.linalg.eigh(h)[1][:, 0]) ** 2

    g = tf.grad(loss)(H).download()
    # Along symmetric directions D = E_ij + E_ji (eigsh's operator is Hermitian): <g, D>.
    eps = 1e-6
    for i, j in [(0, 0), (1, 3), (4, 2), (5, 5)]:
        d = np.zeros((6, 6))
        d[i, j] += eps
        d[j, i] += eps
        fd = (reference(h + d) - reference(h - d)) / (2 * eps)
        assert abs(np.sum(g * d) / eps - fd) < 1e-6, (i, j, np.sum(g * d) / eps, fd)


def test_cg_and_gmres_gradients_are_the_adjoint_solve(rt, rng):
    h = symmetric(rng, 6)
    a = h @ h.T + 6 * np.eye(6)
    n = rng.standard_normal((6, 6)) + 6 * np.eye(6)  # non-symmetric
    A, N, b = rt.upload(a), rt.upload(n), rt.upload(rng.standard_normal(6))
    ones = np.ones(6)
    gb = tf.grad(lambda b: tf.krylov.cg(A, b, rtol=1e-13)[0].sum())(b).download()
    np.testing.assert_allclose(gb, np.linalg.solve(a.T, ones), atol=1e-10)
    # d sum(x) / dA = -A^{-T} 1 x^T, through the callable's capture.
    ga = tf.grad(lambda A: tf.krylov.cg(matvec(A), b, rtol=1e-13)[0].sum())(A).download()
    x, lam = np.linalg.solve(a, b.download()), np.linalg.solve(a.T, ones)
    np.testing.assert_allclose(ga, -np.outer(lam, x), atol=1e-10)

    def gmres_loss(N):
        x, _ = tf.krylov.gmres(matvec(N), b, rtol=1e-13,
                               adjoint=lambda y: tf.einsum("ji,j->i", N, y))
        return x.sum()

    gn = tf.grad(gmres_loss)(N).download()
    x, lam = np.linalg.solve(n, b.download()), np.linalg.solve(n.T, ones)
    np.testing.assert_allclose(gn, -np.outer(lam, x), atol=1e-9)
    # Reverse mode through gmres needs A^H: a typed error without it, not a wrong gradient.
    with pytest.raises(tf.UnsupportedError):
        tf.grad(lambda N: tf.krylov.gmres(matvec(N), b, rtol=1e-13)[0].sum())(N)


def test_expm_multiply_gradients_match_expm(rt, rng):
    h = symmetric(rng, 5)
    H, v = rt.upload(h), rt.upload(rng.standard_normal(5))
    t = 0.4
    gv = tf.grad(lambda v: tf.krylov.expm_multiply(H, v, t, tol=1e-13, adjoint=H).sum())(v)
    np.testing.assert_allclose(gv.download(), scipy.linalg.expm(t * h).T @ np.ones(5),
                               atol=1e-10)

    def loss(H):
        return tf.krylov.expm_multiply(matvec(H), v, t, tol=1e-13, adjoint=matvec(H)).sum()

    g = tf.grad(loss)(H).download()
    eps, vh = 1e-6, v.download()
    for i, j in [(0, 0), (1, 4), (3, 2)]:
        d = np.zeros((5, 5))
        d[i, j] = eps
        fd = ((scipy.linalg.expm(t * (h + d)) - scipy.linalg.expm(t * (h - d))) @ vh).sum()
        assert abs(g[i, j] - fd / (2 * eps)) < 1e-7, (i, j)


def test_a_real_traced_vector_meets_a_complex_matrix_as_complex(rt, rng):
    """As in the plain calls, a real b (or v) with a complex A is solved as complex; its gradient
    is the real part of the complex one. (The traced calls refused it with a ValidationError.)"""
    n = 5
    h = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
    a = h @ h.conj().T + n * np.eye(n)  # Hermitian positive definite
    herm = h + h.conj().T
    A, H, bh = rt.upload(a), rt.upload(herm), rng.standard_normal(n)
    b = rt.upload(bh)
    ainv = np.linalg.inv(a)

    def norm2(x):
        return (x * x.conj()).real.sum()

    # |A^-1 b|^2 over real b: gradient 2 Re(A^-H A^-1 b).
    want = 2 * (ainv.conj().T @ (ainv @ bh)).real
    for solve in (lambda b: tf.krylov.cg(A, b, rtol=1e-13)[0],
                  lambda b: tf.krylov.gmres(A, b, rtol=1e-13, adjoint=A.conj().T)[0]):
        value, g = tf.value_and_grad(lambda b: norm2(solve(b)))(b)
        assert abs(float(value) - np.linalg.norm(ainv @ bh) ** 2) < 1e-9
        np.testing.assert_allclose(g.download(), want, atol=1e-9)
    # |exp(-i t H) v|^2 = |v|^2 for Hermitian H: gradient 2 v.
    t = 0.3
    g = tf.grad(lambda v: norm2(tf.krylov.expm_multiply(H, v, -1j * t, tol=1e-13,
                                                        adjoint=H)))(b)
    np.testing.assert_allclose(g.download(), 2 * bh, atol=1e-9)


def test_a_real_vector_against_complex64_takes_the_wider_precision(rt, rng):
    """complex64 A with a float64 b solves in complex128, as SciPy (the vector was cast to
    complex64, losing its precision), plain and traced."""
    n = 4
    h = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))
    a = (h @ h.conj().T + n * np.eye(n)).astype(np.complex64)
    A, b = rt.upload(a), rt.upload(rng.standard_normal(n))
    x = tf.krylov.cg(A, b, rtol=1e-12)[0]
    assert x.dtype == np.complex128
    np.testing.assert_allclose(x.download(), np.linalg.solve(a.astype(np.complex128),
                                                             b.download()), rtol=1e-10)
    value, _ = tf.vjp(lambda b: tf.krylov.gmres(A, b, rtol=1e-12, adjoint=A.conj().T)[0], b)
    assert value.dtype == np.complex128
    np.testing.assert_allclose(value.download(), x.download(), rtol=1e-9)


def test_a_float32_vector_against_a_float64_matrix_takes_the_wider_precision(rt, rng):
    """float64 A with a float32 b, v or v0 solves in float64, as SciPy (the matrix was cast down
    to float32 and the solve ran in single precision: an adversarial sweep), plain and traced."""
    n = 8
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    a = (q * np.linspace(1.0, 10.0, n)) @ q.T
    b32 = rng.standard_normal(n).astype(np.float32)
    A, b = rt.upload(a), rt.upload(b32)
    want = np.linalg.solve(a, b32.astype(np.float64))
    for solver in (tf.krylov.cg, tf.krylov.gmres, tf.krylov.minres):
        x = solver(A, b, rtol=1e-12)[0]
        assert x.dtype == np.float64
        np.testing.assert_allclose(x.download(), want, rtol=1e-10)
    w, v = tf.krylov.eigsh(A, k=1, which="SA", v0=b)
    assert v.dtype == np.float64
    assert w[0] == pytest.approx(1.0, rel=1e-12)
    x = tf.krylov.expm_multiply(A, b, 0.1)
    assert x.dtype == np.float64
    np.testing.assert_allclose(x.download(), scipy.linalg.expm(0.1 * a) @ b32.astype(np.float64),
                               rtol=1e-10)
    value, _ = tf.vjp(lambda b: tf.krylov.cg(A, b, rtol=1e-12)[0], b)
    assert value.dtype == np.float64
    np.testing.assert_allclose(value.download(), want, rtol=1e-10)


def test_adjoint_must_be_an_operator(rt, rng):
    """adjoint= that is no callable and no matrix is a ValidationError on both paths (the plain
    call ignored it, the traced one failed calling it with Python's TypeError)."""
    a = rt.upload(np.eye(5) * 5 + rng.standard_normal((5, 5)))
    b = rt.upload(np.ones(5))
    for bad in (42, "A^H"):
        with pytest.raises(tf.ValidationError, match="adjoint"):
            tf.krylov.gmres(a, b, adjoint=bad)
        with pytest.raises(tf.ValidationError, match="adjoint"):
            tf.grad(lambda M: tf.krylov.gmres(M, b, adjoint=bad)[0].sum())(a)
        with pytest.raises(tf.ValidationError, match="adjoint"):
            tf.grad(lambda M: tf.krylov.expm_multiply(M, b, 0.5, adjoint=bad).sum())(a)
    # A wrong operand of vjp (the solver's tuple, not its x) is an ArgumentTypeError.
    with pytest.raises(tf.ArgumentTypeError):
        tf.vjp(lambda b: tf.krylov.cg(a.T @ a, b), b)


def test_solvers_without_a_rule_refuse_tracers(rt, rng):
    h = symmetric(rng, 5) + 10 * np.eye(5)
    H, b = rt.upload(h), rt.upload(np.ones(5))
    with pytest.raises(tf.UnsupportedError, match="minres has no differentiation rule"):
        tf.grad(lambda b: tf.krylov.minres(H, b)[0].sum())(b)
    Hc = rt.upload(h.astype(np.complex128))
    with pytest.raises(tf.UnsupportedError, match="eigs has no differentiation rule"):
        tf.grad(lambda H: tf.krylov.eigs(H, k=1, v0=b)[0][0].real)(Hc)


def test_plain_calls_stay_plain(rt, rng):
    h = symmetric(rng, 5)
    H, v0 = rt.upload(h), rt.upload(np.ones(5))
    w, v = tf.krylov.eigsh(matvec(H), k=1, which="SA", v0=v0, tol=1e-13)
    assert isinstance(w, np.ndarray) and type(v) is tf.Tensor
    np.testing.assert_allclose(w[0], np.linalg.eigvalsh(h)[0], atol=1e-10)


def test_jvp_of_degenerate_eigenvalues_without_eigenvectors(rt, rng):
    """Eigenvalues of a degenerate eigenspace have a derivative (their sum: tr(P dH)); with
    return_eigenvectors=False forward mode needs no eigenvector solve, so it works as reverse
    mode does."""
    n = 8
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    h = (q * np.r_[-2.0, -2, -1, 0, 1, 2, 3, 4]) @ q.T
    dh = rng.standard_normal((n, n))
    dh = dh + dh.T
    want = np.trace(q[:, :2] @ q[:, :2].T @ dh)
    v0 = rt.upload(np.ones(n))

    def f(m):
        w = tf.krylov.eigsh(m, k=2, which="SA", v0=v0, tol=1e-13, return_eigenvectors=False)
        return w[0] + w[1]

    _, t = tf.jvp(f, (rt.upload(h),), (rt.upload(dh),))
    np.testing.assert_allclose(float(t.download()), want, rtol=1e-8, atol=1e-10)
    g = tf.grad(f)(rt.upload(h)).download()
    np.testing.assert_allclose(np.sum(g * dh), want, rtol=1e-8, atol=1e-10)


def test_float32_eigenvector_gradients(rt, rng):
    """The eigenvector derivative's solve asks float32 for what float32 can reach."""
    n = 8
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    h = ((q * np.arange(1.0, n + 1)) @ q.T).astype(np.float32)
    v0 = rt.upload(np.ones(n, np.float32))
    c = rt.upload(rng.standard_normal(n).astype(np.float32))

    def f(m):
        _, v = tf.krylov.eigsh(m, k=1, which="SA", v0=v0, tol=1e-6)
        return (tf.einsum("i,i->", v[:, 0], c)) ** 2  # phase invariant

    g = tf.grad(f)(rt.upload(h)).download()
    assert g.dtype == np.float32 and np.isfinite(g).all()
    # Against the dense rule: d(<v, c>^2) = 2 <v,c> <dv, c>, dv = -(H - l)^+ dH v.
    w, u = np.linalg.eigh(h.astype(np.float64))
    v, cv = u[:, 0], c.download().astype(np.float64)
    pinv = sum(np.outer(u[:, j], u[:, j]) / (w[j] - w[0]) for j in range(1, n))
    want = -2 * (v @ cv) * np.outer(pinv @ cv, v)
    want = (want + want.T) / 2  # the symmetric part: what a symmetric dH sees
    np.testing.assert_allclose((g + g.T) / 2, want, atol=2e-3 * np.abs(want).max())


def test_eigsh_vector_derivative_along_the_vector_itself_is_zero(rt, rng):
    # |v|^2 = 1 and <v|H|v> with H held: the cotangent lies along v, its projection off v is
    # rounding noise, and the derivative solve raised a NumericalError blaming degeneracy.
    h = symmetric(rng, 8)
    H, v0 = rt.upload(h), rt.upload(np.ones(8))

    def norm_of_vector(H):
        _, v = tf.krylov.eigsh(H, k=1, which="SA", v0=v0)
        return (v[:, 0] ** 2).sum()

    def energy_at_fixed_h(H):
        _, v = tf.krylov.eigsh(H, k=1, which="SA", v0=v0)
        x = v[:, 0]
        return tf.einsum("i,ij,j->", x, tf.stop_gradient(H), x)

    assert np.abs(tf.grad(norm_of_vector)(H).download()).max() < 1e-8
    # d<v|H0|v> = 2 <dv|H0|v> = 2 lambda <dv|v> = 0.
    assert np.abs(tf.grad(energy_at_fixed_h)(H).download()).max() < 1e-6
    _, dv = tf.jvp(lambda H: tf.krylov.eigsh(H, k=1, which="SA", v0=v0)[1], (H,),
                   (rt.upload(np.eye(8)),))
    assert np.abs(dv.download()).max() < 1e-8


def test_start_vectors_may_be_tracers_and_svds_of_a_tracer_is_typed(rt, rng):
    h = symmetric(rng, 6) + 12 * np.eye(6)
    H, b = rt.upload(h), rt.upload(rng.standard_normal(6))

    def lowest(H, v0):  # v0 a Tracer: taken by value, no derivative flows into it
        w, _ = tf.krylov.eigsh(H, k=1, which="SA", v0=v0, tol=1e-13)
        x, _ = tf.krylov.cg(H, b, x0=v0, rtol=1e-12)
        return w[0] + x.sum()

    gH, gv = tf.grad(lambda H, v: lowest(H, v), argnums=(0, 1))(H, rt.upload(np.ones(6)))
    np.testing.assert_array_equal(gv.download(), np.zeros(6))
    assert np.isfinite(gH.download()).all()
    with pytest.raises(tf.UnsupportedError, match="svds has no derivative rule"):
        tf.grad(lambda A: tf.krylov.svds(A, k=1)[1].sum())(H)
