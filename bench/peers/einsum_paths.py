#!/usr/bin/env python3
"""Path quality of tenferro's einsum planner against opt_einsum, on the same networks, in one run.

    python3 -m venv .venv-peers && .venv-peers/bin/pip install numpy opt_einsum
    .venv-peers/bin/python bench/peers/einsum_paths.py [build/bench/print_paths]

print_paths (bench/einsum/print_paths.cpp) prints our networks and planned paths as JSON.
For each network this script
  * re-costs OUR steps with opt_einsum (contract_path(optimize=<our path>)) and checks that
    the FLOP count and largest intermediate we report agree with opt_einsum's model,
  * plans the network with opt_einsum 'auto', 'greedy' and 'dp' and times them (median),
  * prints FLOP ratios ours/opt_einsum (<= 1 means our path is as cheap or cheaper) and the
    geometric mean, plus planning times side by side.
Exit status 1 when a cost disagrees or our auto path is costlier than opt_einsum's auto.
"""
import json
import math
import statistics
import subprocess
import sys
import time

import opt_einsum as oe


def symbols(labels):
    return "".join(oe.get_symbol(int(l)) for l in labels)


def to_opt_einsum_path(inputs, output, steps):
    """Our pairwise steps as an opt_einsum path: first a (k,) step for every operand with
    private labels (our planner sums those before the operand's first pairwise step), then
    our steps re-indexed to opt_einsum's operand list."""
    n = len(inputs)
    if n == 1:
        return [(0,)]
    counts = {}
    for term in inputs:
        for label in set(term):
            counts[label] = counts.get(label, 0) + 1
    path, oe_ids = [], list(range(n))
    for k, term in enumerate(inputs):
        if any(counts[l] == 1 and l not in output for l in term):
            pos = oe_ids.index(k)
            path.append((pos,))
            oe_ids.append(oe_ids.pop(pos))
    our_ids, next_id = list(range(n)), n
    for i, j in steps:
        a, b = our_ids[i], our_ids[j]
        for x in sorted((i, j), reverse=True):
            our_ids.pop(x)
        our_ids.append(next_id)
        pa, pb = oe_ids.index(a), oe_ids.index(b)
        path.append((pa, pb))
        for x in sorted((pa, pb), reverse=True):
            oe_ids.pop(x)
        oe_ids.append(next_id)
        next_id += 1
    return path


def plan_oe(eq, shapes, optimize, reps):
    times = []
    info = None
    for _ in range(reps):
        start = time.perf_counter()
        _, info = oe.contract_path(eq, *shapes, shapes=True, optimize=optimize)
        times.append((time.perf_counter() - start) * 1e6)
    return info, statistics.median(times)


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "build/bench/print_paths"
    networks = json.loads(subprocess.run([binary], check=True, capture_output=True, text=True).stdout)
    print(f"opt_einsum {oe.__version__}; FLOPs in opt_einsum's model; ratio = ours / opt_einsum")
    header = (f"{'network':10} {'ops':>3} | {'ours auto':>11} {'oe auto':>11} {'ratio':>6} | "
              f"{'ours greedy':>11} {'oe greedy':>11} {'ratio':>6} | {'oe dp':>11} | "
              f"{'ours us':>8} {'oe auto us':>10}")
    print(header)
    print("-" * len(header))
    ok = True
    auto_ratios, greedy_ratios = [], []
    for net in networks:
        eq = ",".join(symbols(t) for t in net["inputs"]) + "->" + symbols(net["output"])
        shapes = [tuple(net["extents"][str(l)] for l in t) for t in net["inputs"]]
        ours = net["paths"]
        # Our reported costs must be opt_einsum's costs of our own steps.
        for strategy, path in ours.items():
            steps = to_opt_einsum_path(net["inputs"], net["output"], path["steps"])
            _, info = oe.contract_path(eq, *shapes, shapes=True, optimize=steps)
            if not math.isclose(float(info.opt_cost), path["flops"], rel_tol=1e-9) or not math.isclose(
                float(info.largest_intermediate), path["largest_intermediate"], rel_tol=1e-9
            ):
                ok = False
                print(f"COST MISMATCH {net['name']} {strategy}: ours {path['flops']:.6g} / "
                      f"{path['largest_intermediate']:.6g}, opt_einsum {float(info.opt_cost):.6g} / "
                      f"{float(info.largest_intermediate):.6g}")
        n = len(net["inputs"])
        reps = 5
        auto_info, auto_us = plan_oe(eq, shapes, "auto", reps)
        greedy_info, _ = plan_oe(eq, shapes, "greedy", reps)
        dp_info, _ = plan_oe(eq, shapes, "dp", 1)
        oe_auto, oe_greedy, oe_dp = float(auto_info.opt_cost), float(greedy_info.opt_cost), float(dp_info.opt_cost)
        ra = ours["auto"]["flops"] / oe_auto
        rg = ours["greedy"]["flops"] / oe_greedy
        auto_ratios.append(ra)
        greedy_ratios.append(rg)
        if ra > 1 + 1e-9:
            ok = False
        print(f"{net['name']:10} {n:>3} | {ours['auto']['flops']:11.4e} {oe_auto:11.4e} {ra:6.3f} | "
              f"{ours['greedy']['flops']:11.4e} {oe_greedy:11.4e} {rg:6.3f} | {oe_dp:11.4e} | "
              f"{ours['auto']['plan_us']:8.1f} {auto_us:10.1f}")
    geo = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))
    print("-" * len(header))
    print(f"geometric mean FLOP ratio ours/opt_einsum: auto {geo(auto_ratios):.4f}, greedy {geo(greedy_ratios):.4f}")
    print("our auto method per network: " + ", ".join(f"{n['name']}={n['paths']['auto']['method']}" for n in networks))
    if not ok:
        print("FAILED: a cost mismatch or an auto path costlier than opt_einsum's auto (see above)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
