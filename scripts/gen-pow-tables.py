#!/usr/bin/env python3
"""Prints the constants of the AVX-512 pow kernels: float32 (src/ops/prims/cpu/simd/
powf_table_avx512.hpp), which computes pow(x, y) = 2^(y log2 x) in float64 arithmetic, and
float64 (pow_table_avx512.hpp), exp(y ln x) with ln x and the product in double-double.

log2 x: x = 2^k z with z in [OFFSET, 2 OFFSET), OFFSET = 0x3f330000 (0.699); the sixteen
intervals of z are 2^19 float bit patterns each (so the index is bits 19-22 of the pattern
less OFFSET's); interval j has c_j, its midpoint (1 for the interval holding 1, so that
log2 x near x = 1 has no cancellation), and log2 x = k + log2 c_j + log2(1 + r) with
r = z / c_j - 1, |r| <= 0.0297. The kernel stores 1 / c_j and log2 c_j as doubles; log2(1 + r)
is r P(r), P of degree 5, a near-minimax fit of the relative error of log2(1 + r) (Lawson's
iteration at 120 bits).

2^t: t = n + j/16 + s, |s| <= 1/32, 2^t = 2^n 2^(j/16) 2^s; the table of 2^(j/16) is the float64
exp kernel's (exp_table_avx512.hpp), and 2^s - 1 is s Q(s), Q of degree 3 (Taylor: its first
omitted term, (s ln2)^5 / 120, is below 4.1e-11, 7e-4 of a float32 ulp).

float64: the same intervals and 1 / c_j; ln c_j = -ln(1 / c_j) as a double-double (hi, lo),
ln 2 as hi (42 bits, so that k ln2_hi is exact for |k| <= 1100) and lo, and
ln(1 + r) = r - r^2/2 + r^3 R(r), R of degree 8, a near-minimax fit of the relative error of
r^3 R(r) (r^3 R(r) is below 4.6e-4 of ln x, so R's error 1e-17 is 2^-67 of ln x); and the
low parts of exp's table, 2^(j/16) - kExp2Sixteenths[j].

Run with a Python that has mpmath:  python3 scripts/gen-pow-tables.py
"""
import mpmath

mpmath.mp.prec = 120
OFFSET_BITS = 0x3F330000
LOG_DEGREE = 5  # of P; log2(1 + r) = r P(r)
EXP_DEGREE = 3  # of Q; 2^s - 1 = s Q(s)
LN_DEGREE = 8  # of R; ln(1 + r) = r - r^2/2 + r^3 R(r)


def float_from_bits(bits):
    sign = -1 if bits >> 31 else 1
    exponent, mantissa = (bits >> 23) & 0xFF, bits & 0x7FFFFF
    return sign * mpmath.ldexp(mpmath.mpf(0x800000 + mantissa), exponent - 127 - 23)


def intervals():
    """(1 / c_j as a double, log2 c_j for that double, the largest |r|) for j = 0..15."""
    rows = []
    for j in range(16):
        lo = float_from_bits(OFFSET_BITS + j * 2**19)
        hi = float_from_bits(OFFSET_BITS + (j + 1) * 2**19)
        c = mpmath.mpf(1) if lo <= 1 < hi else (lo + hi) / 2
        inv_c = float(1 / c)
        log2_c = float(-mpmath.log(mpmath.mpf(inv_c), 2))
        r_max = max(abs(lo * inv_c - 1), abs(hi * inv_c - 1))
        rows.append((inv_c, log2_c, r_max))
    return rows


def lawson(r_max, g, degree, nodes=200, iterations=30):
    """Coefficients of a polynomial of `degree` near g(r) on [-r_max, r_max] in relative error
    (Lawson's iteration on Chebyshev nodes), and that error."""
    mp = mpmath.mp
    rs = [r_max * mp.cos(mp.pi * (k + mp.mpf(0.5)) / nodes) for k in range(nodes)]
    gs = [g(r) for r in rs]
    weight = [mp.mpf(1)] * nodes
    for _ in range(iterations):
        V = mp.matrix(nodes, degree + 1)
        b = mp.matrix(nodes, 1)
        for i in range(nodes):
            scale = mp.sqrt(weight[i]) / gs[i]
            for d in range(degree + 1):
                V[i, d] = rs[i] ** d * scale
            b[i] = gs[i] * scale
        c = mp.lu_solve(V.T * V, V.T * b)
        err = [abs(sum(c[d] * rs[i] ** d for d in range(degree + 1)) / gs[i] - 1)
               for i in range(nodes)]
        total = sum(weight[i] * err[i] for i in range(nodes))
        weight = [weight[i] * err[i] / total for i in range(nodes)]
    return [float(v) for v in c], float(max(err))


def log_polynomial(r_max):
    """P: log2(1 + r) / r."""
    return lawson(r_max, lambda r: mpmath.log(1 + r, 2) / r, LOG_DEGREE)


def ln_polynomial(r_max):
    """R: (ln(1 + r) - r + r^2/2) / r^3."""
    return lawson(r_max, lambda r: (mpmath.log(1 + r) - r + r * r / 2) / r**3, LN_DEGREE)


def double_double(v):
    hi = float(v)
    return hi, float(v - mpmath.mpf(hi))


def exp_polynomial():
    """Q(s) = (2^s - 1) / s by Taylor: ln2^(d+1) / (d+1)! for d = 0..EXP_DEGREE."""
    ln2 = mpmath.log(2)
    return [float(ln2 ** (d + 1) / mpmath.factorial(d + 1)) for d in range(EXP_DEGREE + 1)]


def rows(values, indent, per_line=4):
    text = [float.hex(v) for v in values]
    return "\n".join(indent + ", ".join(text[i:i + per_line]) + ","
                     for i in range(0, len(text), per_line))


def main():
    table = intervals()
    r_max = max(r for _, _, r in table)
    p, p_error = log_polynomial(r_max)
    print("// |r| <= %.6f; P's relative error %.2e" % (r_max, p_error))
    print("alignas(64) constexpr double kPowfInvC[16] = {\n%s\n};" %
          rows([inv_c for inv_c, _, _ in table], "    "))
    print("alignas(64) constexpr double kPowfLog2C[16] = {\n%s\n};" %
          rows([log2_c for _, log2_c, _ in table], "    "))
    print("constexpr double kPowfLog2P[%d] = {\n%s\n};" % (LOG_DEGREE + 1, rows(p, "    ", 3)))
    print("constexpr double kPowfExp2Q[%d] = {\n%s\n};" %
          (EXP_DEGREE + 1, rows(exp_polynomial(), "    ")))

    ln_c = [double_double(mpmath.log(mpmath.mpf(inv_c))) for inv_c, _, _ in table]
    ln_c = [(-hi, -lo) for hi, lo in ln_c]
    ln2 = mpmath.log(2)
    ln2_hi = float(mpmath.ldexp(mpmath.floor(mpmath.ldexp(ln2, 42)), -42))
    ln2_lo = float(ln2 - mpmath.mpf(ln2_hi))
    q, q_error = ln_polynomial(r_max)
    print("// float64: R's relative error %.2e" % q_error)
    print("alignas(64) constexpr double kPowLnCHi[16] = {\n%s\n};" %
          rows([hi for hi, _ in ln_c], "    "))
    print("alignas(64) constexpr double kPowLnCLo[16] = {\n%s\n};" %
          rows([lo for _, lo in ln_c], "    "))
    print("constexpr double kPowLn2Hi = %s, kPowLn2Lo = %s;" %
          (float.hex(ln2_hi), float.hex(ln2_lo)))
    print("constexpr double kPowLnR[%d] = {\n%s\n};" % (LN_DEGREE + 1, rows(q, "    ", 3)))
    exp2_lo = [double_double(mpmath.mpf(2) ** (mpmath.mpf(j) / 16))[1] for j in range(16)]
    print("alignas(64) constexpr double kPowExp2SixteenthsLo[16] = {\n%s\n};" %
          rows(exp2_lo, "    "))


if __name__ == "__main__":
    main()
