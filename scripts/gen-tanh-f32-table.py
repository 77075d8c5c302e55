#!/usr/bin/env python3
"""Prints the tables of the AVX-512 float32 tanh (src/ops/prims/cpu/simd/tanh_table_avx512.hpp).

tanh(a), a = |x| clamped to 9.1, is a polynomial of degree 6 in t = a - center on each of 16
intervals, indexed by the bits of a above its top mantissa bit (the exponent and one mantissa
bit: half-binades). Bits >> 22 of a float in [2^-4, 8) run from 246 to 259; [8, 9.1] is 260;
everything below 2^-4 is clamped up to 245. The sixteen values 245..260 are distinct modulo 16,
and vpermps reads only the low four bits of the index, so slot = (bits >> 22) mod 16.

Each interval's coefficients are a near-minimax fit of the relative error (Lawson's iteration on
Chebyshev nodes, mpmath tanh at 80 bits as the reference), rounded to float; below 2^-4 it is
tanh's Taylor series a - a^3/3 + 2a^5/15 (the next term is under 0.05 ulp there).

Run with a Python that has numpy and mpmath:  python3 scripts/gen-tanh-f32-table.py
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


def main():
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


if __name__ == "__main__":
    main()
