#!/usr/bin/env bash
# Compiles the backend configurations side by side, each in its own build dir:
#   cpu         build-cfg-cpu          library only
#   cuda        build-cfg-cuda         library + tenferro_cuda_tests (then runs them: on a
#                                      machine without a GPU the device tests skip and the
#                                      hardware-independent factory/admission tests run)
#                                      + tenferro_cuda_peers
#   webgpu      build-cfg-webgpu       library only                (needs .deps/wgpu)
#   cuda-webgpu build-cfg-cuda-webgpu  library + tenferro_cuda_tests (needs .deps/wgpu)
# Release, no CLI/examples/benchmarks (the CUDA peers aside), tests only where CUDA is on: the point is that every
# configuration compiles and links, cheaply. Usage: scripts/build-configs.sh [CONFIG...]
# (default: all). A configuration whose toolchain is absent (no nvcc, no .deps/wgpu) is
# reported as skipped, unless TENFERRO_REQUIRE_CUDA_BUILD=1 makes a missing nvcc a failure.
# Exits non-zero when a configuration fails; prints one line per configuration with its time.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=${TENFERRO_JOBS:-$(nproc)}

nvcc=$(command -v nvcc || true)
[[ -z $nvcc && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
have_wgpu=0
[[ -f $root/.deps/wgpu/lib/libwgpu_native.so ]] && have_wgpu=1

configs=("$@")
((${#configs[@]})) || configs=(cpu cuda webgpu cuda-webgpu)

common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DTENFERRO_BUILD_BENCH=OFF -DTENFERRO_BUILD_CLI=OFF
        -DTENFERRO_BUILD_EXAMPLES=OFF)
cuda_on=(-DTENFERRO_WITH_CUDA=ON "-DCMAKE_CUDA_COMPILER=$nvcc" -DTENFERRO_BUILD_TESTS=ON)
webgpu_on=(-DTENFERRO_WITH_WEBGPU=ON "-DTENFERRO_WEBGPU_ROOT=$root/.deps/wgpu")

summary=()
failed=0
note() { summary+=("$(printf '%-12s %-8s %s' "$1" "$2" "$3")"); }

build_config() {  # build_config NAME
  local name=$1 dir=$root/build-cfg-$1 args=() targets=(tenferro) needs_cuda=0 needs_wgpu=0
  case $name in
    cpu) args=(-DTENFERRO_WITH_CUDA=OFF -DTENFERRO_WITH_WEBGPU=OFF -DTENFERRO_BUILD_TESTS=OFF) ;;
    # The CUDA-only configuration also builds tenferro_cuda_peers (bench/cuda), which only the
    # GPU check runs: compiled here, it cannot rot between GPU machines.
    cuda) needs_cuda=1; args=("${cuda_on[@]}" -DTENFERRO_WITH_WEBGPU=OFF -DTENFERRO_BUILD_CUDA_PEERS=ON)
          targets+=(tenferro_cuda_peers) ;;
    webgpu) needs_wgpu=1; args=(-DTENFERRO_WITH_CUDA=OFF "${webgpu_on[@]}" -DTENFERRO_BUILD_TESTS=OFF) ;;
    cuda-webgpu) needs_cuda=1; needs_wgpu=1; args=("${cuda_on[@]}" "${webgpu_on[@]}") ;;
    *) echo "unknown configuration '$name' (cpu, cuda, webgpu, cuda-webgpu)"; failed=1; return ;;
  esac
  if ((needs_cuda)) && [[ -z $nvcc ]]; then
    if [[ ${TENFERRO_REQUIRE_CUDA_BUILD:-0} == 1 ]]; then
      note "$name" FAILED "no nvcc (TENFERRO_REQUIRE_CUDA_BUILD=1)"; failed=1
    else
      note "$name" skipped "no nvcc on PATH or in /usr/local/cuda/bin"
    fi
    return
  fi
  if ((needs_wgpu && !have_wgpu)); then
    note "$name" skipped "no .deps/wgpu (scripts/setup-webgpu.sh installs it)"
    return
  fi
  ((needs_cuda)) && targets+=(tenferro_cuda_tests)
  echo "=== [cfg $name] configure + build ${targets[*]} in $dir"
  local start=$SECONDS
  mkdir -p "$dir"
  if ! cmake -S "$root" -B "$dir" "${common[@]}" "${args[@]}" >"$dir/configure.log" 2>&1; then
    cat "$dir/configure.log"
    note "$name" FAILED "configure ($dir/configure.log)"; failed=1; return
  fi
  ninja -C "$dir" -j"$jobs" "${targets[@]}" >"$dir/build.log" 2>&1
  local status=$?
  grep -E "error:|FAILED:|warning:" "$dir/build.log" | head -n 40
  if [[ $status -ne 0 ]]; then
    note "$name" FAILED "build after $((SECONDS - start))s ($dir/build.log)"; failed=1; return
  fi
  local detail="compiled in $((SECONDS - start))s"
  if ((needs_cuda)); then
    # Device tests skip here without a GPU; the factory/admission tests run everywhere.
    if "$dir/tests/tenferro_cuda_tests" >"$dir/cuda-tests.log" 2>&1; then
      local passed skipped
      passed=$(grep -E '^\[  PASSED  \] [0-9]+' "$dir/cuda-tests.log" | grep -oE '[0-9]+' | head -n1)
      skipped=$(grep -E '^\[  SKIPPED \] [0-9]+ tests?,' "$dir/cuda-tests.log" | grep -oE '[0-9]+' | head -n1)
      detail+="; cuda tests: ${passed:-0} passed, ${skipped:-0} skipped (no device)"
    else
      tail -n 30 "$dir/cuda-tests.log"
      note "$name" FAILED "$detail; tenferro_cuda_tests failed ($dir/cuda-tests.log)"; failed=1; return
    fi
  fi
  note "$name" ok "$detail"
}

for c in "${configs[@]}"; do build_config "$c"; done
echo
echo "configuration summary:"
printf '  %s\n' "${summary[@]}"
exit $failed
