#!/usr/bin/env bash
# Runs every libFuzzer target built in BUILD_DIR (executables named *_fuzz, see
# tests/fuzz/CMakeLists.txt) for SECONDS_EACH seconds on a scratch copy of its seed corpus
# tests/fuzz/corpus/<name>/ (with tests/fuzz/<name>.dict when present). Prints one summary
# line per fuzzer and exits non-zero when any fuzzer crashed, hung or found nothing to run.
#
# With a third argument RUNS each fuzzer stops after RUNS executions (SECONDS_EACH is then
# only a cap): scripts/fuzz-long.sh uses it to reach 10^7 executions each.
#
#   scripts/run-fuzzers.sh build-fuzz 60
set -uo pipefail

if [[ $# -lt 2 || $# -gt 3 || ! "$2" =~ ^[0-9]+$ || ! "${3:-0}" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 BUILD_DIR SECONDS_EACH [RUNS_EACH]" >&2
  exit 2
fi
runs_each=${3:-}
build_dir=$(cd "$1" && pwd) || { echo "run-fuzzers: no build directory '$1'" >&2; exit 2; }
seconds=$2
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

mapfile -t fuzzers < <(find "$build_dir" -type f -name '*_fuzz' -perm -u+x | sort)
if [[ ${#fuzzers[@]} -eq 0 ]]; then
  echo "run-fuzzers: no *_fuzz executables under $build_dir (configure with -DTENFERRO_BUILD_FUZZERS=ON)" >&2
  exit 1
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/tenferro-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
artifacts="$build_dir/fuzz-artifacts"
failed=0

for fuzzer in "${fuzzers[@]}"; do
  name=$(basename "$fuzzer")
  seeds="$source_dir/tests/fuzz/corpus/$name"
  corpus="$scratch/$name"
  mkdir -p "$corpus" "$artifacts/$name"
  if [[ -d "$seeds" ]]; then
    cp -R "$seeds/." "$corpus/"
  else
    echo "run-fuzzers: warning: no seed corpus $seeds, starting empty" >&2
  fi
  seed_count=$(find "$corpus" -type f | wc -l)
  args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$artifacts/$name/")
  [[ -f "$source_dir/tests/fuzz/$name.dict" ]] && args+=(-dict="$source_dir/tests/fuzz/$name.dict")
  [[ -n $runs_each ]] && args+=(-runs="$runs_each")
  log="$artifacts/$name/last-run.log"

  "$fuzzer" "${args[@]}" "$corpus" >"$log" 2>&1
  status=$?

  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  corpus_count=$(find "$corpus" -type f | wc -l)
  if [[ $status -eq 0 ]]; then
    echo "$name: OK, ${runs:-?} runs (cap ${seconds}s), coverage ${cov:-?} edges, corpus $seed_count -> $corpus_count"
  else
    failed=1
    crash=$(grep -m1 -E 'ERROR: (AddressSanitizer|libFuzzer|UndefinedBehaviorSanitizer)|runtime error:|Test unit written to' "$log")
    echo "$name: FAILED (exit $status) after ${runs:-?} runs: ${crash:-see log}; log $log"
    grep -m1 'Test unit written to' "$log" >&2
  fi
done
exit $failed
