"""tenferro.random: NumPy's Generator names over the runtimes' own Philox kernels. Seeds
replay, calls draw independent keys, values stay in their ranges with the moments of their
distributions (bounds sound for the sample sizes), WebGPU draws the CPU's uniform bits, and bad
arguments are typed errors."""

import threading

import numpy as np
import pytest

import tenferro as tf


def test_a_seed_replays_and_each_call_draws_anew(rt):
    a, b = tf.random.default_rng(7, runtime=rt), tf.random.default_rng(7, runtime=rt)
    first = [a.random(100).download(), a.standard_normal((4, 5)).download()]
    again = [b.random(100).download(), b.standard_normal((4, 5)).download()]
    for x, y in zip(first, again):
        np.testing.assert_array_equal(x, y)
    # The next call of the same generator, and another seed, give other numbers.
    assert not np.array_equal(a.random(100).download(), first[0])
    other = tf.random.default_rng(8, runtime=rt).random(100).download()
    assert np.sum(other == first[0]) <= 1
    # Without a seed: the operating system's entropy, so two generators differ.
    assert not np.array_equal(tf.random.default_rng(runtime=rt).random(50).download(),
                              tf.random.default_rng(runtime=rt).random(50).download())


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_values_have_their_ranges_and_moments(rt, dtype):
    rng = tf.random.default_rng(2026, runtime=rt)
    n = 100_000
    u = rng.uniform(-2.0, 3.0, size=n, dtype=dtype).download()
    z = rng.normal(1.5, 2.0, size=n, dtype=dtype).download()
    assert u.dtype == np.dtype(dtype) and u.shape == (n,) and z.dtype == np.dtype(dtype)
    parts = (lambda a: (a.real, a.imag)) if np.dtype(dtype).kind == "c" else (lambda a: (a,))
    for p in parts(u):
        assert p.min() >= -2.0 and p.max() < 3.0
        # mean 0.5, standard deviation 5 / sqrt(12): the sample mean's error is 0.0046 (1 sigma)
        assert abs(p.mean() - 0.5) < 0.03 and abs(p.std() - 5 / np.sqrt(12)) < 0.03
    if np.dtype(dtype).kind == "c":  # variance 4 split evenly: each part's std is sqrt(2)
        assert abs(z.real.mean() - 1.5) < 0.03 and abs(z.imag.mean()) < 0.03
        assert abs(z.real.std() - np.sqrt(2)) < 0.03 and abs(z.imag.std() - np.sqrt(2)) < 0.03
    else:
        assert abs(z.mean() - 1.5) < 0.04 and abs(z.std() - 2.0) < 0.04


def test_size_none_is_a_zero_d_tensor_and_shapes_follow_numpy(rt):
    rng = tf.random.default_rng(1, runtime=rt)
    assert rng.random().shape == ()
    assert rng.standard_normal(3).shape == (3,)
    assert rng.uniform(size=(2, 3, 4)).shape == (2, 3, 4)
    assert rng.random(dtype=None).dtype == np.float64


def test_webgpu_draws_the_cpus_uniform_bits():
    try:
        gpu = tf.Runtime.webgpu()
    except tf.Error as e:
        pytest.skip(f"no WebGPU runtime here: {e}")
    cpu = tf.Runtime.cpu()
    a, b = tf.random.default_rng(99, runtime=cpu), tf.random.default_rng(99, runtime=gpu)
    for _ in range(3):  # the same keys call after call
        np.testing.assert_array_equal(a.random((30, 7), dtype=np.float32).download(),
                                      b.random((30, 7), dtype=np.float32).download())


def test_threads_sharing_a_generator_draw_distinct_keys(rt):
    rng = tf.random.default_rng(5, runtime=rt)
    draws = []
    lock = threading.Lock()

    def work():
        for _ in range(20):
            x = rng.random(8).download()
            with lock:
                draws.append(tuple(x))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(draws) == 80 and len(set(draws)) == 80
    # 80 keys were taken: the 81st call of a fresh generator of the seed is the next one.
    replay = tf.random.default_rng(5, runtime=rt)
    seen = {tuple(replay.random(8).download()) for _ in range(80)}
    assert seen == set(draws)


@pytest.mark.parametrize("make", [
    lambda rt: tf.random.default_rng(-1, runtime=rt),
    lambda rt: tf.random.default_rng(2**64, runtime=rt),
    lambda rt: tf.random.default_rng(1.5, runtime=rt),
    lambda rt: tf.random.default_rng(True, runtime=rt),
    lambda rt: tf.random.default_rng(3, runtime="cpu"),
    lambda rt: tf.random.default_rng(3, runtime=rt).uniform(1j, 2.0),
    lambda rt: tf.random.default_rng(3, runtime=rt).normal(np.complex64(1j)),
    lambda rt: tf.random.default_rng(3, runtime=rt).normal(0.0, -1.0),
    lambda rt: tf.random.default_rng(3, runtime=rt).uniform(0.0, 1e39, dtype=np.float32),
], ids=["negative seed", "seed 2**64", "float seed", "bool seed", "runtime str",
        "complex low", "complex64 loc", "negative scale", "high past float32"])
def test_bad_arguments_are_validation_errors(rt, make):
    with pytest.raises(tf.ValidationError):
        make(rt)
