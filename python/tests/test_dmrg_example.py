"""python/examples/dmrg.py at L=10 (D=32: no truncation) against the exact ground energy
-4.258035207282886 (scipy.sparse.linalg.eigsh on the full 2^10 Hamiltonian, computed once;
examples/dmrg/CMakeLists.txt records how)."""

import pathlib
import sys

import tenferro as tf

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "examples"))
import dmrg  # noqa: E402


def test_dmrg_example_reaches_exact_energy():
    energies = dmrg.dmrg(10, 32, 4, tf.Runtime.cpu(), verbose=False)
    assert abs(energies[-1] + 4.258035207282886) < 1e-10 * 4.26
    assert energies[-1] <= energies[0] + 1e-12  # variational: the energy does not go up
