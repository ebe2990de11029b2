"""Tests that need no GPU: the library loads and lists every step, and every kind of bad input
raises one clear line before anything reaches the GPU. Fake objects stand in for CUDA arrays:
they offer __cuda_array_interface__ or DLPack with the dtype, strides or device under test."""
import ctypes
import fractions
import importlib.util
import pickle
import re
import shutil
import subprocess
import sys
import traceback
import types
import zipfile
from pathlib import Path

try:
    import tomllib  # novm (vermin: Python 3.11 on; 3.10 takes the except below)
except ImportError:  # 3.10 (Ubuntu 22.04): tomli, the package tomllib came from, if installed
    tomllib = None

import numpy as np
import pytest

import sgemm_steps
from sgemm_steps import _arrays, _lib
from gemm_check import mismatch, reference

REPO = Path(__file__).resolve().parents[2]
ONE_LINE = "\n"


class FakeCAI:
    """A 'CUDA array' that is only a __cuda_array_interface__ (version 3)."""

    def __init__(self, shape, typestr="<f4", strides=None, ptr=0x7F0000000000, readonly=False, mask=None):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr, "strides": strides,
                                         "data": (ptr, readonly), "version": 3, "mask": mask}


class FakeDLPack:
    """A 'CUDA array' offering only DLPack: a NumPy array's capsule, on a device of our choosing."""

    def __init__(self, array, device_type=2):
        self.array, self.device_type = array, device_type

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return (self.device_type, 0)


def f32(*shape):
    return np.zeros(shape, dtype=np.float32)


def one_line(excinfo):
    text = str(excinfo.value)
    assert text and ONE_LINE not in text, f"not one line: {text!r}"
    return text


# --- loading -------------------------------------------------------------------------------------

def test_library_loads_and_lists_every_step_folder():
    folders = sorted(p.name for p in (REPO / "steps").glob("[0-9][0-9]_*"))
    got = [f"{s.name[4:]}_{s.title}" for s in sgemm_steps.steps()]
    assert got == folders
    assert [s.number for s in sgemm_steps.steps()] == list(range(1, len(folders) + 1))
    assert sgemm_steps.library_path().name == "libsgemm_steps.so"


def test_library_not_built_says_make_python(tmp_path, monkeypatch):
    monkeypatch.delenv(_lib.ENV_VAR, raising=False)
    (tmp_path / "python").mkdir()
    (tmp_path / "Makefile").touch()
    (tmp_path / "python" / "pyproject.toml").touch()
    monkeypatch.setattr(_lib, "REPO_ROOT", tmp_path)  # a checkout with no build/
    monkeypatch.setattr(_lib, "_lib", None)
    with pytest.raises(sgemm_steps.LibraryNotBuiltError) as e:
        sgemm_steps.steps()
    assert one_line(e) == f"libsgemm_steps.so not found under {tmp_path / 'build'} (or set SGEMM_STEPS_LIB); " \
                          "build it first: make python"


def test_installed_away_from_the_repository_points_to_the_env_var(tmp_path):
    # what a plain `pip install ./python` makes: the package's files copied into site-packages,
    # away from the repository's build/ (copied here by hand, so that the test needs no pip)
    site = tmp_path / "lib" / "python3" / "site-packages"
    shutil.copytree(REPO / "python" / "sgemm_steps", site / "sgemm_steps",
                    ignore=shutil.ignore_patterns("__pycache__", "*.cu"))
    code = ("import sgemm_steps\ntry:\n    sgemm_steps.steps()\n"
            "except sgemm_steps.LibraryNotBuiltError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
                         cwd=tmp_path, capture_output=True, text=True, check=True)
    assert out.stdout == (f"libsgemm_steps.so not found: this sgemm_steps ({site / 'sgemm_steps'}) is not in the "
                          "course's repository, so it cannot look in its build/; set SGEMM_STEPS_LIB="
                          "<repository>/build/<arch>/libsgemm_steps.so (make python builds it) "
                          "or install with pip install -e python/\n")


def test_library_env_var_to_a_missing_file(tmp_path):
    # a fresh interpreter, as a student's would be: the import works, the first use says why not
    code = ("import sgemm_steps\ntry:\n    sgemm_steps.run(1, None, None)\n"
            "except RuntimeError as e:\n    print(type(e).__name__, e)\n")
    env = {"SGEMM_STEPS_LIB": str(tmp_path / "nope.so"), "PYTHONPATH": str(REPO / "python"),
           "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout == f"LibraryNotBuiltError SGEMM_STEPS_LIB={tmp_path / 'nope.so'} is not a file; " \
                         "build it first: make python\n"


# --- steps ---------------------------------------------------------------------------------------

def test_steps_say_their_arithmetic():
    # what each step multiplies in, which sets the bound its results are held to: FP32 for steps
    # 01-10 (CUDA cores), TF32 for step 11 and 3xTF32 for step 12 (Part II, tensor cores)
    got = [(s.number, s.name, s.arithmetic) for s in sgemm_steps.steps()]
    assert got == [(n, f"step{n:02d}", "FP32") for n in range(1, 11)] + [(11, "step11", "TF32"), (12, "step12", "3xTF32")]
    assert sgemm_steps.StepInfo._fields == ("number", "name", "title", "arithmetic")


@pytest.mark.parametrize("step, index", [(1, 0), (5, 4), ("step05", 4), ("05", 4), ("Step10", 9), (np.int64(3), 2)])
def test_step_names(step, index):
    assert sgemm_steps._step_index(step) == index


@pytest.mark.parametrize("step", [0, 99, -1, "step99", "step", "naive", ""])
def test_step_that_does_not_exist(step):
    with pytest.raises(sgemm_steps.SgemmError) as e:
        sgemm_steps.run(step, f32(2, 2), f32(2, 2))
    assert one_line(e).startswith(f"no step {step!r}: the steps are 1 to {len(sgemm_steps.steps())} (step01, ")


@pytest.mark.parametrize("step", [1.0, None, True])
def test_step_of_the_wrong_type(step):
    with pytest.raises(sgemm_steps.SgemmTypeError) as e:
        sgemm_steps.run(step, f32(2, 2), f32(2, 2))
    assert one_line(e).startswith("step must be a number or a name like 'step05'")


# --- bad operands --------------------------------------------------------------------------------

def nd(shape, order="C", dtype=np.float32):
    return np.zeros(shape, dtype=dtype, order=order)


BAD = [
    # (id, A, B, C, kwargs, exception, message)
    ("cpu-tensor", FakeDLPack(nd((3, 4)), device_type=1), nd((4, 5)), None, {}, sgemm_steps.SgemmTypeError,
     "A is a CPU tensor; pass a CUDA tensor or a NumPy array"),
    ("cuda-host-tensor", nd((3, 4)), FakeDLPack(nd((4, 5)), device_type=3), None, {}, sgemm_steps.SgemmTypeError,
     "B is a CPU tensor; pass a CUDA tensor or a NumPy array"),
    ("rocm-tensor", FakeDLPack(nd((3, 4)), device_type=10), nd((4, 5)), None, {}, sgemm_steps.SgemmTypeError,
     "A is on a ROCm device; pass a CUDA tensor or a NumPy array"),
    ("list", [[1.0, 2.0]], nd((2, 1)), None, {}, sgemm_steps.SgemmTypeError,
     "A is a builtins.list; pass a CUDA array (__cuda_array_interface__ or DLPack) or a NumPy array"),
    ("numpy-float64", nd((3, 4), dtype=np.float64), nd((4, 5)), None, {}, sgemm_steps.SgemmTypeError,
     "A has dtype float64; float32 required"),
    ("numpy-float16-C", nd((3, 4)), nd((4, 5)), nd((3, 5), dtype=np.float16), {}, sgemm_steps.SgemmTypeError,
     "C has dtype float16; float32 required"),
    ("cai-float64", FakeCAI((3, 4)), FakeCAI((4, 5), typestr="<f8"), None, {}, sgemm_steps.SgemmTypeError,
     "B has dtype float64; float32 required"),
    ("cai-int32", FakeCAI((3, 4), typestr="<i4"), FakeCAI((4, 5)), None, {}, sgemm_steps.SgemmTypeError,
     "A has dtype int32; float32 required"),
    ("cai-big-endian", FakeCAI((3, 4), typestr=">f4"), FakeCAI((4, 5)), None, {}, sgemm_steps.SgemmTypeError,
     "A is float32 in big-endian byte order (>f4); the GPU reads little-endian: A.astype('<f4') converts it"),
    ("numpy-big-endian", nd((3, 4)), nd((4, 5), dtype=">f4"), None, {}, sgemm_steps.SgemmTypeError,
     "B is float32 in big-endian byte order (>f4); the GPU reads little-endian: B.astype('<f4') converts it"),
    ("numpy-big-endian-float64", nd((3, 4), dtype=">f8"), nd((4, 5)), None, {}, sgemm_steps.SgemmTypeError,
     "A has dtype float64 of the other byte order (>f8); float32 required"),
    ("dlpack-float64", FakeDLPack(nd((3, 4), dtype=np.float64)), FakeCAI((4, 5)), None, {},
     sgemm_steps.SgemmTypeError, "A has dtype float64; float32 required"),
    ("dlpack-int16", FakeDLPack(nd((3, 4))), FakeDLPack(nd((4, 5), dtype=np.int16)), None, {},
     sgemm_steps.SgemmTypeError, "B has dtype int16; float32 required"),
    ("numpy-transposed", nd((4, 3)).T, nd((4, 5)), None, {}, sgemm_steps.SgemmError,
     "A is not C-contiguous (shape (3, 4), strides (4, 12) bytes); pass a row-major contiguous array "
     "(numpy.ascontiguousarray)"),
    ("numpy-fortran", nd((3, 4)), nd((4, 5), order="F"), None, {}, sgemm_steps.SgemmError,
     "B is not C-contiguous (shape (4, 5), strides (4, 16) bytes); pass a row-major contiguous array "
     "(numpy.ascontiguousarray)"),
    ("numpy-every-other-column", nd((3, 8))[:, ::2], nd((4, 5)), None, {}, sgemm_steps.SgemmError,
     "A is not C-contiguous (shape (3, 4), strides (32, 8) bytes); pass a row-major contiguous array "
     "(numpy.ascontiguousarray)"),
    ("cai-transposed", FakeCAI((3, 4), strides=(4, 12)), FakeCAI((4, 5)), None, {}, sgemm_steps.SgemmError,
     "A is not C-contiguous (shape (3, 4), strides (4, 12) bytes); pass a row-major contiguous array "
     "(.contiguous(), numpy.ascontiguousarray)"),
    ("cai-padded-rows", FakeCAI((3, 4)), FakeCAI((4, 5), strides=(32, 4)), None, {}, sgemm_steps.SgemmError,
     "B is not C-contiguous (shape (4, 5), strides (32, 4) bytes); pass a row-major contiguous array "
     "(.contiguous(), numpy.ascontiguousarray)"),
    ("dlpack-transposed", FakeDLPack(nd((4, 3)).T), FakeCAI((4, 5)), None, {}, sgemm_steps.SgemmError,
     "A is not C-contiguous (shape (3, 4), strides (1, 3) elements); pass a row-major contiguous array "
     "(.contiguous(), numpy.ascontiguousarray)"),
    ("numpy-1d", nd((4,)), nd((4, 5)), None, {}, sgemm_steps.SgemmError, "A must be 2-D (M x K); got shape (4,)"),
    ("cai-3d", FakeCAI((3, 4)), FakeCAI((2, 4, 5)), None, {}, sgemm_steps.SgemmError,
     "B must be 2-D (K x N); got shape (2, 4, 5)"),
    ("dlpack-0d", FakeDLPack(np.array(1.0, dtype=np.float32)), FakeCAI((4, 5)), None, {}, sgemm_steps.SgemmError,
     "A must be 2-D (M x K); got shape ()"),
    ("inner-sizes", nd((7, 33)), nd((34, 5)), None, {}, sgemm_steps.SgemmError,
     "A is 7 x 33 and B is 34 x 5: A's columns (33) must equal B's rows (34)"),
    ("C-shape", nd((7, 33)), nd((33, 5)), nd((5, 7)), {}, sgemm_steps.SgemmError,
     "C is 5 x 7; it must be M x N = 7 x 5 (A is 7 x 33, B is 33 x 5)"),
    ("C-1d", FakeCAI((7, 33)), FakeCAI((33, 5)), FakeCAI((35,)), {}, sgemm_steps.SgemmError,
     "C must be 2-D (M x N); got shape (35,)"),
    ("C-read-only-cai", FakeCAI((3, 4)), FakeCAI((4, 5)), FakeCAI((3, 5), readonly=True), {}, sgemm_steps.SgemmError,
     "C is read-only; pass a writable array"),
    ("mixed", nd((3, 4)), FakeCAI((4, 5)), None, {}, sgemm_steps.SgemmTypeError,
     "mixed operands (A is a NumPy array, B is on the GPU); pass all NumPy arrays or all CUDA arrays"),
    ("masked", FakeCAI((3, 4), mask=object()), FakeCAI((4, 5)), None, {}, sgemm_steps.SgemmTypeError,
     "A is a masked array; pass a plain float32 array"),
    ("null-pointer", FakeCAI((3, 4), ptr=0), FakeCAI((4, 5)), None, {}, sgemm_steps.SgemmError,
     "A has a null data pointer"),
    ("beta-without-C", nd((3, 4)), nd((4, 5)), None, {"beta": 0.5}, sgemm_steps.SgemmError,
     "beta = 0.5 scales C, and no C was passed; pass C or beta = 0"),
    ("alpha-string", nd((3, 4)), nd((4, 5)), None, {"alpha": "2"}, sgemm_steps.SgemmTypeError,
     "alpha must be a real number; got str"),
    # as ./stepNN --alpha nan refuses them: nan or inf would only fill C with nan
    ("alpha-nan", nd((3, 4)), nd((4, 5)), None, {"alpha": float("nan")}, sgemm_steps.SgemmError,
     "alpha must be a finite number, got nan"),
    ("alpha-inf", nd((3, 4)), nd((4, 5)), None, {"alpha": float("-inf")}, sgemm_steps.SgemmError,
     "alpha must be a finite number, got -inf"),
    ("beta-nan-numpy", nd((3, 4)), nd((4, 5)), nd((3, 5)), {"beta": np.float32("nan")}, sgemm_steps.SgemmError,
     "beta must be a finite number, got nan"),
    ("beta-nan-without-C", nd((3, 4)), nd((4, 5)), None, {"beta": float("nan")}, sgemm_steps.SgemmError,
     "beta must be a finite number, got nan"),
    ("alpha-beyond-float32", nd((3, 4)), nd((4, 5)), None, {"alpha": 1e39}, sgemm_steps.SgemmError,
     "alpha must be a finite number, got 1e+39, beyond float32's largest (about 3.4e38)"),
    ("beta-beyond-float", nd((3, 4)), nd((4, 5)), nd((3, 5)), {"beta": fractions.Fraction(10**400)},
     sgemm_steps.SgemmError, "beta must be a finite number, got one beyond float32's largest (about 3.4e38)"),
]


@pytest.mark.parametrize("A, B, C, kwargs, exc, message", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_is_one_line(A, B, C, kwargs, exc, message):
    with pytest.raises(exc) as e:
        sgemm_steps.run(3, A, B, C, **kwargs)
    assert one_line(e) == message


def test_read_only_numpy_C():
    C = nd((3, 5))
    C.flags.writeable = False
    with pytest.raises(sgemm_steps.SgemmError) as e:
        sgemm_steps.run(1, nd((3, 4)), nd((4, 5)), C)
    assert one_line(e) == "C is read-only; pass a writable array"


def test_exceptions_are_value_and_type_errors():
    assert issubclass(sgemm_steps.SgemmError, ValueError)
    assert issubclass(sgemm_steps.SgemmTypeError, TypeError)
    with pytest.raises(TypeError):
        sgemm_steps.run(1, nd((3, 4), dtype=np.float64), nd((4, 5)))
    with pytest.raises(ValueError):
        sgemm_steps.run(1, nd((3, 4)), nd((5, 5)))


def test_no_gpu_and_no_library_are_runtime_errors_not_bad_input():
    # `except ValueError` (bad arguments) must not swallow "there is no GPU here"
    for cls in (sgemm_steps.NoDeviceError, sgemm_steps.LibraryNotBuiltError, sgemm_steps.SgemmRuntimeError):
        assert issubclass(cls, RuntimeError) and not issubclass(cls, ValueError), cls.__mro__


@pytest.mark.parametrize("name", [n for n in sgemm_steps.__all__ if n.endswith("Error")])
def test_exceptions_are_named_as_the_package_exports_them(name):
    cls = getattr(sgemm_steps, name)
    assert f"{cls.__module__}.{cls.__qualname__}" == f"sgemm_steps.{name}"
    err = cls("one line")
    assert traceback.format_exception_only(err) == [f"sgemm_steps.{name}: one line\n"]
    assert type(pickle.loads(pickle.dumps(err))) is cls


def test_torch_cpu_tensor():
    torch = pytest.importorskip("torch", reason="PyTorch not installed: its CPU-tensor check not run")
    with pytest.raises(sgemm_steps.SgemmTypeError) as e:
        sgemm_steps.run(1, torch.zeros(3, 4), torch.zeros(4, 5))
    assert one_line(e) == "A is a CPU tensor; pass a CUDA tensor or a NumPy array"


def test_dlpack_is_read_without_the_gpu():
    a = nd((6, 4))[1:4]  # rows 1-3: a byte offset into the buffer, row-major
    op = _arrays.describe("A", FakeDLPack(a))
    assert (op.kind, op.shape, op.ptr) == ("device", (3, 4), a.ctypes.data)


def test_cuda_array_interface_is_preferred_to_dlpack():
    class Both(FakeCAI):
        def __dlpack__(self, stream=None):
            raise AssertionError("DLPack read although __cuda_array_interface__ is there")

        def __dlpack_device__(self):
            return (2, 0)

    assert _arrays.describe("B", Both((4, 5), ptr=1234)).ptr == 1234


def test_size_one_dimensions_are_contiguous_whatever_their_stride():
    assert _arrays.describe("A", FakeCAI((1, 4), strides=(999, 4))).shape == (1, 4)
    assert _arrays.describe("A", FakeCAI((4, 1), strides=(4, 999))).shape == (4, 1)


# --- bench ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    ((1, 0), "M = 0: sizes must be between 1 and 2^31 - 1"),
    ((1, 64, 64, -3), "K = -3: sizes must be between 1 and 2^31 - 1"),
    ((1, 64, 64), "pass one size S (S x S x S) or all three of M, N, K"),
    ((1, 2**31, 1, 1), "M = 2147483648: sizes must be between 1 and 2^31 - 1"),
    ((99, 64), "no step 99: the steps are 1 to {count} ({names})"),
])
def test_bench_bad_input(args, message):
    with pytest.raises(sgemm_steps.SgemmError) as e:
        sgemm_steps.bench(*args)
    steps = sgemm_steps.steps()
    assert one_line(e) == message.format(count=len(steps), names=", ".join(s.name for s in steps))


# --- without a GPU -------------------------------------------------------------------------------

def no_gpu_or_skip():
    reason = sgemm_steps.device_error()
    if reason is None:
        pytest.skip("a GPU is here: the no-GPU error is not raised")
    return reason


def test_no_gpu_is_one_line():
    reason = no_gpu_or_skip()
    assert reason.startswith("no usable CUDA device: ") and ONE_LINE not in reason
    for call in (lambda: sgemm_steps.run(1, nd((3, 4)), nd((4, 5))),
                 lambda: sgemm_steps.run(1, FakeCAI((3, 4)), FakeCAI((4, 5)), FakeCAI((3, 5))),
                 lambda: sgemm_steps.bench(10, 256)):
        with pytest.raises(sgemm_steps.NoDeviceError) as e:
            call()
        assert one_line(e) == reason


def test_no_driver_says_so(monkeypatch):
    # without libcuda.so.1 the CUDA runtime reports "CUDA driver version is insufficient";
    # the package says what is missing. A name that no system has stands in for a missing driver.
    monkeypatch.setattr(_lib, "DRIVER", "libcuda-of-no-driver.so.1")
    if sgemm_steps.device_error() is None:
        pytest.skip("a GPU is here: the no-driver error is not raised")
    expected = "no usable CUDA device: no NVIDIA driver found (libcuda-of-no-driver.so.1 is not installed)"
    assert sgemm_steps.device_error() == expected
    with pytest.raises(sgemm_steps.NoDeviceError) as e:
        sgemm_steps.run(1, nd((3, 4)), nd((4, 5)))
    assert one_line(e) == expected


@pytest.mark.parametrize("line, reason", [
    ("no usable CUDA device: the driver finds no GPU", "the driver finds no GPU"),
    ("no usable CUDA device (cudaGetDeviceCount: unknown error)", "cudaGetDeviceCount: unknown error"),
    ("Quadro P400 is compute capability 6.1; this course needs sm_75 (Turing) or newer",
     "Quadro P400 is compute capability 6.1; this course needs sm_75 (Turing) or newer"),
], ids=["no-gpu", "cuda-error", "older-gpu"])
def test_no_device_line_from_the_library(monkeypatch, line, reason):
    # the library's line as it gives it, in each of its forms, with "no usable CUDA device" once
    fake = types.SimpleNamespace(sgemm_device_check=lambda: 2, sgemm_last_error=lambda: line.encode())
    monkeypatch.setattr(_lib, "_lib", fake)
    monkeypatch.setattr(_lib, "DRIVER", "libc.so.6")  # a library every Linux has: a driver is "there"
    assert sgemm_steps.device_error() == f"no usable CUDA device: {reason}"


def test_no_driver_here_says_so():
    try:
        ctypes.CDLL("libcuda.so.1")
        pytest.skip("libcuda.so.1 is installed here")
    except OSError:
        pass
    assert sgemm_steps.device_error() == "no usable CUDA device: no NVIDIA driver found (libcuda.so.1 is not installed)"


def test_fake_pointer_is_refused_by_the_gpu():
    if sgemm_steps.device_error() is not None:
        pytest.skip("no GPU: the pointer check of libsgemm_steps.so needs one")
    with pytest.raises(sgemm_steps.SgemmError) as e:
        sgemm_steps.run(1, FakeCAI((3, 4), ptr=4096), FakeCAI((4, 5), ptr=4096), FakeCAI((3, 5), ptr=4096))
    assert one_line(e).startswith("A is ")


# --- the GPU tests' comparison itself ------------------------------------------------------------

def test_comparison_fails_nan_inf_and_a_wrong_element():
    rng = np.random.default_rng(1)
    A, B = (rng.uniform(-1, 1, s).astype(np.float32) for s in ((7, 33), (33, 5)))
    ref = reference(A, B, None, 1.0, 0.0)
    good = (A @ B).astype(np.float32)
    assert mismatch(good, ref, 33, 1.0, 0.0) is None
    for bad_value in (np.nan, np.inf, good[2, 3] + 1e-3):
        bad = good.copy()
        bad[2, 3] = bad_value
        assert mismatch(bad, ref, 33, 1.0, 0.0).startswith("1 of 35 elements wrong; first at (2, 3)")


# --- the package's metadata ----------------------------------------------------------------------

PYPROJECT = REPO / "python" / "pyproject.toml"


def test_pyproject_metadata():
    toml = tomllib or pytest.importorskip("tomli", reason="Python 3.10 without tomli: pyproject.toml not read")
    project = toml.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    # the version is written once, in sgemm_steps/__init__.py, and pyproject reads it from there
    assert "version" not in project and "version" in project["dynamic"]
    written = [(p.name, m) for p in sorted((REPO / "python" / "sgemm_steps").glob("*.py"))
               for m in re.findall(r"^\s*__version__\s*=\s*(.*?)\s*(?:#.*)?$", p.read_text(encoding="utf-8"), re.M)]
    assert written == [("__init__.py", f'"{sgemm_steps.__version__}"')]
    # MIT, as the LICENSE file at the repository's root says
    assert (REPO / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")
    assert project["license"] == {"text": "MIT"}
    assert "License :: OSI Approved :: MIT License" in project["classifiers"]
    # the oldest Python the course supports: Ubuntu 22.04's python3, 3.10 (Debian 12's is 3.11.2)
    assert project["requires-python"] == ">=3.10"
    assert "numpy" in project["dependencies"]


def test_wheel_metadata_and_files(tmp_path):
    """The wheel setuptools builds from python/ (as pip install ./python does): the version from
    sgemm_steps.__version__, the licence, NumPy, and no capi.cu (it builds only in the repository)."""
    pytest.importorskip("setuptools", minversion="64", reason="no setuptools 64 or newer here: no wheel built")
    if not (importlib.util.find_spec("setuptools.command.bdist_wheel") or importlib.util.find_spec("wheel")):
        pytest.skip("setuptools older than 70.1 and no wheel package here: no wheel built")
    source = tmp_path / "python"
    shutil.copytree(REPO / "python", source, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "tests"))
    code = f"import setuptools.build_meta as b; print(b.build_wheel({str(tmp_path / 'dist')!r}))"
    out = subprocess.run([sys.executable, "-c", code], cwd=source, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    wheel = zipfile.ZipFile(tmp_path / "dist" / out.stdout.split()[-1])
    names = wheel.namelist()
    assert sorted(n for n in names if not n.startswith("sgemm_steps-")) == [
        "sgemm_steps/__init__.py", "sgemm_steps/_arrays.py", "sgemm_steps/_errors.py", "sgemm_steps/_lib.py"]
    metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    header = metadata.split("\n\n", 1)[0].splitlines()
    for line in (f"Version: {sgemm_steps.__version__}", "Requires-Python: >=3.10", "Requires-Dist: numpy",
                 "Classifier: License :: OSI Approved :: MIT License"):
        assert line in header, f"{line!r} not in the wheel's METADATA"
    assert "License: MIT" in header or "License-Expression: MIT" in header
