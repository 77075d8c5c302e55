#!/usr/bin/env python3
"""Prints the constants of the float64 log of the AVX-512 asinh, atanh and log1p kernels
(src/ops/prims/cpu/simd/log_table_avx512.hpp), and the error bound of its polynomial.

u = 2^e m with m in [1, 2) (vgetmantpd), k = round(15 m) in 15..30 (16 values, distinct mod 16,
so vpermt2pd picks entry k % 16 from two registers), and log u = e ln2 - log c_k + log1p(r),
r = m c_k - 1. c_15 = 1 and c_30 = 1/2, so that u near 1 (m near 1 with e = 0, or near 2 with
e = -1) has e ln2 - log c_k = 0 exactly and the result is log1p(r) alone. The other c_k are the
multiples of 2^-q (q <= 11) nearest 15/k with the smallest largest |r| over k's interval of m,
among those with |r| < 2^(1 - q): m has ulp 2^-52, so m c_k - 1 is then a multiple of 2^-(52 + q)
below 2^(1 - q), 53 bits at most, and fma(m, c_k, -1) is exact.

-log c_k and ln2 in two parts, the high ones multiples of 2^-43: e ln2_hi - log c_k is then exact
(|e| <= 1074, |e ln2_hi| < 2^52.6 units of 2^-43), the low parts below 2^-44.

log1p r = r - r^2/2 + r^3 Q(r), Q of degree 7 interpolating (log1p(r) - r + r^2/2) / r^3 at
Chebyshev nodes of the union of the intervals' ranges of r; its error, with the coefficients
rounded to double, is reported relative to the smallest |log u| that each r can belong to (the
result there: e = 0 or e = -1 for the intervals next to u = 1).

Run with a Python that has mpmath:  python3 scripts/gen-log-tables.py
"""
import mpmath

mp = mpmath.mp
mp.prec = 200
Q_DEGREE = 7
GRID = mp.mpf(2) ** -43
SLACK = mp.mpf(2) ** -48  # m a little past an interval's ends (ties of the rounding of 15 m)


def interval(k):
    lo = max((mp.mpf(k) - mp.mpf(0.5)) / 15, mp.mpf(1)) - SLACK
    hi = min((mp.mpf(k) + mp.mpf(0.5)) / 15, mp.mpf(2)) + SLACK
    return lo, hi


def choose_c(k):
    if k == 15:
        return mp.mpf(1)
    if k == 30:
        return mp.mpf(1) / 2
    lo, hi = interval(k)
    best = None
    for q in range(3, 12):
        base = int(mp.floor(2 / (lo + hi) * 2**q))
        for numerator in (base, base + 1):
            c = mp.mpf(numerator) / 2**q
            r_max = max(abs(lo * c - 1), abs(hi * c - 1))
            if r_max < mp.mpf(2) ** (1 - q) and (best is None or r_max < best[0]):
                best = (r_max, c)
    return best[1]


def split(x):
    hi = mp.nint(x / GRID) * GRID
    assert mp.mpf(float(hi)) == hi and abs(x - hi) <= GRID / 2
    return float(hi), float(x - hi)


def hexes(values):
    return ", ".join(float(v).hex() for v in values)


def main():
    cs, ranges = {}, {}
    for k in range(15, 31):
        cs[k] = choose_c(k)
        lo, hi = interval(k)
        ranges[k] = (lo * cs[k] - 1, hi * cs[k] - 1)
    column = lambda f: [f(16 + j if j < 15 else 15) for j in range(16)]
    ln2_hi, ln2_lo = split(mp.log(2))
    print("ln2:", float(ln2_hi).hex(), float(ln2_lo).hex())
    print("kLogTableC:", hexes(column(lambda k: cs[k])))
    print("kLogTableHigh:", hexes(column(lambda k: split(-mp.log(cs[k]))[0])))
    print("kLogTableLow:", hexes(column(lambda k: split(-mp.log(cs[k]))[1])))
    a = min(r[0] for r in ranges.values())
    b = max(r[1] for r in ranges.values())
    print("r in [%.6f, %.6f]" % (a, b))

    n = Q_DEGREE + 1
    g = lambda r: (mp.log1p(r) - r + r * r / 2) / r**3
    nodes = [(a + b) / 2 + (b - a) / 2 * mp.cos((2 * i + 1) * mp.pi / (2 * n)) for i in range(n)]
    matrix = mp.matrix([[x**j for j in range(n)] for x in nodes])
    coefficients = [float(c) for c in mp.lu_solve(matrix, mp.matrix([g(x) for x in nodes]))]
    print("Q:", hexes(coefficients))

    def smallest_result(r):
        found = None
        for k, (r_lo, r_hi) in ranges.items():
            if r_lo <= r <= r_hi:
                m = (1 + r) / cs[k]
                for e in (0, -1):
                    value = abs(mp.log(m) + e * mp.log(2))
                    found = value if found is None else min(found, value)
        return found

    worst = 0
    for i in range(4001):
        r = a + (b - a) * i / 4000
        result = smallest_result(r)
        if r == 0 or not result:
            continue
        p = r - r * r / 2 + r**3 * sum(mp.mpf(c) * r**j for j, c in enumerate(coefficients))
        worst = max(worst, abs(p - mp.log1p(r)) / result)
    print("polynomial error: 2^%.2f of the result" % mp.log(worst, 2))


if __name__ == "__main__":
    main()
