"""tenferro.show_config: the BLAS/LAPACK line `tenferro info` prints, for Python users."""
import json
import os
import subprocess
import sys

import pytest

import tenferro as tf

_CHILD = "import json, tenferro as tf; print(json.dumps(tf.show_config(mode='dicts')))"


def _blas_in_child(coretype):
    """show_config's dict in a fresh interpreter with OPENBLAS_CORETYPE set to `coretype` (unset
    when None): OpenBLAS reads it once, when it loads."""
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    if coretype is not None:
        env["OPENBLAS_CORETYPE"] = coretype
    out = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True,
                         check=True, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])["blas"]


def _cpu_flags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def test_show_config_reports_the_blas_and_its_kernel(capsys):
    b = tf.show_config(mode="dicts")["blas"]
    assert "OpenBLAS" in b["vendor"]
    assert b["version"].startswith("0.3.")
    assert b["core"] and b["core"] in b["config"]
    assert b["cpu_isa"] in ("AVX-512", "AVX2", "AVX", "SSE")
    assert tf.show_config() is None
    out = capsys.readouterr().out
    assert out.startswith(f"BLAS/LAPACK: {b['vendor']} {b['version']}, kernel {b['core']}")
    with pytest.raises(ValueError, match="mode"):
        tf.show_config(mode="json")


@pytest.mark.skipif("avx512f" not in _cpu_flags(), reason="this CPU has no AVX-512: Haswell's "
                    "AVX2 kernel is as wide as it goes")
def test_a_kernel_held_below_the_cpu_is_noted():
    held = _blas_in_child("Haswell")
    assert (held["core"], held["kernel_isa"], held["coretype_env"]) == ("Haswell", "AVX2", "Haswell")
    assert held["forced_below_cpu"] and not held["generic_kernel"]
    assert held["warning"].startswith("note: OPENBLAS_CORETYPE=Haswell holds OpenBLAS")
    own = _blas_in_child(None)
    assert own["coretype_env"] is None and not own["forced_below_cpu"]
    assert own["kernel_isa"] in ("AVX-512", "AVX2"), own  # OpenBLAS finds a vector kernel itself
