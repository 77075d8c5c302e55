#!/usr/bin/env python3
"""Small batched linalg against peers: 64 x (4x4) QR and SVD (float64).

tenferro: one batched eager call (linalg::qr / linalg::svd on a [4, 4, 64] tensor), the
medians of bench/linalg/linalg_bench's EagerQrBatch64x4 / EagerSvdBatch64x4 (Google
Benchmark). Peers: NumPy (batched np.linalg.qr / svd), SciPy (a Python loop of 64 calls: its
qr/svd take one matrix) and PyTorch CPU (batched torch.linalg.qr / svd), each timed as the
median of samples of calls. Reduced QR and thin SVD (full_matrices=False) everywhere.
Threads: see common.py. With 1 thread both sides use CPU time (Google Benchmark's cpu_time;
time.process_time), with several threads wall time. Ratios are peer / tenferro: above 1
means tenferro is faster.

    .venv-peers/bin/python bench/peers/linalg_peers.py [--build build] [--rounds 3] [--quick]
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

TITLE = "linalg 64x4x4"
PEERS = ["numpy", "scipy", "torch"]
BATCH, N = 64, 4
CASES = {"qr_64x4x4": "EagerQrBatch64x4/4", "svd_64x4x4": "EagerSvdBatch64x4/4"}


def config(build, quick):
    return {"bench": os.path.join(build, "bench", "linalg_bench"), "reps": 3 if quick else 5,
            "min_time": 0.03 if quick else 0.1}


def case_names(cfg):
    return list(CASES)


clock = common.clock_for


def clock_note(threads):
    return common.clock_note_for(threads)


def tenferro_times(threads, cfg):
    medians = common.gbench_medians(cfg["bench"], "Eager(Qr|Svd)Batch64x4", threads,
                                    cfg["reps"], cfg["min_time"])
    pick = 1 if clock(threads) == "cpu" else 0
    return {case: medians[run][pick] for case, run in CASES.items()}


def peer_times(threads, cfg):
    return common.run_worker(os.path.abspath(__file__), threads,
                             {"reps": cfg["reps"], "min_time": cfg["min_time"]})


def worker(payload):
    import numpy as np
    import scipy.linalg as sl
    import torch

    a = np.random.default_rng(42).uniform(-1, 1, size=(BATCH, N, N))
    t = torch.from_numpy(a.copy())
    fns = {
        "qr_64x4x4": {"numpy": lambda: np.linalg.qr(a),
                      "scipy": lambda: [sl.qr(m, mode="economic") for m in a],
                      "torch": lambda: torch.linalg.qr(t)},
        "svd_64x4x4": {"numpy": lambda: np.linalg.svd(a, full_matrices=False),
                       "scipy": lambda: [sl.svd(m, full_matrices=False) for m in a],
                       "torch": lambda: torch.linalg.svd(t, full_matrices=False)},
    }
    kw = {"clock": clock(payload["threads"]), "reps": payload["reps"],
          "min_time": payload["min_time"]}
    out = {case: common.alternating_medians(libs, **kw) for case, libs in fns.items()}
    print(json.dumps(out))


if __name__ == "__main__":
    if "--worker" in sys.argv:
        worker(common.worker_payload(sys.argv))
    else:
        sys.exit(common.standalone_main(sys.modules[__name__], __doc__))
