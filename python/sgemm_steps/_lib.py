"""Finding and loading libsgemm_steps.so (built by `make python`), and its C functions."""
import ctypes
import os
from pathlib import Path

from ._errors import LibraryNotBuiltError, NoDeviceError, SgemmError, SgemmRuntimeError

ENV_VAR = "SGEMM_STEPS_LIB"
LIB_NAME = "libsgemm_steps.so"
# python/sgemm_steps/_lib.py -> the repository's root (also under `pip install -e python/`);
# after a plain `pip install ./python` this is somewhere in the Python installation instead
REPO_ROOT = Path(__file__).resolve().parents[2]
DRIVER = "libcuda.so.1"  # the NVIDIA driver's library, which libcudart opens at the first CUDA call


class BenchResult(ctypes.Structure):
    """Mirror of SgemmBenchResult in capi.cu: keep the two in step."""
    _fields_ = [
        ("median_ms", ctypes.c_double),
        ("best_ms", ctypes.c_double),
        ("gflops", ctypes.c_double),
        ("cublas_median_ms", ctypes.c_double),
        ("cublas_best_ms", ctypes.c_double),
        ("cublas_gflops", ctypes.c_double),
        ("pct_of_cublas", ctypes.c_double),
        ("max_abs_error", ctypes.c_double),
        ("verified", ctypes.c_int),
        ("cublas_pedantic", ctypes.c_int),
    ]


def in_checkout(root):
    """Whether root is the course's repository (this package's python/ folder beside its Makefile),
    not the site-packages a plain pip install copies the package into."""
    return (root / "Makefile").is_file() and (root / "python" / "pyproject.toml").is_file()


def find_library():
    """The path of the library: $SGEMM_STEPS_LIB, else the newest build/*/libsgemm_steps.so of
    the repository this package sits in. Raises LibraryNotBuiltError when there is none."""
    env = os.environ.get(ENV_VAR)
    if env:
        if not Path(env).is_file():
            raise LibraryNotBuiltError(f"{ENV_VAR}={env} is not a file; build it first: make python")
        return Path(env)
    if not in_checkout(REPO_ROOT):
        raise LibraryNotBuiltError(f"{LIB_NAME} not found: this sgemm_steps ({Path(__file__).parent}) is not in the "
                                   f"course's repository, so it cannot look in its build/; set {ENV_VAR}="
                                   f"<repository>/build/<arch>/{LIB_NAME} (make python builds it) "
                                   "or install with pip install -e python/")
    found = sorted((REPO_ROOT / "build").glob(f"*/{LIB_NAME}"), key=lambda p: p.stat().st_mtime)
    if not found:
        raise LibraryNotBuiltError(f"{LIB_NAME} not found under {REPO_ROOT / 'build'} "
                                   f"(or set {ENV_VAR}); build it first: make python")
    return found[-1]


_lib = None


def lib():
    """The loaded library, loaded on first use (so that `import sgemm_steps` always works)."""
    global _lib
    if _lib is not None:
        return _lib
    path = find_library()
    try:
        handle = ctypes.CDLL(str(path))
    except OSError as e:
        raise LibraryNotBuiltError(f"cannot load {path} ({str(e).splitlines()[0]}); "
                                   "build it first: make python") from None
    c_int, c_float, c_size, vp = ctypes.c_int, ctypes.c_float, ctypes.c_size_t, ctypes.c_void_p
    signatures = {
        "sgemm_num_steps": (c_int, []),
        "sgemm_step_name": (ctypes.c_char_p, [c_int]),
        "sgemm_step_title": (ctypes.c_char_p, [c_int]),
        "sgemm_step_arithmetic": (ctypes.c_char_p, [c_int]),
        "sgemm_last_error": (ctypes.c_char_p, []),
        "sgemm_built_arch": (ctypes.c_char_p, []),
        "sgemm_device_check": (c_int, []),
        "sgemm_malloc": (c_int, [ctypes.POINTER(vp), c_size]),
        "sgemm_free": (c_int, [vp]),
        "sgemm_copy_to_device": (c_int, [vp, vp, c_size]),
        "sgemm_copy_to_host": (c_int, [vp, vp, c_size]),
        "sgemm_run": (c_int, [c_int, c_int, c_int, c_int, c_float, vp, vp, c_float, vp]),
        "sgemm_bench": (c_int, [c_int, c_int, c_int, c_int, c_int, c_int, ctypes.c_ulonglong,
                                ctypes.POINTER(BenchResult)]),
    }
    for name, (restype, argtypes) in signatures.items():
        try:
            fn = getattr(handle, name)
        except AttributeError:
            raise LibraryNotBuiltError(f"{path} has no {name}: it is out of date; "
                                       "build it first: make python") from None
        fn.restype, fn.argtypes = restype, argtypes
    handle.path = path
    _lib = handle
    return _lib


def check(status):
    """Raises the error the library reported, if @p status is not 0."""
    if status == 0:
        return
    message = lib().sgemm_last_error().decode(errors="replace") or f"status {status}"
    if status == 2:
        raise SgemmError(message)
    raise SgemmRuntimeError(message)


def require_device():
    """Raises NoDeviceError (one line) unless a usable GPU is there and the library has code for it."""
    status = lib().sgemm_device_check()
    if status != 0:
        prefix = "no usable CUDA device"
        try:
            ctypes.CDLL(DRIVER)
        except OSError:  # a library built before common/ said so called it "driver version is insufficient"
            raise NoDeviceError(f"{prefix}: no NVIDIA driver found ({DRIVER} is not installed)") from None
        # common/gpu/gpu.cpp's line, as a step prints it: "no usable CUDA device: why",
        # "no usable CUDA device (cudaGetDeviceCount: why)", or why alone (an older GPU)
        message = lib().sgemm_last_error().decode(errors="replace")
        if message.startswith(prefix + " (") and message.endswith(")"):
            message = message[len(prefix) + 2:-1]
        elif message.startswith(prefix + ": "):
            message = message[len(prefix) + 2:]
        raise NoDeviceError(f"{prefix}: {message}")


class DeviceMemory:
    """GPU memory from the library's own cudaMalloc, freed with the object."""

    def __init__(self, nbytes):
        ptr = ctypes.c_void_p()
        check(lib().sgemm_malloc(ctypes.byref(ptr), nbytes))
        self.ptr = ptr.value
        self.nbytes = nbytes

    def upload(self, array):
        check(lib().sgemm_copy_to_device(self.ptr, array.ctypes.data, array.nbytes))

    def download(self, array):
        check(lib().sgemm_copy_to_host(array.ctypes.data, self.ptr, array.nbytes))

    def __del__(self):
        if getattr(self, "ptr", None) and _lib is not None:
            _lib.sgemm_free(self.ptr)
            self.ptr = None
