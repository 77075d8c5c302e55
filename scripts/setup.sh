#!/usr/bin/env bash
# Installs everything tenferro needs on a Debian 12 machine (run as root). Quick when all is
# already there: apt-get runs only for packages that are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config git
  ccache                                            # the test command's builds reuse objects across runs
  libopenblas-dev liblapacke-dev libfftw3-dev      # CPU BLAS/LAPACK and FFT (FFTW is GPL)
  libsleef-dev                                      # SIMD exp/log/sin/cos/tanh (x86-64 CPU kernels)
  libgtest-dev libgmock-dev libbenchmark-dev        # tests and benchmarks
  clang libclang-rt-14-dev                          # sanitizer and libFuzzer runtimes
  mesa-vulkan-drivers libvulkan1                    # CPU Vulkan driver (lavapipe) for WebGPU in CI
  python3 python3-pip python3-venv unzip
  python3-dev                                       # headers for the Python package's extension
  libopenmpi-dev openmpi-bin libscalapack-openmpi-dev  # tenferro_dist: MPI + ScaLAPACK
  libelpa-dev                                       # tenferro_dist: ELPA eigensolver
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# OpenBLAS from the pinned `scipy-openblas32` wheel into .deps/ (the C++ build's BLAS/LAPACK).
scripts/setup-blas.sh

# wgpu-native (WebGPU), from the pinned `wgpu` wheel into .deps/ (project-local, git-ignored).
if [[ -x scripts/setup-webgpu.sh ]]; then
  scripts/setup-webgpu.sh
fi
