#!/usr/bin/env python3
"""Einsum against its peers, side by side in one run: the einsum network suite.

Runs the cases of bench/einsum/einsum_cases.hpp (listed by the `einsum_cases` runner) with
  * tenferro (the `einsum_cases` runner, a subprocess that prints JSON medians),
  * numpy.einsum with the path of numpy.einsum_path(optimize=("optimal", no memory limit)) --
    computed once per case outside the timing ("greedy" beyond 8 operands, where numpy's
    exhaustive search does not finish) and passed as optimize=path. Without the explicit
    limit numpy caps intermediates at the largest operand's size and falls back to one naive
    loop over all remaining operands (20000x slower on the PEPS case),
  * opt_einsum.contract_expression(optimize="auto") built once, then called,
  * torch.einsum (CPU; torch plans with opt_einsum on every call, as users get it),
with 1 thread and with all cores (thread settings: see common.py). With 1 thread both sides
measure process CPU time (immune to time spent descheduled on a shared machine; no helper
threads run); with several threads, wall time. Each round runs tenferro and the peers (in a
worker process, libraries alternating sample by sample) once per thread count; the reported
time of each (case, library, threads) is the median over rounds of per-round medians (each a
median of `reps` samples of at least `min_time` seconds of calls). Ratios are peer time /
tenferro time: above 1 means tenferro is faster.

    .venv-peers/bin/python bench/peers/einsum_peers.py [--build build] [--rounds 3] [--quick]
        [--threads 1,2] [--markdown FILE]
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

TITLE = "einsum suite"
PEERS = ["numpy", "opt_einsum", "torch"]


def config(build, quick):
    runner = os.path.join(build, "bench", "einsum_cases")
    cases = json.loads(subprocess.check_output([runner, "--list"]))
    return {"runner": runner, "cases": cases, "reps": 3 if quick else 5,
            "min_time": 0.02 if quick else 0.05}


def case_names(cfg):
    return list(cfg["cases"])


clock = common.clock_for


def clock_note(threads):
    return common.clock_note_for(threads, "process CPU time")


def tenferro_times(threads, cfg):
    return json.loads(subprocess.check_output(
        [cfg["runner"], "--reps", str(cfg["reps"]), "--min-time", str(cfg["min_time"]),
         "--clock", clock(threads)], env=common.thread_env(threads)))


def peer_times(threads, cfg):
    return common.run_worker(os.path.abspath(__file__), threads,
                             {k: cfg[k] for k in ("cases", "reps", "min_time")})


def worker(payload):
    import numpy as np
    import opt_einsum as oe
    import torch

    dtypes = {"F32": np.float32, "F64": np.float64, "C32": np.complex64, "C64": np.complex128}
    rng = np.random.default_rng(1)
    out = {}
    for name, case in payload["cases"].items():
        dt = dtypes[case["dtype"]]
        ops = []
        for shape in case["shapes"]:
            a = rng.uniform(-1, 1, size=shape)
            if np.iscomplexobj(np.zeros(1, dt)):
                a = a + 1j * rng.uniform(-1, 1, size=shape)
            ops.append(np.ascontiguousarray(a.astype(dt)))
        subs = case["subscripts"]
        strategy = "optimal" if len(ops) <= 8 else "greedy"
        np_path = np.einsum_path(subs, *ops, optimize=(strategy, 1e30))[0]
        expr = oe.contract_expression(subs, *[o.shape for o in ops], optimize="auto")
        tops = [torch.from_numpy(o) for o in ops]
        # tenferro always materialises its result; NumPy and PyTorch return a lazy view for a
        # pure transposition (permute_n32). Forcing contiguity makes them do the same work;
        # for any other case their result is already contiguous and this costs nothing.
        fns = {
            "numpy": lambda: np.ascontiguousarray(np.einsum(subs, *ops, optimize=np_path)),
            "opt_einsum": lambda: np.ascontiguousarray(expr(*ops)),
            "torch": lambda: torch.einsum(subs, *tops).contiguous(),
        }
        out[name] = common.alternating_medians(fns, clock(payload["threads"]), payload["reps"],
                                               payload["min_time"])
    print(json.dumps(out))


if __name__ == "__main__":
    if "--worker" in sys.argv:
        worker(common.worker_payload(sys.argv))
    else:
        sys.exit(common.standalone_main(sys.modules[__name__], __doc__))
