#!/usr/bin/env bash
# The peer comparison in one command: tenferro against NumPy, SciPy, opt_einsum and PyTorch CPU
# at 1 thread and at all cores, side by side in one run, then docs/performance.md and
# docs/performance.png.
#   1. creates .venv-peers with bench/peers/setup.sh when it is missing,
#   2. configures and builds what it needs in build/ (Release, TENFERRO_BUILD_BENCH=ON),
#   3. runs bench/peers/run_all.py (about 10 minutes on a 2-core machine; --quick: ~2).
# Usage: bash bench/peers/run.sh [--quick] [--rounds N] [--threads 1,N]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"

venv="$repo/.venv-peers"
if [[ ! -x "$venv/bin/python" ]]; then
  echo "run.sh: $venv is missing; creating it with bench/peers/setup.sh" >&2
  bash bench/peers/setup.sh "$venv"
fi

build="$repo/build"
if [[ ! -f "$build/CMakeCache.txt" ]] || ! grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$build/CMakeCache.txt" ||
  ! grep -q '^TENFERRO_BUILD_BENCH:BOOL=ON$' "$build/CMakeCache.txt"; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTENFERRO_BUILD_BENCH=ON >/dev/null
fi
nice -n 10 ninja -C "$build" tenferro_cli einsum_cases linalg_bench fft_bench

command="bash bench/peers/run.sh${*:+ $*}"
exec "$venv/bin/python" bench/peers/run_all.py --build build --command "$command" "$@"
