#!/usr/bin/env bash
# The distributed benchmark at 1, 2 and 4 ranks on this machine, one JSON line per case and
# rank count (build/bench/dist_bench must exist: a Release build with TENFERRO_WITH_MPI):
#   bench/dist/run.sh [BUILD_DIR] [dist_bench arguments...]
# At 1 rank each line also carries the single-node time and the ratio dist / single, taken in
# the same run. One BLAS (and slice) thread per rank, so the rank count is the core count
# used; ranks beyond the machine's cores are oversubscribed and say nothing about scaling.
set -euo pipefail
build=${1:-build}
shift || true
export OMPI_MCA_btl_vader_single_copy_mechanism=none OPENBLAS_NUM_THREADS=1 TENFERRO_NUM_THREADS=1
# The machine may be shared: the load average before each rank count is printed with it.
echo "# $(nproc) cores; $(date -u +%FT%TZ); dist_bench $*"
for ranks in 1 2 4; do
  echo "# $ranks rank(s), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  mpirun --oversubscribe --allow-run-as-root -np "$ranks" "$build/bench/dist_bench" "$@"
done
