#!/usr/bin/env python3
"""Two OpenBLAS thread pools in one process: a GEMM right after the other library's.

NumPy and tenferro each load their own OpenBLAS (NumPy's bundled copy, tenferro's
scipy-openblas32), and each library's idle worker threads spin for about 0.1 s after a
multi-threaded call before they sleep. A call into the other library in that time shares the
cores with those spinners. This script times a 512^2 float64 GEMM of each library right after a
GEMM of the same or the other library, with a pause of 0, 20 and 300 ms between them; medians of
repeats, wall time. Run it with all cores (the default) to see the effect; at one thread there
are no workers to spin.

    python bench/peers/two_blas_pools.py [--threads N] [--repeats 9]
(run with a Python that has tenferro and NumPy installed)
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def worker(repeats):
    import numpy as np
    import tenferro as tf

    rt = tf.Runtime.cpu()
    a = np.random.default_rng(0).standard_normal((512, 512))
    ta = rt.upload(a)
    numpy_gemm, tenferro_gemm = (lambda: a @ a), (lambda: ta @ ta)
    for _ in range(5):
        numpy_gemm()
        tenferro_gemm()
    pairs = [("NumPy", numpy_gemm, "NumPy", numpy_gemm),
             ("tenferro", tenferro_gemm, "tenferro", tenferro_gemm),
             ("NumPy", numpy_gemm, "tenferro", tenferro_gemm),
             ("tenferro", tenferro_gemm, "NumPy", numpy_gemm)]
    print("| GEMM of | right after one of | pause 0 ms | pause 20 ms | pause 300 ms |")
    print("|---|---|---:|---:|---:|")
    for first_name, first, second_name, second in pairs:
        cells = []
        for pause in (0.0, 0.02, 0.3):
            times = []
            for _ in range(repeats):
                first()
                time.sleep(pause)
                start = time.perf_counter()
                second()
                times.append(time.perf_counter() - start)
            cells.append(f"{statistics.median(times) * 1e3:.2f} ms")
        print(f"| {second_name} | {first_name} | " + " | ".join(cells) + " |")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--threads", type=int, default=common.all_cores())
    p.add_argument("--repeats", type=int, default=9)
    p.add_argument("--worker", action="store_true")
    args = p.parse_args()
    if args.worker:
        return worker(args.repeats)
    print(f"{args.threads} threads each; {common.blas_tuning_note()}\n")
    out = subprocess.run([sys.executable, __file__, "--worker", "--repeats", str(args.repeats)],
                         env=common.thread_env(args.threads), capture_output=True, text=True,
                         check=True)
    print(out.stdout, end="")


if __name__ == "__main__":
    main()
