"""Real clients from PyPI drive tenferro tensors unchanged: opt_einsum (backend="tenferro"),
cotengra (through autoray) and quimb (an MPS of 20 sites, bond 32). Results equal NumPy's and
the arrays stay tenferro tensors on their runtime."""

import numpy as np
import pytest

import tenferro as tf
from conftest import crandn

oe = pytest.importorskip("opt_einsum")


def network(rng):
    eq = "ab,bcd,de,ecf->af"
    shapes = [(4, 5), (5, 3, 6), (6, 7), (7, 3, 2)]
    return eq, [crandn(rng, *s) for s in shapes]


def test_opt_einsum_contract_with_tenferro_backend(rt, rng):
    eq, arrays = network(rng)
    tensors = [rt.upload(a) for a in arrays]
    got = oe.contract(eq, *tensors, backend="tenferro")
    assert isinstance(got, tf.Tensor) and got.runtime == rt
    np.testing.assert_allclose(got.download(), np.einsum(eq, *arrays), rtol=1e-10)


def test_opt_einsum_contract_expression(rt, rng):
    eq, arrays = network(rng)
    expr = oe.contract_expression(eq, *[a.shape for a in arrays])
    got = expr(*[rt.upload(a) for a in arrays], backend="tenferro")
    assert isinstance(got, tf.Tensor)
    np.testing.assert_allclose(got.download(), np.einsum(eq, *arrays), rtol=1e-10)


def test_cotengra_hyper_optimizer_tree_contract(rt, rng):
    ctg = pytest.importorskip("cotengra")
    eq, arrays = network(rng)
    inputs, output = eq.split("->")
    inputs = [tuple(term) for term in inputs.split(",")]
    size_dict = {ix: d for term, a in zip(inputs, arrays) for ix, d in zip(term, a.shape)}
    opt = ctg.HyperOptimizer(max_repeats=8, methods=["greedy"], progbar=False)
    tree = opt.search(inputs, tuple(output), size_dict)
    got = tree.contract([rt.upload(a) for a in arrays])
    assert isinstance(got, tf.Tensor) and got.runtime == rt
    np.testing.assert_allclose(got.download(), np.einsum(eq, *arrays), rtol=1e-10)


@pytest.fixture
def mps_pair(rt):
    qtn = pytest.importorskip("quimb.tensor")
    ref = qtn.MPS_rand_state(20, bond_dim=32, seed=42, dtype="float64")
    mps = ref.copy()
    mps.apply_to_arrays(lambda a: rt.upload(a))
    return ref, mps


def all_tenferro(tn, rt):
    return all(isinstance(t.data, tf.Tensor) and t.data.runtime == rt for t in tn)


def test_quimb_mps_overlap(rt, mps_pair):
    ref, mps = mps_pair
    got = mps.H @ mps
    want = ref.H @ ref
    assert float(np.asarray(got)) == pytest.approx(float(want), rel=1e-10)
    assert all_tenferro(mps, rt)


def test_quimb_mps_normalize(rt, mps_pair):
    ref, mps = mps_pair
    ref.multiply_(3.0, spread_over="all")
    mps.multiply_(3.0, spread_over="all")
    ref.normalize()
    mps.normalize()
    assert all_tenferro(mps, rt)
    assert float(np.asarray(mps.H @ mps)) == pytest.approx(1.0, rel=1e-10)
    for a, b in zip(ref.arrays, mps.arrays):
        np.testing.assert_allclose(np.asarray(b), a, rtol=1e-9, atol=1e-12)


def test_quimb_mps_compress(rt, mps_pair):
    ref, mps = mps_pair
    ref.compress(max_bond=16)
    mps.compress(max_bond=16)
    assert all_tenferro(mps, rt)
    assert mps.max_bond() == ref.max_bond() == 16
    # Gauge freedom: compare gauge-invariant numbers, the norm and the overlap with the
    # NumPy result, not the raw factors.
    ref_host = ref.copy()
    mps_host = mps.copy()
    mps_host.apply_to_arrays(lambda a: a.download())
    assert float(mps_host.H @ mps_host) == pytest.approx(float(ref_host.H @ ref_host), rel=1e-9)
    overlap = float(mps_host.H @ ref_host)
    assert abs(overlap) == pytest.approx(float(ref_host.H @ ref_host), rel=1e-8)
