#!/usr/bin/env bash
# Downloads (does not install) the Debian packages scripts/gpu-check.sh unpacks on a GPU
# machine that has no package registry, into .debs/ at the repository root. Run it on a
# machine with a registry before handing the tree over; .debs/ is git-ignored, so carry it
# explicitly. Usage: scripts/fetch-gpu-debs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(
  libopenblas-dev libopenblas-pthread-dev libopenblas0-pthread libopenblas0  # cblas.h, BLAS
  liblapacke-dev liblapacke liblapack3 libtmglib3 libgfortran5 libquadmath0  # LAPACKE
  libfftw3-dev libfftw3-double3 libfftw3-single3 libfftw3-bin                # FFTW3
  libsleef-dev libsleef3                                                     # SLEEF (SIMD math)
  libgtest-dev googletest                                                    # GoogleTest
)
mkdir -p .debs
# apt's sandbox user may not write into the checkout: download into a scratch folder first.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
chmod 777 "$scratch"
(cd "$scratch" && apt-get download "${packages[@]}")
mv "$scratch"/*.deb .debs/
echo "$(ls .debs/*.deb | wc -l) packages, $(du -sh .debs | cut -f1) in .debs/"
