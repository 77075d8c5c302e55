"""Writes docs/performance.md and its plot from the summaries of bench/peers/run_all.py."""
import glob
import math
import os
import platform
import re
import statistics
import subprocess
from pathlib import Path

import common

PEER_ORDER = ["numpy", "opt_einsum", "scipy", "torch"]


def _run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return ""


def uptime():
    return _run(["uptime"])


def load_average(uptime_line):
    m = re.search(r"load average: (.*)$", uptime_line)
    return m.group(1) if m else "unknown"


def machine():
    cpu = "unknown"
    mem_gib = 0.0
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    mem_gib = int(line.split()[1]) / 2**20
    except OSError:
        pass
    flags = _run(["grep", "-m1", "-o", "-w", "avx512f", "/proc/cpuinfo"])
    return {"cpu": cpu, "cores": common.all_cores(), "mem_gib": mem_gib,
            "avx512": bool(flags), "kernel": platform.release(),
            "blas_tuning": common.blas_tuning_note()}


def versions(build):
    import matplotlib
    import numpy
    import opt_einsum
    import scipy
    import torch

    blas = "?"
    try:
        cfg = numpy.show_config(mode="dicts")["Build Dependencies"]["blas"]
        blas = f"{cfg.get('name')} {cfg.get('version')}"
    except Exception:  # older numpy: no dict mode
        pass
    scipy_blas = "?"
    try:
        cfg = scipy.show_config(mode="dicts")["Build Dependencies"]["blas"]
        scipy_blas = f"{cfg.get('name')} {cfg.get('version')}"
    except Exception:
        pass
    torch_cfg = torch.__config__.show()
    blas_info = re.search(r"BLAS_INFO=(\w+)", torch_cfg)
    lapack_info = re.search(r"LAPACK_INFO=(\w+)", torch_cfg)
    torch_blas = f"{blas_info.group(1) if blas_info else '?'}/{lapack_info.group(1) if lapack_info else '?'}"
    backend = re.search(r"ATen parallel backend: (\w+)", torch.__config__.parallel_info())
    deb = {}
    for pkg in ("libopenblas0-pthread", "liblapacke", "libfftw3-double3"):
        deb[pkg] = _run(["dpkg-query", "-W", "-f", "${Version}", pkg]) or "?"
    compiler = "?"
    for path in glob.glob(os.path.join(build, "CMakeFiles", "*", "CMakeCXXCompiler.cmake")):
        with open(path) as f:
            text = f.read()
        cid = re.search(r'CMAKE_CXX_COMPILER_ID "(\w+)"', text)
        ver = re.search(r'CMAKE_CXX_COMPILER_VERSION "([\d.]+)"', text)
        if cid and ver:
            compiler = f"{cid.group(1)} {ver.group(1)}"
    return [
        ("tenferro", f"this tree, Release build in `{build}/` ({compiler}, -O3), Debian OpenBLAS "
                     f"{deb['libopenblas0-pthread']} (pthreads), LAPACKE {deb['liblapacke']}, "
                     f"FFTW {deb['libfftw3-double3']}"),
        ("Python", platform.python_version()),
        ("NumPy", f"{numpy.__version__} (BLAS: {blas}; FFT: pocketfft, single-threaded)"),
        ("SciPy", f"{scipy.__version__} (BLAS: {scipy_blas}; scipy.fft with workers=threads)"),
        ("opt_einsum", f"{opt_einsum.__version__} (on NumPy arrays, backend numpy)"),
        ("PyTorch", f"{torch.__version__} (PyPI wheel, CPU only; BLAS/LAPACK: {torch_blas}; "
                    f"ATen parallel backend: {backend.group(1) if backend else '?'})"),
        ("matplotlib", matplotlib.__version__),
    ]


def overall_geomeans(families, summaries, threads):
    """Geometric mean of peer/tenferro over every case of every family where the peer ran."""
    logs = {}
    for f in families:
        for _, _, cells in summaries[f.TITLE][threads]["rows"]:
            for lib, (_, ratio) in cells.items():
                logs.setdefault(lib, []).append(math.log(ratio))
    return {lib: math.exp(sum(logs[lib]) / len(logs[lib])) for lib in PEER_ORDER if lib in logs}


def plot(families, summaries, threads, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = []
    for f in families:
        labels += [f"{f.TITLE}: {case}" for case, _, _ in summaries[f.TITLE][threads[0]]["rows"]]
    colors = {"numpy": "#4c72b0", "opt_einsum": "#55a868", "scipy": "#c44e52", "torch": "#8172b2"}
    fig, axes = plt.subplots(len(threads), 1, figsize=(14, 4.2 * len(threads)), sharex=True)
    if len(threads) == 1:
        axes = [axes]
    width = 0.2
    for ax, n in zip(axes, threads):
        x0 = 0
        xs = {lib: ([], []) for lib in PEER_ORDER}
        for f in families:
            for _, _, cells in summaries[f.TITLE][n]["rows"]:
                for k, lib in enumerate(PEER_ORDER):
                    if lib in cells:
                        xs[lib][0].append(x0 + (k - 1.5) * width)
                        xs[lib][1].append(cells[lib][1])
                x0 += 1
        for lib in PEER_ORDER:
            if xs[lib][0]:
                ax.bar(xs[lib][0], xs[lib][1], width, label=lib, color=colors[lib])
        ax.set_yscale("log")
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_ylabel("peer time / tenferro time")
        ax.set_title(f"{n} thread(s): above 1 = tenferro faster")
        ax.grid(axis="y", which="both", alpha=0.3)
        ax.legend(ncol=4, fontsize=8, loc="upper right")
    axes[-1].set_xticks(range(len(labels)))
    axes[-1].set_xticklabels(labels, rotation=60, ha="right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def overhead_table(gate_json):
    """Per thread count: the eager-overhead figures of `tenferro bench --json`, median over
    the rounds."""
    lines = []
    for threads, runs in gate_json.items():
        lines.append(f"\n**{threads} thread(s)** (OPENBLAS_NUM_THREADS={threads}; median over "
                     f"{len(runs)} run(s) of `tenferro bench`, each {runs[0]['repeat']} calls "
                     "per side)\n")
        lines.append("| case | dtype | first call | steady median [p10, p90] | direct median | "
                     "overhead | ratio | loop installs/constructions/transfers |")
        lines.append("|---|---|---:|---:|---:|---:|---:|---|")
        names = [c["case"] for c in runs[0]["backends"][0]["cases"]]
        for name in names:
            cs = [next(c for c in r["backends"][0]["cases"] if c["case"] == name) for r in runs]
            med = lambda get: statistics.median(get(c) for c in cs)  # noqa: E731
            steady = med(lambda c: c["steady"]["median_us"])
            lines.append(
                f"| {name} | {cs[0]['dtype']} | {med(lambda c: c['first_call_us']):.1f} us | "
                f"{steady:.2f} us [{med(lambda c: c['steady']['p10_us']):.2f}, "
                f"{med(lambda c: c['steady']['p90_us']):.2f}] | "
                f"{med(lambda c: c['direct']['median_us']):.2f} us | "
                f"{med(lambda c: c['overhead_ns']):.0f} ns | "
                f"{med(lambda c: c['overhead_ratio']):.3f} | "
                + "/".join(str(max(c[k] for c in cs)) for k in
                           ("steady_module_installs", "steady_backend_constructions",
                            "steady_transfers")) + " |")
    return "\n".join(lines) + "\n"


def reading_notes(families, summaries, run, m):
    """Caveats computed from this run's own figures."""
    notes = []
    loads = [load_average(run["load_before"]).split(",")[0]] + \
        [f"{x:.1f}" for x in run.get("load_samples", [])] + \
        [load_average(run["load_after"]).split(",")[0]]
    try:
        peak = max(float(x) for x in loads)
    except ValueError:
        peak = 0.0
    multi = [n for n in run["threads"] if n > 1]
    if multi:
        n, first = multi[-1], run["threads"][0]
        jumped = []  # ratios that grew tenfold or more only because of the extra threads
        for f in families:
            one = {case: cells for case, _, cells in summaries[f.TITLE][first]["rows"]}
            for case, _, cells in summaries[f.TITLE][n]["rows"]:
                for lib, (_, ratio) in cells.items():
                    base = one.get(case, {}).get(lib, (0, ratio))[1]
                    if ratio >= 10 and ratio >= 3 * base:
                        jumped.append(f"{lib} on {case} ({base:.1f}x -> {ratio:.0f}x)")
        if jumped or peak >= m["cores"] - 0.5:
            notes.append(
                f"- **{n}-thread figures on a shared machine.** The 1-minute load average "
                f"sampled during the run ({', '.join(loads)}) reached {peak:.1f} on "
                f"{m['cores']} cores, so a library's second thread often waits for a core. "
                "Thread pools that hand small pieces of work to a partner thread and spin-wait "
                "for it (OpenBLAS's, OpenMP's) then lose by orders of magnitude on small "
                f"problems; here (ratio at {first} -> {n} threads): " + (", ".join(jumped) or
                                                                          "none") +
                ". Those ratios measure the shared machine as much as the libraries, and they "
                "change from run to run; the 1-thread figures are the comparison to quote.")
    notes.append("- NumPy and SciPy load their own OpenBLAS builds; tenferro loads PyPI's "
                 "scipy-openblas32 (0.3.34). Large dense GEMM cases therefore compare BLAS builds "
                 "more than the libraries around them.")
    notes.append("- tenferro plans transforms of at least 2^17 points with FFTW's threads "
                 "(TENFERRO_NUM_THREADS) and smaller ones on one thread, where FFTW's thread "
                 "start costs more than the transform; NumPy's FFT is single-threaded.")
    notes.append("- Python peers pay the interpreter's per-call overhead (about a microsecond or "
                 "more per call); that is part of what their users get, and it dominates the "
                 "smallest cases.")
    return "Reading the figures:\n\n" + "\n".join(notes) + "\n"


CUDA_RECORD = Path(__file__).resolve().parents[2] / "docs" / "perf" / "cuda.md"


def cuda_section():
    """The CUDA figures. This script runs on the CPU machine; the GPU run (scripts/gpu-check.sh)
    is recorded in docs/perf/cuda.md, carried here with its headings one level down."""
    if not CUDA_RECORD.exists():
        return "## CUDA\n\nNo GPU run is recorded (docs/perf/cuda.md).\n"
    lines = CUDA_RECORD.read_text().splitlines()
    body, in_code = [], False
    for line in lines[1:]:
        in_code ^= line.startswith("```")
        body.append("#" + line if line.startswith("#") and not in_code else line)
    return "\n".join(["#" + lines[0], "", "Recorded in [perf/cuda.md](perf/cuda.md) (not rerun "
                       "by this script)."] + body).replace("(cuda-h200-tests.txt)",
                                                          "(perf/cuda-h200-tests.txt)") + "\n"


def markdown(families, summaries, run, png_rel):
    m = machine()
    threads = run["threads"]
    out = []
    w = out.append
    w("# Performance: tenferro against NumPy, SciPy, opt_einsum and PyTorch (CPU)\n")
    w("Generated by `bench/peers/run_all.py`; do not edit by hand, rerun instead. "
      "Per-family detail (eager vs direct kernels, what the executors do): "
      "[einsum](perf/einsum.md), [linear algebra](perf/linalg.md), [FFT](perf/fft.md); "
      "eager dispatch overhead before/after the registration tables: "
      "[dispatch](perf/dispatch.md).\n")
    w("## How this was measured\n")
    w("```\n" + run["command"] + "\n```\n")
    quick = " **(--quick smoke run: one short round; do not quote these figures)**" \
        if run["quick"] else ""
    w(f"- Run: {run['started']:%Y-%m-%d %H:%M}-{run['finished']:%H:%M} UTC, commit "
      f"`{run['commit']}`{' (with uncommitted changes)' if run['dirty'] else ''}, "
      f"{run['rounds']} round(s){quick}.")
    w(f"- Machine: {m['cpu']}, {m['cores']} logical cores, {m['mem_gib']:.1f} GiB memory, "
      f"Linux {m['kernel']}; {m['blas_tuning']}.")
    w(f"- Load average (`uptime`): before the run {load_average(run['load_before'])}, after "
      f"{load_average(run['load_after'])}. The machine is shared; the load is other people's "
      "work, so treat wall-time figures, and every figure with more than one thread, with "
      "care.")
    w(f"- Threads: every party runs at {' and at '.join(map(str, threads))} thread(s). Each "
      "tenferro program and each Python peer worker is a fresh process whose environment sets "
      "OPENBLAS_NUM_THREADS, OMP_NUM_THREADS, MKL_NUM_THREADS and TENFERRO_NUM_THREADS to "
      "the thread count; the Python worker also calls `torch.set_num_threads(n)` and passes "
      "`workers=n` to `scipy.fft`. NumPy's FFT is single-threaded whatever the setting.")
    w("- Alternation: each round runs, per thread count and per group, tenferro then the peers "
      "(the peers alternate among themselves call by call or sample by sample); a figure is the "
      "median over rounds of each round's median. Ratio = peer time / tenferro time: **above 1 "
      "means tenferro is faster**. Geometric means are over the cases of a group where the peer "
      "ran.")
    w("- Clocks: the `tenferro bench` cases use wall time per individually timed call on both "
      "sides (that is what `tenferro bench` measures). The einsum suite, the linalg and the FFT "
      "groups use process CPU time on both sides at 1 thread (immune to time spent "
      "descheduled on a shared machine) and wall time with more threads.\n")
    w("Versions:\n")
    for name, ver in versions(run["build"]):
        w(f"- {name}: {ver}")
    w("")
    w("## Geometric means (peer time / tenferro time)\n")
    w("`gate` = the `tenferro bench` cases; `all cases` = every case of every group where "
      "the peer ran (opt_einsum: einsum cases only; SciPy: no einsum).\n")
    w("| group | threads | " + " | ".join(PEER_ORDER) + " |")
    w("|---|---:|" + "---:|" * len(PEER_ORDER))
    for n in threads:
        for f in families:
            g = summaries[f.TITLE][n]["geomean"]
            w(f"| {f.TITLE} | {n} | " + " | ".join(
                f"{g[lib]:.2f}x" if lib in g else "-" for lib in PEER_ORDER) + " |")
        g = overall_geomeans(families, summaries, n)
        w(f"| **all cases** | {n} | " + " | ".join(
            f"**{g[lib]:.2f}x**" if lib in g else "-" for lib in PEER_ORDER) + " |")
    w("")
    w(f"![peer/tenferro time ratios per case, log scale]({png_rel})\n")
    w(reading_notes(families, summaries, run, m))
    w("## The `tenferro bench` cases\n")
    w("einsum `ij,jk,kl->il` on three 64x64 float64 (the N-ary path); reduced QR and thin SVD of "
      "a 64x64 float64; complex128 FFT of length 4096. Peers: `numpy.einsum` with its "
      "`optimal` path computed once, `opt_einsum.contract_expression` built once (NumPy "
      "arrays), `torch.einsum`; `numpy.linalg`, `scipy.linalg` (`mode=\"economic\"`, "
      "`full_matrices=False`), `torch.linalg`; `numpy.fft.fft`, `scipy.fft.fft`, "
      "`torch.fft.fft`.")
    w(common.markdown_tables(families[0], summaries[families[0].TITLE], families[0].clock_note))
    w("## Eager overhead (`tenferro bench --json`)\n")
    w("The same computation through the eager API (dispatch, admission, output allocation, "
      "cache lookups) and called directly on the CPU executor, alternating call by call; "
      "overhead = steady median - direct median. The last column is the gate's check: module "
      "installs, backend constructions and transfers inside the steady-state loop (must be "
      "0/0/0).")
    w(overhead_table(run["gate_json"]))
    titles = {"einsum suite": "## The einsum network suite (bench/einsum/einsum_cases.hpp)\n\n"
                              "numpy.einsum with an `optimal` path (`greedy` beyond 8 operands) "
                              "computed once, opt_einsum `contract_expression(optimize=\"auto\")`"
                              ", torch.einsum (plans on every call, as users get it). Detail: "
                              "[perf/einsum.md](perf/einsum.md).",
              "linalg 64x4x4": "## Small batched linear algebra: 64 x (4x4) float64\n\n"
                               "tenferro: one batched eager call (`linalg_bench`'s "
                               "Eager*Batch64x4); NumPy and PyTorch batched; SciPy a Python loop "
                               "of 64 calls (its functions take one matrix). Detail: "
                               "[perf/linalg.md](perf/linalg.md).",
              "fft": "## FFT (complex128; bench/fft/fft_bench.cpp's cases)\n\n"
                     "tenferro: `fft_bench`'s eager/* medians (FFTW3, FFTW_ESTIMATE plans). "
                     "Detail: [perf/fft.md](perf/fft.md)."}
    for f in families[1:]:
        w(titles.get(f.TITLE, f"## {f.TITLE}\n"))
        w(common.markdown_tables(f, summaries[f.TITLE], f.clock_note))
    w(cuda_section())
    return "\n".join(out) + "\n"
