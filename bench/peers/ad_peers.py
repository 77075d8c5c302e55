#!/usr/bin/env python3
"""Reverse-mode AD against PyTorch autograd, side by side in one run (issue 16): the four
cases of bench/ad/ad_bench.cpp, forward alone and forward + backward, for
  * tenferro's C++ tape (`<build>/bench/ad_bench`, Google Benchmark medians, CPU time),
  * tenferro's Python API (`tenferro.grad`, the loss written with tf.einsum / tf.linalg),
  * PyTorch CPU (`torch.autograd.grad` of the same loss; forward alone under no_grad).
Cases: (a) sum((A B C)^2), 256 x 256 each, as einsum "ij,jk,kl->il"; (b) svd of 128 x 128,
loss sum(S) + |U diag(S) Vh|^2 + |U Vh|^2 (gauge invariant); (c) eigh of the symmetrised
256 x 256 input, loss: the 4 lowest eigenvalues + the squared diagonal of their projector;
(d) qr of 64 batched 4 x 4, loss |Q|^2 + sum(R). float64 throughout.

tenferro-Python and PyTorch get the same NumPy inputs (tenferro by rt.upload, torch by
torch.from_numpy), run in one worker process and alternate sample by sample. The C++ bench
draws its own inputs of the same shapes and distribution (prims::random_normal). 1 thread
everywhere (common.py's thread variables, torch.set_num_threads(1)); process CPU time on all
sides. Each round runs the C++ bench and then the worker; reported times are medians over
rounds of per-round medians. Ratios: peer time / tenferro time (above 1: tenferro faster).

    python bench/peers/ad_peers.py [--build build] [--rounds 3] [--quick] [--markdown FILE]
(run with a Python that has tenferro, torch and numpy, e.g. build-python/venv-test/bin/python
after scripts/test-python.sh, which installs all three)
"""
import argparse
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

THREADS = 1
CASES = {  # our name: ad_bench's benchmark name
    "einsum_chain_256": "EinsumChain256",
    "svd_128": "Svd128",
    "eigh_256": "Eigh256",
    "qr_64x4x4": "QrBatched64x4x4",
}
MODES = ("fwd", "fwd+bwd")


def tenferro_losses(tf):
    def chain(a, b, c):
        return (tf.einsum("ij,jk,kl->il", a, b, c) ** 2).sum()

    def svd(x):
        u, s, vh = tf.linalg.svd(x, full_matrices=False)
        return (s.sum() + (tf.einsum("ij,j,jk->ik", u, s, vh) ** 2).sum()
                + (tf.einsum("ij,jk->ik", u, vh) ** 2).sum())

    def eigh(x):
        w, v = tf.linalg.eigh((x + x.T) * 0.5)
        p = tf.einsum("ik,jk->ij", v[:, :4], v[:, :4])
        return w[:4].sum() + (tf.diagonal(p) ** 2).sum()

    def qr(x):
        q, r = tf.linalg.qr(x)
        return (q ** 2).sum() + r.sum()

    return {"einsum_chain_256": chain, "svd_128": svd, "eigh_256": eigh, "qr_64x4x4": qr}


def torch_losses(torch):
    def chain(a, b, c):
        return (torch.einsum("ij,jk,kl->il", a, b, c) ** 2).sum()

    def svd(x):
        u, s, vh = torch.linalg.svd(x, full_matrices=False)
        return (s.sum() + (torch.einsum("ij,j,jk->ik", u, s, vh) ** 2).sum()
                + (torch.einsum("ij,jk->ik", u, vh) ** 2).sum())

    def eigh(x):
        w, v = torch.linalg.eigh((x + x.T) * 0.5)
        p = torch.einsum("ik,jk->ij", v[:, :4], v[:, :4])
        return w[:4].sum() + (torch.diagonal(p) ** 2).sum()

    def qr(x):
        q, r = torch.linalg.qr(x)
        return (q ** 2).sum() + r.sum()

    return {"einsum_chain_256": chain, "svd_128": svd, "eigh_256": eigh, "qr_64x4x4": qr}


def worker(payload):
    import numpy as np
    import tenferro as tf
    import torch

    rng = np.random.default_rng(1)
    shapes = {"einsum_chain_256": [(256, 256)] * 3, "svd_128": [(128, 128)],
              "eigh_256": [(256, 256)], "qr_64x4x4": [(64, 4, 4)]}
    rt = tf.Runtime.cpu()
    ours, theirs = tenferro_losses(tf), torch_losses(torch)
    out = {}
    for case, case_shapes in shapes.items():
        arrays = [rng.standard_normal(s) for s in case_shapes]
        xs = [rt.upload(a) for a in arrays]
        ts = [torch.from_numpy(a) for a in arrays]
        tr = [t.clone().requires_grad_() for t in ts]
        f, g = ours[case], theirs[case]
        argnums = tuple(range(len(xs)))
        grad = tf.grad(f, argnums=argnums)

        def torch_fwd(g=g, ts=ts):
            with torch.no_grad():
                return g(*ts).item()

        fns = {
            "tenferro-py fwd": lambda f=f, xs=xs: f(*xs).item(),
            "tenferro-py fwd+bwd": lambda grad=grad, xs=xs: grad(*xs)[0].download(),
            "torch fwd": torch_fwd,
            "torch fwd+bwd": lambda g=g, tr=tr: torch.autograd.grad(g(*tr), tr)[0],
        }
        out[case] = common.alternating_medians(fns, "cpu", payload["reps"], payload["min_time"])
    print(__import__("json").dumps(out))


def cpp_times(build, reps, min_time):
    binary = os.path.join(build, "bench", "ad_bench")
    res = common.gbench_medians(binary, ".", THREADS, reps, min_time)
    out = {}
    for case, name in CASES.items():
        out[case] = {"tenferro-C++ fwd": res[f"{name}/0"][1],
                     "tenferro-C++ fwd+bwd": res[f"{name}/1"][1]}
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build", help="CMake build folder with bench/ad_bench")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="fewer, shorter samples")
    p.add_argument("--markdown", default="", help="also write the table to this file")
    args = p.parse_args()
    reps, min_time = (3, 0.02) if args.quick else (5, 0.05)
    times, loads = {}, []
    for rnd in range(args.rounds):
        for part in (cpp_times(args.build, reps, 2 * min_time),
                     common.run_worker(os.path.abspath(__file__), THREADS,
                                       {"reps": reps, "min_time": min_time})):
            for case, libs in part.items():
                for lib, secs in libs.items():
                    times.setdefault(case, {}).setdefault(lib, []).append(secs)
        loads.append(os.getloadavg()[0])
        print(f"round {rnd + 1}/{args.rounds} done (load {loads[-1]:.2f})", file=sys.stderr,
              flush=True)
    print(table(times, args.rounds, loads))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table(times, args.rounds, loads))
    return 0


def table(times, rounds, loads):
    med = {c: {lib: statistics.median(v) for lib, v in libs.items()} for c, libs in times.items()}
    lines = [f"1 thread, process CPU time, medians over {rounds} rounds (1-minute load average "
             f"after each round: {', '.join(f'{x:.2f}' for x in loads)})\n",
             "| case | mode | tenferro C++ | tenferro Python | torch | torch / C++ | "
             "torch / Python |", "|---|---|---:|---:|---:|---:|---:|"]
    logs = {(m, k): [] for m in MODES for k in ("cpp", "py")}
    for case, m in med.items():
        for mode in MODES:
            cpp, py, th = (m[f"{lib} {mode}"] for lib in ("tenferro-C++", "tenferro-py", "torch"))
            logs[(mode, "cpp")].append(math.log(th / cpp))
            logs[(mode, "py")].append(math.log(th / py))
            lines.append(f"| {case} | {mode} | {common.fmt_time(cpp)} | {common.fmt_time(py)} | "
                         f"{common.fmt_time(th)} | {th / cpp:.2f}x | {th / py:.2f}x |")
    for mode in MODES:
        g = [math.exp(sum(v) / len(v)) for v in (logs[(mode, "cpp")], logs[(mode, "py")])]
        lines.append(f"| **geometric mean** | {mode} | | | | **{g[0]:.2f}x** | **{g[1]:.2f}x** |")
    lines += ["", "backward / forward ((fwd+bwd - fwd) / fwd):\n",
              "| case | tenferro C++ | tenferro Python | torch |", "|---|---:|---:|---:|"]
    for case, m in med.items():
        cells = [(m[f"{lib} fwd+bwd"] - m[f"{lib} fwd"]) / m[f"{lib} fwd"]
                 for lib in ("tenferro-C++", "tenferro-py", "torch")]
        lines.append(f"| {case} | " + " | ".join(f"{c:.2f}" for c in cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if "--worker" in sys.argv:
        worker(common.worker_payload(sys.argv))
    else:
        sys.exit(main())
