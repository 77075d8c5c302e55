"""DLPack >= 1.0 both ways: zero copy on the CPU (same pointer, mutations visible on both
sides, producer kept alive), typed placement errors for device mismatches."""

import gc
import sys
import weakref

import numpy as np
import pytest

import tenferro as tf


def ptr(a):
    return a.__array_interface__["data"][0]


def test_numpy_to_tenferro_is_zero_copy_and_shares_writes(rt):
    x = np.arange(12.0).reshape(3, 4)
    uploads = rt.stats()["uploads"]
    t = tf.from_dlpack(x, runtime=rt)
    assert rt.stats()["uploads"] == uploads  # no copy, no transfer
    assert ptr(np.asarray(t)) == ptr(x)
    x[1, 2] = -7.0
    assert t[1, 2].item() == -7.0
    np.testing.assert_array_equal(tf.einsum("ij->ji", t).download(), x.T)


def test_tenferro_to_numpy_is_zero_copy_and_shares_writes(rt):
    t = rt.upload(np.zeros((2, 3)))
    y = np.from_dlpack(t)
    z = np.asarray(t)  # __array__
    assert ptr(y) == ptr(z)
    y[0, 1] = 5.0
    assert t[0, 1].item() == 5.0 and z[0, 1] == 5.0


def test_strided_numpy_views_are_shared_without_copy(rt):
    base = np.arange(30.0).reshape(5, 6)
    view = base[1:4, ::2]  # C-order strides, an offset and a step
    t = tf.from_dlpack(view, runtime=rt)
    assert t.shape == view.shape
    base[2, 2] = 100.0
    np.testing.assert_array_equal(t.download(), view)
    np.testing.assert_array_equal((t * 2.0).download(), view * 2.0)


def test_producer_stays_alive_while_tenferro_holds_it(rt):
    class Owner(np.ndarray):
        pass

    x = np.arange(1000.0).view(Owner)
    alive = weakref.ref(x)
    t = tf.from_dlpack(x, runtime=rt)
    del x
    gc.collect()
    assert alive() is not None  # the tensor keeps the producer alive
    np.testing.assert_array_equal(t.download(), np.arange(1000.0))
    del t
    gc.collect()
    assert alive() is None  # and releases it with the last tensor


def test_exported_memory_outlives_the_tensor(rt):
    t = rt.upload(np.arange(6.0))
    y = np.from_dlpack(t)
    del t
    gc.collect()
    np.testing.assert_array_equal(y, np.arange(6.0))


def test_versioned_protocol_and_device(rt):
    t = rt.upload(np.ones(3, dtype=np.complex64))
    assert t.__dlpack_device__() == (1, 0)
    cap = t.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(cap)
    assert "dltensor" in repr(t.__dlpack__())


def test_copy_true_makes_a_copy(rt):
    x = np.arange(4.0)
    t = tf.from_dlpack(x, runtime=rt, copy=True)
    x[0] = 9.0
    assert t[0].item() == 0.0
    y = np.from_dlpack(t, copy=True) if np.lib.NumpyVersion(np.__version__) >= "2.1.0" else None
    if y is not None:
        y[1] = 5.0
        assert t[1].item() == 1.0


def test_read_only_or_negative_strides_copy_only_when_allowed(rt):
    x = np.arange(5.0)[::-1]
    with pytest.raises(tf.UnsupportedError):
        tf.from_dlpack(x, runtime=rt, copy=False)
    np.testing.assert_array_equal(tf.from_dlpack(x, runtime=rt).download(), x)


def test_device_mismatch_is_a_typed_placement_error(gpu_rt, rt):
    g = gpu_rt.upload(np.ones(4, dtype=np.float32))
    assert g.__dlpack_device__()[0] == 15  # kDLWebGPU
    with pytest.raises(tf.HostAccessError, match="download"):
        np.asarray(g)  # __array__ never downloads
    with pytest.raises(tf.HostAccessError):
        g[0].item()  # nor do item() and float()
    downloads = gpu_rt.stats()["downloads"]
    np.testing.assert_array_equal(g.download(), np.ones(4))  # the explicit way, counted
    assert gpu_rt.stats()["downloads"] == downloads + 1
    with pytest.raises(tf.PlacementError) as info:
        g.__dlpack__(dl_device=(1, 0))
    assert "webgpu:0" in str(info.value) and "cpu:0" in str(info.value)
    with pytest.raises(tf.PlacementError, match="upload") as info:
        tf.from_dlpack(np.ones(3, dtype=np.float32), runtime=gpu_rt)
    assert info.value.kind == "NoInputIngress" and "webgpu:0" in str(info.value)
    # copy=True is the explicit transfer.
    uploads = gpu_rt.stats()["uploads"]
    t = tf.from_dlpack(np.ones(3, dtype=np.float32), runtime=gpu_rt, copy=True)
    assert gpu_rt.stats()["uploads"] == uploads + 1
    np.testing.assert_array_equal(t.download(), np.ones(3))


@pytest.mark.parametrize("x", [np.zeros((0, 3)), np.array(3.0), np.zeros((2, 0, 4), np.complex64)],
                         ids=["empty", "0-d", "empty-complex"])
def test_empty_and_0d_arrays_cross_both_ways(rt, x):
    t = tf.from_dlpack(x, runtime=rt)
    assert t.shape == x.shape and t.dtype == x.dtype
    np.testing.assert_array_equal(np.from_dlpack(t), x)
    np.testing.assert_array_equal(t.sum().download(), x.sum())


def test_tensors_of_one_cpu_runtime_share_memory_with_another(rt):
    other = tf.Runtime.cpu()
    t = rt.upload(np.arange(4.0))
    u = tf.from_dlpack(t, runtime=other)  # host memory: adopted, no copy
    assert u.runtime == other
    assert ptr(np.asarray(u)) == ptr(np.asarray(t))


def test_a_tensor_imported_from_a_tensor_holds_its_storage_not_its_python_object(rt):
    # The import shares the tensor's storage directly: through a DLPack round trip the new
    # tensor held x's Python object, which both outlived the interpreter's last collection
    # when they lived to exit (nanobind reported them leaked; an adversarial sweep found it).
    x = rt.upload(np.arange(6.0).reshape(2, 3))
    references = sys.getrefcount(x)
    views = [tf.from_dlpack(x, runtime=rt), tf.from_dlpack(x.T, runtime=tf.Runtime.cpu())]
    assert sys.getrefcount(x) == references  # nothing of the imports holds the Python object
    np.asarray(views[0])[0, 1] = 42.0  # one storage: the write shows through x and the others
    assert np.asarray(x)[0, 1] == 42.0 and np.asarray(views[1])[1, 0] == 42.0
    del x
    gc.collect()
    np.testing.assert_array_equal(views[0].download(), [[0.0, 42.0, 2.0], [3.0, 4.0, 5.0]])
    np.testing.assert_array_equal(views[1].download(), [[0.0, 3.0], [42.0, 4.0], [2.0, 5.0]])
