"""eigsh alone: tenferro's tf.krylov.eigsh against scipy.sparse.linalg.eigsh (ARPACK) on one
DMRG effective Hamiltonian given as a callable, same tolerance, same start vector, one thread.

The operator is the two-site effective Hamiltonian of the open Heisenberg chain's MPO (bond
dimension 5) between random symmetric environments of bond dimension D: a 5-operand
contraction per matvec, planned once (NumPy: np.einsum_path without a memory limit;
tenferro: its plan cache). Both
parties get the same matvec math; the table reports the matvec counts, the median wall time of
the whole solve, the time per matvec and the ground energies.

    OPENBLAS_NUM_THREADS=1 TENFERRO_NUM_THREADS=1 python bench/peers/eigsh_peers.py --D 32 64
"""
import argparse
import os
import statistics
import sys
import time

for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "TENFERRO_NUM_THREADS"):
    os.environ.setdefault(var, "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402  (standard library only: imports no BLAS)

common.drop_blas_tuning()  # before numpy and tenferro load OpenBLAS

import numpy as np  # noqa: E402
import scipy.sparse.linalg as sla  # noqa: E402
import tenferro as tf  # noqa: E402

EQ = "xay,abst,bcuv,pcq,xtvp->ysuq"


def heisenberg_mpo():
    w = np.zeros((5, 5, 2, 2))
    sp = np.array([[0.0, 1.0], [0.0, 0.0]])
    sz = np.diag([0.5, -0.5])
    eye = np.eye(2)
    w[0, 0] = w[4, 4] = eye
    w[1, 0], w[2, 0], w[3, 0] = sp, sp.T, sz
    w[4, 1], w[4, 2], w[4, 3] = 0.5 * sp.T, 0.5 * sp, sz
    return w


def environment(rng, d):
    """A random environment that makes the effective Hamiltonian symmetric, as a real DMRG
    environment does: its S+ and S- channels (MPO indices 1 and 2) are each other's transpose,
    the other channels are symmetric."""
    e = rng.standard_normal((d, 5, d))
    e = 0.5 * (e + e.transpose(2, 1, 0))
    e[:, 2, :] = e[:, 1, :].T
    return e


def median_time(run, repeats):
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--D", type=int, nargs="+", default=[32, 64])
    parser.add_argument("--tol", type=float, default=1e-10)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rt = tf.Runtime.cpu()
    print(common.blas_tuning_note() + "\n")
    print(f"| D | party | matvecs | median solve (s) | per matvec (ms) | E0 | vs tenferro |")
    print("|---|---|---|---|---|---|---|")
    for d in args.D:
        rng = np.random.default_rng(d)
        left, right, w = environment(rng, d), environment(rng, d), heisenberg_mpo()
        shape = (d, 2, 2, d)
        v0 = rng.standard_normal(shape)
        # ('optimal', no memory limit): with its default limit (the largest input) NumPy picks
        # a 4-way product in one step, ~200x slower than the pairwise path quimb would use.
        path = np.einsum_path(EQ, left, w, w, right, v0, optimize=("optimal", 1e12))[0]
        count = [0]

        def np_matvec(x):
            count[0] += 1
            return np.einsum(EQ, left, w, w, right, x.reshape(shape), optimize=path).ravel()

        n = v0.size
        x, y = rng.standard_normal(n), rng.standard_normal(n)
        asym = abs(x @ np_matvec(y) - np_matvec(x) @ y) / abs(x @ np_matvec(y))
        assert asym < 1e-10, f"the operator is not symmetric ({asym:.1e})"
        op = sla.LinearOperator((n, n), matvec=np_matvec, dtype=np.float64)

        def scipy_run():
            count[0] = 0
            vals = sla.eigsh(op, k=1, which="SA", tol=args.tol, v0=v0.ravel())[0]
            return vals[0], count[0]

        tl, tw, tr = (rt.upload(x) for x in (left, w, right))

        def tf_matvec(x):
            return tf.einsum(EQ, tl, tw, tw, tr, x)

        tv0 = rt.upload(v0)
        reads = {}

        def tf_run():
            before = rt.stats()["scalar_reads"]
            vals, _ = tf.krylov.eigsh(tf_matvec, k=1, which="SA", tol=args.tol, v0=tv0)
            reads["n"] = rt.stats()["scalar_reads"] - before
            return vals[0], reads["n"] - 1  # one read per matvec + the start vector's norm

        t_tf, (e_tf, mv_tf) = median_time(tf_run, args.repeats)
        t_sp, (e_sp, mv_sp) = median_time(scipy_run, args.repeats)
        for name, t, e, mv in (("tenferro", t_tf, e_tf, mv_tf), ("scipy (ARPACK)", t_sp, e_sp, mv_sp)):
            print(f"| {d} | {name} | {mv} | {t:.4f} | {1e3 * t / mv:.3f} | {e:.12f} | {t / t_tf:.2f}x |")


if __name__ == "__main__":
    main()
