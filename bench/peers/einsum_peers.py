#!/usr/bin/env python3
"""Einsum against its peers, side by side in one run.

Runs the cases of bench/einsum/einsum_cases.hpp (listed by the `einsum_cases` runner) with
  * tenferro (the `einsum_cases` runner, a subprocess that prints JSON medians),
  * numpy.einsum with the path of numpy.einsum_path(optimize=("optimal", no memory limit)) --
    computed once per case outside the timing ("greedy" beyond 8 operands, where numpy's
    exhaustive search does not finish) and passed as optimize=path. Without the explicit
    limit numpy caps intermediates at the largest operand's size and falls back to one naive
    loop over all remaining operands (20000x slower on the PEPS case),
  * opt_einsum.contract_expression(optimize="auto") built once, then called,
  * torch.einsum (CPU; torch plans with opt_einsum on every call, as users get it),
with 1 thread and with all cores. With 1 thread both sides measure process CPU time (immune to
time spent descheduled on a shared machine; no helper threads run); with several threads,
wall time. Each round runs tenferro and the peers (in a worker
process, libraries alternating sample by sample) once per thread count; the reported time of
each (case, library, threads) is the median over rounds of per-round medians. Ratios are
peer time / tenferro time: above 1 means tenferro is faster.

Usage: .venv-peers/bin/python bench/peers/einsum_peers.py [--runner build/bench/einsum_cases]
       [--rounds 3] [--reps 5] [--min-time 0.05] [--threads 1,2] [--markdown FILE]
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

LIBS = ["numpy", "opt_einsum", "torch"]


def thread_env(threads):
    env = dict(os.environ)
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = str(threads)
    return env


CLOCK = time.perf_counter


def calibrate(fn, min_time):
    calls = 1
    while True:
        t0 = CLOCK()
        for _ in range(calls):
            fn()
        dt = CLOCK() - t0
        if dt >= min_time / 4 or calls > (1 << 22):
            return max(1, int(calls * min_time / max(dt, 1e-9)))
        calls *= 4


def sample(fn, calls):
    t0 = CLOCK()
    for _ in range(calls):
        fn()
    return (CLOCK() - t0) / calls


def worker(args):
    import numpy as np
    import opt_einsum as oe
    import torch

    global CLOCK
    CLOCK = time.process_time if args.threads == 1 else time.perf_counter
    torch.set_num_threads(args.threads)
    cases = json.loads(args.cases_json)
    dtypes = {"F32": np.float32, "F64": np.float64, "C32": np.complex64, "C64": np.complex128}
    rng = np.random.default_rng(1)
    out = {}
    for name, case in cases.items():
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
        fns = {
            "numpy": lambda: np.einsum(subs, *ops, optimize=np_path),
            "opt_einsum": lambda: expr(*ops),
            "torch": lambda: torch.einsum(subs, *tops),
        }
        calls = {lib: calibrate(fn, args.min_time) for lib, fn in fns.items()}
        samples = {lib: [] for lib in fns}
        for _ in range(args.reps):
            for lib, fn in fns.items():  # alternating, sample by sample
                samples[lib].append(sample(fn, calls[lib]))
        out[name] = {lib: statistics.median(s) for lib, s in samples.items()}
    print(json.dumps(out))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runner", default="build/bench/einsum_cases")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--min-time", type=float, default=0.05)
    p.add_argument("--threads", default=f"1,{os.cpu_count()}")
    p.add_argument("--markdown", default="")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--cases-json", default="", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        args.threads = int(args.threads)
        return worker(args)

    cases = json.loads(subprocess.check_output([args.runner, "--list"]))
    thread_counts = [int(t) for t in args.threads.split(",")]
    times = {}  # (threads, case, lib) -> [per-round medians]
    for rnd in range(args.rounds):
        for threads in thread_counts:
            env = thread_env(threads)
            clock = "cpu" if threads == 1 else "wall"
            ours = json.loads(subprocess.check_output(
                [args.runner, "--reps", str(args.reps), "--min-time", str(args.min_time), "--clock", clock],
                env=env))
            peers = json.loads(subprocess.check_output(
                [sys.executable, __file__, "--worker", "--threads", str(threads), "--reps", str(args.reps),
                 "--min-time", str(args.min_time), "--cases-json", json.dumps(cases)], env=env))
            for name in cases:
                times.setdefault((threads, name, "tenferro"), []).append(ours[name])
                for lib in LIBS:
                    times.setdefault((threads, name, lib), []).append(peers[name][lib])
            print(f"round {rnd + 1}/{args.rounds}, {threads} thread(s) done", file=sys.stderr)

    lines = []
    for threads in thread_counts:
        lines.append(f"\n### {threads} thread(s)\n")
        lines.append("| case | tenferro | numpy / tenferro | opt_einsum / tenferro | torch / tenferro |")
        lines.append("|---|---:|---:|---:|---:|")
        logs = {lib: [] for lib in LIBS}
        for name in cases:
            ours = statistics.median(times[(threads, name, "tenferro")])
            row = [name, f"{ours * 1e6:.1f} us"]
            for lib in LIBS:
                ratio = statistics.median(times[(threads, name, lib)]) / ours
                logs[lib].append(math.log(ratio))
                row.append(f"{ratio:.2f}x")
            lines.append("| " + " | ".join(row) + " |")
        geo = ["**geometric mean**", ""] + [f"**{math.exp(sum(v) / len(v)):.2f}x**" for v in logs.values()]
        lines.append("| " + " | ".join(geo) + " |")
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
