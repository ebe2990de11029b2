"""The course's SGEMM steps from Python, through ctypes: C = alpha * A @ B + beta * C.

    import sgemm_steps
    sgemm_steps.steps()                      # [StepInfo(number=1, name='step01', title='naive', arithmetic='FP32'), ...]
    C = sgemm_steps.run(5, A, B)             # step 05; A, B: CUDA arrays or NumPy float32 arrays
    sgemm_steps.bench("step10", 4096, 4096, 4096)   # the figures of ./step10 4096's report

Build the library first: `make python` (build/<arch>/libsgemm_steps.so), or point
SGEMM_STEPS_LIB at it. A, B and C may be anything with __cuda_array_interface__ (PyTorch,
CuPy, Numba device arrays), DLPack CUDA arrays, or NumPy arrays (copied to the GPU and back).
They must be float32, 2-D and row-major contiguous; anything else raises SgemmError (a
ValueError; SgemmTypeError is also a TypeError) with one line that says what is wrong. No GPU
raises NoDeviceError, no library LibraryNotBuiltError (both RuntimeErrors; see _errors.py).
"""
from collections import namedtuple
import ctypes
import math
import numbers

from . import _arrays, _lib
from ._errors import (LibraryNotBuiltError, NoDeviceError, SgemmError, SgemmRuntimeError,
                      SgemmTypeError)

__all__ = ["run", "bench", "steps", "device_error", "library_path", "StepInfo", "Bench",
           "SgemmError", "SgemmTypeError", "NoDeviceError", "LibraryNotBuiltError", "SgemmRuntimeError"]
__version__ = "1.0.0"  # the one place it is written: pyproject.toml reads it

StepInfo = namedtuple("StepInfo", "number name title arithmetic")
Bench = namedtuple("Bench", "step title M N K median_ms best_ms gflops cublas_median_ms cublas_best_ms "
                            "cublas_gflops pct_of_cublas cublas_mode verified max_abs_error")


def steps():
    """Every step the library holds, in order: StepInfo(number, name, title, arithmetic), arithmetic
    being "FP32", "TF32" (step 11, held to a wider bound) or "3xTF32" (step 12)."""
    lib = _lib.lib()
    out = []
    for i in range(lib.sgemm_num_steps()):
        name = lib.sgemm_step_name(i).decode()
        out.append(StepInfo(int(name[len("step"):]), name, lib.sgemm_step_title(i).decode(),
                                lib.sgemm_step_arithmetic(i).decode()))
    return out


def library_path():
    """The path of the libsgemm_steps.so in use (loading it if needed)."""
    return _lib.lib().path


def _step_index(step):
    """The library's index of `step`: a number (5), or a name ("step05", "05")."""
    all_steps = steps()
    names = ", ".join(s.name for s in all_steps)
    number = None
    if isinstance(step, numbers.Integral) and not isinstance(step, bool):
        number = int(step)
    elif isinstance(step, str):
        text = step.strip().lower()
        text = text[len("step"):] if text.startswith("step") else text
        if text.isdigit():
            number = int(text)
    else:
        raise SgemmTypeError(f"step must be a number or a name like 'step05'; got {type(step).__name__}")
    for i, s in enumerate(all_steps):
        if s.number == number:
            return i
    raise SgemmError(f"no step {step!r}: the steps are {all_steps[0].number} to {all_steps[-1].number} ({names})")


def device_error():
    """None when a usable GPU is there (sm_75 or newer, with code in the library), else the
    line that says why not."""
    try:
        _lib.require_device()
        return None
    except NoDeviceError as e:
        return str(e)


def _require_finite(name, value):
    """One line unless value is finite as the float32 the kernels take (as ./stepNN --alpha
    refuses nan, inf and 1e39): nan or inf would fill C with nan, not test a kernel."""
    beyond = "beyond float32's largest (about 3.4e38)"
    try:
        as_float = float(value)
    except OverflowError:  # an int or Fraction beyond any float: not worth its hundreds of digits
        raise SgemmError(f"{name} must be a finite number, got one {beyond}") from None
    if not math.isfinite(as_float):
        raise SgemmError(f"{name} must be a finite number, got {value}")
    if not math.isfinite(ctypes.c_float(as_float).value):
        raise SgemmError(f"{name} must be a finite number, got {value}, {beyond}")


def run(step, A, B, C=None, alpha=1.0, beta=0.0):
    """C = alpha * A @ B + beta * C with step `step` (1 to 12, or "step05"); returns C.

    A (M x K), B (K x N) and C (M x N) are float32, 2-D, row-major contiguous, all CUDA arrays
    (__cuda_array_interface__ preferred, else DLPack) or all NumPy arrays. Without C, a new one
    of the inputs' kind is returned (beta must then be 0). CUDA arrays are used in place, on the
    default stream, which is synchronized before returning; NumPy arrays are copied to the GPU
    and the result back into C. Every check of the inputs happens before the GPU is touched.
    """
    index = _step_index(step)
    a, b = _arrays.describe("A", A), _arrays.describe("B", B)
    c = _arrays.describe("C", C) if C is not None else None
    M, K = a.shape
    K2, N = b.shape
    if K2 != K:
        raise SgemmError(f"A is {M} x {K} and B is {K2} x {N}: A's columns ({K}) must equal B's rows ({K2})")
    if c is not None and c.shape != (M, N):
        raise SgemmError(f"C is {c.shape[0]} x {c.shape[1]}; it must be M x N = {M} x {N} "
                         f"(A is {M} x {K}, B is {K} x {N})")
    if c is not None and c.readonly:
        raise SgemmError("C is read-only; pass a writable array")
    ops = [o for o in (a, b, c) if o is not None]
    kinds = {o.kind for o in ops}
    if len(kinds) > 1:
        which = ", ".join(f"{o.name} is {'a NumPy array' if o.kind == 'numpy' else 'on the GPU'}" for o in ops)
        raise SgemmTypeError(f"mixed operands ({which}); pass all NumPy arrays or all CUDA arrays")
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not isinstance(value, numbers.Real) or isinstance(value, bool):
            raise SgemmTypeError(f"{name} must be a real number; got {type(value).__name__}")
        _require_finite(name, value)
    if c is None and beta != 0:
        raise SgemmError(f"beta = {beta} scales C, and no C was passed; pass C or beta = 0")

    _lib.require_device()
    lib = _lib.lib()
    if a.kind == "device":
        if c is None:
            C = _arrays.empty_like_device(a, (M, N))
            c = _arrays.describe("C", C)
        _lib.check(lib.sgemm_run(index, M, N, K, float(alpha), a.ptr, b.ptr, float(beta), c.ptr))
        return C

    import numpy as np
    if C is None:
        C = np.empty((M, N), dtype=np.float32)
    if M == 0 or N == 0:
        return C
    dA, dB, dC = (_lib.DeviceMemory(x.nbytes) for x in (A, B, C))
    dA.upload(A)
    dB.upload(B)
    if beta != 0:
        dC.upload(C)
    _lib.check(lib.sgemm_run(index, M, N, K, float(alpha), dA.ptr, dB.ptr, float(beta), dC.ptr))
    dC.download(C)
    return C


def bench(step, M, N=None, K=None, warmup=3, reps=20, seed=42):
    """The figures of `./stepNN M N K`'s report, measured the same way (common/run/timing.cuh's
    CUDA-event timing, cuBLAS in both strict-FP32 modes, alpha = 1, beta = 0, seeded inputs,
    one launch verified against cuBLAS first). bench(step, S) is S x S x S.
    Returns a Bench namedtuple (times in ms, GFLOP/s, pct_of_cublas in %)."""
    if N is None and K is None:
        N = K = M
    elif N is None or K is None:
        raise SgemmError("pass one size S (S x S x S) or all three of M, N, K")
    index = _step_index(step)
    for name, value in (("M", M), ("N", N), ("K", K), ("warmup", warmup), ("reps", reps)):
        if not isinstance(value, numbers.Integral) or isinstance(value, bool):
            raise SgemmTypeError(f"{name} must be an integer; got {type(value).__name__}")
    for name, value in (("M", M), ("N", N), ("K", K)):
        if not 1 <= value <= _arrays.INT_MAX:
            raise SgemmError(f"{name} = {value}: sizes must be between 1 and 2^31 - 1")
    if warmup < 0 or reps < 1:
        raise SgemmError(f"warmup = {warmup}, reps = {reps}: warmup must be >= 0 and reps >= 1")
    _lib.require_device()
    lib = _lib.lib()
    r = _lib.BenchResult()
    _lib.check(lib.sgemm_bench(index, int(M), int(N), int(K), int(warmup), int(reps), int(seed), ctypes.byref(r)))
    info = steps()[index]
    return Bench(info.name, info.title, int(M), int(N), int(K), r.median_ms, r.best_ms, r.gflops,
                 r.cublas_median_ms, r.cublas_best_ms, r.cublas_gflops, r.pct_of_cublas,
                 "PEDANTIC" if r.cublas_pedantic else "DEFAULT", bool(r.verified), r.max_abs_error)
