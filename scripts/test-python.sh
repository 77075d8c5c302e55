#!/usr/bin/env bash
# Builds and installs the Python package the way a user does (`pip install .` into a fresh
# virtual environment), checks it imports and runs from outside the source tree, then runs
# the pytest suite (python/tests) with the real clients from PyPI. Everything it writes stays
# in the git-ignored build-python/: the venv, the CMake build (kept between runs, so a second
# run rebuilds only what changed) and build-python/pytest.log, whose summary line
# scripts/test.sh counts. Exits non-zero when the install or the import check fails.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=$root/build-python/venv-test
log=$root/build-python/pytest.log
mkdir -p build-python
rm -f "$log"

echo "=== [python] pip install . (fresh venv in $venv)"
rm -rf "$venv"
python3 -m venv "$venv" || exit 1
# The build itself uses pip's isolated build environment (scikit-build-core, nanobind from
# pyproject.toml); ccache, where a developer has it, keeps the C++ rebuild quick (the set-up
# does not install it, so a fresh machine builds without it).
if command -v ccache >/dev/null; then
  export CMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER:-ccache}
  export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
fi
export CMAKE_BUILD_PARALLEL_LEVEL=${TENFERRO_JOBS:-$(nproc)}
# torch (CPU use only, python/tests/test_torch.py): PyPI's Linux wheel pulls in the NVIDIA CUDA
# wheels (~3 GB, ~5 GB installed; the bare wheel does not import without libcufile) and the
# CPU-only index is not reachable here. It adds about 70 s to this step on this machine (pip keeps
# no copy of the wheels in its cache here, so every run downloads them again).
"$venv/bin/pip" install --quiet --disable-pip-version-check pytest numpy scipy opt_einsum cotengra quimb autoray \
  torch || { echo "python: installing the test dependencies failed"; exit 1; }
"$venv/bin/pip" install --disable-pip-version-check "$root" >"$root/build-python/pip-install-test.log" 2>&1 ||
  { tail -n 60 "$root/build-python/pip-install-test.log"; echo "python: pip install . failed"; exit 1; }

echo "=== [python] the installed package works outside the source tree"
(cd "$(mktemp -d)" && "$venv/bin/python" -c "
import tenferro as tf, numpy as np
rt = tf.Runtime.cpu()
c = tf.einsum('ij,jk->ik', rt.upload(np.eye(3)), rt.upload(np.ones((3, 3)))).download()
assert tf.__file__.startswith('$venv'), tf.__file__
np.testing.assert_array_equal(c, np.ones((3, 3)))
print('import check ok:', tf.__file__)
") || { echo "python: the installed package does not work"; exit 1; }
# The wheel is self-contained: the module loads the BLAS and SLEEF copies installed beside it
# (the $ORIGIN rpath), not the build machine's system libraries.
module=$("$venv/bin/python" -c "import tenferro._tenferro as m; print(m.__file__)")
for lib in libscipy_openblas libsleef; do
  if ! ldd "$module" | grep "$lib" | grep -q "$(dirname "$module")/"; then
    echo "python: the installed module does not load its bundled $lib:"; ldd "$module" | grep "$lib"
    exit 1
  fi
done
echo "bundled libraries ok: libscipy_openblas, libsleef beside $module"

echo "=== [python] pytest python/tests"
# -p no:cacheprovider: no .pytest_cache in the source tree.
# TENFERRO_REQUIRE_TORCH=1: torch was installed above, so a failing import is a failure.
(cd "$root/python/tests" && TENFERRO_REQUIRE_TORCH=1 "$venv/bin/python" -m pytest -p no:cacheprovider -q -rs .) 2>&1 | tee "$log"
exit 0
