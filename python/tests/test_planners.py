"""Path planners as an interface: opt_einsum's own path functions and a hand-written one
registered by name and selected with optimize=, their paths used and reported, typed errors."""

import numpy as np
import opt_einsum
import pytest

import tenferro as tf
from conftest import crandn



def test_opt_einsum_path_functions_plug_in_as_they_are(rt, rng, register_planner):
    register_planner("oe-greedy", opt_einsum.paths.greedy)
    register_planner("oe-branch", opt_einsum.paths.branch)
    assert tf.path_planner_names()[:4] == ["auto", "greedy", "optimal", "hyper"]
    assert {"oe-greedy", "oe-branch"} <= set(tf.path_planner_names())
    ops = [crandn(rng, 6, 4), crandn(rng, 4, 5, 3), crandn(rng, 5, 3, 7), crandn(rng, 7, 2)]
    want = np.einsum("ab,bcd,cde,ef->af", *ops)
    for name in ("oe-greedy", "oe-branch"):
        got = tf.einsum("ab,bcd,cde,ef->af", *[rt.upload(x) for x in ops], optimize=name)
        np.testing.assert_allclose(got.download(), want, rtol=1e-12)


def test_the_planners_path_is_the_one_used(rt, rng, register_planner):
    seen = {}

    def right_to_left(inputs, output, size_dict, memory_limit):
        seen.update(inputs=inputs, output=output, sizes=size_dict, limit=memory_limit)
        return [(len(inputs) - k - 2, len(inputs) - k - 1) for k in range(len(inputs) - 1)]

    register_planner("right-to-left", right_to_left)
    shapes = [(2, 30), (30, 30), (30, 30), (30, 30)]
    path, report = tf.einsum_path("ab,bc,cd,de->ae", *[np.empty(s) for s in shapes],
                                  optimize="right-to-left")
    assert path == ["einsum_path", (2, 3), (1, 2), (0, 1)]
    assert "right-to-left" in report
    assert len(seen["inputs"]) == 4 and all(isinstance(s, set) for s in seen["inputs"])
    assert sorted(seen["sizes"].values()) == [2, 30, 30, 30, 30]
    assert seen["limit"] is None
    ops = [crandn(rng, *s) for s in shapes]
    got = tf.einsum("ab,bc,cd,de->ae", *[rt.upload(x) for x in ops], optimize="right-to-left")
    np.testing.assert_allclose(got.download(), ops[0] @ ops[1] @ ops[2] @ ops[3], rtol=1e-11)


def test_planner_errors_are_typed(rt, rng, register_planner):
    a = rt.upload(crandn(rng, 2, 3))
    b = rt.upload(crandn(rng, 3, 4))
    with pytest.raises(tf.ValidationError, match="no path planner named 'nobody'"):
        tf.einsum("ij,jk->ik", a, b, optimize="nobody")
    with pytest.raises(tf.ValidationError, match="built-in"):
        tf.register_path_planner("greedy", opt_einsum.paths.greedy)

    def broken(inputs, output, size_dict, memory_limit):
        raise KeyError("lost a label")

    register_planner("broken", broken)
    # The planner's own exception comes back as it is (test_adversarial_einsum.py).
    with pytest.raises(KeyError, match="lost a label"):
        tf.einsum("ij,jk->ik", a, b, optimize="broken")
    register_planner("triple", lambda inputs, output, sizes, limit: [(0, 1, 2)])
    with pytest.raises(tf.ValidationError, match="pairs"):
        tf.einsum("ij,jk->ik", a, b, optimize="triple")
    register_planner("out-of-range", lambda inputs, output, sizes, limit: [(0, 5)])
    with pytest.raises(tf.ValidationError, match="out-of-range"):
        tf.einsum("ij,jk->ik", a, b, optimize="out-of-range")
    # The runtime and its tensors stay usable after every refusal.
    np.testing.assert_allclose(tf.einsum("ij,jk->ik", a, b).download(),
                               a.download() @ b.download(), rtol=1e-12)


def test_einsum_path_reports_the_planning_time_and_autos_choice():
    # 12 matrices in a ring: beyond auto's exact DP, so auto says what it chose and why.
    letters = "abcdefghijkl"
    terms = [letters[k] + letters[(k + 1) % 12] for k in range(12)]
    shapes = [np.empty((4, 4)) for _ in terms]
    _, report = tf.einsum_path(",".join(terms) + "->", *shapes, optimize="auto")
    assert "Planning time:" in report
    method = next(line for line in report.splitlines() if "Method:" in line)
    assert "auto: " in method and "estimated" in method, method


def test_einsum_path_on_tensors_reports_the_plan_cache_and_path_reuse(rng):
    # A fresh runtime: its plan cache is empty. An MPS environment update whose bond dimension
    # grows keeps its steps (a DMRG sweep plans once per equation); the report says so.
    rt = tf.Runtime.cpu()
    eq = "abc,adx,bdey,cez->xyz"

    def operands(chi, chi_next):
        shapes = [(chi, 5, chi), (chi, 2, chi_next), (5, 2, 2, 5), (chi, 2, chi_next)]
        return [rng.standard_normal(s) for s in shapes]

    small = operands(4, 4)
    steps, report = tf.einsum_path(eq, *[rt.upload(x) for x in small], optimize="auto")
    assert "plan cache" not in report and "reused" not in report, report
    tensors = [rt.upload(x) for x in small]
    np.testing.assert_allclose(tf.einsum(eq, *tensors).download(), np.einsum(eq, *small),
                               rtol=1e-10, atol=1e-11)
    _, report = tf.einsum_path(eq, *tensors, optimize="auto")
    assert "Plan:  the runtime's plan cache" in report, report
    large = operands(6, 9)
    large_steps, report = tf.einsum_path(eq, *[rt.upload(x) for x in large], optimize="auto")
    assert "Steps:  reused from the plan for shapes [4, 5, 4]" in report, report
    assert large_steps == steps
    np.testing.assert_allclose(tf.einsum(eq, *[rt.upload(x) for x in large]).download(),
                               np.einsum(eq, *large), rtol=1e-10, atol=1e-11)
    # NumPy arrays have no runtime: planned every time, never from a cache.
    _, report = tf.einsum_path(eq, *large, optimize="auto")
    assert "plan cache" not in report and "reused" not in report, report


def test_einsum_path_on_mixed_dtypes_reports_the_plan_einsum_runs(rng):
    # einsum promotes mixed dtypes; einsum_path refused them (an adversarial sweep). Now it
    # plans for the promoted operands, and the call after it runs from that plan.
    rt = tf.Runtime.cpu()
    a, b, c = (rng.standard_normal((3, 4)).astype(np.float32), rng.standard_normal((4, 5)),
               rng.standard_normal((5, 2)).astype(np.complex64))
    tensors = [rt.upload(x) for x in (a, b, c)]
    steps, _ = tf.einsum_path("ij,jk,kl->il", *tensors, optimize="greedy")
    assert steps[0] == "einsum_path" and len(steps) == 3
    got = tf.einsum("ij,jk,kl->il", *tensors, optimize="greedy")
    assert got.dtype == np.complex128
    np.testing.assert_allclose(got.download(), np.einsum("ij,jk,kl->il", a, b, c), rtol=1e-6)
    _, report = tf.einsum_path("ij,jk,kl->il", *tensors, optimize="greedy")
    assert "Plan:  the runtime's plan cache" in report, report


def test_a_planner_left_registered_at_exit_leaks_nothing():
    # The registry held the Python function (and its module's tensors) past the interpreter's
    # end; nanobind printed "leaked N instances". An atexit hook now drops it.
    import os
    import subprocess
    import sys

    script = ("import numpy as np, tenferro as tf\n"
              "rt = tf.Runtime.cpu(); a = rt.upload(np.ones((2, 2)))\n"
              "tf.register_path_planner('left_at_exit', lambda i, o, s, m=None: [(0, 1)])\n"
              "tf.einsum('ij,jk->ik', a, a, optimize='left_at_exit')\n")
    done = subprocess.run([sys.executable, "-c", script], env=dict(os.environ),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "leaked" not in done.stderr, done.stderr


def test_a_planner_that_plans_with_itself_forever_is_a_recursion_error(rt, register_planner):
    # Each nested planning level costs C++ stack Python's recursion limit does not count: the
    # process segfaulted at about 780 levels. A bound of its own raises RecursionError.
    a = rt.upload(np.ones((2, 2)))

    def forever(inputs, output, sizes, memory_limit=None):
        tf.einsum_path("ij,jk,kl->il", a, a, a, optimize="forever")
        return [(0, 1), (0, 1)]

    register_planner("forever", forever)
    with pytest.raises(RecursionError):
        tf.einsum("ij,jk,kl->il", a, a, a, optimize="forever")
    # A bounded re-entry still works, and the runtime is usable.
    np.testing.assert_allclose(tf.einsum("ij,jk->ik", a, a).download(), 2 * np.ones((2, 2)))
