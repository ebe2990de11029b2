"""The exceptions of sgemm_steps: each says what is wrong in one line."""


class SgemmError(ValueError):
    """Bad input to sgemm_steps (a wrong shape, a step that does not exist, ...)."""


class SgemmTypeError(SgemmError, TypeError):
    """An operand of the wrong kind or dtype: a CPU tensor, float64, a list."""


class NoDeviceError(SgemmError, RuntimeError):
    """No usable CUDA device (none, older than sm_75, or the library has no code for it)."""


class LibraryNotBuiltError(SgemmError, RuntimeError):
    """libsgemm_steps.so is missing or cannot be loaded: build it first with make python."""


class SgemmRuntimeError(RuntimeError):
    """A CUDA or cuBLAS call failed while a step ran (the library's status 1)."""
