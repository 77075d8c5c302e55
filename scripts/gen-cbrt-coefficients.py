#!/usr/bin/env python3
"""Prints the constants of the AVX-512 cbrt kernels (src/ops/prims/cpu/simd/cbrt_avx512.hpp).

The kernels start from z ~ a^(-1/3), a = m 2^r with m in [1, 2) and r in {0, 1, 2}: m^(-1/3)
by a polynomial of degree 6 in u = m - 1.5, the interpolant of m^(-1/3) at the Chebyshev nodes
of [1, 2) (within 2^-19.8 relative; a third-order step then takes it under 2^-62), times
2^(-r/3). The printed relative error is measured on 10^6 points of [1, 2) in float64 and in
float32 Horner steps (the float32 kernel evaluates the polynomial in float32 lanes).

Run with a Python that has numpy:  python3 scripts/gen-cbrt-coefficients.py
"""
import numpy as np
from numpy.polynomial import chebyshev

DEGREE = 6


def main():
    # Interpolate in t = 2 (m - 1.5) in [-1, 1), then write the polynomial in u = t / 2.
    in_t = chebyshev.cheb2poly(
        chebyshev.chebinterpolate(lambda t: (t / 2 + 1.5) ** (-1.0 / 3.0), DEGREE))
    in_u = [float(c) * 2.0**i for i, c in enumerate(in_t)]
    m = np.linspace(1.0, 2.0, 1_000_001)[:-1]
    exact = m ** (-1.0 / 3.0)
    u = m - 1.5
    f64 = np.zeros_like(m)
    f32 = np.zeros_like(m, dtype=np.float32)
    for c in reversed(in_u):
        f64 = f64 * u + c
        f32 = (f32 * u.astype(np.float32) + np.float32(c)).astype(np.float32)
    print("constexpr double kCbrtStart[7] = {")
    print("    " + ", ".join(c.hex() for c in in_u) + "};")
    print(f"// 2^(-r/3): {(2.0 ** (-1 / 3)).hex()} {(2.0 ** (-2 / 3)).hex()}")
    for name, values in (("float64", f64), ("float32", f32.astype(np.float64))):
        err = np.max(np.abs(values / exact - 1.0))
        print(f"// relative error in {name}: 2^{np.log2(err):.2f}")


if __name__ == "__main__":
    main()
