#!/usr/bin/env python3
"""Small batched linalg against peers: 64 x (4x4) QR and SVD (float64) in tenferro (eager, one
batched call, from bench/linalg/linalg_bench's medians), NumPy (batched), SciPy (a loop: its
qr/svd take one matrix) and PyTorch CPU (batched). Every peer runs single-threaded, as the
tenferro benchmark does with OPENBLAS_NUM_THREADS=1; times are medians per call.

    OPENBLAS_NUM_THREADS=1 python bench/peers/linalg_peers.py --bench build/bench/linalg_bench

Peers that are not installed are reported as missing, not skipped silently.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

BATCH, N = 64, 4


def median_call_seconds(fn, min_time=0.2, repeats=7):
    """Median over `repeats` rounds of the mean time per call within a round of >= min_time."""
    fn()  # warm up (imports, first-call planning)
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_time / repeats:
            break
        calls *= 2
    rounds = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        rounds.append((time.perf_counter() - start) / calls)
    return statistics.median(rounds)


def tenferro_times(bench):
    """Median real time (seconds) of the batched eager cases from the C++ benchmark."""
    # The benchmark's console output is its ratio table; the JSON report goes to a file.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "linalg_bench.json")
        subprocess.run(
            [bench, "--benchmark_filter=Batch64x4", "--benchmark_repetitions=7",
             "--benchmark_out=" + path, "--benchmark_out_format=json"],
            check=True, capture_output=True, text=True,
            env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
        with open(path) as f:
            report = json.load(f)
    times = {}
    for b in report["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        times[b["run_name"]] = b["real_time"] * scale
    return {"qr": times.get("EagerQrBatch64x4/4"), "svd": times.get("EagerSvdBatch64x4/4"),
            "qr_lapacke_loop": times.get("LapackeQrBatch64x4/4"),
            "svd_lapacke_loop": times.get("LapackeSvdBatch64x4/4")}


def peer_times():
    results = {}
    try:
        import numpy as np
        a = np.random.default_rng(42).uniform(-1, 1, size=(BATCH, N, N))
        results["numpy"] = {
            "qr": median_call_seconds(lambda: np.linalg.qr(a)),
            "svd": median_call_seconds(lambda: np.linalg.svd(a, full_matrices=False)),
            "version": np.__version__}
    except ImportError:
        results["numpy"] = None
    try:
        import numpy as np
        import scipy
        import scipy.linalg as sl
        a = np.random.default_rng(42).uniform(-1, 1, size=(BATCH, N, N))
        results["scipy"] = {
            "qr": median_call_seconds(lambda: [sl.qr(m, mode="economic") for m in a]),
            "svd": median_call_seconds(lambda: [sl.svd(m, full_matrices=False) for m in a]),
            "version": scipy.__version__}
    except ImportError:
        results["scipy"] = None
    try:
        import torch
        torch.set_num_threads(1)
        t = torch.empty(BATCH, N, N, dtype=torch.float64).uniform_(-1, 1)
        results["torch"] = {
            "qr": median_call_seconds(lambda: torch.linalg.qr(t)),
            "svd": median_call_seconds(lambda: torch.linalg.svd(t, full_matrices=False)),
            "version": torch.__version__}
    except ImportError:
        results["torch"] = None
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", default="build/bench/linalg_bench", help="path to linalg_bench")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    ours = tenferro_times(args.bench)
    peers = peer_times()
    if args.json:
        print(json.dumps({"tenferro": ours, "peers": peers}, indent=2))
        return 0
    print(f"64 x ({N}x{N}) float64, single-threaded, median per call (us); ratio = tenferro / peer")
    print(f"{'op':5} {'tenferro':>10} {'LAPACKE loop':>13} " +
          " ".join(f"{p:>18}" for p in ("numpy", "scipy (loop)", "torch")))
    for op in ("qr", "svd"):
        row = f"{op:5} {ours[op] * 1e6:10.1f} {ours[op + '_lapacke_loop'] * 1e6:13.1f} "
        cells = []
        for peer in ("numpy", "scipy", "torch"):
            r = peers[peer]
            cells.append(f"{'missing':>18}" if r is None else
                         f"{r[op] * 1e6:9.1f} ({ours[op] / r[op]:5.2f}x)")
        print(row + " ".join(cells))
    print("versions: " + ", ".join(f"{p} {r['version']}" for p, r in peers.items() if r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
