"""Any label (issue #33): the subscripts take every symbol opt_einsum's get_symbol, cotengra
and quimb produce (Unicode from 'À' up) and digits, beyond the 52 letters; checked against
opt_einsum's contract in the interleaved (sublist) form, which takes any number of integer
labels and shares no parser with ours, on random networks."""

import numpy as np
import opt_einsum
import pytest

import tenferro as tf


def random_network(rng, n_tensors, n_labels, symbol):
    """Subscripts with `symbol(i)` labels, operands, and the same network as sublists."""
    terms = []
    for _ in range(n_tensors):
        rank = rng.integers(1, 4)
        terms.append([int(x) for x in rng.choice(n_labels, size=rank, replace=False)])
    used = sorted({l for t in terms for l in t})
    counts = {l: sum(t.count(l) for t in terms) for l in used}
    out = [l for l in used if counts[l] == 1][:3]
    sizes = {l: int(rng.integers(1, 4)) for l in used}
    ops = [rng.standard_normal([sizes[l] for l in t]) for t in terms]
    subs = ",".join("".join(symbol(l) for l in t) for t in terms) + "->" + "".join(
        symbol(l) for l in out)
    sublists = []
    for t, op in zip(terms, ops):
        sublists += [op, t]
    return subs, ops, sublists + [out]


SYMBOLS = {
    "opt_einsum get_symbol (past 52)": lambda i: opt_einsum.get_symbol(i + 40),
    "CJK": lambda i: chr(0x4E00 + i),
    "digits and letters": lambda i: "0123456789abcdefghij"[i % 20] if i < 20 else chr(0x100 + i),
    "astral plane": lambda i: chr(0x1D400 + i),
}


@pytest.mark.parametrize("alphabet", sorted(SYMBOLS))
@pytest.mark.parametrize("seed", range(4))
def test_unicode_and_digit_labels_match_numpy(rt, alphabet, seed):
    rng = np.random.default_rng(seed)
    subs, ops, sublist_args = random_network(rng, 6, 70 if "digits" not in alphabet else 20,
                                             SYMBOLS[alphabet])
    want = opt_einsum.contract(*sublist_args)
    got = tf.einsum(subs, *[rt.upload(o) for o in ops]).download()
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_more_than_52_labels_in_one_equation(rt):
    rng = np.random.default_rng(7)
    n = 120  # a chain of 120 matrices: 121 distinct labels
    mats = [rng.standard_normal((2, 2)) * 0.7 for _ in range(n)]
    sym = opt_einsum.get_symbol
    subs = ",".join(sym(i) + sym(i + 1) for i in range(n)) + "->" + sym(0) + sym(n)
    want = np.linalg.multi_dot(mats)
    got = tf.einsum(subs, *[rt.upload(m) for m in mats]).download()
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


def test_every_symbol_of_get_symbol_is_a_label(rt):
    # get_symbol(5620) is U+1680 and 8052-8062 are U+2000-U+200A: White_Space code points, which
    # were refused, so a network of more than 5620 labels named by get_symbol failed.
    x = rt.upload(np.arange(6.0).reshape(2, 3))
    y = rt.upload(np.arange(12.0).reshape(3, 4))
    for i in [5620, *range(8052, 8063), 8092, 8093, 8099, 8147, 12148]:
        s = opt_einsum.get_symbol(i)
        got = tf.einsum("a" + s + "," + s + "b->ab", x, y).download()
        np.testing.assert_array_equal(got, x.download() @ y.download())


def test_implicit_output_is_in_code_point_order(rt):
    x = rt.upload(np.arange(24.0).reshape(2, 3, 4))
    got = tf.einsum("éa1", x).download()  # implicit output: '1' < 'a' < 'é'
    np.testing.assert_array_equal(got, np.arange(24.0).reshape(2, 3, 4).transpose(2, 1, 0))


def test_einsum_path_prints_labels_back_as_given(rt):
    a = rt.upload(np.ones((2, 3)))
    b = rt.upload(np.ones((3, 4)))
    path, report = tf.einsum_path("À×,×中->À中", a, b)
    assert "À×,×中->À中" in report, report


def test_traced_sublists_take_more_than_52_labels(rt):
    rng = np.random.default_rng(3)
    n = 60
    vs = [rt.upload(rng.standard_normal(2)) for _ in range(n)]
    args = []
    for i, v in enumerate(vs):
        args += [v, [i]]
    f = lambda x: tf.einsum(x, [0], *args[2:], [])  # noqa: E731 - one product over 60 labels
    g = tf.grad(f)(vs[0])
    rest = np.prod([v.download().sum() for v in vs[1:]])
    np.testing.assert_allclose(g.download(), [rest, rest], rtol=1e-10)


def test_bad_label_characters_are_validation_errors(rt):
    a = rt.upload(np.ones((2, 2)))
    for subs in ["i j\u00a0->", "i#,j", "i\u0085j"]:
        with pytest.raises(tf.ValidationError):
            tf.einsum(subs, a)
