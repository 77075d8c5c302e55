# Sourced by the benchmark scripts (never by tests or CI). Debian's OpenBLAS 0.3.21 picks its
# kernels from the CPU model number; on a virtual CPU it does not know it falls back to the
# generic SSE3 ("Prescott") kernels, several times slower than the AVX2/AVX-512 ones the CPU
# runs. OpenBLAS's documented OPENBLAS_CORETYPE selects the kernels explicitly; we set it from
# the CPU's feature flags when the caller has not, and say so. The library itself never
# changes BLAS state behind its user's back.
if [[ -z "${OPENBLAS_CORETYPE:-}" && -r /proc/cpuinfo ]]; then
  cpu_flags=$(grep -m1 '^flags' /proc/cpuinfo)
  has() { [[ " $cpu_flags " == *" $1 "* ]]; }
  if has avx512f && has avx512bw && has avx512vl && has avx512dq; then
    export OPENBLAS_CORETYPE=SkylakeX
  elif has avx2 && has fma; then
    export OPENBLAS_CORETYPE=Haswell
  fi
  [[ -n "${OPENBLAS_CORETYPE:-}" ]] && echo "bench-env: OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE (from the CPU flags)" >&2
  unset -f has
  unset cpu_flags
fi
