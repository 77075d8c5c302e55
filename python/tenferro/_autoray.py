"""autoray's view of tenferro (used by cotengra and quimb through ``autoray.do``).

autoray finds most functions by name in the ``tenferro`` module itself (its NumPy-like
namespace). Only where NumPy's signature and what autoray's callers expect differ do we tell
autoray, exactly as autoray does for NumPy: its callers want the reduced SVD, and a host copy
for ``to_numpy``.
"""


def register():
    try:
        import autoray
    except ImportError:  # autoray is optional: nothing to register
        return

    from . import _namespace, linalg

    def svd(x, full_matrices=False, compute_uv=True, **kwargs):
        return linalg.svd(x, full_matrices=full_matrices, compute_uv=compute_uv, **kwargs)

    autoray.register_function("tenferro", "linalg.svd", svd)
    autoray.register_function("tenferro", "to_numpy", _namespace.to_numpy)
