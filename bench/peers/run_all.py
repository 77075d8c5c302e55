#!/usr/bin/env python3
"""Runs every peer family side by side (at 1 thread and at all cores, tenferro and peers
alternating family by family) and writes docs/performance.md and docs/performance.png.
Called by bench/peers/run.sh, which also prepares the environment and the build.

    .venv-peers/bin/python bench/peers/run_all.py [--build build] [--quick] [--rounds N]
"""
import argparse
import datetime
import os
import pickle
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import einsum_peers  # noqa: E402
import fft_peers  # noqa: E402
import gate_peers  # noqa: E402
import linalg_peers  # noqa: E402
import report  # noqa: E402

FAMILIES = [gate_peers, einsum_peers, linalg_peers, fft_peers]


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build")
    p.add_argument("--quick", action="store_true", help="one short round: a smoke run")
    p.add_argument("--rounds", type=int, default=0, help="default 3 (1 with --quick)")
    p.add_argument("--threads", default=f"1,{common.all_cores()}")
    p.add_argument("--out", default="docs/performance.md")
    p.add_argument("--png", default="docs/performance.png")
    p.add_argument("--command", default="bash bench/peers/run.sh", help="quoted in the document")
    p.add_argument("--from-saved", action="store_true",
                   help="rewrite the document from the last run's saved measurements")
    args = p.parse_args()
    saved = os.path.join(args.build, "peers-last-run.pickle")
    if args.from_saved:
        with open(saved, "rb") as f:
            threads, summaries, run = pickle.load(f)
        return write(args, threads, summaries, run)
    rounds = args.rounds or (1 if args.quick else 3)
    threads = [int(t) for t in args.threads.split(",")]

    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = report.uptime()
    cfgs = {f.TITLE: f.config(args.build, args.quick) for f in FAMILIES}
    load_samples = []
    times = common.alternate(FAMILIES, threads, rounds, cfgs, load_samples=load_samples)
    load_after = report.uptime()
    finished = datetime.datetime.now(datetime.timezone.utc)

    summaries = {f.TITLE: common.summarize(f, times[f.TITLE], threads, cfgs[f.TITLE])
                 for f in FAMILIES}
    run = {
        "command": args.command + (" --quick" if args.quick and "--quick" not in args.command
                                   else ""),
        "quick": args.quick, "rounds": rounds, "threads": threads,
        "started": started, "finished": finished,
        "load_before": load_before, "load_after": load_after, "load_samples": load_samples,
        "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                 text=True).stdout.strip(),
        "dirty": bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                     capture_output=True, text=True).stdout.strip()),
        "gate_json": cfgs[gate_peers.TITLE]["json_runs"],
        "build": args.build,
    }
    with open(saved, "wb") as f:  # so a failure while writing the report loses nothing
        pickle.dump((threads, summaries, run), f)
    return write(args, threads, summaries, run)


def write(args, threads, summaries, run):
    report.plot(FAMILIES, summaries, threads, args.png)
    text = report.markdown(FAMILIES, summaries, run, os.path.relpath(args.png,
                                                                     os.path.dirname(args.out)))
    with open(args.out, "w") as f:
        f.write(text)
    print(f"wrote {args.out} and {args.png} "
          f"({(run['finished'] - run['started']).total_seconds():.0f} s of "
          "measurements)", file=sys.stderr)
    for threads_n in threads:
        line = ", ".join(f"{lib} {g:.2f}x" for lib, g in report.overall_geomeans(
            FAMILIES, summaries, threads_n).items())
        print(f"geometric mean peer/tenferro over all cases, {threads_n} thread(s): {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
