#!/usr/bin/env python3
"""NumPy and opt_einsum on the lattices of bench/einsum/sliced_bench.cpp (closed side x side
square lattices, F64, entries 0.5 + 0.001 * (i % 97) over each operand's column-major index),
for the comparison in docs/perf/planning.md ("Sliced execution"). NumPy and opt_einsum do not
slice: they hold the whole largest intermediate, which is what tenferro's sliced run avoids.

  * numpy.einsum(optimize=path), the path from opt_einsum.contract_path(optimize="auto-hq",
    no memory limit) computed once outside the timing,
  * opt_einsum.contract_expression(optimize="auto-hq") built once, then called.

Prints the median wall and process CPU time of `reps` calls of each (on a shared machine, with
one thread, CPU time is the figure to compare: it leaves out time spent descheduled), the
path's largest intermediate and the value (a scalar), to check against tenferro's.

    OPENBLAS_NUM_THREADS=1 python bench/peers/sliced_peers.py [--bonds 6,10] [--reps 5]
"""
import argparse
import statistics
import time

import numpy as np
import opt_einsum as oe

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def lattice(side, bond):
    """The same labelling as sliced_bench.cpp's lattice()."""
    terms = [""] * (side * side)
    nxt = 0
    for r in range(side):
        for c in range(side):
            v = r * side + c
            if c + 1 < side:
                terms[v] += LETTERS[nxt]
                terms[v + 1] += LETTERS[nxt]
                nxt += 1
            if r + 1 < side:
                terms[v] += LETTERS[nxt]
                terms[v + side] += LETTERS[nxt]
                nxt += 1
    eq = ",".join(terms) + "->"
    shapes = [(bond,) * len(t) for t in terms]
    return eq, shapes


def operand(shape):
    n = int(np.prod(shape))
    values = 0.5 + 0.001 * (np.arange(n) % 97)
    return np.asfortranarray(values.reshape(shape, order="F"))


def median_time(fn, reps):
    walls, cpus = [], []
    value = None
    for _ in range(reps):
        start, start_cpu = time.perf_counter(), time.process_time()
        value = fn()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - start_cpu)
    return (statistics.median(walls), statistics.median(cpus)), value


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--side", type=int, default=5)
    parser.add_argument("--bonds", default="6,10")
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    for bond in (int(b) for b in args.bonds.split(",")):
        eq, shapes = lattice(args.side, bond)
        ops = [operand(s) for s in shapes]
        path, info = oe.contract_path(eq, *ops, optimize="auto-hq")
        expr = oe.contract_expression(eq, *shapes, optimize="auto-hq")
        t_np, v_np = median_time(lambda: np.einsum(eq, *ops, optimize=["einsum_path", *path]),
                                 args.reps)
        t_oe, v_oe = median_time(lambda: expr(*ops), args.reps)
        print(f"lattice {args.side}x{args.side} bond {bond}: largest intermediate "
              f"{float(info.largest_intermediate):.4g} elems, flops {float(info.opt_cost):.4g}")
        for name, (wall, cpu), value in (("numpy.einsum(optimize=path)", t_np, v_np),
                                         ("opt_einsum.contract_expression", t_oe, v_oe)):
            print(f"  {name:31s} wall {wall * 1e3:9.2f} ms  cpu {cpu * 1e3:9.2f} ms  "
                  f"value {float(value):.12g}")


if __name__ == "__main__":
    main()
