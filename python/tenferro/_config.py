"""tenferro.show_config(): the BLAS/LAPACK the CPU backend runs, as `tenferro info` prints it,
for Python users, who have no CLI. NumPy's show_config has the same name and purpose."""

from . import _tenferro

__all__ = ["show_config"]


def show_config(mode="stdout"):
    """Prints the BLAS/LAPACK vendor and version, the kernel set it runs and the CPU's best
    vector ISA, with a one-line warning when the kernel is generic (pre-AVX2 on an AVX2 or
    AVX-512 CPU) or a note when OPENBLAS_CORETYPE holds it below the CPU. ``mode="dicts"``
    returns ``{"blas": {...}}`` instead (keys as `tenferro info --json`'s, plus "line" and
    "warning")."""
    info = {"blas": _tenferro.blas_info()}
    if mode == "dicts":
        return info
    if mode != "stdout":
        raise ValueError(f"show_config: mode must be 'stdout' or 'dicts', not {mode!r}")
    b = info["blas"]
    print(b["line"])
    if b["warning"]:
        print(b["warning"])
    return None
