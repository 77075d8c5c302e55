#!/usr/bin/env python3
"""Prints the constants of the AVX-512 float32 tan kernel (src/ops/prims/cpu/simd/tan_avx512.hpp).

tan(r) = r + r^3 P(r^2) on |r| <= pi/4, P of degree DEGREE: a near-minimax fit of the relative
error of tan (Lawson's iteration on Chebyshev nodes in z = r^2, mpmath tan at 100 bits as the
reference), coefficients rounded to float; and pi/2 in three float parts for the kernel's
reduction x - k pi/2 (each product k part exact inside an FMA).

Run with a Python that has numpy and mpmath:  python3 scripts/gen-tan-coefficients.py
"""
import mpmath
import numpy as np

mpmath.mp.prec = 100
DEGREE = 6


def fit(nodes=200):
    zmax = float((mpmath.pi / 4) ** 2)
    zs = zmax / 2 * (1 - np.cos(np.pi * (np.arange(nodes) + 0.5) / nodes))
    rs = [mpmath.sqrt(mpmath.mpf(z)) for z in zs]
    # P(z) = (tan r - r) / r^3, relative error of tan: (r^3 (P - p)) / tan r.
    target = np.array([float((mpmath.tan(r) - r) / r**3) for r in rs])
    scale = np.array([float(r**3 / mpmath.tan(r)) for r in rs])
    V = np.vander(zs, DEGREE + 1, increasing=True)
    weight = np.ones(nodes)
    for _ in range(60):
        w = np.sqrt(weight) * scale
        c, *_ = np.linalg.lstsq(V * w[:, None], target * w, rcond=None)
        err = np.abs((V @ c - target) * scale)
        weight = weight * err
        weight /= weight.sum()
    return [float(np.float32(v)) for v in c], float(err.max())


def pi_over_2_parts():
    rest = mpmath.pi / 2
    parts = []
    for _ in range(3):
        p = float(np.float32(float(rest)))
        parts.append(p)
        rest -= mpmath.mpf(p)
    return parts


if __name__ == "__main__":
    coefficients, error = fit()
    print(f"// P's coefficients, z^0 first (fit's relative error before rounding: {error:.2e})")
    print(", ".join(f"{c.hex()}f" for c in coefficients))
    print("// pi/2 in three float parts")
    print(", ".join(f"{p.hex()}f" for p in pi_over_2_parts()))
    print(f"// 2/pi: {float(np.float32(float(2 / mpmath.pi))).hex()}f")
