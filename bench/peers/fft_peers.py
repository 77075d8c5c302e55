#!/usr/bin/env python3
"""Peer timings for bench/fft/fft_bench.cpp: the same complex128 transforms in NumPy,
SciPy and PyTorch (CPU, one thread each), median of repeated timings in microseconds.

    .venv-peers/bin/python bench/peers/fft_peers.py [--repeats 15]

Layouts match the C++ bench: tenferro's column-major [128, 128, 16] with axes {0, 1} is
NumPy's C-order (16, 128, 128) with axes (1, 2) - the same bytes, the same transforms.
"""
import argparse
import statistics
import time

import numpy as np

CASES = [
    ("c2c_1d_2^10", (1 << 10,), (0,)),
    ("c2c_1d_2^16", (1 << 16,), (0,)),
    ("c2c_2d_128x128_batch16", (16, 128, 128), (1, 2)),
]


def median_us(fn, repeats):
    """Medians of wall time and of this process's CPU time per call (the machine may be
    shared, so CPU time is the steadier of the two; the C++ bench reports both too)."""
    fn()  # warm-up (plans, caches)
    # Enough inner iterations for ~20 ms per sample.
    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-7)
    inner = max(1, int(0.02 / once))
    wall, cpu = [], []
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        for _ in range(inner):
            fn()
        wall.append((time.perf_counter() - w0) / inner * 1e6)
        cpu.append((time.process_time() - c0) / inner * 1e6)
    return statistics.median(wall), statistics.median(cpu)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()

    peers = {"numpy": lambda x, axes: (lambda: np.fft.fftn(x, axes=axes))}
    versions = [f"numpy {np.__version__}"]
    try:
        import scipy
        import scipy.fft

        peers["scipy"] = lambda x, axes: (lambda: scipy.fft.fftn(x, axes=axes, workers=1))
        versions.append(f"scipy {scipy.__version__}")
    except ImportError:
        pass
    try:
        import torch

        torch.set_num_threads(1)
        peers["torch"] = lambda x, axes: (
            lambda t=torch.from_numpy(x): torch.fft.fftn(t, dim=axes))
        versions.append(f"torch {torch.__version__} (1 thread)")
    except ImportError:
        pass

    print("peers:", ", ".join(versions))
    print(f"{'case (median us, wall/cpu)':26s}" + "".join(f"{name:>20s}" for name in peers))
    rng = np.random.default_rng(42)
    for name, shape, axes in CASES:
        x = (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(np.complex128)
        row = [median_us(make(x, axes), args.repeats) for make in peers.values()]
        print(f"{name:26s}" + "".join(f"{w:10.1f}/{c:9.1f}" for w, c in row))


if __name__ == "__main__":
    main()
