#!/usr/bin/env python3
"""The `tenferro bench` cases against their peers, side by side in one run.

tenferro: `tenferro bench --backend cpu --json FILE` (the performance gate; its steady-state
median per call, each call timed on its own, eager and direct calls alternating). Its JSON is
kept: docs/performance.md takes the eager-overhead figures from it.
Peers, the same computations on the same sizes and dtypes:
  einsum  ij,jk,kl->il on three 64x64 float64: numpy.einsum with the path of
          numpy.einsum_path(optimize="optimal") computed once, opt_einsum.contract_expression
          (built once) on NumPy arrays, torch.einsum
  qr      reduced QR of a 64x64 float64: numpy.linalg.qr, scipy.linalg.qr(mode="economic"),
          torch.linalg.qr
  svd     thin SVD of a 64x64 float64: numpy.linalg.svd / scipy.linalg.svd /
          torch.linalg.svd with full_matrices=False (all three call LAPACK's gesdd)
  eigh    eigh of a symmetric 64x64 float64: numpy.linalg.eigh, scipy.linalg.eigh,
          torch.linalg.eigh
  fft     complex128 FFT of length 4096: numpy.fft.fft, scipy.fft.fft(workers=threads),
          torch.fft.fft
Clock: wall time per individually timed call, median over the calls, for both sides (that is
what `tenferro bench` measures; it has no CPU-time mode). The peer libraries alternate call by
call. Ratios are peer / tenferro: above 1 means tenferro is faster.

    .venv-peers/bin/python bench/peers/gate_peers.py [--build build] [--rounds 3] [--quick]
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

TITLE = "gate"
PEERS = ["numpy", "opt_einsum", "scipy", "torch"]
CASES = ["einsum", "qr", "svd", "eigh", "fft"]
MATRIX, FFT_LENGTH = 64, 4096


def config(build, quick):
    return {"cli": os.path.join(build, "src", "cli", "tenferro"), "repeat": 60 if quick else 300,
            "json_runs": {}}


def case_names(cfg):
    return CASES


def clock_note(threads):
    return "wall time per call, median of individually timed calls, both sides"


def tenferro_times(threads, cfg):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.json")
        subprocess.run([cfg["cli"], "bench", "--backend", "cpu", "--repeat", str(cfg["repeat"]),
                        "--json", path, "--quiet"], check=True, stdout=subprocess.DEVNULL,
                       env=common.thread_env(threads))
        with open(path) as f:
            report = json.load(f)
    if not report["gate_passed"]:
        raise RuntimeError("tenferro bench: the gate failed (see its table)")
    cfg["json_runs"].setdefault(threads, []).append(report)
    cases = report["backends"][0]["cases"]
    return {c["case"]: c["steady"]["median_us"] * 1e-6 for c in cases}


def peer_times(threads, cfg):
    return common.run_worker(os.path.abspath(__file__), threads, {"repeat": cfg["repeat"]})


def peer_calls(threads):
    """{case: {lib: zero-argument call}} on fresh random inputs."""
    import numpy as np
    import opt_einsum as oe
    import scipy.fft
    import scipy.linalg as sl
    import torch

    rng = np.random.default_rng(7)
    mats = [rng.standard_normal((MATRIX, MATRIX)) for _ in range(3)]
    a = rng.standard_normal((MATRIX, MATRIX))
    x = rng.standard_normal(FFT_LENGTH) + 1j * rng.standard_normal(FFT_LENGTH)
    subs = "ij,jk,kl->il"
    np_path = np.einsum_path(subs, *mats, optimize="optimal")[0]
    expr = oe.contract_expression(subs, *[m.shape for m in mats], optimize="auto")
    tmats = [torch.from_numpy(m) for m in mats]
    sym = a + a.T
    ta, tx, tsym = torch.from_numpy(a), torch.from_numpy(x), torch.from_numpy(sym)
    return {
        "einsum": {"numpy": lambda: np.einsum(subs, *mats, optimize=np_path),
                   "opt_einsum": lambda: expr(*mats),
                   "torch": lambda: torch.einsum(subs, *tmats)},
        "qr": {"numpy": lambda: np.linalg.qr(a),
               "scipy": lambda: sl.qr(a, mode="economic"),
               "torch": lambda: torch.linalg.qr(ta)},
        "svd": {"numpy": lambda: np.linalg.svd(a, full_matrices=False),
                "scipy": lambda: sl.svd(a, full_matrices=False),
                "torch": lambda: torch.linalg.svd(ta, full_matrices=False)},
        "eigh": {"numpy": lambda: np.linalg.eigh(sym),
                 "scipy": lambda: sl.eigh(sym),
                 "torch": lambda: torch.linalg.eigh(tsym)},
        "fft": {"numpy": lambda: np.fft.fft(x),
                "scipy": lambda: scipy.fft.fft(x, workers=threads),
                "torch": lambda: torch.fft.fft(tx)},
    }


def worker(payload):
    out = {case: common.alternating_per_call_medians(fns, payload["repeat"])
           for case, fns in peer_calls(payload["threads"]).items()}
    print(json.dumps(out))


if __name__ == "__main__":
    if "--worker" in sys.argv:
        worker(common.worker_payload(sys.argv))
    else:
        sys.exit(common.standalone_main(sys.modules[__name__], __doc__))
