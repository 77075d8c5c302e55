"""The Python surface under hostile input (issue #30): every case gives NumPy's answer or a
typed tenferro error, never a crash, a hang, a silently wrong number or an untyped
exception. Cases that crashed the interpreter before run in a subprocess (adversarial.py)."""

import sys
import threading

import numpy as np
import pytest

import tenferro as tf
from adversarial import assert_raises_isolated, run_isolated, value_of


@pytest.fixture
def a(rt):
    return rt.upload(np.arange(6.0).reshape(2, 3))


def raises(error, fn, also=()):
    """fn() raises exactly tenferro's `error`, which is a tf.Error and each class in `also`."""
    with pytest.raises(tf.Error) as info:
        fn()
    assert type(info.value) is error, f"{type(info.value).__name__}: {info.value}"
    for cls in also:
        assert isinstance(info.value, cls)
    assert info.value.op and info.value.message  # the fields every tenferro error carries
    return info.value


# --- crashes before: each in its own interpreter ---------------------------------------------
CRASHERS = {
    "integer array index": ("result = rt.upload(np.arange(6.0))[np.array([0, 1])]",
                            "UnsupportedError"),
    "boolean array index": ("result = rt.upload(np.arange(2.0))[np.array([True, False])]",
                            "UnsupportedError"),
    "list index": ("result = rt.upload(np.arange(2.0))[[0, 1]]", "UnsupportedError"),
    "0-d float array index": ("result = rt.upload(np.arange(2.0))[np.array(1.0)]",
                              "IndexingError"),
    "tensor index": ("x = rt.upload(np.arange(2.0)); result = x[x]", "UnsupportedError"),
    "traced array index": ("x = rt.upload(np.arange(3.0))\n"
                           "result = tf.grad(lambda t: t[np.array([0, 1])].sum())(x)",
                           "UnsupportedError"),
    "from_dlpack copy=False misaligned": (
        "v = np.zeros(81, np.uint8)[1:81].view(np.float64)\n"
        "result = tf.from_dlpack(v, runtime=rt, copy=False)", "UnsupportedError"),
    "from_dlpack copy=False byte-swapped": (
        "result = tf.from_dlpack(np.arange(3.0).astype('>f8'), runtime=rt, copy=False)",
        "UnsupportedError"),
    "upload longdouble": ("result = rt.upload(np.zeros(3, np.longdouble))", "ValidationError"),
    "upload float16": ("result = rt.upload(np.zeros(3, np.float16))", "ValidationError"),
    "upload object array": ("result = rt.upload(np.array([object()]))", "ValidationError"),
    "upload ragged list": ("result = rt.upload([[1.0], [1.0, 2.0]])", "ValidationError"),
    "upload strings": ("result = rt.upload(np.array(['a']))", "ValidationError"),
    "rank 65 download": ("result = rt.upload(np.ones(1)).reshape((1,) * 65).download()",
                         "ValidationError"),
    "rank 65 __array__": ("result = np.asarray(rt.upload(np.ones(1)).reshape((1,) * 65))",
                          "ValidationError"),
    "rank 65 __dlpack__": ("result = np.from_dlpack(rt.upload(np.ones(1)).reshape((1,) * 65))",
                           "ValidationError"),
    # The extents' sum wrapped to 5: a 40-byte output, then the copies wrote past it.
    "concatenate past 2**63": (
        "x = tf.broadcast_to(tf.ones(1, runtime=rt), (2**59,))\n"
        "y = tf.broadcast_to(tf.ones(1, runtime=rt), (2**59 + 5,))\n"
        "result = tf.concatenate([x] * 31 + [y])", "ValidationError"),
}


@pytest.mark.parametrize("name", sorted(CRASHERS))
def test_former_crashes_are_typed_errors(name):
    snippet, error = CRASHERS[name]
    assert_raises_isolated(snippet, error)


# A Tensor instance that holds no tensor: made by Tensor.__new__ alone, or by a subclass whose
# __init__ never initialised it. As an operand it is refused (nanobind's TypeError or a typed
# tenferro error), never read: the operators' fast paths once took it for a tensor and crashed.
UNINITIALISED = {
    "Tensor.__new__": "s = tf.Tensor.__new__(tf.Tensor)",
    "subclass without init": "class Sub(tf.Tensor):\n    def __init__(self):\n        pass\ns = Sub()",
}
UNINITIALISED_USES = {
    "x + s": "result = x + s",
    "s + x": "result = s + x",
    "x * s": "result = x * s",
    "concatenate": "result = tf.concatenate([x, s])",
    "maximum": "result = tf.maximum(x, s)",
    "exp": "result = tf.exp(s)",
    "einsum": "result = tf.einsum('i,i->', x, s)",
    "where": "result = tf.where(x > 1, x, s)",
    "stack": "result = tf.stack([x, s])",
}


@pytest.mark.parametrize("made", sorted(UNINITIALISED))
@pytest.mark.parametrize("use", sorted(UNINITIALISED_USES))
def test_an_uninitialised_tensor_is_refused(made, use):
    snippet = "x = rt.upload(np.arange(6.0))\n" + UNINITIALISED[made] + "\n" + UNINITIALISED_USES[use]
    out = run_isolated(snippet)
    assert "raised" in out, f"no error from {use} on an uninitialised Tensor: {out}"
    assert out["raised"] in ("TypeError", "NoInputIngressError", "ValidationError"), out


# Odd but legal memory: copied (copy=None), values exactly NumPy's.
ODD_ARRAYS = {
    "misaligned float64 view": "np.arange(81, dtype=np.uint8)[1:81].view(np.float64)",
    "complex128 on an 8-byte boundary": "np.arange(34, dtype=np.float64)[1:33].view(np.complex128)",
    "misaligned complex64 view": "np.arange(33, dtype=np.uint8)[1:33].view(np.complex64)",
    "big-endian float64": "np.arange(5.0).astype('>f8')",
    "big-endian complex64": "(np.arange(4.0) + 1j).astype('>c8')",
    "structured field": "np.array([(i, 2.0 * i) for i in range(4)], "
                        "dtype=[('x', 'f8'), ('y', 'f4')])['y']",
    "negative strides": "np.arange(6.0)[::-2]",
    "zero-size misaligned": "np.zeros(9, np.uint8)[1:1].view(np.float64)",
}


@pytest.mark.parametrize("name", sorted(ODD_ARRAYS))
@pytest.mark.parametrize("entry", ["upload", "from_dlpack"])
def test_odd_memory_is_copied_exactly(name, entry):
    make = ODD_ARRAYS[name]
    call = "rt.upload(src)" if entry == "upload" else "tf.from_dlpack(src, runtime=rt)"
    out = run_isolated(f"src = {make}\nresult = {call}")
    assert "value" in out, out
    expected = np.asarray(eval(make, {"np": np}))
    got = value_of(out)
    assert got.dtype == expected.dtype.newbyteorder("=")
    np.testing.assert_array_equal(got, expected)


# --- argument conversion: typed errors instead of std::bad_cast ------------------------------
def test_bad_shapes_and_axes_are_validation_errors(rt, a):
    # An argument that is no integer where one is due is also a TypeError, as NumPy raises
    # (`except TypeError` missed `a.sum(axis=1.0)`: an adversarial sweep found it); an integer
    # beyond 64 bits stays a ValidationError (a value out of range).
    not_an_integer = (tf.ValidationError, TypeError)
    raises(tf.ValidationError, lambda: a.reshape(2**63))
    raises(tf.ValidationError, lambda: a.reshape(-(2**64)))
    raises(tf.ArgumentTypeError, lambda: tf.zeros(("a",), runtime=rt), also=not_an_integer)
    raises(tf.ArgumentTypeError, lambda: tf.zeros((2.5,), runtime=rt), also=not_an_integer)
    raises(tf.ArgumentTypeError, lambda: tf.zeros("ab", runtime=rt), also=not_an_integer)
    raises(tf.ArgumentTypeError, lambda: tf.zeros(object(), runtime=rt), also=not_an_integer)
    raises(tf.ArgumentTypeError, lambda: a.transpose("ab"), also=not_an_integer)
    raises(tf.ValidationError, lambda: a.transpose(0))
    raises(tf.ValidationError, lambda: a.sum(axis=(0, 0)))
    raises(tf.ArgumentTypeError, lambda: a.sum(axis=1.0), also=not_an_integer)
    raises(tf.ArgumentTypeError, lambda: tf.eye("a", runtime=rt), also=not_an_integer)
    raises(tf.ValidationError, lambda: tf.arange("a", runtime=rt))
    raises(tf.ValidationError, lambda: tf.zeros((2,), dtype="not a dtype", runtime=rt))
    raises(tf.ValidationError, lambda: a.astype(np.int32))


def test_numpy_integers_are_accepted_where_numpy_accepts_them(rt, a):
    assert a.reshape(np.array([3, 2])).shape == (3, 2)
    assert a.reshape(np.int64(3), np.int32(2)).shape == (3, 2)
    assert a.reshape(np.array(6)).shape == (6,)
    np.testing.assert_allclose(a.sum(axis=np.array([0, 1])).item(), 15.0)
    np.testing.assert_allclose(a.sum(axis=np.int8(-1)).download(), [3.0, 12.0])
    assert tf.zeros(np.array([2, 3]), runtime=rt).shape == (2, 3)
    assert tf.eye(np.int64(3), k=np.int64(1), runtime=rt).shape == (3, 3)
    assert a.transpose(np.array([1, 0])).shape == (3, 2)
    assert a.transpose(-1, 0).shape == (3, 2)
    assert tf.concatenate([a, a], np.int64(1)).shape == (2, 6)
    np.testing.assert_array_equal(a[np.int64(1)].download(), [3.0, 4.0, 5.0])
    np.testing.assert_array_equal(a[np.array(-1)].download(), [3.0, 4.0, 5.0])


def test_axes_out_of_range_are_axis_errors(rt, a):
    x = rt.upload(np.ones((2, 1)))
    cases = [
        lambda: tf.moveaxis(a, 0, 5),
        lambda: tf.moveaxis(a, 3, 0),
        lambda: tf.expand_dims(a, 5),
        lambda: tf.expand_dims(a, -4),
        lambda: tf.squeeze(x, 4),
        lambda: tf.swapaxes(a, 0, 5),
        lambda: tf.tensordot(a, a, ([7], [0])),
        lambda: a.sum(axis=2),
        lambda: a.max(axis=-3),
        lambda: a.transpose(0, 2),
        lambda: tf.linalg.norm(a, axis=3),
        lambda: tf.fft.fftn(a.astype(np.complex128), axes=(0, 4)),
    ]
    for case in cases:
        e = raises(tf.AxisError, case, also=(np.exceptions.AxisError, IndexError, ValueError,
                                               tf.ValidationError))
        assert "out of bounds" in str(e)
    # NumPy's in-range negative axes keep working.
    assert tf.moveaxis(a, -1, 0).shape == (3, 2)
    assert tf.expand_dims(a, -1).shape == (2, 3, 1)
    assert tf.squeeze(x, -1).shape == (2,)
    assert tf.swapaxes(a, -1, -2).shape == (3, 2)
    raises(tf.ValidationError, lambda: tf.squeeze(a, 0))  # extent 2 cannot be squeezed


def test_basic_indexing_edges(rt, a):
    e = raises(tf.IndexingError, lambda: a[2**70], also=(IndexError,))
    assert "out of bounds" in str(e)
    raises(tf.IndexingError, lambda: a[2], also=(IndexError,))
    raises(tf.IndexingError, lambda: a[0, 0, 0], also=(IndexError,))
    raises(tf.IndexingError, lambda: a[..., ...], also=(IndexError,))
    raises(tf.IndexingError, lambda: a[1.0], also=(IndexError,))
    raises(tf.IndexingError, lambda: a["x"], also=(IndexError,))
    raises(tf.ValidationError, lambda: a[::0])
    raises(tf.UnsupportedError, lambda: a[True])
    raises(tf.UnsupportedError, lambda: a[np.True_])
    raises(tf.UnsupportedError, lambda: a[::-1])
    ref = np.arange(6.0).reshape(2, 3)
    for key in [None, (None, 1), (1, None), (..., None), (slice(None), None, 2), (0, ...)]:
        np.testing.assert_array_equal(a[key].download(), ref[key])
    assert list(iter(a))[1].shape == (3,)


def test_scalar_conversions_follow_python(rt):
    def scalar(v):
        return rt.upload(np.array(v))

    raises(tf.ValidationError, lambda: int(scalar(np.nan)), also=(ValueError,))
    raises(tf.NumericalError, lambda: int(scalar(np.inf)), also=(ArithmeticError,))
    raises(tf.NumericalError, lambda: int(scalar(-np.inf)), also=(ArithmeticError,))
    assert int(scalar(1e300)) == int(1e300)  # exact, as Python's int(float)
    assert int(scalar(-2.9)) == -2
    assert int(scalar(np.float32(7.9))) == 7
    raises(tf.ValidationError, lambda: int(scalar(1 + 2j)))
    raises(tf.ValidationError, lambda: float(scalar(1 + 2j)))
    assert complex(scalar(1 + 2j)) == 1 + 2j
    assert float(scalar(2.5)) == 2.5
    assert bool(scalar(np.nan)) is True and bool(scalar(0.0)) is False
    assert bool(scalar(1j)) is True
    raises(tf.ValidationError, lambda: float(rt.upload(np.ones(2))))


def test_dlpack_keywords_are_validated(a):
    raises(tf.ValidationError, lambda: a.__dlpack__(stream=2**70))
    raises(tf.ValidationError, lambda: a.__dlpack__(stream=1))
    raises(tf.ValidationError, lambda: a.__dlpack__(stream="x"))
    raises(tf.ValidationError, lambda: a.__dlpack__(dl_device="x"))
    raises(tf.ValidationError, lambda: a.__dlpack__(dl_device=(1, 2**70)))
    raises(tf.NoInputIngressError, lambda: a.__dlpack__(dl_device=(2, 0)))
    assert a.__dlpack__(stream=-1) is not None


# --- the pure-Python layer raises tenferro errors ---------------------------------------------
def test_namespace_functions_give_numpy_answers_or_typed_errors(rt, a):
    x = rt.upload(np.array([1.0, -2.0, np.inf]))
    for k in range(-3, 4):
        np.testing.assert_array_equal(tf.diag(x, k=k).download(), np.diag(x.download(), k=k))
    np.testing.assert_array_equal(tf.diag(a, k=1).download(), np.diag(a.download(), k=1))
    raises(tf.ValidationError, lambda: tf.diag(rt.upload(np.ones((2, 2, 2)))))
    raises(tf.UnsupportedError, lambda: tf.reshape(a, (3, 2), order="F"))
    y = rt.upload(np.array([2.0, 3.0]))
    np.testing.assert_array_equal(tf.kron(x, y).download(), np.kron(x.download(), y.download()))
    np.testing.assert_array_equal(tf.kron(a, y).download(), np.kron(a.download(), y.download()))
    raises(tf.ValidationError, lambda: tf.tensordot(a, a, ([0, 1], [0])))
    raises(tf.UnsupportedError, lambda: tf.linalg.svd(a, hermitian=True))


@pytest.mark.parametrize("ord", [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
def test_matrix_norms_match_numpy(rt, rng, ord):
    m = rng.standard_normal((3, 4, 5))
    x = rt.upload(m)
    for axis in [(1, 2), (2, 0)]:
        for keepdims in [False, True]:
            np.testing.assert_allclose(
                tf.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims).download(),
                np.linalg.norm(m, ord=ord, axis=axis, keepdims=keepdims), rtol=1e-12)
    np.testing.assert_allclose(tf.linalg.norm(x[0], ord=ord).item(),
                               np.linalg.norm(m[0], ord=ord), rtol=1e-12)


@pytest.mark.parametrize("ord", [None, 0, 1, 2, 3.5, -1, np.inf, -np.inf])
def test_vector_norms_match_numpy(rt, ord):
    v = np.array([[3.0, 0.0, -4.0, 0.5], [1e-3, -2.0, 0.0, 7.0]])
    got = tf.linalg.norm(rt.upload(v), ord=ord, axis=-1).download()
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(got, np.linalg.norm(v, ord=ord, axis=-1), rtol=1e-12)
    raises(tf.ValidationError, lambda: tf.linalg.norm(rt.upload(v[0]), ord="fro"))
    raises(tf.ValidationError, lambda: tf.linalg.norm(rt.upload(v), ord="bad"))


@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (0, 0), (1, 0), (2, 0, 3), (2, 3, 0)])
@pytest.mark.parametrize("ord", [np.inf, -np.inf, 1, -1, 2, -2, "nuc"])
def test_norms_of_empty_inputs_match_numpy(rt, shape, ord):
    # NumPy's max-based norms (vector inf, matrix 1/inf/2) are 0 over an empty axis (its
    # initial=0); they raised "max over zero elements". Its min-based ones raise over an empty
    # axis even when the result is empty (there tenferro returned an empty tensor).
    a = np.zeros(shape)
    nd = len(shape)
    axes = [None] if nd in (1, 2) else []
    axes += list(range(-nd, nd)) + [(i, j) for i in range(nd) for j in range(nd) if i != j]
    for axis in axes:
        if isinstance(ord, str) and not isinstance(axis, tuple) and not (axis is None and nd == 2):
            continue  # 'nuc' is a matrix norm
        for keepdims in [False, True]:
            try:
                with np.errstate(divide="ignore"):  # ord=-1 of an empty vector: 0 ** -1
                    want = np.linalg.norm(a, ord=ord, axis=axis, keepdims=keepdims)
            except ValueError:
                raises(tf.ValidationError,
                       lambda: tf.linalg.norm(rt.upload(a), ord=ord, axis=axis, keepdims=keepdims))
                continue
            got = tf.linalg.norm(rt.upload(a), ord=ord, axis=axis, keepdims=keepdims).download()
            assert got.shape == np.shape(want), (axis, keepdims)
            np.testing.assert_array_equal(got, want, err_msg=f"{axis} {keepdims}")


# --- automatic differentiation ----------------------------------------------------------------
def test_repeated_argnums_give_each_gradient(rt):
    x = rt.upload(np.array([1.0, 2.0, 3.0]))
    w = rt.upload(np.array([0.5, -1.0, 2.0]))
    f = lambda u, v: (u * u * v).sum()  # noqa: E731
    gu, gv, gu2 = tf.grad(f, argnums=(0, 1, 0))(x, w)
    np.testing.assert_allclose(gu.download(), 2 * x.download() * w.download())
    np.testing.assert_allclose(gu2.download(), gu.download())
    np.testing.assert_allclose(gv.download(), x.download() ** 2)
    # The same tensor passed twice: two arguments, each with its own gradient.
    g0, g1 = tf.grad(f, argnums=(0, 1))(x, x)
    np.testing.assert_allclose(g0.download(), 2 * x.download() ** 2)
    np.testing.assert_allclose(g1.download(), x.download() ** 2)


def test_bad_argnums_and_primals_are_validation_errors(rt):
    x = rt.upload(np.ones(3))
    f = lambda u: (u * u).sum()  # noqa: E731
    raises(tf.ValidationError, lambda: tf.grad(f, argnums=5)(x))
    raises(tf.ValidationError, lambda: tf.grad(f, argnums=-2)(x))
    raises(tf.ValidationError, lambda: tf.grad(f, argnums="x")(x))
    raises(tf.ValidationError, lambda: tf.grad(f, argnums=())(x))
    raises(tf.ValidationError, lambda: tf.grad(f)(np.ones(3)))
    raises(tf.ValidationError, lambda: tf.vjp(f, [1.0]))
    raises(tf.ValidationError, lambda: tf.jvp(f, (x,), (np.ones(3),)))


def test_nested_differentiation_is_refused_typed(rt):
    x = rt.upload(np.array([1.0, 2.0]))
    cube = lambda u: (u * u * u).sum()  # noqa: E731
    raises(tf.UnsupportedError, lambda: tf.grad(lambda u: tf.grad(cube)(u).sum())(x))
    raises(tf.UnsupportedError, lambda: tf.grad(tf.grad(cube))(x))
    raises(tf.UnsupportedError,
           lambda: tf.grad(lambda u: tf.jvp(cube, (u,), (u,))[1])(x))
    raises(tf.UnsupportedError, lambda: tf.jvp(lambda u: tf.grad(cube)(u), (x,), (x,)))
    # A closure over the outer tracer mixes two tapes in one op: refused, not a wrong number.
    raises(tf.UnsupportedError,
           lambda: tf.grad(lambda u: tf.grad(lambda v: (u * v * v).sum())(x).sum())(x))
    # The runtime and tapes stay usable afterwards.
    np.testing.assert_allclose(tf.grad(cube)(x).download(), 3 * x.download() ** 2)


# --- the GIL ----------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda rt, n: tf.zeros((n,), runtime=rt),
    lambda rt, n: tf.ones((n,), runtime=rt),
    lambda rt, n: tf.full((n,), 3.0, runtime=rt),
    lambda rt, n: tf.eye(int(n**0.5), runtime=rt),
], ids=["zeros", "ones", "full", "eye"])
def test_creation_releases_the_gil(rt, make):
    """Another Python thread makes progress while a large fill runs: with the GIL held for
    the whole call it could not run a single bytecode meanwhile."""
    n = 1 << 25  # 256 MiB of float64: tens of milliseconds
    steps = _other_thread_steps_during(lambda: make(rt, n))
    assert _mostly_ran(steps), f"the other thread made {steps} steps during the fills"


@pytest.mark.parametrize("op", [
    lambda x: tf.exp(x),
    lambda x: x + x,
    lambda x: x * 2.0,
    lambda x: -x,
], ids=["exp", "add", "scale", "neg"])
def test_large_elementwise_ops_release_the_gil(rt, op):
    """Element-wise calls keep the GIL only when they are short (at most 2^14 elements in host
    memory); a long one lets other threads run."""
    x = tf.ones((1 << 24,), runtime=rt)
    steps = _other_thread_steps_during(lambda: op(x))
    assert _mostly_ran(steps), f"the other thread made {steps} steps during the calls"


def _mostly_ran(steps):
    """Whether the counting thread ran during at least three of the five calls. A call that
    holds the GIL lets it run only when a forced switch falls into it (about one call in
    twenty, so three of five by chance about once in a thousand); one that releases it can
    still leave it no turn when the machine's cores are busy with the call's own workers and
    other processes (every call was required before, and on a loaded 2-core machine one or two
    of three calls in some runs came out 0)."""
    return sum(1 for s in steps if s > 0) >= 3


def _other_thread_steps_during(call, calls=5):
    """The steps a counting thread makes during each of `calls` calls. The switch interval is
    0.1 s meanwhile, so that a call of a few milliseconds that holds the GIL leaves the counter
    no turn (unless a forced switch falls into it, about one call in twenty), while one that
    releases it lets the waiting counter run at once."""
    progress = [0]
    running = threading.Event()
    stop = threading.Event()

    def count():
        running.set()
        while not stop.is_set():
            progress[0] += 1

    interval = sys.getswitchinterval()
    t = threading.Thread(target=count)
    t.start()
    running.wait()
    sys.setswitchinterval(0.1)
    try:
        steps = []
        for _ in range(calls):
            before = progress[0]
            call()
            steps.append(progress[0] - before)
    finally:
        sys.setswitchinterval(interval)
        stop.set()
        t.join()
    return steps


# --- what held before keeps holding -----------------------------------------------------------
def test_impossible_allocations_leave_the_runtime_usable(rt):
    raises(tf.ResourceError, lambda: tf.zeros((2**36, 2**20), runtime=rt), also=(MemoryError,))
    e = raises(tf.ValidationError, lambda: tf.zeros((2**62, 2**62), runtime=rt))
    assert "overflow" in str(e) or "too large" in str(e) or "elements" in str(e)
    np.testing.assert_array_equal(tf.ones((2,), runtime=rt).download(), [1.0, 1.0])


def test_non_finite_linalg_input_is_a_linalg_error(rt):
    m = np.eye(3)
    m[1, 1] = np.nan
    with pytest.raises(tf.LinAlgError):
        tf.linalg.eigh(rt.upload(m))


def test_copy_and_deepcopy_copy_in_the_runtime_and_pickle_is_a_typed_refusal(rt):
    # quimb's tn.copy(deep=True) deep-copies its arrays: Python's generic TypeError ("cannot
    # pickle 'Tensor' object") stopped it.
    import copy
    import pickle

    x = rt.upload(np.arange(6.0).reshape(2, 3))
    for c in (copy.copy(x), copy.deepcopy(x), copy.deepcopy([x, {"k": x}])[1]["k"]):
        assert c.runtime is rt
        np.testing.assert_array_equal(np.asarray(c), np.arange(6.0).reshape(2, 3))
    d = copy.deepcopy(x)
    np.asarray(d)[0, 0] = 99.0  # a copy: the original keeps its value
    assert float(np.asarray(x)[0, 0]) == 0.0
    with pytest.raises(TypeError, match="download"):  # Python's error for the unpicklable
        pickle.dumps(x)


# --- sizes, steps and options outside their range (an adversarial review, 2026-12-06) --------
def test_concatenate_whose_extents_wrap_to_zero_is_refused(rt):
    x = tf.broadcast_to(tf.ones(1, runtime=rt), (2**59,))
    raises(tf.ValidationError, lambda: tf.concatenate([x] * 32))
    raises(tf.ValidationError, lambda: tf.concatenate([x] * 32, axis=None))


def test_slice_steps_near_the_largest_integer_keep_numpys_length(rt):
    x = rt.upload(np.arange(4.0))
    for key in (slice(0, 4, 2**63 - 1), slice(1, 4, 2**63 - 2), slice(0, 4, 3)):
        got, want = x[key], np.arange(4.0)[key]
        assert got.shape == want.shape, key
        np.testing.assert_array_equal(got.download(), want)
        assert all(0 <= s < 2**63 for s in np.abs(np.array(got.strides, dtype=object))), key


def test_fft_norm_that_is_not_a_string_is_a_validation_error(rt):
    x = rt.upload(np.ones(4))
    for norm in (3, b"ortho", ["ortho"]):
        raises(tf.ValidationError, lambda: tf.fft.fft(x, norm=norm))
        raises(tf.ValidationError, lambda: tf.fft.fftn(x, norm=norm))


def test_zero_copy_import_of_an_oversized_broadcast_is_refused(rt):
    torch = pytest.importorskip("torch")
    huge = torch.ones(1, dtype=torch.float64).expand(2**61)
    raises(tf.ValidationError, lambda: tf.from_dlpack(huge, runtime=rt))


def test_a_bool_is_not_a_reductions_axis(rt):
    # NumPy refuses np.sum(x, axis=True) (a TypeError); its fft axes and diagonal offsets take
    # bools.
    x = rt.upload(np.ones((2, 3)))
    raises(tf.ArgumentTypeError, lambda: tf.sum(x, axis=True), also=(tf.ValidationError, TypeError))
    np.testing.assert_array_equal(tf.sum(x, axis=np.int64(1)).download(), [3.0, 3.0])
    assert tf.fft.fft(x, axis=True).shape == (2, 3)
    assert tf.diagonal(x, True).shape == (2,)


def test_einsum_path_takes_extents_beyond_int32(rt):
    x = tf.broadcast_to(tf.ones(1, runtime=rt), (2**31,))
    path, report = tf.einsum_path("i->", x)  # refused as "out of range" before
    assert path == ["einsum_path", (0,)]
    assert "2.147e+09" in report  # the naive FLOP count: one per element


def test_tensordot_with_a_huge_count_is_an_axis_error_at_once(rt):
    x = rt.upload(np.ones((2, 3)))
    raises(tf.AxisError, lambda: tf.tensordot(x, x, axes=2**62))


# --- host data given to the namespace's functions (a review of the docs' promises) -----------
@pytest.mark.parametrize("call", [
    lambda a: tf.sum(a), lambda a: tf.mean(a, axis=0), lambda a: tf.prod(a), lambda a: tf.max(a),
    lambda a: tf.min(a), lambda a: tf.var(a), lambda a: tf.std(a), lambda a: tf.add(a, a),
    lambda a: tf.subtract(a, 1.0), lambda a: tf.multiply(2.0, a), lambda a: tf.divide(a, a),
    lambda a: tf.power(a, 2), lambda a: tf.negative(a), lambda a: tf.maximum(tf.ones(2), a),
    lambda a: tf.clip(tf.ones(2), a)])
def test_namespace_functions_refuse_host_arrays(call):
    # sum/max passed keepdims into ndarray's dtype/out slot (a plain TypeError); add and
    # negative computed in NumPy and returned an ndarray.
    raises(tf.NoInputIngressError, lambda: call(np.ones(3)))
    raises(tf.NoInputIngressError, lambda: call([1.0, 2.0]))


def test_operators_refuse_lists_as_host_data(a):
    raises(tf.NoInputIngressError, lambda: a + [1.0, 2.0, 3.0])
    raises(tf.NoInputIngressError, lambda: a == [1.0, 2.0, 3.0])


def test_namespace_reductions_take_numpys_dtype_and_out(rt):
    x = rt.upload(np.array([1.0, 2.0, 3.0], np.float32))
    s = tf.sum(x, dtype=np.float64)
    assert s.dtype == np.float64 and float(s) == 6.0
    assert tf.mean(x, 0, np.complex64).dtype == np.complex64  # NumPy's positional order
    raises(tf.UnsupportedError, lambda: tf.sum(x, out=x))
    assert tf.add(1, 2) == 3  # numbers alone stay Python's


def test_upload_of_complex_data_to_a_real_dtype_is_refused(rt):
    # NumPy's cast dropped the imaginary parts with only a ComplexWarning.
    raises(tf.ValidationError, lambda: rt.upload(np.array([1 + 5j]), np.float64))
    raises(tf.ValidationError, lambda: tf.asarray(np.array([1 + 5j]), dtype=np.float32, runtime=rt))
    assert rt.upload(np.array([1 + 5j]), np.complex64).dtype == np.complex64
    assert rt.upload(np.array([1.0]), np.complex128).dtype == np.complex128


def test_mixed_runtimes_in_matmul_name_the_callers_operands(rt):
    other = tf.Runtime.cpu()
    e = raises(tf.ContextMismatchError, lambda: rt.upload(np.eye(2)) @ other.upload(np.eye(2)))
    assert f"argument 1 lives in runtime {other.id}" in e.message, e.message


def test_namespace_arithmetic_takes_numpy_scalars_on_either_side(rt):
    x = rt.upload(np.array([1.0, 2.0], np.float32))
    for got in (tf.multiply(np.float64(2.0), x), tf.add(x, np.float32(1.0)),
                tf.subtract(np.int64(3), x), tf.power(x, np.float64(2.0))):
        assert isinstance(got, tf.Tensor)
    assert tf.multiply(np.float64(2.0), x).dtype == np.float64  # NEP 50, as the operator
    g = tf.grad(lambda t: tf.multiply(np.float64(3.0), t).sum())(rt.upload(np.ones(2)))
    np.testing.assert_array_equal(g.download(), [3.0, 3.0])
