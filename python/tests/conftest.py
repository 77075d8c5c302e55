import os

import numpy as np
import pytest

import tenferro as tf


@pytest.fixture
def rt():
    return tf.Runtime.cpu()


@pytest.fixture
def gpu_rt():
    """A WebGPU runtime; skipped (with the reason) where the build or machine has none.
    TENFERRO_REQUIRE_WEBGPU=1 (scripts/test-env.sh sets it when wgpu-native is installed)
    turns a missing WebGPU runtime into a failure instead of a skip."""
    try:
        return tf.Runtime.webgpu()
    except (tf.UnsupportedError, tf.BackendError) as e:
        if os.environ.get("TENFERRO_REQUIRE_WEBGPU") == "1":
            raise
        pytest.skip(f"no WebGPU runtime here: {e}")


@pytest.fixture
def cuda_rt():
    """A CUDA runtime; skipped (with the reason) where the build or machine has none.
    TENFERRO_REQUIRE_CUDA=1 (scripts/gpu-check.sh sets it on the GPU machine) turns a missing
    CUDA runtime into a failure instead of a skip."""
    try:
        return tf.Runtime.cuda(0)
    except (tf.UnsupportedError, tf.BackendError) as e:
        if os.environ.get("TENFERRO_REQUIRE_CUDA") == "1":
            raise
        pytest.skip(f"no CUDA runtime here: {e}")


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
