"""Two-site DMRG for the S=1/2 Heisenberg chain (open boundaries) on tenferro: the Python
twin of examples/dmrg/dmrg.cpp, with the same index conventions and sweep schedule.

    python dmrg.py --L 40 --D 32 --sweeps 4 [--backend cpu|webgpu]

MPS tensors A[x, s, p] (left bond, spin, right bond) and the MPO tensor W[a, b, s, t] (left,
right, out, in) live in one runtime; the environments L[y, a, x] and R[q, b, p] (bra bond
first, then the MPO's and the ket's, as in the C++ example) are grown by einsum, the local ground state
comes from tf.krylov.eigsh on the effective Hamiltonian as a callable, and tf.linalg.svd with
max_rank truncates (tf.krylov.svds on WebGPU, which has no tf.linalg). The MPO and the random start are the only uploads; each sweep reads one scalar (the largest
discarded weight); the energies are host floats from eigsh.
"""

import argparse
import time

import numpy as np

import tenferro as tf


def heisenberg_mpo(j=1.0):
    """The bulk MPO tensor (bond 5, lower triangular: row 4 starts a term, column 0 ends it)."""
    sp = np.array([[0.0, 1.0], [0.0, 0.0]])  # S+ = |up><down|, spin 0 up
    sz = np.diag([0.5, -0.5])
    w = np.zeros((5, 5, 2, 2))
    w[0, 0] = w[4, 4] = np.eye(2)
    w[1, 0], w[2, 0], w[3, 0] = sp, sp.T, sz
    w[4, 1], w[4, 2], w[4, 3] = 0.5 * j * sp.T, 0.5 * j * sp, j * sz
    return w


def bond_dims(n, d_max):
    return [min(d_max, 2 ** min(i, n - i)) for i in range(n + 1)]


def factorize(a, max_rank):
    """a ~ U diag(S) Vh with at most max_rank singular values: tf.linalg.svd on the CPU;
    tf.krylov.svds on WebGPU (no tf.linalg there)."""
    if a.runtime.backend != "webgpu":
        return tf.linalg.svd(a, max_rank=max_rank)
    return tf.krylov.svds(a, min(max_rank, *a.shape))


def right_canonicalize(mps):
    for i in range(len(mps) - 1, 0, -1):
        dl, d, dr = mps[i].shape
        u, s, vh = factorize(mps[i].reshape(dl, d * dr), dl)
        mps[i] = vh.reshape(vh.shape[0], d, dr)
        mps[i - 1] = tf.einsum("xsa,ak,k->xsk", mps[i - 1], u, s / tf.linalg.norm(s))


def grow_left(env, a, w):
    return tf.einsum("yax,xtp,abst,ysq->qbp", env, a, w, a)


def grow_right(env, a, w):
    return tf.einsum("xtp,abst,ysq,qbp->yax", a, w, a, env)


def split(theta, d_max, centre_right):
    dl, d1, d2, dr = theta.shape
    u, s, vh = factorize(theta.reshape(dl * d1, d2 * dr), d_max)
    k = s.shape[0]
    if centre_right:
        vh = tf.einsum("k,kj->kj", s, vh)
    else:
        u = tf.einsum("ik,k->ik", u, s)
    return u.reshape(dl, d1, k), vh.reshape(k, d2, dr)


def sweep_tolerance(sweep, final_tol):
    """eigsh's tolerance in sweep `sweep` (from 0): loose while the state is far from the
    ground state, 100x tighter each sweep down to `final_tol` (as examples/dmrg/dmrg.cpp)."""
    return max(final_tol, 1e-2 * 1e-2**sweep)


def dmrg(n, d_max, sweeps, rt, dtype=np.float64, tol=1e-7, seed=1234, verbose=True,
         on_pass=None):
    """Returns the list of energies after each sweep (one pass over the bonds, alternating).
    ``tol`` is eigsh's relative residual tolerance per bond in the last sweeps (the first ones
    are looser, ``sweep_tolerance``): the local energy error is about its square, so 1e-7 is
    far below the truncation error (examples/dmrg/dmrg.cpp says more).
    ``on_pass(sweep)`` is called at the start and after each sweep (the benchmark's clock)."""
    w = rt.upload(heisenberg_mpo().astype(dtype))
    dims = bond_dims(n, d_max)
    rng = np.random.default_rng(seed)
    mps = [rt.upload(rng.standard_normal((dims[i], 2, dims[i + 1])).astype(dtype))
           for i in range(n)]
    right_canonicalize(mps)
    eye = tf.eye(5, dtype=dtype, runtime=rt)
    left, right = [None] * (n + 1), [None] * (n + 1)
    left[0] = eye[4].reshape(1, 5, 1)
    right[n] = eye[0].reshape(1, 5, 1)
    for i in range(n - 1, 1, -1):
        right[i] = grow_right(right[i + 1], mps[i], w)
    energies = []
    if on_pass:
        on_pass(-1)
    for sweep in range(sweeps):
        start = time.perf_counter()
        rightward = sweep % 2 == 0
        worst = tf.zeros((), dtype=dtype, runtime=rt)
        for step in range(n - 1):
            i = step if rightward else n - 2 - step
            l, r = left[i], right[i + 2]

            def heff(x, l=l, r=r):
                return tf.einsum("yax,abst,bcuv,qcp,xtvp->ysuq", l, w, w, r, x)

            theta = tf.einsum("xsq,qup->xsup", mps[i], mps[i + 1])
            # eager: theta, the last sweep's state, is close to the local ground state, so the
            # solver may stop as soon as it passes (a few matvecs late in the run).
            e, v = tf.krylov.eigsh(heff, k=1, which="SA", v0=theta,
                                   tol=sweep_tolerance(sweep, tol), eager=True)
            mps[i], mps[i + 1] = split(v[..., 0], d_max, rightward)
            if rightward:
                left[i + 1] = grow_left(left[i], mps[i], w)
            else:
                right[i + 1] = grow_right(right[i + 2], mps[i + 1], w)
            # The discarded weight of this bond: 1 - |kept|^2 for a unit theta.
            kept = mps[i + 1] if rightward else mps[i]
            worst = tf.maximum(worst, 1.0 - tf.einsum("xsp,xsp->", kept, kept))
        energies.append(float(e[0]))
        if on_pass:
            on_pass(sweep)
        if verbose:
            print(f"sweep {sweep + 1}: energy {energies[-1]:.12f}  max discarded weight "
                  f"{float(worst.download()):.3e}  time {time.perf_counter() - start:.3f} s")
    return energies


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--L", type=int, default=40)
    p.add_argument("--D", type=int, default=32)
    p.add_argument("--sweeps", type=int, default=4)
    p.add_argument("--backend", choices=["cpu", "webgpu"], default="cpu")
    a = p.parse_args()
    rt = tf.Runtime.webgpu() if a.backend == "webgpu" else tf.Runtime.cpu()
    dtype = np.float32 if a.backend == "webgpu" else np.float64
    energies = dmrg(a.L, a.D, a.sweeps, rt, dtype, tol=1e-5 if dtype == np.float32 else 1e-7)
    print(f"final energy {energies[-1]:.12f}")


if __name__ == "__main__":
    main()
