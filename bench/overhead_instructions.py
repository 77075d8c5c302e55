#!/usr/bin/env python3
"""Eager-over-direct overhead of `tenferro bench` in instructions per call, under callgrind.

Instruction counts do not depend on what else the machine is doing, so this figure can be
compared between commits on a shared, noisy machine where wall-clock medians of a few hundred
nanoseconds cannot. Each case runs twice at tiny sizes (--matrix 4 --fft-length 16) with two
repeat counts; the difference of the inclusive counts of the eager and of the direct call
divided by the difference of the repeats is the per-call cost of each side, with the cold
first calls (planning, module install, FFTW plans) cancelled out.

    python3 bench/overhead_instructions.py build/src/cli/tenferro [einsum,qr,svd,fft]
"""
import os
import re
import subprocess
import sys
import tempfile

LOW, HIGH = 500, 1500


def inclusive_counts(binary, case, repeat):
    """Inclusive instruction counts of the eager and the direct call of one case."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary,
                        "bench", "--backend", "cpu", "--repeat", str(repeat), "--matrix", "4",
                        "--fft-length", "16", "--quiet", "--cases", case],
                       env=env, capture_output=True, check=True)
        report = subprocess.run(["callgrind_annotate", "--inclusive=yes", out],
                                capture_output=True, text=True, check=True).stdout
    eager = direct = None
    for line in report.splitlines():
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(.*)", line)
        if not m or "std::_Function_handler" not in m.group(2):
            continue
        count, name = int(m.group(1).replace(",", "")), m.group(2)
        # The std::function wrappers of the case's eager lambda and of the direct call.
        if eager is None and f"{case}_case(" in name:
            eager = count
        if direct is None and "direct_executor_call" in name:
            direct = count
    if eager is None or direct is None:
        sys.exit(f"{case}: the eager or direct call is missing from the callgrind report")
    return eager, direct


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    cases = sys.argv[2].split(",") if len(sys.argv) > 2 else ["einsum", "qr", "svd", "fft"]
    for case in cases:
        e_low, d_low = inclusive_counts(binary, case, LOW)
        e_high, d_high = inclusive_counts(binary, case, HIGH)
        eager = (e_high - e_low) / (HIGH - LOW)
        direct = (d_high - d_low) / (HIGH - LOW)
        print(f"{case:7s} eager {eager:9.0f}  direct {direct:9.0f}  "
              f"overhead {eager - direct:7.0f} instructions/call")


if __name__ == "__main__":
    main()
