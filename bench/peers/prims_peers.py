"""Prims against NumPy on the same arrays, in one run, at one thread, plus the machine's copy
bandwidth (NumPy copyto into a preallocated array) as the yardstick for memory-bound ops.

Both sides allocate their result, as users call them (`a + b`). Calls alternate between the
two libraries, and each table row is the median of --repeat calls.

    build-python/venv-test/bin/python bench/peers/prims_peers.py [--repeat 9]

needs the tenferro Python package (scripts/test-python.sh installs it in build-python/venv-test).
"""
import argparse
import os
import statistics
import sys
import time

for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "TENFERRO_NUM_THREADS"):
    os.environ[var] = "1"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402  (standard library only: imports no BLAS)

common.drop_blas_tuning()  # before numpy and tenferro load OpenBLAS

import numpy as np  # noqa: E402
import tenferro as tf  # noqa: E402

N = 1 << 24


def median_time(f, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    a, b = rng.random(N), rng.random(N)
    m = rng.random((4096, 4096))
    rt = tf.Runtime.cpu()
    ta, tb, tm = rt.upload(a), rt.upload(b), rt.upload(m)
    dst = np.empty_like(a)
    copy_s = median_time(lambda: np.copyto(dst, a), args.repeat)
    copy_bw = 2 * a.nbytes / copy_s
    cases = [
        ("add 2^24 F64", 3 * a.nbytes, lambda: a + b, lambda: ta + tb),
        ("mul 2^24 F64", 3 * a.nbytes, lambda: a * b, lambda: ta * tb),
        ("axpby 2a - 0.5b", 3 * a.nbytes, lambda: 2.0 * a - 0.5 * b,
         lambda: tf.axpby(2.0, ta, -0.5, tb) if hasattr(tf, "axpby") else 2.0 * ta - 0.5 * tb),
        ("sum axis 0 of 4096^2", m.nbytes, lambda: m.sum(axis=0), lambda: tm.sum(axis=0)),
        ("sum axis 1 of 4096^2", m.nbytes, lambda: m.sum(axis=1), lambda: tm.sum(axis=1)),
    ]
    print(common.blas_tuning_note())
    print(f"copy bandwidth (numpy copyto, 2 x {a.nbytes >> 20} MiB): {copy_bw / 1e9:.2f} GB/s")
    print(f"{'case':24} {'numpy ms':>9} {'tenferro ms':>12} {'tenferro/numpy':>15} "
          f"{'tenferro GB/s':>14} {'of copy bw':>11}")
    for name, nbytes, np_f, tf_f in cases:
        np_t, tf_t = [], []
        for _ in range(args.repeat):  # alternate the two libraries
            np_t.append(median_time(np_f, 1))
            tf_t.append(median_time(tf_f, 1))
        n, t = statistics.median(np_t), statistics.median(tf_t)
        print(f"{name:24} {n * 1e3:9.2f} {t * 1e3:12.2f} {t / n:15.3f} {nbytes / t / 1e9:14.2f} "
              f"{nbytes / t / copy_bw:11.2f}")


if __name__ == "__main__":
    main()
