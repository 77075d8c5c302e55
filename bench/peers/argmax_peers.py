#!/usr/bin/env python3
"""argmax against NumPy: tenferro.argmax and numpy.argmax on the same arrays (whole 1-D arrays
of 2^10, 2^16 and 2^20 values; each axis of a C-ordered 1024^2 matrix), float32 and float64, one
thread, interleaved: nine rounds of (NumPy's loop, tenferro's loop), medians. Every result is
checked against NumPy's before timing. Ratios are NumPy time / tenferro time (above 1: tenferro
faster). docs/perf/everyday.md has the figures.

    PYTHONPATH=<folder with the tenferro package> .venv-peers/bin/python bench/peers/argmax_peers.py
"""
import os
import statistics
import time

os.environ.setdefault("TENFERRO_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import tenferro as tf  # noqa: E402


def seconds_per_call(f, calls):
    start = time.perf_counter()
    for _ in range(calls):
        f()
    return (time.perf_counter() - start) / calls


def main():
    rt = tf.Runtime.cpu()
    rng = np.random.default_rng(0)
    cases = []
    for dt in (np.float32, np.float64):
        name = np.dtype(dt).name
        for n in (2**10, 2**16, 2**20):
            cases.append((f"argmax of 2^{n.bit_length() - 1} {name}",
                          rng.standard_normal(n).astype(dt), None))
        m = rng.standard_normal((1024, 1024)).astype(dt)
        for axis in (0, 1):
            cases.append((f"argmax along axis {axis} of 1024^2 {name}", m, axis))
    print("| case | NumPy | tenferro | NumPy / tenferro |\n|---|---:|---:|---:|")
    for label, a, axis in cases:
        x = rt.upload(a)
        if not np.array_equal(tf.argmax(x, axis).download(), np.argmax(a, axis)):
            raise SystemExit(f"{label}: tenferro's indices differ from NumPy's")
        calls = 20 if a.size >= 2**20 else _calls_for(a.size)
        ours, theirs = [], []
        for _ in range(9):
            theirs.append(seconds_per_call(lambda: np.argmax(a, axis), calls))
            ours.append(seconds_per_call(lambda: tf.argmax(x, axis), calls))
        t_np, t_tf = statistics.median(theirs), statistics.median(ours)
        print(f"| {label} | {t_np * 1e6:.1f} us | {t_tf * 1e6:.1f} us | {t_np / t_tf:.2f}x |")


def _calls_for(size):
    return max(1, 4_000_000 // size)


if __name__ == "__main__":
    main()
