#!/usr/bin/env bash
# Builds, on this (CPU) machine, everything scripts/gpu-check.sh runs on a GPU machine, and packs
# it into .gpu-bundle/bundle.tar.xz (git-ignored): the GPU machine's time is short (minutes per
# task) and its 16 cores would spend several of them compiling what this machine compiles for
# free. Carry it with `carry: [".gpu-bundle"]`; gpu-check.sh finds it and skips its own build.
#
# The bundle holds:
#   tests/, src/cli/, bench/cuda/  every test executable but WebGPU's (CUDA on, Release, sm_90),
#                                  the tenferro command and tenferro_cuda_peers;
#   lib/                           the shared libraries they need beyond glibc, libstdc++ and
#                                  CUDA's own (SLEEF, FFTW, scipy-openblas), with their link
#                                  names, so the GPU machine's Python build links against them;
#   include/                       sleef.h and fftw3.h, for that Python build;
#   scipy-openblas32/              the BLAS package (headers and library) for that build;
#   source_dir, binary_dir         the paths compiled into the tests (their corpus, the command),
#                                  which gpu-check.sh recreates as links where they are missing;
#   tree                           the tree it was built from (scripts/tree-fingerprint.sh).
# Usage: scripts/gpu-bundle.sh [BUILD_DIR]   (default build-gpu-local)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$(realpath -m "${1:-$root/build-gpu-local}")
nvcc=$(command -v nvcc || true)
[[ -z $nvcc && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
[[ -n $nvcc ]] || { echo "gpu-bundle: no nvcc on PATH or in /usr/local/cuda/bin" >&2; exit 1; }
[[ -f .deps/scipy-openblas32/lib/libscipy_openblas.so ]] || scripts/setup-blas.sh

if command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
  export CMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER:-ccache}
  export CCACHE_BASEDIR=$root
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTENFERRO_WITH_CUDA=ON \
  "-DCMAKE_CUDA_COMPILER=$nvcc" -DTENFERRO_WITH_WEBGPU=OFF -DTENFERRO_BUILD_TESTS=ON \
  -DTENFERRO_BUILD_CLI=ON -DTENFERRO_BUILD_BENCH=OFF -DTENFERRO_BUILD_CUDA_PEERS=ON \
  -DTENFERRO_BUILD_EXAMPLES=OFF >/dev/null
mapfile -t tests < <(scripts/gpu-test-targets.sh "$build")
((${#tests[@]})) || { echo "gpu-bundle: no test executables in $build" >&2; exit 1; }
ninja -C "$build" "${tests[@]}" tenferro_cli tenferro_cuda_peers

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{tests,src/cli,bench/cuda,lib,include}
for t in "${tests[@]}"; do cp "$build/tests/$t" "$stage/tests/"; done
cp "$build/src/cli/tenferro" "$stage/src/cli/"
cp "$build/bench/cuda/tenferro_cuda_peers" "$stage/bench/cuda/"
# The libraries the executables load from outside the C/C++ runtime and CUDA, each under its
# soname and its link name (libfoo.so) for the Python build's find_library.
ldd "$stage"/tests/* "$stage"/src/cli/tenferro "$stage"/bench/cuda/* |
  awk '/=> \// {print $1, $3}' | sort -u |
  grep -vE '^(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+)\.so|/cuda' |
  while read -r soname path; do
    cp -L "$path" "$stage/lib/$soname"
    [[ $soname == "${soname%%.so*}.so" ]] || ln -sf "$soname" "$stage/lib/${soname%%.so*}.so"
  done
# The headers the build itself found (its CMake cache).
for var in TENFERRO_SLEEF_INCLUDE_DIR:sleef.h TENFERRO_FFTW_INCLUDE_DIR:fftw3.h; do
  dir=$(grep -E "^${var%%:*}:" "$build/CMakeCache.txt" | cut -d= -f2-)
  cp "$dir/${var#*:}" "$stage/include/"
done
cp -r .deps/scipy-openblas32 "$stage/"
echo "$root" >"$stage/source_dir"
echo "$build" >"$stage/binary_dir"
scripts/tree-fingerprint.sh >"$stage/tree"  # gpu-check refuses a bundle of another tree
mkdir -p .gpu-bundle
tar -cJf .gpu-bundle/bundle.tar.xz -C "$stage" .
echo "gpu-bundle: $(du -h .gpu-bundle/bundle.tar.xz | cut -f1) in .gpu-bundle/bundle.tar.xz" \
  "(${#tests[@]} test executables, $(ls "$stage/lib" | wc -l) library names)"
