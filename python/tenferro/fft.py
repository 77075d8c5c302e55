"""numpy.fft's functions on tenferro tensors (results stay in the input's runtime)."""

from ._tenferro.fft import (  # noqa: F401
    fft, fft2, fftn, ifft, ifft2, ifftn, irfft, irfft2, irfftn, rfft, rfft2, rfftn)

__all__ = ["fft", "ifft", "rfft", "irfft", "fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2",
           "rfft2", "irfft2"]
