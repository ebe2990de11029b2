"""The exceptions of sgemm_steps: each says what is wrong in one line.

Two families, so that `except ValueError` catches bad arguments and nothing else:

    ValueError
        SgemmError            bad input: a wrong shape, a step that does not exist, alpha = nan
            SgemmTypeError    (also a TypeError) an operand of the wrong kind or dtype
    RuntimeError
        NoDeviceError         no usable GPU here
        LibraryNotBuiltError  libsgemm_steps.so missing or out of date
        SgemmRuntimeError     a CUDA or cuBLAS call failed while a step ran
"""


class SgemmError(ValueError):
    """Bad input to sgemm_steps (a wrong shape, a step that does not exist, ...)."""


class SgemmTypeError(SgemmError, TypeError):
    """An operand of the wrong kind or dtype: a CPU tensor, float64, a list."""


class NoDeviceError(RuntimeError):
    """No usable CUDA device (no driver, no GPU, older than sm_75, or the library has no code for it)."""


class LibraryNotBuiltError(RuntimeError):
    """libsgemm_steps.so is missing or cannot be loaded: build it first with make python."""


class SgemmRuntimeError(RuntimeError):
    """A CUDA or cuBLAS call failed while a step ran (the library's status 1)."""


# They are used as sgemm_steps.X: say so in tracebacks, repr and pickles, not sgemm_steps._errors.X.
for _cls in (SgemmError, SgemmTypeError, NoDeviceError, LibraryNotBuiltError, SgemmRuntimeError):
    _cls.__module__ = "sgemm_steps"
del _cls
