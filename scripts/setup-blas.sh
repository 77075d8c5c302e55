#!/usr/bin/env bash
# Installs the default BLAS/LAPACK of the C++ build, idempotently: OpenBLAS from the pinned
# scipy-openblas32 wheel on PyPI (the DYNAMIC_ARCH build NumPy and SciPy ship; its symbols carry
# the prefix scipy_), unpacked into the project-local, git-ignored folder
# .deps/scipy-openblas32/{include,lib}. Nothing is vendored. Why this library and not Debian's:
# cmake/TenferroDependencies.cmake. The Python package takes the same pinned wheel as a build
# requirement (pyproject.toml) and ships its library beside the extension module.
#
# Why not the older build NumPy 2.4 ships (0.3.31.188.0), although its LAPACK runs small matrices
# ~10% faster here (dsyevd of 64 32x32 matrices, one thread: 3.36-3.51 ms against 3.79-3.94 ms
# on every build from 0.3.33 on, GCC 14's): it exports ~6 200 unprefixed internal symbols
# (dgemm_nn, dgemm_oncopy_HASWELL, ...), and in a process that also loads Debian's OpenBLAS
# (ScaLAPACK's libblas.so.3, the Dist tests) those calls resolve into this library and crash.
# 0.3.34.481.3 exports 66.
set -euo pipefail

SCIPY_OPENBLAS_VERSION="0.3.34.481.3"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="${TENFERRO_SCIPY_OPENBLAS_ROOT:-$root/.deps/scipy-openblas32}"
stamp="$dest/.wheel-version"

if [[ -f "$stamp" && "$(cat "$stamp")" == "$SCIPY_OPENBLAS_VERSION" &&
      -f "$dest/lib/libscipy_openblas.so" && -f "$dest/include/cblas.h" ]]; then
  echo "setup-blas: scipy-openblas32==$SCIPY_OPENBLAS_VERSION already in $dest"
  exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$tmp" \
  "scipy-openblas32==$SCIPY_OPENBLAS_VERSION"
wheel=("$tmp"/scipy_openblas32-"$SCIPY_OPENBLAS_VERSION"-*.whl)
python3 - "${wheel[0]}" "$tmp/x" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in z.namelist():
        if name.startswith(("scipy_openblas32/include/", "scipy_openblas32/lib/")):
            z.extract(name, sys.argv[2])
PY
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$tmp/x/scipy_openblas32" "$dest"
chmod 0755 "$dest/lib/libscipy_openblas.so"
echo "$SCIPY_OPENBLAS_VERSION" >"$stamp"
echo "setup-blas: installed scipy-openblas32==$SCIPY_OPENBLAS_VERSION into $dest"
