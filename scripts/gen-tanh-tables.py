#!/usr/bin/env python3
"""Prints the constants of the AVX-512 tanh kernels: the float32 tables
and the float64 small-argument polynomial (src/ops/prims/cpu/simd/tanh_avx512.hpp).

float32:

tanh(a), a = |x| clamped to 9.1, is a polynomial of degree 6 in t = a - center on each of 16
intervals, indexed by the bits of a above its top mantissa bit (the exponent and one mantissa
bit: half-binades). Bits >> 22 of a float in [2^-4, 8) run from 246 to 259; [8, 9.1] is 260;
everything below 2^-4 is clamped up to 245. The sixteen values 245..260 are distinct modulo 16,
and vpermps reads only the low four bits of the index, so slot = (bits >> 22) mod 16.

Each interval's coefficients are a near-minimax fit of the relative error (Lawson's iteration on
Chebyshev nodes, mpmath tanh at 80 bits as the reference), rounded to float; below 2^-4 it is
tanh's Taylor series a - a^3/3 + 2a^5/15 (the next term is under 0.05 ulp there).

float64: below atanh(1/2), tanh(a) = a + a^3 P(a^2) with P of degree 9, a near-minimax fit of
the relative error of tanh (Lawson's iteration in 120-bit mpmath arithmetic), within 0.21 ulp
before rounding; above it the kernel uses exp.

Run with a Python that has numpy and mpmath:  python3 scripts/gen-tanh-tables.py
"""
import mpmath
import numpy as np

mpmath.mp.prec = 80
DEGREE = 6
CLAMP = 9.1


def interval(v):
    if v == 245:
        return 0.0, 2.0**-4
    if v == 260:
        return 8.0, CLAMP
    e, top = v // 2 - 127, v % 2
    return 2.0**e * (1 + 0.5 * top), 2.0**e * (1.5 + 0.5 * top)


def fit(lo, hi, nodes=80):
    center, half = (lo + hi) / 2, (hi - lo) / 2
    xs = center + half * np.cos(np.pi * (np.arange(nodes) + 0.5) / nodes)
    f = np.array([float(mpmath.tanh(mpmath.mpf(x))) for x in xs])
    V = np.vander(xs - center, DEGREE + 1, increasing=True)
    weight = np.ones(nodes)
    for _ in range(50):
        w = np.sqrt(weight) / f
        c, *_ = np.linalg.lstsq(V * w[:, None], f * w, rcond=None)
        err = np.abs(V @ c - f) / f
        weight = weight * err
        weight /= weight.sum()
    return center, c


def print_float32_tables():
    centers, coefs = [0.0] * 16, [[0.0] * 16 for _ in range(DEGREE + 1)]
    for v in range(245, 261):
        lo, hi = interval(v)
        if v == 245:
            center, c = 0.0, [0, 1, 0, -1 / 3, 0, 2 / 15, 0]
        else:
            center, c = fit(lo, hi)
        slot = v % 16
        centers[slot] = float(np.float32(center))
        for i in range(DEGREE + 1):
            coefs[i][slot] = float(np.float32(c[i]))

    def rows(values, indent):
        text = [float_literal(x) for x in values]
        return "\n".join(indent + ", ".join(text[i:i + 4]) + "," for i in range(0, 16, 4))

    print("alignas(64) constexpr float kTanhCenter[16] = {\n%s\n};" % rows(centers, "    "))
    print("alignas(64) constexpr float kTanhCoefficient[%d][16] = {" % (DEGREE + 1))
    for i in range(DEGREE + 1):
        print("    {\n%s\n    }," % rows(coefs[i], "        "))
    print("};")


def float_literal(x):
    """A C++ hex float literal without trailing zeros: 0x1.cp+1f, 0x1p+0f, 0x0.0p+0f."""
    mantissa, exponent = float(x).hex().split("p")
    if mantissa != "0x0.0":
        mantissa = mantissa.rstrip("0").rstrip(".")
    return "%sp%sf" % (mantissa, exponent)


F64_DEGREE = 9


def float64_small_polynomial(nodes=300, iterations=30):
    """P(s), s = a^2 on [0, atanh(1/2)^2]: (tanh(a) - a) / a^3, weighted for tanh's relative
    error, in mpmath arithmetic (doubles cannot hold the residuals)."""
    with mpmath.workprec(120):
        return _float64_small_polynomial(mpmath.mp, nodes, iterations)


def _float64_small_polynomial(mp, nodes, iterations):
    top = mp.atanh(mp.mpf(0.5)) ** 2
    s = [top * (mp.cos(mp.pi * (k + mp.mpf(0.5)) / nodes) + 1) / 2 for k in range(nodes)]
    a = [mp.sqrt(v) for v in s]
    g = [(mp.tanh(x) - x) / x**3 for x in a]
    w = [x**3 / mp.tanh(x) for x in a]
    weight = [mp.mpf(1)] * nodes
    for _ in range(iterations):
        V = mp.matrix(nodes, F64_DEGREE + 1)
        b = mp.matrix(nodes, 1)
        for i in range(nodes):
            scale = w[i] * mp.sqrt(weight[i])
            for j in range(F64_DEGREE + 1):
                V[i, j] = s[i] ** j * scale
            b[i] = g[i] * scale
        c = mp.lu_solve(V.T * V, V.T * b)
        err = [abs(sum(c[j] * s[i] ** j for j in range(F64_DEGREE + 1)) - g[i]) * w[i]
               for i in range(nodes)]
        total = sum(weight[i] * err[i] for i in range(nodes))
        weight = [weight[i] * err[i] / total for i in range(nodes)]
    return [float(v) for v in c]


def print_float64_polynomial():
    c = float64_small_polynomial()
    print("alignas(64) constexpr double kTanhSmall[%d] = {" % len(c))
    for i in range(0, len(c), 3):
        print("    " + ", ".join(x.hex() for x in c[i:i + 3]) + ",")
    print("};")


if __name__ == "__main__":
    print_float32_tables()
    print()
    print_float64_polynomial()
