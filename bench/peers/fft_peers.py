#!/usr/bin/env python3
"""FFT against peers: the complex128 cases of bench/fft/fft_bench.cpp.

tenferro: the eager/* medians of fft_bench (Google Benchmark; tenferro.fft on FFTW3,
FFTW_ESTIMATE plans, FFTW's threads from 2^17 points). Peers: numpy.fft.fftn
(pocketfft, always single-threaded), scipy.fft.fftn(workers=threads), torch.fft.fftn.
Layouts match the C++ bench: tenferro's column-major [128, 128, 16] with axes {0, 1} is
NumPy's C-order (16, 128, 128) with axes (1, 2): the same bytes, the same transforms.
Threads: see common.py. With 1 thread both sides use CPU time (Google Benchmark's cpu_time;
time.process_time), with several threads wall time. Ratios are peer / tenferro: above 1
means tenferro is faster.

    .venv-peers/bin/python bench/peers/fft_peers.py [--build build] [--rounds 3] [--quick]
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

TITLE = "fft"
PEERS = ["numpy", "scipy", "torch"]
CASES = [
    ("c2c_1d_2^10", (1 << 10,), (0,)),
    ("c2c_1d_2^16", (1 << 16,), (0,)),
    ("c2c_2d_128x128_batch16", (16, 128, 128), (1, 2)),
]


def config(build, quick):
    return {"bench": os.path.join(build, "bench", "fft_bench"), "reps": 3 if quick else 5,
            "min_time": 0.03 if quick else 0.1}


def case_names(cfg):
    return [name for name, _, _ in CASES]


clock = common.clock_for


def clock_note(threads):
    return common.clock_note_for(threads)


def tenferro_times(threads, cfg):
    medians = common.gbench_medians(cfg["bench"], "^eager/", threads, cfg["reps"],
                                    cfg["min_time"])
    pick = 1 if clock(threads) == "cpu" else 0
    return {name: medians["eager/" + name][pick] for name in case_names(cfg)}


def peer_times(threads, cfg):
    return common.run_worker(os.path.abspath(__file__), threads,
                             {"reps": cfg["reps"], "min_time": cfg["min_time"]})


def worker(payload):
    import numpy as np
    import scipy.fft
    import torch

    threads = payload["threads"]
    kw = {"clock": clock(threads), "reps": payload["reps"], "min_time": payload["min_time"]}
    rng = np.random.default_rng(42)
    out = {}
    for name, shape, axes in CASES:
        x = (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(np.complex128)
        t = torch.from_numpy(x)
        fns = {"numpy": lambda: np.fft.fftn(x, axes=axes),
               "scipy": lambda: scipy.fft.fftn(x, axes=axes, workers=threads),
               "torch": lambda: torch.fft.fftn(t, dim=axes)}
        out[name] = common.alternating_medians(fns, **kw)
    print(json.dumps(out))


if __name__ == "__main__":
    if "--worker" in sys.argv:
        worker(common.worker_payload(sys.argv))
    else:
        sys.exit(common.standalone_main(sys.modules[__name__], __doc__))
