import os

import numpy as np
import pytest

import tenferro as tf


@pytest.fixture
def rt():
    return tf.Runtime.cpu()


def device_runtime(make, name, require_variable):
    """make(), or a skip naming why there is no such runtime here; with require_variable=1 in
    the environment, the missing runtime is a failure instead."""
    try:
        return make()
    except (tf.UnsupportedError, tf.BackendError) as e:
        if os.environ.get(require_variable) == "1":
            raise
        pytest.skip(f"no {name} runtime here: {e}")


@pytest.fixture
def gpu_rt():
    """A WebGPU runtime (TENFERRO_REQUIRE_WEBGPU=1: scripts/test-env.sh sets it when
    wgpu-native is installed)."""
    return device_runtime(tf.Runtime.webgpu, "WebGPU", "TENFERRO_REQUIRE_WEBGPU")


@pytest.fixture
def cuda_rt():
    """A CUDA runtime (TENFERRO_REQUIRE_CUDA=1: scripts/gpu-check.sh sets it on the GPU
    machine)."""
    return device_runtime(lambda: tf.Runtime.cuda(0), "CUDA", "TENFERRO_REQUIRE_CUDA")


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def crandn(rng, *shape, dtype=np.float64):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@pytest.fixture
def register_planner():
    """Registers path planners for one test and removes them afterwards."""
    names = []

    def register(name, fn):
        tf.register_path_planner(name, fn)
        names.append(name)

    yield register
    for name in names:
        tf.unregister_path_planner(name)
