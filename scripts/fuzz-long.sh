#!/usr/bin/env bash
# Optional, not part of the test command: runs every libFuzzer target of an ASan+UBSan fuzzer
# build for 10^7 executions each (about 5 to 10 minutes each on this project's 2-core
# machines), on a scratch copy of the seed corpora. Builds the fuzzers first when needed.
#
#   scripts/fuzz-long.sh [BUILD_DIR] [RUNS_EACH]     # defaults: build-asan 10000000
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-asan}
runs=${2:-10000000}
if [[ ! -f "$dir/build.ninja" ]]; then
  source scripts/test-env.sh
  cmake -S . -B "$dir" -G Ninja "${webgpu_args[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DTENFERRO_SANITIZE=address,undefined \
    -DTENFERRO_BUILD_FUZZERS=ON -DTENFERRO_BUILD_BENCH=OFF >/dev/null || exit 1
fi
targets=()
for source in tests/fuzz/*_fuzz.cpp; do targets+=("$(basename "$source" .cpp)"); done
ninja -C "$dir" "${targets[@]}" || exit 1
exec scripts/run-fuzzers.sh "$dir" 7200 "$runs"
