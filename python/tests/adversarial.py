"""Shared machinery of the adversarial suites (test_adversarial_*.py): run one hostile
snippet in a fresh interpreter, so that a crash (SIGSEGV, abort) or a hang is a test failure
with the snippet named, not the end of the pytest run.

The snippet runs with ``tf``, ``np`` and ``rt = tf.Runtime.cpu()`` defined and ends by setting
``result``. The child prints one JSON line: the result (real and imaginary parts as lists, and
its dtype), or the raised exception's class name and the names of every class in its MRO.
"""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np

_CHILD = r"""
import json, sys
import numpy as np
import tenferro as tf
rt = tf.Runtime.cpu()
result = None
try:
    exec(compile(sys.stdin.read(), "<case>", "exec"))
    value = np.asarray(result.download() if isinstance(result, tf.Tensor) else result)
    out = {"value": value.real.tolist(), "imag": value.imag.tolist(), "dtype": str(value.dtype)}
except BaseException as e:  # the parent checks which
    out = {"raised": type(e).__name__, "mro": [c.__name__ for c in type(e).__mro__],
           "message": str(e)}
print(json.dumps(out))
"""


def run_isolated(snippet, timeout=60):
    """The child's JSON answer for `snippet`; AssertionError on a crash, a hang or no answer."""
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-c", _CHILD], input=textwrap.dedent(snippet),
                          capture_output=True, text=True, timeout=timeout, env=env)
    assert proc.returncode == 0, (
        f"the interpreter died (exit {proc.returncode}) on:\n{snippet}\n"
        f"stderr:\n{proc.stderr[-2000:]}")
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert lines, f"no answer from the child on:\n{snippet}\nstdout:\n{proc.stdout[-2000:]}"
    return json.loads(lines[-1])


def value_of(out):
    """The child's result as a NumPy array of its dtype."""
    dtype = np.dtype(out["dtype"])
    real = np.array(out["value"], dtype=np.float64)
    if dtype.kind == "c":
        return (real + 1j * np.array(out["imag"], dtype=np.float64)).astype(dtype)
    return real.astype(dtype)


def assert_raises_isolated(snippet, error, also=()):
    """The snippet raises tenferro's `error` (a class name), which also derives from every
    class named in `also` (the built-ins NumPy users catch)."""
    out = run_isolated(snippet)
    assert "raised" in out, f"expected {error}, got a value {out.get('value')!r} from:\n{snippet}"
    assert out["raised"] == error, f"expected {error}, got {out['raised']}: {out['message']}"
    assert "Error" in out["mro"], f"{out['raised']} is not a tenferro.Error"
    for name in also:
        assert name in out["mro"], f"{out['raised']} does not derive from {name}"
