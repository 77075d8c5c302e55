"""Two-site DMRG on the open S=1/2 Heisenberg chain: tenferro's C++ example
(examples/dmrg/dmrg), its Python twin (python/examples/dmrg.py, when `import tenferro`
works), quimb's DMRG2 and TeNPy's TwoSiteDMRGEngine, with the same L, bond dimensions and
number of passes, in one run, each party in its own process at the same thread count.

    python bench/peers/dmrg_peers.py --L 100 --D 32 64 --passes 4 [--threads 1]

A "pass" is one sweep over the L-1 bonds in one direction, the directions alternating (quimb's
sweep with sweep_sequence='RL'; a TeNPy sweep is two passes, so TeNPy runs passes/2 sweeps).
The bond dimension is capped at D from the start (no cutoff on our side, 1e-14 for the peers,
so they keep the same bonds). Local eigensolver tolerance, the same schedule for tenferro and
quimb (relative residual, scipy eigsh's tol; quimb's own default is a fixed 1e-3): 1e-2 in the
first pass, 100x tighter each pass, down to 1e-7. TeNPy: its Lanczos defaults (at most 20
matvecs per bond). The local energy error is about the residual squared, so 1e-7 gives the same
final energies as 1e-10; solving the first pass's local problems (those of a random state) to
1e-7 cost 25x a later pass at D=128 (docs/perf/krylov.md). Every party starts from a random MPS at bond D
(quimb's and TeNPy's own generators; ours is seeded normal entries). TeNPy conserves Sz (block-sparse tensors, its
usual setting); the others are dense.

Reports the final energy of each party (their relative differences must be below 1e-8 at
D=64), the median wall time per pass over passes 2.. (the first starts from a random or
product state and is shown separately) and the time of all passes together. Not a test: nothing here runs in the test command.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from common import blas_tuning_note, thread_env  # noqa: E402

EIG_TOL = 1e-7


def sweep_tolerance(sweep):
    """The local tolerance of pass `sweep` (from 0), as the tenferro examples schedule it
    (examples/dmrg/dmrg.cpp's sweep_tolerance): 1e-2, 100x tighter per pass, down to EIG_TOL."""
    return max(EIG_TOL, 1e-2 * 1e-2**sweep)


def run_quimb(L, D, passes):
    import quimb.tensor as qtn

    d = qtn.DMRG2(qtn.MPO_ham_heis(L, j=1.0, cyclic=False), bond_dims=[D], cutoffs=1e-14)
    d.opts["local_eig_tol"] = EIG_TOL
    times = []
    sweep = d.sweep

    def timed(*args, **kwargs):
        d.opts["local_eig_tol"] = sweep_tolerance(len(times))
        t0 = time.perf_counter()
        e = sweep(*args, **kwargs)
        times.append(time.perf_counter() - t0)
        return e

    d.sweep = timed
    d.solve(tol=0.0, max_sweeps=passes, sweep_sequence="RL", verbosity=0)
    return float(d.energy), times


def run_tenpy(L, D, passes):
    from tenpy.algorithms import dmrg
    from tenpy.models.xxz_chain import XXZChain
    from tenpy.networks.mps import MPS

    model = XXZChain({"L": L, "Jxx": 1.0, "Jz": 1.0, "hz": 0.0, "bc_MPS": "finite"})
    psi = MPS.from_product_state(model.lat.mps_sites(), ["up", "down"] * (L // 2),
                                 bc="finite")
    # From a product state TeNPy's bonds grow only 4x per sweep (4, 16, 32 at D=32), so the
    # first passes would do less work than the others'; a random Sz=0 MPS at bond D (not timed)
    # starts it where tenferro and quimb start: a random MPS at bond D.
    from tenpy.algorithms.tebd import RandomUnitaryEvolution

    RandomUnitaryEvolution(psi, {"N_steps": 10, "trunc_params": {"chi_max": D}}).run()
    eng = dmrg.TwoSiteDMRGEngine(psi, model, {
        "trunc_params": {"chi_max": D, "svd_min": 1e-14},
        "mixer": None, "max_sweeps": passes // 2, "min_sweeps": passes // 2})
    times = []
    for _ in range(max(1, passes // 2)):
        t0 = time.perf_counter()
        eng.sweep()
        dt = time.perf_counter() - t0
        times += [dt / 2, dt / 2]  # one TeNPy sweep = a right and a left pass
    return float(model.H_MPO.expectation_value(psi)), times


def run_tenferro_python(L, D, passes):
    sys.path.insert(0, os.path.join(REPO, "python", "examples"))
    import dmrg as example
    import tenferro as tf

    times = []
    rt = tf.Runtime.cpu()
    t = [time.perf_counter()]

    def clock(sweep):
        now = time.perf_counter()
        if sweep >= 0:  # -1: the start of the first pass
            times.append(now - t[0])
        t[0] = now

    energies = example.dmrg(L, D, passes, rt, tol=EIG_TOL, verbose=False, on_pass=clock)
    return energies[-1], times


def run_tenferro_cpp(L, D, passes, binary):
    out = subprocess.run([binary, "--L", str(L), "--D", str(D), "--sweeps", str(passes),
                          "--tol", str(EIG_TOL)], capture_output=True, text=True, check=True,
                         env=os.environ.copy()).stdout
    times = [float(x) for x in re.findall(r"time ([0-9.]+) s", out)]
    energy = float(re.search(r"final energy (-?[0-9.]+)", out).group(1))
    return energy, times


PARTIES = {
    "tenferro C++": run_tenferro_cpp,
    "tenferro Python": run_tenferro_python,
    "quimb DMRG2": run_quimb,
    "TeNPy": run_tenpy,
}


def worker(argv):
    party, L, D, passes, binary = argv[0], int(argv[1]), int(argv[2]), int(argv[3]), argv[4]
    fn = PARTIES[party]
    args = (L, D, passes, binary) if party == "tenferro C++" else (L, D, passes)
    energy, times = fn(*args)
    print(json.dumps({"energy": energy, "times": times}))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--L", type=int, default=100)
    p.add_argument("--D", type=int, nargs="+", default=[32, 64])
    p.add_argument("--passes", type=int, default=4)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--binary", default=os.path.join(REPO, "build", "examples", "dmrg", "dmrg"))
    p.add_argument("--parties", nargs="+", default=list(PARTIES))
    a = p.parse_args()
    env = thread_env(a.threads)
    print(f"L={a.L}, passes={a.passes}, threads={a.threads}, wall time per pass "
          f"(median of passes 2..{a.passes}; first pass apart)")
    print(blas_tuning_note())
    for D in a.D:
        rows = {}
        for party in a.parties:  # one after another, interleaved per D
            r = subprocess.run([sys.executable, __file__, "--worker", party, str(a.L), str(D),
                                str(a.passes), a.binary], capture_output=True, text=True,
                               env=env)
            if r.returncode != 0:
                # The peers' warnings fill stderr: the error is the traceback's last line (an
                # exception's), else the last three lines as they are. (Filtering out warning
                # lines once left only a warning's continuation, "['max_sweeps', 'mixer']".)
                lines = r.stderr.strip().splitlines()
                errors = [ln for ln in lines if re.match(r"^[A-Za-z_.]*(Error|Exception)\b", ln)]
                print(f"  D={D} {party}: failed (exit {r.returncode}): "
                      f"{errors[-1:] if errors else lines[-3:]}")
                continue
            rows[party] = json.loads(r.stdout.strip().splitlines()[-1])
        if not rows:
            continue
        best = min(rows.values(), key=lambda r: r["energy"])["energy"]
        ref = rows.get("tenferro C++")
        ref_t = statistics.median(ref["times"][1:]) if ref and len(ref["times"]) > 1 else None
        ref_all = sum(ref["times"]) if ref else None
        print(f"\nD={D}\n| party | final energy | rel. diff to lowest | first pass (s) | "
              f"median pass (s) | vs tenferro C++ | all passes (s) | vs tenferro C++ |\n"
              f"|---|---|---|---|---|---|---|---|")
        for party, r in rows.items():
            med = statistics.median(r["times"][1:]) if len(r["times"]) > 1 else r["times"][0]
            ratio = f"{med / ref_t:.2f}x" if ref_t else "-"
            total = sum(r["times"])
            ratio_all = f"{total / ref_all:.2f}x" if ref_all else "-"
            print(f"| {party} | {r['energy']:.10f} | {abs(r['energy'] - best) / abs(best):.1e} | "
                  f"{r['times'][0]:.3f} | {med:.3f} | {ratio} | {total:.3f} | {ratio_all} |")
        sys.stdout.flush()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2:])
    else:
        main()
