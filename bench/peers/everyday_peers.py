#!/usr/bin/env python3
"""What a NumPy user does every day, tenferro against NumPy in one run (issue #32).

GEMM, batched matmul, batched qr/svd/eigh, element-wise math, axis sums, upload and download,
each on NumPy arrays as a user has them (C order). Every case alternates the two libraries
sample by sample in one worker process and reports medians; ratio = NumPy time / tenferro time
(above 1: tenferro is faster). No BLAS tuning variable is set: each library picks its own
kernels (`tenferro info` prints tenferro's). The worker runs once at 1 thread and once at all
cores (thread variables: common.py).

Above one thread the worker waits SETTLE_SECONDS before each sample: NumPy and tenferro each
load their own OpenBLAS, whose idle threads spin for about 0.1 s after a call, and a sample
taken in that time measures the other library's spinners (bench/peers/two_blas_pools.py
measures that effect itself; docs/perf/everyday.md).

    python bench/peers/everyday_peers.py [--quick] [--threads 1,2] [--markdown FILE]
(run with a Python that has tenferro and NumPy installed)
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def cases(quick):
    """(group, name, setup) where setup(np, tf, rt) returns (numpy_fn, tenferro_fn)."""
    out = []
    sizes = [256, 512] if quick else [256, 512, 1024]
    for dt in ["float32", "float64", "complex64", "complex128"]:
        for n in sizes:
            out.append(("gemm", f"{dt} {n}^2 @", lambda np, tf, rt, n=n, dt=dt: _binary(
                np, rt, (n, n), dt, lambda a, b: a @ b)))
    for b, m in [(256, 8), (64, 32), (8, 128)]:
        out.append(("batched matmul", f"float64 {b}x{m}x{m} @", lambda np, tf, rt, b=b, m=m:
                    _binary(np, rt, (b, m, m), "float64", lambda x, y: x @ y)))
        for op in ["qr", "svd", "eigh"]:
            out.append(("batched linalg", f"{op} {b}x{m}x{m}", lambda np, tf, rt, b=b, m=m, op=op:
                        _linalg(np, tf, rt, (b, m, m), op)))
    lengths = [1 << 10, 1 << 16] if quick else [1 << 10, 1 << 16, 1 << 22]
    for dt in ["float32", "float64"]:
        for n in lengths:
            for f in ["exp", "log", "tanh", "sin", "sqrt", "abs"]:
                out.append(("element-wise", f"{f} {dt} 2^{n.bit_length() - 1}",
                            lambda np, tf, rt, n=n, dt=dt, f=f: _unary(np, tf, rt, n, dt, f)))
            for f, sym in [("add", "+"), ("mul", "*"), ("maximum", "maximum")]:
                out.append(("element-wise", f"{f} {dt} 2^{n.bit_length() - 1}",
                            lambda np, tf, rt, n=n, dt=dt, sym=sym: _elementwise2(
                                np, tf, rt, n, dt, sym)))
    # More of what a NumPy user writes, beyond the list (its own geometric mean below):
    # the other element-wise ops of the prims list, scalar operands and comparisons.
    for dt in ["float32", "float64"]:
        for n in [1 << 16, 1 << 20]:
            for name in BEYOND_UNARY + BEYOND_BINARY:
                out.append((BEYOND, f"{name} {dt} 2^{n.bit_length() - 1}",
                            lambda np, tf, rt, n=n, dt=dt, name=name: _beyond(
                                np, tf, rt, n, dt, name)))
    # NumPy's other everyday functions at 2^16, where a scalar loop shows (0.02-0.2x NumPy's
    # speed before the SLEEF rows and the rounding instructions of 2026-12-06).
    for dt in ["float32", "float64"]:
        for name in FUNCTIONS:
            out.append((FUNCTIONS_GROUP, f"{name} {dt} 2^16",
                        lambda np, tf, rt, dt=dt, name=name: _function(np, tf, rt, dt, name)))
    # Complex element-wise ops (interleaved parts): products, quotients, scaling, magnitudes.
    for dt in ["complex64", "complex128"]:
        for n in [1 << 16, 1 << 20]:
            for name in BEYOND_COMPLEX:
                out.append((BEYOND, f"{name} {dt} 2^{n.bit_length() - 1}",
                            lambda np, tf, rt, n=n, dt=dt, name=name: _beyond_complex(
                                np, tf, rt, n, dt, name)))
    # 2-D NumPy arrays are C-ordered: the element-wise result must keep that order, and a
    # broadcast row must not cost a strided walk.
    for dt in ["float32", "float64"]:
        for name, fn in [("add", lambda a, b, row: a + b), ("mul by a row", lambda a, b, row: a * row)]:
            out.append(("element-wise 2-D", f"{name} {dt} 1024^2 C-order",
                        lambda np, tf, rt, dt=dt, fn=fn: _elementwise_c_order(np, rt, dt, fn)))
    for axis in [0, 1]:
        out.append(("reductions", f"sum axis {axis} of 1024^2 float64",
                    lambda np, tf, rt, axis=axis: _sum(np, rt, axis)))
    # Beyond the list: whole-array and float32 reductions, products with a vector side.
    for dt in ["float32", "float64"]:
        out.append((BEYOND_OTHER, f"sum of all 1024^2 {dt}", lambda np, tf, rt, dt=dt: _reduce(
            np, rt, dt, lambda x: x.sum())))
        out.append((BEYOND_OTHER, f"mean axis 0 of 1024^2 {dt}", lambda np, tf, rt, dt=dt: _reduce(
            np, rt, dt, lambda x: x.mean(axis=0))))
        out.append((BEYOND_OTHER, f"{dt} 1024^2 @ vector",
                    lambda np, tf, rt, dt=dt: _matvec(np, rt, dt)))
        out.append((BEYOND_OTHER, f"{dt} dot of 2^16", lambda np, tf, rt, dt=dt: _dot(np, rt, dt)))
        out.append((BEYOND_OTHER, f"var of 1024^2 {dt}", lambda np, tf, rt, dt=dt: _statistic(
            np, tf, rt, dt, "var", None)))
        out.append((BEYOND_OTHER, f"std axis 0 of 1024^2 {dt}", lambda np, tf, rt, dt=dt:
                    _statistic(np, tf, rt, dt, "std", 0)))
        for axis in [0, 1]:
            out.append((BEYOND_OTHER, f"argmax axis {axis} of 1024^2 {dt}",
                        lambda np, tf, rt, dt=dt, axis=axis: _statistic(np, tf, rt, dt, "argmax",
                                                                        axis)))
    for dt in ["float32", "float64", "complex128"]:
        for n in [1 << 16, 1 << 20]:
            out.append((BEYOND_OTHER, f"norm of 2^{n.bit_length() - 1} {dt}",
                        lambda np, tf, rt, n=n, dt=dt: _norm(np, tf, rt, n, dt)))
    out.append(("transfers", "upload 512^2 float64 (vs np.copy)", lambda np, tf, rt: _upload(np, rt)))
    out.append(("transfers", "download 512^2 float64 (vs np.copy)",
                lambda np, tf, rt: _download(np, rt)))
    return out


def _random(np, shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _binary(np, rt, shape, dtype, f):
    a, b = _random(np, shape, dtype, 1), _random(np, shape, dtype, 2)
    ta, tb = rt.upload(a), rt.upload(b)
    return (lambda: f(a, b)), (lambda: f(ta, tb))


def _linalg(np, tf, rt, shape, op):
    a = _random(np, shape, "float64", 3)
    if op == "eigh":
        a = a + np.swapaxes(a, -1, -2)
    t = rt.upload(a)
    return (lambda: getattr(np.linalg, op)(a)), (lambda: getattr(tf.linalg, op)(t))


def _unary(np, tf, rt, n, dtype, f):
    x = np.abs(_random(np, (n,), dtype, 4)) + np.asarray(0.5, dtype)
    t = rt.upload(x)
    return (lambda: getattr(np, f)(x)), (lambda: getattr(tf, f)(t))


def _elementwise2(np, tf, rt, n, dtype, sym):
    x, y = _random(np, (n,), dtype, 5), _random(np, (n,), dtype, 6)
    tx, ty = rt.upload(x), rt.upload(y)
    if sym == "maximum":
        return (lambda: np.maximum(x, y)), (lambda: tf.maximum(tx, ty))
    op = {"+": lambda a, b: a + b, "*": lambda a, b: a * b}[sym]
    return (lambda: op(x, y)), (lambda: op(tx, ty))


BEYOND = "element-wise, beyond the list"
BEYOND_OTHER = "reductions and products, beyond the list"
BEYOND_UNARY = ["negative", "square", "reciprocal", "sign", "x * 2.0", "x + 1.0", "x / 3.0",
                "x ** 2"]
BEYOND_COMPLEX = ["multiply", "divide", "x / 2.0", "abs"]
BEYOND_BINARY = ["subtract", "divide", "minimum", "power", "greater", "where(x > y, x, y)"]


def _beyond(np, tf, rt, n, dtype, name):
    x = np.abs(_random(np, (n,), dtype, 13)) + np.asarray(0.5, dtype)
    y = np.abs(_random(np, (n,), dtype, 14)) + np.asarray(0.5, dtype)
    tx, ty = rt.upload(x), rt.upload(y)
    scalar_forms = {"x * 2.0": lambda a, b: a * 2.0, "x + 1.0": lambda a, b: a + 1.0,
                    "x / 3.0": lambda a, b: a / 3.0, "x ** 2": lambda a, b: a ** 2}
    if name in scalar_forms:
        f = scalar_forms[name]
        return (lambda: f(x, y)), (lambda: f(tx, ty))
    if name.startswith("where"):
        return (lambda: np.where(x > y, x, y)), (lambda: tf.where(tx > ty, tx, ty))
    if name in BEYOND_UNARY:
        return (lambda: getattr(np, name)(x)), (lambda: getattr(tf, name)(tx))
    return (lambda: getattr(np, name)(x, y)), (lambda: getattr(tf, name)(tx, ty))


FUNCTIONS_GROUP = "NumPy functions, beyond the list"
FUNCTIONS = ["tan", "sinh", "cosh", "arcsin", "arccos", "arctan", "arcsinh", "arctanh", "cbrt",
             "expm1", "log2", "floor", "rint", "arctan2", "zeros", "arange", "argmax", "flip",
             "cumsum", "cumprod"]


def _function(np, tf, rt, dtype, name):
    """One of FUNCTIONS on 2^16 values of its domain (|x| < 1 for arcsin, arccos and arctanh,
    positive for log2, factors within 3% of 1 for cumprod, whose products then stay normal);
    flip against NumPy's flip copied (tenferro's flip is a copy)."""
    n = 1 << 16
    x = _random(np, (n,), dtype, 23) * np.asarray(3, dtype)
    if name in ("arcsin", "arccos", "arctanh"):
        x = np.tanh(x)
    elif name == "log2":
        x = np.abs(x) + np.asarray(0.5, dtype)
    elif name == "cumprod":
        x = np.exp(x * np.asarray(0.01, dtype))
    y = _random(np, (n,), dtype, 24)
    tx, ty = rt.upload(x), rt.upload(y)
    if name == "arctan2":
        return (lambda: np.arctan2(x, y)), (lambda: tf.arctan2(tx, ty))
    if name == "flip":  # NumPy's flip is a view; tenferro's kernels take no negative strides
        return (lambda: np.ascontiguousarray(np.flip(x))), (lambda: tf.flip(tx))
    if name in ("zeros", "arange"):
        return ((lambda: getattr(np, name)(n, dtype=dtype)),
                (lambda: getattr(tf, name)(n, dtype=dtype, runtime=rt)))
    return (lambda: getattr(np, name)(x)), (lambda: getattr(tf, name)(tx))


def _beyond_complex(np, tf, rt, n, dtype, name):
    x, y = _random(np, (n,), dtype, 19), _random(np, (n,), dtype, 20)
    tx, ty = rt.upload(x), rt.upload(y)
    if name == "x / 2.0":
        return (lambda: x / 2.0), (lambda: tx / 2.0)
    if name == "abs":
        return (lambda: np.abs(x)), (lambda: tf.abs(tx))
    return (lambda: getattr(np, name)(x, y)), (lambda: getattr(tf, name)(tx, ty))


def _statistic(np, tf, rt, dtype, name, axis):
    x = _random(np, (1024, 1024), dtype, 21)
    t = rt.upload(x)
    return (lambda: getattr(np, name)(x, axis=axis)), (lambda: getattr(tf, name)(t, axis=axis))


def _norm(np, tf, rt, n, dtype):
    x = _random(np, (n,), dtype, 22)
    t = rt.upload(x)
    return (lambda: np.linalg.norm(x)), (lambda: tf.linalg.norm(t))


def _elementwise_c_order(np, rt, dtype, fn):
    a, b = _random(np, (1024, 1024), dtype, 10), _random(np, (1024, 1024), dtype, 11)
    row = _random(np, (1, 1024), dtype, 12)
    ta, tb, trow = rt.upload(a), rt.upload(b), rt.upload(row)
    return (lambda: fn(a, b, row)), (lambda: fn(ta, tb, trow))


def _sum(np, rt, axis):
    x = _random(np, (1024, 1024), "float64", 7)
    t = rt.upload(x)
    return (lambda: x.sum(axis=axis)), (lambda: t.sum(axis=axis))


def _reduce(np, rt, dtype, f):
    x = _random(np, (1024, 1024), dtype, 15)
    t = rt.upload(x)
    return (lambda: f(x)), (lambda: f(t))


def _matvec(np, rt, dtype):
    a, v = _random(np, (1024, 1024), dtype, 16), _random(np, (1024,), dtype, 17)
    ta, tv = rt.upload(a), rt.upload(v)
    return (lambda: a @ v), (lambda: ta @ tv)


def _dot(np, rt, dtype):
    v = _random(np, (1 << 16,), dtype, 18)
    tv = rt.upload(v)
    return (lambda: v @ v), (lambda: tv @ tv)


def _upload(np, rt):
    x = _random(np, (512, 512), "float64", 8)
    return (lambda: np.copy(x)), (lambda: rt.upload(x))


def _download(np, rt):
    x = _random(np, (512, 512), "float64", 9)
    t = rt.upload(x)
    return (lambda: np.copy(x)), (lambda: t.download())


def _time(fn, min_seconds, warm_seconds=0.0):
    """Seconds per call: enough calls to last min_seconds, after one warm-up call (and more for
    warm_seconds: after a pause, worker threads and this VM's second vCPU need waking)."""
    warm = time.perf_counter()
    fn()
    while time.perf_counter() - warm < warm_seconds:
        fn()
    calls, start = 0, time.perf_counter()
    while True:
        fn()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return elapsed / calls


SETTLE_SECONDS = 0.3  # the wait before each sample above one thread
WARM_SECONDS = 0.01  # the untimed calls after it


def worker(quick, samples, settle):
    import numpy as np
    import tenferro as tf

    rt = tf.Runtime.cpu()
    results = []
    for group, name, setup in cases(quick):
        np_fn, tf_fn = setup(np, tf, rt)
        np_t, tf_t = [], []
        for _ in range(samples):  # alternating, so drift hits both alike
            time.sleep(settle)
            np_t.append(_time(np_fn, 0.02, WARM_SECONDS if settle else 0.0))
            time.sleep(settle)
            tf_t.append(_time(tf_fn, 0.02, WARM_SECONDS if settle else 0.0))
        results.append({"group": group, "case": name, "numpy_s": statistics.median(np_t),
                        "tenferro_s": statistics.median(tf_t)})
    print(json.dumps(results))


def run(threads, quick, samples):
    env = common.thread_env(threads)
    settle = SETTLE_SECONDS if threads > 1 else 0
    out = subprocess.run([sys.executable, __file__, "--worker", "--samples", str(samples),
                          "--settle", str(settle)] +
                         (["--quick"] if quick else []), env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def blas_line():
    """The BLAS line of the tenferro the worker loads, read in a process with the worker's
    environment (no BLAS tuning variable: the kernel it names is the one the worker runs)."""
    out = subprocess.run([sys.executable, "-c", "import tenferro; print(tenferro.show_config("
                          "mode='dicts')['blas']['line'])"], env=common.thread_env(1),
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--worker", action="store_true")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--samples", type=int, default=5)
    p.add_argument("--settle", type=float, default=0.0)
    p.add_argument("--threads", default=f"1,{common.all_cores()}")
    p.add_argument("--markdown")
    args = p.parse_args()
    if args.worker:
        return worker(args.quick, args.samples, args.settle)
    lines = ["| group | case | " + " | ".join(
        f"NumPy/tenferro {t} thr" for t in args.threads.split(",")) + " |",
        "|---|---|" + "---:|" * len(args.threads.split(","))]
    runs = [run(int(t), args.quick, args.samples) for t in args.threads.split(",")]
    geo = []
    for i, row in enumerate(runs[0]):
        ratios = [r[i]["numpy_s"] / r[i]["tenferro_s"] for r in runs]
        geo.append(ratios)
        lines.append(f"| {row['group']} | {row['case']} | " +
                     " | ".join(f"{x:.2f}x" for x in ratios) + " |")
    def means(rows):
        return [math.exp(statistics.mean(math.log(g[j]) for g in rows)) for j in range(len(runs))]
    listed = [g for g, row in zip(geo, runs[0])
              if row["group"] not in (BEYOND, BEYOND_OTHER, FUNCTIONS_GROUP)]
    lines.append("| **the issue's cases** | **geometric mean** | " +
                 " | ".join(f"**{m:.2f}x**" for m in means(listed)) + " |")
    lines.append("| **all** | **geometric mean** | " +
                 " | ".join(f"**{m:.2f}x**" for m in means(geo)) + " |")
    table = "\n".join(lines)
    print(f"tenferro {blas_line()}\n{common.blas_tuning_note()}\n")
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(common.blas_tuning_note() + "\n\n" + table + "\n")


if __name__ == "__main__":
    main()
