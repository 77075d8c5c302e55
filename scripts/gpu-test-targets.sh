#!/usr/bin/env bash
# The test executables a CUDA build of BUILD_DIR makes, one per line: every area's
# (tests/CMakeLists.txt makes one per folder) but WebGPU's, which a CUDA-only build would only
# skip. scripts/gpu-bundle.sh and scripts/gpu-check.sh build and run exactly these.
# Usage: scripts/gpu-test-targets.sh BUILD_DIR   (configured)
set -euo pipefail
ninja -C "$1" -t targets all | grep -oE '^tests/tenferro_[a-z]+_tests' | sed 's|^tests/||' |
  grep -v '^tenferro_webgpu_tests$' | sort -u
