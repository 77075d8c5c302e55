#!/usr/bin/env bash
# The main job: set-up, a Release build, then `tenferro info`, the quickstart example, the
# variational MPS example (AD + L-BFGS, about a second), the two-site DMRG flagship (eigsh on
# the effective Hamiltonian, L=40, D=32, about two seconds) and the performance gate
# (`tenferro bench` on the default CPU runtime) when it is built.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/test-env.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${webgpu_args[@]}" >/dev/null
ninja -C build tenferro_cli quickstart mps_heisenberg dmrg
build/src/cli/tenferro info
build/examples/quickstart
build/examples/mps_heisenberg
build/examples/dmrg/dmrg --L 40 --D 32 --sweeps 4
if build/src/cli/tenferro --help | grep -q '^  bench '; then
  # One BLAS thread unless the caller chose otherwise (test-env.sh): on a shared 2-core machine
  # OpenBLAS's spin-waiting pool makes multi-threaded small-matrix timings meaningless. The
  # table states the setting; bench/peers/run.sh compares 1 thread and all cores.
  build/src/cli/tenferro bench --backend all
fi
