#!/usr/bin/env bash
# One line naming the source tree: its commit and a hash of its uncommitted changes to tracked
# files (file modes ignored: a copy of the tree may not keep them). scripts/gpu-bundle.sh stores
# it in the bundle and scripts/gpu-check.sh compares it with the tree it runs in, so executables
# built from another tree are never tested as this one's.
set -uo pipefail
cd "$(dirname "$0")/.."
if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "no-git"
  exit 0
fi
echo "$(git rev-parse --short HEAD) $(git -c core.fileMode=false diff HEAD | sha1sum | cut -c1-12)"
