import os

import numpy as np
import pytest

import tenferro as tf


def test_hierarchy_matches_the_builtins():
    assert issubclass(tf.ValidationError, (tf.Error, ValueError))
    assert issubclass(tf.UnsupportedError, NotImplementedError)
    assert issubclass(tf.NumericalError, ArithmeticError)
    assert issubclass(tf.LinAlgError, np.linalg.LinAlgError)
    assert issubclass(tf.ContextMismatchError, ValueError)
    assert issubclass(tf.PlacementError, ValueError)


def test_errors_carry_kind_phase_op_message(rt):
    a = rt.upload(np.ones((2, 3)))
    with pytest.raises(tf.ValidationError) as info:
        tf.einsum("ij,jk->ik", a, a)
    e = info.value
    assert e.kind == "Validation" and e.phase == "input" and e.op
    assert e.message and e.message in str(e)


def test_messages_name_dtypes_as_numpy_does(rt):
    # The C++ names are F32/F64/C32/C64, and C64 is complex128, not NumPy's complex64.
    z = rt.upload(np.ones(2, np.complex128))
    with pytest.raises(tf.ValidationError) as info:
        tf.maximum(z, z)
    assert "complex128" in str(info.value) and "C64" not in str(info.value)
    assert "complex128" in info.value.message
    with pytest.raises(tf.ValidationError) as info:
        tf.maximum(rt.upload(np.ones(2, np.complex64)), rt.upload(np.ones(2, np.complex64)))
    assert "complex64" in str(info.value) and "C32" not in str(info.value)


def test_operands_of_two_runtimes_are_a_context_mismatch(rt):
    other = tf.Runtime.cpu()
    with pytest.raises(tf.ContextMismatchError) as info:
        tf.einsum("ij,jk->ik", rt.upload(np.eye(2)), other.upload(np.eye(2)))
    assert info.value.kind == "ContextMismatch"


def test_singular_matrix_raises_linalg_error(rt):
    with pytest.raises(np.linalg.LinAlgError) as info:
        tf.linalg.inv(rt.upload(np.zeros((3, 3))))
    assert isinstance(info.value, tf.NumericalError) and info.value.kind == "Numerical"
    with pytest.raises(tf.LinAlgError):
        tf.linalg.cholesky(rt.upload(-np.eye(2)))


def test_unsupported_dtype_is_a_validation_error(rt):
    with pytest.raises(tf.ValidationError):
        tf.zeros((2,), dtype="int32", runtime=rt)


def test_absent_backends_are_typed_errors():
    # No CUDA on this machine or in this build: a typed error, not a crash or a CPU stand-in.
    if os.environ.get("TENFERRO_REQUIRE_CUDA") == "1":
        pytest.skip("this machine must have CUDA (TENFERRO_REQUIRE_CUDA=1), so the absent-backend "
                    "error cannot happen here; test_cuda.py runs the backend that is present")
    with pytest.raises((tf.UnsupportedError, tf.BackendError)) as info:
        tf.Runtime.cuda(0)
    assert info.value.kind in ("Unsupported", "Backend")


def test_contract_findings_of_a_spec_review(rt, gpu_rt):
    # A review against DESIGN's contract found these; each was a wrong kind or a flattened cause.
    d = gpu_rt.upload(np.ones(4, np.float32))
    # Device memory as the source of an upload or an import: HostAccess, saying what to call
    # (was a ValidationError: "not array-like data" / "supports neither __dlpack__ nor ...").
    for call in (lambda: rt.upload(d), lambda: tf.from_dlpack(d, runtime=rt),
                 lambda: tf.from_dlpack(d, runtime=rt, copy=True)):
        with pytest.raises(tf.HostAccessError, match=r"download\(\)"):
            call()
    # asarray with another runtime than the tensor's: refused, not the tensor returned as is.
    with pytest.raises(tf.ContextMismatchError, match="move it explicitly"):
        tf.asarray(d, runtime=rt)
    with pytest.raises(tf.HostAccessError, match=r"download\(\)"):  # inside a list too
        rt.upload([d, d])
    assert tf.asarray(d, runtime=gpu_rt) is d
    # A Python bool of device values needs the host: the typed error, no transfer.
    before = gpu_rt.stats()["downloads"]
    with pytest.raises(tf.HostAccessError):
        tf.allclose(d, d)
    assert gpu_rt.stats()["downloads"] == before
    # An allocation the device cannot make is a ResourceError (a MemoryError) naming the op.
    with pytest.raises(MemoryError) as e:
        tf.zeros((2 ** 40,), tf.float32, runtime=gpu_rt)
    assert isinstance(e.value, tf.ResourceError) and e.value.op == "full"
    # A NumPy float64 scalar on a float32-only device: says why (NEP 50), not just "full".
    with pytest.raises(tf.UnsupportedError, match="NumPy int64 scalar makes the result float64"):
        d * np.int64(2)
    # grad's argument of another runtime is named by its own index (was "argument 0").
    with pytest.raises(tf.ContextMismatchError, match="argument 1 lives in runtime"):
        tf.grad(lambda x, y: x.sum(), argnums=(0, 1))(d, rt.upload(np.ones(4)))
    with pytest.raises(tf.ContextMismatchError, match="argument 2 lives in runtime"):
        tf.grad(lambda x, y, z: x.sum(), argnums=(0, 2))(d, d, rt.upload(np.ones(4)))
