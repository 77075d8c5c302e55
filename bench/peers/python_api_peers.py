#!/usr/bin/env python3
"""tenferro's Python API against the same C++ call and against its Python peers, in one run.

1. Per-call overhead: tenferro.einsum("ij,jk->ik") on two 4x4 float64 operands from Python
   against tenferro::einsum on the same operands from C++, and tenferro.grad of
   sum(einsum("ij,jk->ik", a, b)) in a against ad::grad of the same from C++
   (bench/peers/einsum_call_cpp.cpp, built with the bench programs as
   <build>/bench/einsum_call_cpp, or given by --cpp-call). Both are medians of samples of
   calls, timed the same way, alternating round by round.
2. The Python API against numpy.einsum (with numpy.einsum_path's optimal path, computed once
   outside the timing, as einsum_peers.py) and opt_einsum (contract_expression built once) on
   the einsum suite (the cases `<build>/bench/einsum_cases --list` prints), against NumPy on
   64 x (4x4) batched QR / SVD / eigh / solve / det and on the complex128 FFT cases of
   fft_peers.py (and scipy.fft where SciPy is installed), and against PyTorch CPU where torch
   is installed: torch.einsum (which plans with opt_einsum on every call, as users get it),
   torch.linalg and torch.fft.fftn on the same NumPy arrays (torch.from_numpy, no copy), and
   torch_oe: the opt_einsum expression built once, run on torch tensors (backend="torch").
   Every library runs in one worker process, alternating sample by sample.

1 thread everywhere (thread variables: common.py), process CPU time on both sides (immune to
time spent descheduled on a shared machine). Ratios are peer time / tenferro time: above 1
means tenferro is faster.

    python bench/peers/python_api_peers.py [--build build] [--cpp-call BIN] [--rounds 3]
        [--overhead-rounds 11] [--quick] [--markdown FILE]
(run with a Python that has tenferro installed, e.g. build-python/venv-test/bin/python)
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

THREADS = 1
CLOCK = "cpu"
LINALG = ["qr", "svd", "eigh", "solve", "det"]
FFT_CASES = [
    ("c2c_1d_2^10", (1 << 10,), (0,)),
    ("c2c_1d_2^16", (1 << 16,), (0,)),
    ("c2c_2d_128x128_batch16", (16, 128, 128), (1, 2)),
]


def worker(payload):
    import numpy as np
    import opt_einsum as oe
    import tenferro as tf

    try:
        import scipy.fft as sfft
    except ImportError:
        sfft = None
    try:
        import torch
    except ImportError:
        torch = None
    reps, min_time = payload["reps"], payload["min_time"]
    rt = tf.Runtime.cpu()
    rng = np.random.default_rng(1)
    out = {}
    if payload["part"] == "overhead":
        a, b = (rt.upload(rng.uniform(-1, 1, (4, 4))) for _ in range(2))
        grad = tf.grad(lambda x: tf.einsum("ij,jk->ik", x, b).sum())
        print(json.dumps(common.alternating_medians(
            {"einsum": lambda: tf.einsum("ij,jk->ik", a, b), "grad": lambda: grad(a)},
            CLOCK, reps, min_time)))
        return

    dtypes = {"F32": np.float32, "F64": np.float64, "C32": np.complex64, "C64": np.complex128}
    for name, case in payload["cases"].items():
        dt = dtypes[case["dtype"]]
        ops = []
        for shape in case["shapes"]:
            x = rng.uniform(-1, 1, size=shape)
            if np.dtype(dt).kind == "c":
                x = x + 1j * rng.uniform(-1, 1, size=shape)
            ops.append(np.ascontiguousarray(x.astype(dt)))
        subs = case["subscripts"]
        strategy = "optimal" if len(ops) <= 8 else "greedy"
        np_path = np.einsum_path(subs, *ops, optimize=(strategy, 1e30))[0]
        expr = oe.contract_expression(subs, *[o.shape for o in ops], optimize="auto")
        tops = [rt.upload(o) for o in ops]
        # tenferro materialises its result; NumPy and torch return a lazy view for a pure
        # transposition: making it contiguous makes the work equal (free for every other case).
        fns = {
            "tenferro": lambda: tf.einsum(subs, *tops),
            "numpy": lambda: np.ascontiguousarray(np.einsum(subs, *ops, optimize=np_path)),
            "opt_einsum": lambda: np.ascontiguousarray(expr(*ops)),
        }
        if torch is not None:
            tts = [torch.from_numpy(o) for o in ops]
            fns["torch"] = lambda: torch.einsum(subs, *tts).contiguous()
            # torch planned once, as numpy and opt_einsum are: the same expression, torch's ops.
            fns["torch_oe"] = lambda: expr(*tts, backend="torch").contiguous()
        out["einsum/" + name] = common.alternating_medians(fns, CLOCK, reps, min_time)

    a = rng.standard_normal((64, 4, 4))
    spd = a @ np.swapaxes(a, -1, -2) + 4 * np.eye(4)
    b = rng.standard_normal((64, 4, 2))
    ta, tspd, tb = rt.upload(a), rt.upload(spd), rt.upload(b)
    linalg = {
        "qr": (lambda: tf.linalg.qr(ta), lambda: np.linalg.qr(a)),
        "svd": (lambda: tf.linalg.svd(ta, full_matrices=False),
                lambda: np.linalg.svd(a, full_matrices=False)),
        "eigh": (lambda: tf.linalg.eigh(tspd), lambda: np.linalg.eigh(spd)),
        "solve": (lambda: tf.linalg.solve(ta, tb), lambda: np.linalg.solve(a, b)),
        "det": (lambda: tf.linalg.det(ta), lambda: np.linalg.det(a)),
    }
    if torch is not None:
        ca, cspd, cb = (torch.from_numpy(v) for v in (a, spd, b))
        torch_linalg = {"qr": lambda: torch.linalg.qr(ca),
                        "svd": lambda: torch.linalg.svd(ca, full_matrices=False),
                        "eigh": lambda: torch.linalg.eigh(cspd),
                        "solve": lambda: torch.linalg.solve(ca, cb),
                        "det": lambda: torch.linalg.det(ca)}
    for name in LINALG:
        ours, theirs = linalg[name]
        fns = {"tenferro": ours, "numpy": theirs}
        if torch is not None:
            fns["torch"] = torch_linalg[name]
        out[f"linalg/{name}_64x4x4"] = common.alternating_medians(fns, CLOCK, reps, min_time)

    for name, shape, axes in FFT_CASES:
        x = (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(np.complex128)
        tx = rt.upload(x)
        fns = {"tenferro": lambda: tf.fft.fftn(tx, axes=axes),
               "numpy": lambda: np.fft.fftn(x, axes=axes)}
        if sfft is not None:
            fns["scipy"] = lambda: sfft.fftn(x, axes=axes, workers=1)
        if torch is not None:
            cx = torch.from_numpy(x)
            fns["torch"] = lambda: torch.fft.fftn(cx, dim=axes)
        out["fft/" + name] = common.alternating_medians(fns, CLOCK, reps, min_time)
    print(json.dumps(out))


def cpp_call(binary, reps, min_time):
    text = subprocess.check_output([binary, "--reps", str(reps), "--min-time", str(min_time),
                                    "--clock", CLOCK], env=common.thread_env(THREADS))
    return json.loads(text)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build", help="CMake build folder with the bench programs")
    p.add_argument("--cpp-call", default="", help="the einsum_call_cpp binary "
                   "(default <build>/bench/einsum_call_cpp)")
    p.add_argument("--rounds", type=int, default=3, help="rounds of the peer comparison")
    p.add_argument("--overhead-rounds", type=int, default=11,
                   help="C++/Python alternations of the overhead figure (it is ~4 us a call: "
                   "more rounds than the peers need to get its difference out of the noise)")
    p.add_argument("--quick", action="store_true", help="fewer, shorter samples")
    p.add_argument("--markdown", default="", help="also write the tables to this file")
    args = p.parse_args()
    reps, min_time = (3, 0.02) if args.quick else (5, 0.05)
    binary = args.cpp_call or os.path.join(args.build, "bench", "einsum_call_cpp")
    cases = json.loads(subprocess.check_output(
        [os.path.join(args.build, "bench", "einsum_cases"), "--list"]))
    script = os.path.abspath(__file__)

    cpp, py, peers = [], [], {}
    for _ in range(args.overhead_rounds):  # samples 4x longer than the peers': a ~4 us call
        cpp.append(cpp_call(binary, reps, 4 * min_time))
        py.append(common.run_worker(script, THREADS, {"part": "overhead", "reps": reps,
                                                      "min_time": 4 * min_time}))
    for rnd in range(args.rounds):
        res = common.run_worker(script, THREADS, {"part": "peers", "reps": reps,
                                                  "min_time": min_time, "cases": cases})
        for case, libs in res.items():
            for lib, secs in libs.items():
                peers.setdefault(case, {}).setdefault(lib, []).append(secs)
        print(f"round {rnd + 1}/{args.rounds} done", file=sys.stderr, flush=True)

    lines = ["**Per-call overhead** (1 thread, process CPU time; medians over "
             f"{args.overhead_rounds} alternating C++/Python rounds, each a median of samples; "
             "Python - C++ is the median of the per-round differences, with their range)\n",
             "| call (4x4 float64) | C++ | Python | Python - C++ | range over rounds | "
             "Python / C++ |", "|---|---:|---:|---:|---:|---:|"]
    labels = {"einsum": "einsum ij,jk->ik", "grad": "grad of sum(einsum ij,jk->ik)"}
    for key, label in labels.items():
        c = statistics.median(r[key] for r in cpp)
        q = statistics.median(r[key] for r in py)
        diffs = sorted(p_[key] - c_[key] for p_, c_ in zip(py, cpp))
        lines.append(f"| {label} | {common.fmt_time(c)} | {common.fmt_time(q)} | "
                     f"{statistics.median(diffs) * 1e9:.0f} ns | {diffs[0] * 1e9:.0f} .. "
                     f"{diffs[-1] * 1e9:.0f} ns | {q / c:.2f}x |")
    lines.append("")
    libs = ["numpy", "opt_einsum", "scipy", "torch", "torch_oe"]
    lines += ["**tenferro's Python API against peers** (ratio = peer / tenferro; above 1: "
              "tenferro faster)\n",
              "| case | tenferro | " + " | ".join(f"{lib} (ratio)" for lib in libs) + " |",
              "|---|---:|" + "---:|" * len(libs)]
    logs = {lib: [] for lib in libs}
    groups = {}
    for case, times in peers.items():
        ours = statistics.median(times["tenferro"])
        row = [case, common.fmt_time(ours)]
        for lib in libs:
            if lib not in times:
                row.append("n/a")
                continue
            theirs = statistics.median(times[lib])
            ratio = theirs / ours
            logs[lib].append(math.log(ratio))
            groups.setdefault((case.split("/")[0], lib), []).append(math.log(ratio))
            row.append(f"{common.fmt_time(theirs)} ({ratio:.2f}x)")
        lines.append("| " + " | ".join(row) + " |")
    geo = ["**geometric mean (all)**", ""] + [
        f"**{math.exp(sum(v) / len(v)):.2f}x**" if v else "n/a" for v in logs.values()]
    lines.append("| " + " | ".join(geo) + " |")
    for family in ("einsum", "linalg", "fft"):
        cells = [f"geometric mean ({family})", ""]
        for lib in libs:
            v = groups.get((family, lib))
            cells.append(f"{math.exp(sum(v) / len(v)):.2f}x" if v else "n/a")
        lines.append("| " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    if "--worker" in sys.argv:
        worker(common.worker_payload(sys.argv))
    else:
        sys.exit(main())
