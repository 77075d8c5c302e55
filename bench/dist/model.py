"""Strong scaling table and cluster prediction from measured runs (docs/scale-out.md, "A model").

  python3 bench/dist/model.py --n 800 TIMES1.jsonl ... [T1600.jsonl] --volumes V1.jsonl V2.jsonl

TIMES: bench/dist/run.sh outputs (one per repetition of the script) at n (--n), and any 1-rank
runs at other sizes; per case and rank count the median over the runs is used. --volumes: bench/dist/volumes.sh outputs (any n, any ranks).

Every input is measured here except the cluster's parameters (options). Dense (svd, eigh):
  compute    t1(n) * (N / n)^3 / P   a 1-rank median at the largest measured n, perfectly
                                     divided; low: at the measured n nearest a rank's part
                                     N / sqrt(P) (the rate falls as the matrix outgrows the
                                     caches); high: / E2, the 2-rank efficiency of the
                                     fastest runs on 2 shared cores
  latency    N * (a + b log2 P) * alpha     a, b: least squares of the busiest rank's
                                            messages / n over the measured P and n
  bandwidth  V / beta_rank, V = c * 8 N^2 * (P_max / P)^g, the busiest rank's bytes, c its
             bytes / (8 n^2) at the largest measured P and n; g fitted over the square grids
             (4, 9, 16); low: g = 1/2 (ScaLAPACK's asymptotic n^2 / sqrt(P)); high: g = 0 and
             the largest c measured at any P
  beta_rank = link / ranks per node: every byte leaves the node, the links are the bottleneck.
Sliced einsum: ceil(S / P) * t_slice + c1 * log2(P) * alpha + 2 * B_out / beta_rank, t_slice the
1-rank time over its slices (planning included), c1 the messages per log2(P) measured.
"""
import argparse
import json
import math
import statistics

# x n^3: p?gesvd with U and V as Golub-Reinsch (Golub and Van Loan's 21 n^3); eigh about 4 n^3
# (4/3 tridiagonalisation, 2 back-transformation, a divide and conquer cut by deflation). They
# only turn times into rates for the report: the predictions use the measured times.
NOMINAL_FLOPS = {"svd": 21.0, "eigh scalapack": 4.0, "eigh elpa": 4.0}
VOLUME_CASE = {"svd": "svd", "eigh scalapack": "eigh", "eigh elpa": "elpa"}


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip() and not line.startswith("#")]


def least_squares(xs, ys):
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - b * mx, b


def main():
    p = argparse.ArgumentParser()
    p.add_argument("times", nargs="+")
    p.add_argument("--volumes", nargs="+", required=True)
    p.add_argument("--n", type=int, required=True, help="matrix size of the timed runs")
    p.add_argument("--N", type=int, default=50000)
    p.add_argument("--slices", type=int, default=2**16)
    p.add_argument("--nodes", type=int, nargs="+", default=[16, 64])
    p.add_argument("--ranks-per-node", type=int, default=32)
    p.add_argument("--alpha", type=float, default=2e-6, help="latency per message, s")
    p.add_argument("--link", type=float, default=12.5e9, help="node link bandwidth, bytes/s")
    p.add_argument("--out-bytes", type=float, default=8, help="einsum output size, bytes")
    a = p.parse_args()

    runs = {}
    for path in a.times:
        for r in read_jsonl(path):
            runs.setdefault((r["case"], r["ranks"]), []).append(r)
    med = {k: statistics.median(x["dist_s"] for x in v) for k, v in runs.items()}
    print("case | ranks | runs | median s | min..max s | speedup: medians, fastest runs | "
          "dist/single | dist/dgesvd")
    for (case, ranks), t in sorted(med.items()):
        ts = [x["dist_s"] for x in runs[(case, ranks)]]
        ratio = gesvd = "-"
        if ranks == 1:
            ratios = sorted(x["dist_over_single"] for x in runs[(case, 1)])
            ratio = "%.2f (%.2f..%.2f)" % (statistics.median(ratios), ratios[0], ratios[-1])
            g = sorted(x["dist_over_gesvd"] for x in runs[(case, 1)] if "dist_over_gesvd" in x)
            if g:
                gesvd = "%.2f (%.2f..%.2f, %d runs)" % (statistics.median(g), g[0], g[-1], len(g))
        fastest = min(x["dist_s"] for x in runs[(case, 1)]) / min(ts)
        print("%s | %d | %d | %.4f | %.4f..%.4f | %.2f, %.2f | %s | %s" % (
            case, ranks, len(ts), t, min(ts), max(ts), med[(case, 1)] / t, fastest, ratio, gesvd))
    vols = [v for path in a.volumes for v in read_jsonl(path)]

    beta = a.link / a.ranks_per_node
    print("\ncluster: %d ranks/node, alpha %.1e s, link %.3g B/s, %.3g B/s per rank"
          % (a.ranks_per_node, a.alpha, a.link, beta))
    for key, flops in NOMINAL_FLOPS.items():
        case = "%s %d" % (key, a.n)  # the timed case's name
        mine = [v for v in vols if v["case"] == VOLUME_CASE[key]]
        if (case, 1) not in med or not mine:
            continue
        t1 = med[(case, 1)]
        # 1-rank medians at every measured n: the rate falls as the matrix outgrows the caches.
        sizes = {int(c.split()[-1]): t for (c, r), t in med.items()
                 if r == 1 and c.rsplit(" ", 1)[0] == key}
        # Least disturbed runs (the fastest of each) for the 2-rank efficiency: on a shared
        # machine a slow run says more about the neighbours than about the code.
        e2 = 1.0
        if (case, 2) in runs:
            e2 = min(x["dist_s"] for x in runs[(case, 1)]) / (
                2 * min(x["dist_s"] for x in runs[(case, 2)]))
        cs = {(v["ranks"], v["n"]): v["max_bytes"] / (8 * v["n"] ** 2) for v in mine}
        pmax, nmax = max(r for r, _ in cs), max(n for _, n in cs)
        c_pmax = cs[(pmax, nmax)]
        c_high = max(cs.values())
        # The measured decrease over square grids (P >= 4) at the largest n: c ~ P^-gamma.
        square = [(r, c) for (r, n), c in cs.items() if n == nmax and r >= 4 and
                  math.isqrt(r) ** 2 == r]
        _, slope = least_squares([math.log(r) for r, _ in square],
                                 [math.log(c) for _, c in square])
        gamma = -slope
        ma, mb = least_squares([math.log2(v["ranks"]) for v in mine],
                               [v["max_messages"] / v["n"] for v in mine])
        print("%s: 1 rank: %s; 2-rank efficiency (fastest runs) %.2f;\n"
              "  bytes/(8 n^2) by (P, n): %s; measured gamma %.2f;\n"
              "  messages/n = %.2f + %.2f log2 P"
              % (key, ", ".join("n=%d %.3f s = %.2f GFLOP/s nominal (%.0f n^3)" % (
                     n, t, flops * n**3 / t / 1e9, flops) for n, t in sorted(sizes.items())), e2,
                 ", ".join("%d,%d: %.2f" % (k[0], k[1], c) for k, c in sorted(cs.items())),
                 gamma, ma, mb))
        for nodes in a.nodes:
            P = nodes * a.ranks_per_node
            # The rate at the largest measured n (the slowest: the rate falls as the matrix
            # outgrows the caches, and a rank's part N / sqrt(P) is 1100..2200 here); low: the
            # rate at the measured n nearest N / sqrt(P).
            n_big = max(sizes)
            n_ref = min(sizes, key=lambda n: abs(math.log(n * math.sqrt(P) / a.N)))
            comp = sizes[n_big] * (a.N / n_big) ** 3 / P
            comp_low = sizes[n_ref] * (a.N / n_ref) ** 3 / P
            lat = a.N * (ma + mb * math.log2(P)) * a.alpha
            bw = c_pmax * 8 * a.N**2 * (pmax / P) ** gamma / beta
            bw_low = c_pmax * 8 * a.N**2 * math.sqrt(pmax / P) / beta
            bw_high = c_high * 8 * a.N**2 / beta
            print("  N=%d, %d nodes, %d ranks: compute %.0f s (%.0f..%.0f) + latency %.1f s + "
                  "bandwidth %.0f s (%.0f..%.0f) = %.0f s (%.0f..%.0f)" % (
                      a.N, nodes, P, comp, comp_low, comp / e2, lat, bw, bw_low, bw_high,
                      comp + lat + bw, comp_low + lat + bw_low, comp / e2 + lat + bw_high))
    for (case, ranks), t in sorted(med.items()):
        if not case.startswith("einsum") or ranks != 1:
            continue
        slices = int(case.split()[-1])
        t_slice = t / slices
        mine = [v for v in vols if v["case"] == "einsum"]
        c1 = max(v["max_messages"] / math.log2(v["ranks"]) for v in mine)
        print("%s: %.3e s per slice at 1 rank; messages per rank <= %.1f log2 P"
              % (case, t_slice, c1))
        for nodes in a.nodes:
            P = nodes * a.ranks_per_node
            comp = math.ceil(a.slices / P) * t_slice
            comm = c1 * math.log2(P) * a.alpha + 2 * a.out_bytes / beta
            print("  %d slices, %d nodes, %d ranks: compute %.3f s + communication %.2e s "
                  "(%d slices per rank)" % (a.slices, nodes, P, comp, comm,
                                              math.ceil(a.slices / P)))


main()
