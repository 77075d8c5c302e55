#!/usr/bin/env bash
# Installs the build tree into a fresh prefix, moves the prefix (relocatability), then builds
# and runs tests/package/consumer against it. Usage: consumer_build.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build_dir=$1
source_dir=$2
work=$(mktemp -d /tmp/tenferro-consumer.XXXXXX)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
mv "$work/prefix" "$work/moved-prefix"  # the package must not remember where it was installed
# A build with TENFERRO_WITH_MPI installs the dist component: its consumer runs on 2 ranks.
with_dist=OFF
if compgen -G "$work/moved-prefix/lib*/cmake/tenferro/tenferroDistTargets.cmake" >/dev/null; then
  with_dist=ON
fi
cmake -S "$source_dir/tests/package/consumer" -B "$work/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/moved-prefix" -DCONSUMER_WITH_DIST=$with_dist >/dev/null
cmake --build "$work/build" >/dev/null
export LD_LIBRARY_PATH="$work/moved-prefix/lib:${LD_LIBRARY_PATH:-}"
"$work/build/consumer"
if [[ $with_dist == ON ]]; then
  OMPI_MCA_btl_vader_single_copy_mechanism=none OPENBLAS_NUM_THREADS=1 \
    mpirun --oversubscribe --allow-run-as-root -np 2 -x LD_LIBRARY_PATH "$work/build/dist_consumer"
fi
