"""Strong scaling table and cluster prediction from measured runs (docs/scale-out.md, "A model").

  python3 bench/dist/model.py --n 800 TIMES1.jsonl TIMES2.jsonl ... --volumes VOLUMES.jsonl

TIMES files: bench/dist/run.sh outputs (one per repetition of the whole script); for every case
and rank count the median over the files is used. VOLUMES: bench/dist/volumes.sh output.

Model (every input measured here except the cluster's parameters, which are options):
  dense (svd, eigh): T(N, P) = t1 * (N / n)^3 / P          compute, at the measured 1-rank rate
                              + M(N, P) * alpha + V(N, P) / beta_rank       communication
    V(N, P) = cv * 8 N^2 / sqrt(P)   bytes a rank sends (2-D block-cyclic), cv fitted at 4 ranks
    M(N, P) = cm * N * log2(P)       messages a rank sends (per-column reductions), cm at 4 ranks
  sliced einsum:   T(S, P) = ceil(S / P) * t_slice + M1 * log2(P) * alpha + 2 * B_out / beta_rank
    t_slice from the 1-rank run; M1: messages per rank at 2 ranks (agreement, path broadcast,
    Allreduce), each of which becomes a tree of log2(P) steps.
beta_rank = link bandwidth / ranks per node (every byte leaves the node: an upper bound).
"""
import argparse
import json
import math
import statistics

NOMINAL_FLOPS = {"svd": 22.0, "eigh scalapack": 9.0, "eigh elpa": 9.0}  # x n^3 (Golub-Van Loan)
VOLUME_CASE = {"svd": "svd", "eigh scalapack": "eigh", "eigh elpa": "elpa"}


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip() and not line.startswith("#")]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("times", nargs="+")
    p.add_argument("--volumes", required=True)
    p.add_argument("--n", type=int, required=True, help="matrix size of the measured runs")
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
    print("case | ranks | runs | median dist s | speedup vs 1 rank | 1-rank dist/single (median)")
    for (case, ranks), t in sorted(med.items()):
        ratio = ""
        if ranks == 1:
            ratio = "%.3f" % statistics.median(x["dist_over_single"] for x in runs[(case, 1)])
        print("%s | %d | %d | %.4f | %.2f | %s" % (case, ranks, len(runs[(case, ranks)]), t,
                                                 med[(case, 1)] / t, ratio))
    vols = {(v["case"], v["ranks"]): v for v in read_jsonl(a.volumes)}

    beta = a.link / a.ranks_per_node
    print("\ncluster: %d ranks/node, alpha %.1e s, link %.3g B/s (%.3g B/s per rank)"
          % (a.ranks_per_node, a.alpha, a.link, beta))
    for case, flops in NOMINAL_FLOPS.items():
        if (case, 1) not in med or (VOLUME_CASE[case], 4) not in vols:
            continue
        t1 = med[(case, 1)]
        v4, v2 = vols[(VOLUME_CASE[case], 4)], vols[(VOLUME_CASE[case], 2)]
        cv = v4["max_bytes"] / (8 * a.n**2 / 2)
        cm = v4["max_messages"] / (a.n * 2)
        print("%s: 1-rank %.3f s at n=%d = %.2f GFLOP/s nominal; cv %.2f (at 2 ranks %.2f), "
              "cm %.2f (at 2 ranks %.2f)" % (case, t1, a.n, flops * a.n**3 / t1 / 1e9, cv,
                                             v2["max_bytes"] / (8 * a.n**2 / math.sqrt(2)), cm,
                                             v2["max_messages"] / a.n))
        for nodes in a.nodes:
            P = nodes * a.ranks_per_node
            comp = t1 * (a.N / a.n) ** 3 / P
            lat = cm * a.N * math.log2(P) * a.alpha
            bw = cv * 8 * a.N**2 / math.sqrt(P) / beta
            print("  N=%d, %d nodes (%d ranks): compute %.0f s + latency %.1f s + bandwidth "
                  "%.1f s = %.0f s" % (a.N, nodes, P, comp, lat, bw, comp + lat + bw))
    for (case, ranks), t in sorted(med.items()):
        if not case.startswith("einsum") or ranks != 1:
            continue
        slices = int(case.split()[-1])
        t_slice = t / slices
        m1 = vols[("einsum", 2)]["max_messages"]
        print("%s: %.2e s per slice at 1 rank; %d messages per rank at 2 ranks"
              % (case, t_slice, m1))
        for nodes in a.nodes:
            P = nodes * a.ranks_per_node
            comp = math.ceil(a.slices / P) * t_slice
            comm = m1 * math.log2(P) * a.alpha + 2 * a.out_bytes / beta
            print("  %d slices, %d nodes (%d ranks): %.3f s compute + %.4f s communication"
                  % (a.slices, nodes, P, comp, comm))


main()
