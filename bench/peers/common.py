"""Shared pieces of the peer benchmarks: thread settings, clocks, timing, worker processes,
Google Benchmark JSON, tables and geometric means.

Threads. Every party gets the same thread count: the scripts start tenferro's benchmark
programs and the Python peer workers in subprocesses whose environment sets
OPENBLAS_NUM_THREADS, OMP_NUM_THREADS, MKL_NUM_THREADS (BLAS libraries read them when they
load) and TENFERRO_NUM_THREADS (tenferro's own kernels and FFTW plans), and the Python worker calls torch.set_num_threads(n) and passes workers=n to scipy.fft.

BLAS tuning. The figures are what a user gets, so no variable that picks or tunes OpenBLAS's
kernels reaches a benchmark process: thread_env and drop_blas_tuning remove OPENBLAS_CORETYPE and
OPENBLAS_L2_SIZE. Some machines' environments set them for older OpenBLAS builds (this CI
machine's sets OPENBLAS_CORETYPE=Haswell on its AVX-512 CPU, which holds every party's GEMM to
about 0.6x of the kernel OpenBLAS 0.3.34 picks by itself); a fresh install has neither.
blas_tuning_note() says in one line what was removed, for each table's header.

Clocks. With 1 thread a family that can measure process CPU time on both sides does so
(CLOCK_PROCESS_CPUTIME_ID in C++, time.process_time in Python): on a shared machine it does not
count time spent descheduled. With several threads CPU time adds up the threads, so wall time
is used. Each table says which clock it used.
"""
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
               "TENFERRO_NUM_THREADS")
BLAS_TUNING_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
# What this process's environment held before drop_blas_tuning, for blas_tuning_note.
_DROPPED = {}
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))




def all_cores():
    return os.cpu_count() or 1


def thread_env(threads):
    """The environment of a subprocess that must use `threads` threads, without BLAS tuning."""
    env = dict(os.environ)
    for var in BLAS_TUNING_VARS:
        env.pop(var, None)
    for var in THREAD_VARS:
        env[var] = str(threads)
    return env


def drop_blas_tuning():
    """Removes the BLAS tuning variables from this process's environment; call it before numpy,
    tenferro or torch is imported (OpenBLAS reads them when it loads)."""
    for var in BLAS_TUNING_VARS:
        if var in os.environ:
            _DROPPED.setdefault(var, os.environ.pop(var))


def blas_tuning_note():
    """One line for a table's header: which BLAS variables the benchmark processes ran without."""
    held = dict(_DROPPED)
    held.update({v: os.environ[v] for v in BLAS_TUNING_VARS if v in os.environ})
    if not held:
        return "BLAS tuning variables: none set (OpenBLAS picks its kernels by itself)"
    return ("BLAS tuning variables: removed from the benchmark processes (this machine's "
            "environment sets " + ", ".join(f"{k}={v}" for k, v in sorted(held.items())) +
            "; a fresh install has none, and OpenBLAS picks its kernels by itself)")


def set_python_threads(threads):
    """In a worker: the thread settings that are not environment variables (torch)."""
    try:
        import torch
    except ImportError:
        return
    torch.set_num_threads(threads)
    if torch.get_num_threads() != threads:
        raise RuntimeError(f"torch runs {torch.get_num_threads()} threads, not {threads}")


def clock_for(threads):
    """The clock both sides use: process CPU time with one thread (immune to time spent
    descheduled on a shared machine), wall time with several (CPU time adds threads up)."""
    return "cpu" if threads == 1 else "wall"


def clock_note_for(threads, cpu_label="CPU time"):
    return (f"{cpu_label}, both sides" if threads == 1 else "wall time, both sides") + \
        ", median of samples of calls"


def clock_fn(kind):
    return time.process_time if kind == "cpu" else time.perf_counter


def calibrate(fn, min_time, now):
    """Calls per sample so that a sample lasts about `min_time` seconds."""
    calls = 1
    while True:
        t0 = now()
        for _ in range(calls):
            fn()
        dt = now() - t0
        if dt >= min_time / 4 or calls > (1 << 22):
            return max(1, int(calls * min_time / max(dt, 1e-9)))
        calls *= 4


def alternating_medians(fns, clock="wall", reps=5, min_time=0.05):
    """{name: median seconds per call} for a dict of zero-argument calls. Each sample is a
    batch of calls lasting about `min_time` seconds; the calls alternate sample by sample so
    drift on a shared machine hits all of them alike, and each round starts one function later
    than the one before, so that no function always runs right after the same other one: a
    library's idle threads or leftover cache state slow whatever follows it (torch's einsum
    made the next tenferro sample 20% slower, and with a fixed order that was always the same
    one)."""
    now = clock_fn(clock)
    calls = {}
    for name, fn in fns.items():
        fn()  # warm-up: imports, plans, caches
        calls[name] = calibrate(fn, min_time, now)
    samples = {name: [] for name in fns}
    order = list(fns.items())
    for rep in range(reps):
        shift = rep % len(order)
        for name, fn in order[shift:] + order[:shift]:
            t0 = now()
            for _ in range(calls[name]):
                fn()
            samples[name].append((now() - t0) / calls[name])
    return {name: statistics.median(s) for name, s in samples.items()}


def alternating_per_call_medians(fns, calls):
    """{name: median wall seconds per call} over `calls` individually timed calls of each
    function, alternating call by call (the statistic `tenferro bench` reports)."""
    for fn in fns.values():
        fn()  # warm-up
    samples = {name: [] for name in fns}
    for _ in range(calls):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            samples[name].append(time.perf_counter() - t0)
    return {name: statistics.median(s) for name, s in samples.items()}


def run_worker(script, threads, payload):
    """Runs `script --worker` in a fresh Python with the thread environment; the worker reads
    a JSON payload from argv and prints a JSON result."""
    out = subprocess.check_output(
        [sys.executable, script, "--worker", json.dumps(dict(payload, threads=threads))],
        env=thread_env(threads))
    return json.loads(out)


def worker_payload(argv):
    """In a worker: the payload, after applying its thread count."""
    payload = json.loads(argv[argv.index("--worker") + 1])
    set_python_threads(payload["threads"])
    return payload


def gbench_medians(binary, bench_filter, threads, reps=5, min_time=0.1):
    """Runs a Google Benchmark program and returns {run_name: (real_s, cpu_s)} of the medians.
    Google Benchmark's cpu_time is the benchmark thread's CPU time (the same as the process's
    when BLAS runs one thread)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "out.json")
        subprocess.run(
            [binary, "--benchmark_filter=" + bench_filter, f"--benchmark_repetitions={reps}",
             f"--benchmark_min_time={min_time}", "--benchmark_out=" + path,
             "--benchmark_out_format=json"],
            check=True, capture_output=True, text=True, env=thread_env(threads))
        with open(path) as f:
            report = json.load(f)
    out = {}
    for b in report["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        out[b["run_name"]] = (b["real_time"] * scale, b["cpu_time"] * scale)
    return out


def alternate(families, thread_counts, rounds, cfgs, log=sys.stderr, load_samples=None):
    """Runs each family's tenferro side and peer side alternately, family after family,
    `rounds` times per thread count. Returns {TITLE: {(threads, case, lib): [per-round s]}}.
    Appends the 1-minute load average after each block to `load_samples` when given."""
    times = {f.TITLE: {} for f in families}
    for rnd in range(rounds):
        for threads in thread_counts:
            for family in families:
                cfg, t = cfgs[family.TITLE], times[family.TITLE]
                ours = family.tenferro_times(threads, cfg)
                peers = family.peer_times(threads, cfg)
                for case in family.case_names(cfg):
                    t.setdefault((threads, case, "tenferro"), []).append(ours[case])
                    for lib, secs in peers[case].items():
                        t.setdefault((threads, case, lib), []).append(secs)
                print(f"[{family.TITLE}] round {rnd + 1}/{rounds}, {threads} thread(s) done",
                      file=log, flush=True)
            if load_samples is not None:
                load_samples.append(os.getloadavg()[0])
    return times


def summarize(family, times, thread_counts, cfg):
    """Medians over rounds, peer/tenferro ratios and geometric means per thread count:
    {threads: {"rows": [(case, tenferro_s, {lib: (peer_s, ratio)})], "geomean": {lib: g}}}"""
    result = {}
    for threads in thread_counts:
        rows, logs = [], {lib: [] for lib in family.PEERS}
        for case in family.case_names(cfg):
            ours = statistics.median(times[(threads, case, "tenferro")])
            cells = {}
            for lib in family.PEERS:
                key = (threads, case, lib)
                if key not in times:
                    continue
                peer = statistics.median(times[key])
                cells[lib] = (peer, peer / ours)
                logs[lib].append(math.log(peer / ours))
            rows.append((case, ours, cells))
        geo = {lib: math.exp(sum(v) / len(v)) for lib, v in logs.items() if v}
        result[threads] = {"rows": rows, "geomean": geo}
    return result


def fmt_time(seconds):
    us = seconds * 1e6
    if us >= 10000:
        return f"{us / 1000:.2f} ms"
    return f"{us:.1f} us" if us >= 10 else f"{us:.2f} us"


def markdown_tables(family, summary, clock_note):
    """One table per thread count: medians and peer/tenferro ratios, geometric mean row."""
    lines = []
    for threads, s in summary.items():
        lines.append(f"\n**{threads} thread(s)** ({clock_note(threads)})\n")
        head = "| case | tenferro | " + " | ".join(f"{lib} (ratio)" for lib in family.PEERS) + " |"
        lines.append(head)
        lines.append("|---|---:|" + "---:|" * len(family.PEERS))
        for case, ours, cells in s["rows"]:
            row = [case, fmt_time(ours)]
            for lib in family.PEERS:
                if lib in cells:
                    peer, ratio = cells[lib]
                    row.append(f"{fmt_time(peer)} ({ratio:.2f}x)")
                else:
                    row.append("n/a")
            lines.append("| " + " | ".join(row) + " |")
        geo = ["**geometric mean**", ""] + [
            f"**{s['geomean'][lib]:.2f}x**" if lib in s["geomean"] else "n/a" for lib in family.PEERS]
        lines.append("| " + " | ".join(geo) + " |")
    return "\n".join(lines) + "\n"


def standalone_main(family, description, argv=None):
    """The `python <family>_peers.py` entry point shared by the family scripts."""
    import argparse

    p = argparse.ArgumentParser(description=description,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build", help="the CMake build folder (Release, bench ON)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="fewer, shorter samples")
    p.add_argument("--threads", default=f"1,{all_cores()}", help="comma-separated thread counts")
    p.add_argument("--markdown", default="", help="also write the tables to this file")
    args = p.parse_args(argv)
    cfg = family.config(args.build, args.quick)
    threads = [int(t) for t in args.threads.split(",")]
    times = alternate([family], threads, args.rounds, {family.TITLE: cfg})[family.TITLE]
    text = markdown_tables(family, summarize(family, times, threads, cfg), family.clock_note)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    return 0
