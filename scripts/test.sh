#!/usr/bin/env bash
# The whole test suite: set-up, then
#   1. Release build (library, CLI, examples, benchmarks, tenferro_dist) and every CTest test
#      (the distributed suite under mpirun), then the
#      other backend configurations compiled side by side;
#   2. the same suite under AddressSanitizer + UndefinedBehaviorSanitizer (clang), whose
#      build also gives the libFuzzer targets, run for a bounded time on their seed corpora;
#   3. the concurrency tests under ThreadSanitizer;
#   4. the Python package: `pip install .` into a venv, then pytest with the real clients.
# Exits non-zero when anything fails, and ends with one line "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=${TENFERRO_JOBS:-$(nproc)}
fuzz_seconds=${TENFERRO_FUZZ_SECONDS:-30}

# The builds and the Python venv (torch's CUDA wheels alone install ~5 GB) take about 9 GB; a
# full disk shows up deep in the run as a failed install ("No space left on device"), so say it
# up front.
avail_kib=$(df -Pk "$root" 2>/dev/null | awk 'NR == 2 {print $4}')
if [[ $avail_kib =~ ^[0-9]+$ ]] && ((avail_kib < 12 * 1024 * 1024)); then
  echo "WARNING: $((avail_kib / 1024 / 1024)) GiB free where $root lies; the suite needs about 9 GiB"
fi
scripts/setup.sh || { echo "setup failed"; exit 1; }
# What git sees before the run: the run must add nothing to it (logs and builds stay in
# git-ignored folders), checked at the end.
git_status_before=$(git status --porcelain 2>/dev/null)
source scripts/test-env.sh

# Every build goes through ccache (installed by the set-up). The base dir makes the cached
# objects independent of where the checkout lies and NOHASHDIR leaves the working directory out
# of the hash of -g builds, so a fresh clone of an unchanged tree rebuilds from the cache.
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=1
  export CMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER:-ccache}
  export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
  export CMAKE_CUDA_COMPILER_LAUNCHER=${CMAKE_CUDA_COMPILER_LAUNCHER:-ccache}
fi
# Wall time per stage, printed at the end: CI must stay well inside its limit.
stage_times=()
stage_start=$SECONDS
end_stage() {  # end_stage NAME
  stage_times+=("$(printf '%-34s %5ds' "$1" $((SECONDS - stage_start)))")
  stage_start=$SECONDS
}

passed=0
failed=0
failures=()
record() {  # record NAME STATUS
  if [[ $2 -eq 0 ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); failures+=("$1"); fi
}
# Runs ctest in a build dir and adds its test counts to the totals.
run_ctest() {  # run_ctest LABEL BUILD_DIR [ctest args...]
  local label=$1 dir=$2
  shift 2
  local log="$dir/ctest-$label.log"
  (cd "$dir" && ctest --output-on-failure -j"$jobs" --timeout 900 "$@") 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  local line total nfail
  line=$(grep -E "tests passed, [0-9]+ tests? failed out of [0-9]+" "$log" | tail -n1)
  if [[ -n $line ]]; then
    total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")
    nfail=$(sed -E 's/.* ([0-9]+) tests? failed.*/\1/' <<<"$line")
    passed=$((passed + total - nfail))
    failed=$((failed + nfail))
    ((nfail > 0)) && failures+=("$label ctest: $nfail failed")
  else
    failed=$((failed + 1))
    failures+=("$label ctest: no result")
  fi
  if [[ $status -ne 0 && -z $line ]]; then failures+=("$label ctest exit $status"); fi
}
build() {  # build LABEL BUILD_DIR [cmake args...] -- [ninja targets...]
  local label=$1 dir=$2
  shift 2
  local cmake_args=() targets=()
  while [[ $# -gt 0 && $1 != -- ]]; do cmake_args+=("$1"); shift; done
  [[ $# -gt 0 ]] && shift
  targets=("$@")
  echo "=== [$label] configure + build ($dir)"
  # The log lives inside the (git-ignored) build folder: nothing the tests write is tracked.
  mkdir -p "$dir"
  cmake -S "$root" -B "$dir" -G Ninja "${webgpu_args[@]}" "${cmake_args[@]}" >"$dir/configure.log" 2>&1 ||
    { cat "$dir/configure.log"; record "$label configure" 1; return 1; }
  ninja -C "$dir" -j"$jobs" "${targets[@]}" || { record "$label build" 1; return 1; }
}


# 1. Release.
# TENFERRO_WITH_MPI (+ ELPA): the distributed suite (tests/dist) runs here under mpirun -np 1, 2, 4.
if build release build -DCMAKE_BUILD_TYPE=Release -DTENFERRO_WITH_MPI=ON -DTENFERRO_WITH_ELPA=ON; then
  run_ctest release build
fi
end_stage "1  Release build + tests"

# 1b. The other backend configurations compile and link: CPU-only, CUDA-only, CUDA+WebGPU (the
#     Release build above is the WebGPU one). The CUDA tests' hardware-independent part runs;
#     the device part skips without a GPU (scripts/gpu-check.sh runs it on a GPU machine).
#     In CI (CI=true) a missing nvcc is a failure, on a developer's machine a skip.
echo "=== [configs] CPU-only, CUDA-only, CUDA+WebGPU"
TENFERRO_REQUIRE_CUDA_BUILD=${TENFERRO_REQUIRE_CUDA_BUILD:-${CI:+1}} scripts/build-configs.sh cpu cuda cuda-webgpu
record "build configurations" $?
end_stage "1b CPU/CUDA/CUDA+WebGPU configs"

# 2. ASan + UBSan with clang; the same build carries the fuzz targets.
if build asan build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
    -DCMAKE_CXX_COMPILER=clang++ -DTENFERRO_SANITIZE=address,undefined -DTENFERRO_BUILD_FUZZERS=ON \
    -DTENFERRO_BUILD_BENCH=OFF; then
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_ctest asan build-asan
  if [[ -x scripts/run-fuzzers.sh ]]; then
    echo "=== [fuzz] ${fuzz_seconds}s per fuzzer"
    scripts/run-fuzzers.sh build-asan "$fuzz_seconds"
    record "fuzzers" $?
  fi
fi
end_stage "2  ASan+UBSan build, tests, fuzzers"

# 3. ThreadSanitizer on the concurrency tests only (the rest gains nothing from it).
if build tsan build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
    -DCMAKE_CXX_COMPILER=clang++ -DTENFERRO_SANITIZE=thread -DTENFERRO_BUILD_BENCH=OFF \
    -DTENFERRO_BUILD_CLI=OFF -DTENFERRO_BUILD_EXAMPLES=OFF -- tenferro_runtime_tests \
    tenferro_einsum_tests tenferro_linalg_tests tenferro_fft_tests tenferro_dispatch_tests \
    tenferro_ad_tests tenferro_prims_tests tenferro_backends_tests; then
  # OPENBLAS_NUM_THREADS=1 (test-env.sh): OpenBLAS's own uninstrumented thread pool would
  # otherwise show up as races TSan cannot see into; so would lavapipe's worker threads, which
  # read what a WebGPU dispatch wrote (the WebGPU instances are left out).
  TSAN_OPTIONS=halt_on_error=1 run_ctest tsan build-tsan \
    -R 'Concurren|EinsumThreads|FftThreads|LinalgThreadsSplit|PrimsThreadsSplit' -E '/WebGpu'
fi
end_stage "3  TSan build + tests"

# 4. The Python package, built and installed the way a user does (`pip install .`), then its
#    pytest suite with the real clients from PyPI (opt_einsum, cotengra, quimb).
if scripts/test-python.sh; then
  record "python package install" 0
  # The committed stubs are what stubgen writes for the module just installed.
  scripts/check-stubs.sh
  record "python stubs match the bindings" $?
else
  record "python package install" 1
fi
end_stage "4  Python package + pytest"
# pytest's summary line, e.g. "48 passed, 2 skipped in 30.1s" or "1 failed, 49 passed in 31s".
pytest_line=$(grep -E "[0-9]+ (passed|failed|errors?)(,.*)? in [0-9.]+s" build-python/pytest.log 2>/dev/null | tail -n1)
if [[ -n $pytest_line ]]; then
  py_passed=$(grep -oE "[0-9]+ passed" <<<"$pytest_line" | grep -oE "[0-9]+" || echo 0)
  py_failed=0
  for n in $(grep -oE "[0-9]+ (failed|errors?)" <<<"$pytest_line" | cut -d' ' -f1); do
    py_failed=$((py_failed + n))
  done
  passed=$((passed + ${py_passed:-0}))
  failed=$((failed + py_failed))
  ((py_failed > 0)) && failures+=("python pytest: $py_failed failed")
else
  failed=$((failed + 1))
  failures+=("python pytest: no result")
fi

# 5. Nothing the test command wrote shows up in git.
git_status_after=$(git status --porcelain 2>/dev/null)
if [[ "$git_status_after" != "$git_status_before" ]]; then
  echo "=== [tree] the test command left files git tracks or would track:"
  diff <(echo "$git_status_before") <(echo "$git_status_after")
  record "clean working tree after the run" 1
else
  record "clean working tree after the run" 0
fi

echo
echo "Stage times:"
printf '  %s\n' "${stage_times[@]}"
if ((${#failures[@]})); then
  echo "FAILURES:"
  printf '  %s\n' "${failures[@]}"
fi
echo "${passed} passed, ${failed} failed"
[[ $failed -eq 0 && ${#failures[@]} -eq 0 ]]
