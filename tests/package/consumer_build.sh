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
cmake -S "$source_dir/tests/package/consumer" -B "$work/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/moved-prefix" >/dev/null
cmake --build "$work/build" >/dev/null
LD_LIBRARY_PATH="$work/moved-prefix/lib:${LD_LIBRARY_PATH:-}" "$work/build/consumer"
