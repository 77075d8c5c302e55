#!/usr/bin/env bash
# Message volume per rank of each distributed case, measured (not modelled) with OpenMPI's
# monitoring component, which counts every byte and message the point-to-point layer sends,
# including those collectives and ScaLAPACK's BLACS and ELPA's Fortran calls generate:
#   [VOLUME_RANKS="2 4"] bench/dist/volumes.sh [BUILD_DIR] [dist_bench arguments...]
# Each case runs once (--repeat 1) and once dry (its setup, the scatter, without the op); the
# op's volume is the difference. One JSON line per case and rank count: bytes and messages
# sent by each rank, and their maximum. Volumes do not depend on the cores, so 4 ranks on a
# 2-core machine count correctly even though their times mean nothing.
set -euo pipefail
build=${1:-build}
shift || true
export OMPI_MCA_btl_vader_single_copy_mechanism=none OPENBLAS_NUM_THREADS=1 TENFERRO_NUM_THREADS=1
n=800  # dist_bench's default, unless the arguments say otherwise
args=("$@")
for ((i = 0; i + 1 < ${#args[@]}; i++)); do [[ ${args[i]} == --n ]] && n=${args[i + 1]}; done
dir=$(mktemp -d /tmp/tenferro-volumes.XXXXXX)
trap 'rm -rf "$dir"' EXIT
monitored() {  # monitored RANKS PREFIX ARGS...
  local ranks=$1 prefix=$2
  shift 2
  mpirun --oversubscribe --allow-run-as-root -np "$ranks" --mca pml_monitoring_enable 2 \
    --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$prefix" \
    "$build/bench/dist_bench" "$@" --repeat 1 >/dev/null
}
echo "# dist_bench $*; bytes/messages sent per rank by the op (run minus dry run)"
for ranks in ${VOLUME_RANKS:-2 4}; do
  for case in svd eigh elpa einsum; do
    monitored "$ranks" "$dir/$case.$ranks.run" "$@" --only "$case"
    monitored "$ranks" "$dir/$case.$ranks.dry" "$@" --only "$case" --dry 1
    python3 "$(dirname "$0")/volumes_diff.py" "$case" "$ranks" "$n" "$dir/$case.$ranks"
  done
done
