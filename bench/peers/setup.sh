#!/usr/bin/env bash
# Creates the project-local, git-ignored virtual environment `.venv-peers` with the peer
# libraries the benchmark scripts compare against: numpy, scipy, opt_einsum, matplotlib,
# cotengra with kahypar and optuna (its recommended hyper-parameter optimiser) and networkx
# (planning_peers.py), einsum-benchmark with its generators extra (networkx, numba, quimb;
# einsum_benchmark.py), scipy-openblas32 (the BLAS the tenferro module links), TeNPy
# (physics-tenpy; dmrg_peers.py, which also uses quimb), and PyTorch
# (CPU use only), all from PyPI.
#
# PyTorch: PyPI has no CPU-only Linux wheel; the regular wheel declares the NVIDIA CUDA
# runtime wheels (~3 GB) as dependencies. We first install the torch wheel without its
# dependencies (plus its small pure-Python requirements) and check that `import torch` and a
# CPU einsum work. Only if that fails do we install torch with all its dependencies.
# Observed with torch 2.15.0 (Nov 2026): the bare wheel fails with "libcufile.so.0: cannot
# open shared object file" (libtorch links the CUDA libraries even for CPU use), so the full
# install runs and the venv ends up at about 5.6 GB. Only PyPI is reachable here, so the
# PyTorch CPU-only wheel index is not an option.
# Usage: bash bench/peers/setup.sh [VENV_DIR]   (default: <repo>/.venv-peers)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="${1:-$repo/.venv-peers}"
python3 -m venv "$venv"
py="$venv/bin/python"
"$py" -m pip install --quiet --upgrade pip
"$py" -m pip install --quiet numpy scipy opt_einsum matplotlib
"$py" -m pip install --quiet cotengra kahypar optuna networkx
"$py" -m pip install --quiet "einsum-benchmark[generators]==0.1.8" scipy-openblas32
"$py" -m pip install --quiet physics-tenpy  # TeNPy, the DMRG peer (dmrg_peers.py)
check_torch() {
  "$py" - <<'PY'
import torch
a = torch.ones(3, 4, dtype=torch.float64)
b = torch.ones(4, 5, dtype=torch.float64)
assert float(torch.einsum("ij,jk->ik", a, b).sum()) == 60.0
print("torch", torch.__version__, "CPU einsum ok; threads:", torch.get_num_threads())
PY
}
if ! "$py" -c "import torch" 2>/dev/null; then
  "$py" -m pip install --quiet --no-deps torch
  "$py" -m pip install --quiet filelock typing-extensions sympy networkx jinja2 fsspec
  if ! check_torch; then
    echo "torch without CUDA wheels does not import; installing the full dependency set" >&2
    "$py" -m pip install --quiet torch
  fi
fi
check_torch
"$py" -c "import numpy, scipy, opt_einsum, matplotlib; print('numpy', numpy.__version__, 'opt_einsum', opt_einsum.__version__)"
"$py" -c "import cotengra, kahypar, optuna; print('cotengra', cotengra.__version__, 'optuna', optuna.__version__)"
"$py" -c "import einsum_benchmark, quimb; print('einsum_benchmark ok; quimb', quimb.__version__)"
