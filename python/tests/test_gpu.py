"""GPU tests: every step through sgemm_steps.run against a float64 NumPy product, at shapes that
break tile assumptions, through NumPy arrays, PyTorch tensors (by __cuda_array_interface__ and by
DLPack alone), CuPy and Numba arrays. Without a GPU the whole file skips with one line; each kind
of array whose package is missing skips with one line."""
import itertools
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sgemm_steps
from gemm_check import mismatch, reference

_reason = sgemm_steps.device_error()
if _reason is not None:
    pytest.skip(f"GPU tests skipped: {_reason}", allow_module_level=True)

SIZES = (1, 7, 33, 127, 129)
SHAPES = list(itertools.product(SIZES, SIZES, SIZES)) + [(1000, 7, 33), (7, 1000, 33), (1000, 7, 1), (300, 200, 1)]
ALPHA_BETA = [(1.0, 0.0), (0.75, -1.25)]
STEPS = [s.number for s in sgemm_steps.steps()]
ARITHMETIC = {s.number: s.arithmetic for s in sgemm_steps.steps()}


class DLPackOnly:
    """A torch CUDA tensor seen through DLPack alone (no __cuda_array_interface__)."""

    def __init__(self, t):
        self.t = t

    def __dlpack__(self, stream=None):
        return self.t.__dlpack__()

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


def skip_unless_it_runs_here(step):
    """Steps 11 and 12 need TF32 tensor cores (sm_80): on an older GPU (a T4) their refusal is
    the one line this test is skipped with; every other failure is the test's to report."""
    try:
        sgemm_steps.run(step, np.ones((1, 1), np.float32), np.ones((1, 1), np.float32))
    except sgemm_steps.SgemmError as e:
        if "sm_80 or newer" in str(e):
            pytest.skip(str(e))
        raise


def _kind_numpy():
    return (lambda a: a.copy()), (lambda x: x), (lambda shape: np.full(shape, np.nan, np.float32))


def _kind_torch(dlpack=False):
    torch = pytest.importorskip("torch", reason="PyTorch not installed: its GPU tests not run")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA here: its GPU tests not run")
    wrap = DLPackOnly if dlpack else (lambda t: t)
    return ((lambda a: wrap(torch.from_numpy(a).cuda())),
            (lambda x: (x.t if dlpack else x).cpu().numpy()),
            (lambda shape: wrap(torch.full(shape, float("nan"), dtype=torch.float32, device="cuda"))))


def _kind_cupy():
    cupy = pytest.importorskip("cupy", reason="CuPy not installed: its GPU tests not run")
    return cupy.asarray, cupy.asnumpy, (lambda shape: cupy.full(shape, np.nan, dtype=cupy.float32))


def _kind_numba():
    cuda = pytest.importorskip("numba.cuda", reason="Numba not installed: its GPU tests not run")
    return (cuda.to_device, (lambda x: x.copy_to_host()),
            (lambda shape: cuda.to_device(np.full(shape, np.nan, np.float32))))


KINDS = {"numpy": _kind_numpy, "torch": _kind_torch, "torch-dlpack": lambda: _kind_torch(dlpack=True),
         "cupy": _kind_cupy, "numba": _kind_numba}


@pytest.fixture(params=list(KINDS))
def kind(request):
    """(to_kind(numpy array), to_numpy(array), nan_array(shape)) of one kind of array."""
    return KINDS[request.param]()


@pytest.mark.parametrize("alpha, beta", ALPHA_BETA, ids=["a1b0", "a.75b-1.25"])
@pytest.mark.parametrize("step", STEPS, ids=[f"step{n:02d}" for n in STEPS])
def test_every_shape(step, alpha, beta, kind):
    skip_unless_it_runs_here(step)
    to_kind, to_numpy, nan_array = kind
    rng = np.random.default_rng(step)
    for M, N, K in SHAPES:
        A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
        B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
        C0 = rng.uniform(-1, 1, (M, N)).astype(np.float32)
        # beta == 0: C starts as NaN, so an element the kernel never writes (or reads) fails
        C = nan_array((M, N)) if beta == 0 else to_kind(C0)
        out = sgemm_steps.run(step, to_kind(A), to_kind(B), C, alpha=alpha, beta=beta)
        assert out is C
        problem = mismatch(to_numpy(C), reference(A, B, C0, alpha, beta), K, alpha, beta,
                           arithmetic=ARITHMETIC[step])
        assert problem is None, f"step {step:02d} at M x N x K = {M} x {N} x {K}: {problem}"


@pytest.mark.parametrize("kind_name", ["numpy", "torch", "cupy", "numba"])
def test_new_C_is_of_the_inputs_kind(kind_name):
    to_kind, to_numpy, _ = KINDS[kind_name]()
    rng = np.random.default_rng(0)
    A = rng.uniform(-1, 1, (65, 129)).astype(np.float32)
    B = rng.uniform(-1, 1, (129, 33)).astype(np.float32)
    a = to_kind(A)
    C = sgemm_steps.run("step10", a, to_kind(B))
    assert type(C) is type(a)
    assert mismatch(to_numpy(C), reference(A, B, None, 1.0, 0.0), 129, 1.0, 0.0) is None


def test_torch_result_is_ready_when_run_returns():
    torch = pytest.importorskip("torch", reason="PyTorch not installed: its GPU tests not run")
    a = torch.rand(257, 300, device="cuda")
    b = torch.rand(300, 129, device="cuda")
    c = sgemm_steps.run(9, a, b)
    ref = (a.double() @ b.double()).cpu().numpy()
    assert mismatch(c.cpu().numpy(), ref, 300, 1.0, 0.0) is None


def test_numpy_K_zero_scales_C():
    C = np.ones((3, 4), np.float32)
    sgemm_steps.run(10, np.zeros((3, 0), np.float32), np.zeros((0, 4), np.float32), C, alpha=1.0, beta=2.0)
    assert (C == 2.0).all()


def test_host_pointer_in_cuda_array_interface_is_refused():
    host = np.zeros((4, 4), np.float32)

    class HostCAI:
        __cuda_array_interface__ = {"shape": (4, 4), "typestr": "<f4", "strides": None,
                                    "data": (host.ctypes.data, False), "version": 3}

    with pytest.raises(sgemm_steps.SgemmError) as e:
        sgemm_steps.run(1, HostCAI(), HostCAI(), HostCAI())
    assert str(e.value).startswith("A is ") and "\n" not in str(e.value)


@pytest.mark.parametrize("step", STEPS, ids=[f"step{n:02d}" for n in STEPS])
def test_bench_reports_the_figures(step):
    skip_unless_it_runs_here(step)
    r = sgemm_steps.bench(step, 512, 256, 384, warmup=1, reps=3)
    assert r.verified, f"{r.step} failed verification against cuBLAS at 512 x 256 x 384"
    assert r.median_ms > 0 and r.best_ms <= r.median_ms and r.cublas_median_ms > 0
    assert r.gflops == pytest.approx(2 * 512 * 256 * 384 / (r.median_ms * 1e-3) / 1e9)
    assert r.pct_of_cublas == pytest.approx(100 * r.gflops / r.cublas_gflops)
    assert r.cublas_mode in ("DEFAULT", "PEDANTIC")


# A fresh interpreter: the library reads SGEMM_GPU_CLASS once, when it first asks which GPU is in
# force, and this process has asked already. Step 10 runs under the forced class; Part II refuses.
FORCED_SM_75 = """
import numpy as np, sgemm_steps
A = np.ones((64, 64), np.float32)
print("step10", float(sgemm_steps.run(10, A, A)[0, 0]))
try:
    sgemm_steps.run({step}, A, A)
    print("ran")
except sgemm_steps.SgemmError as e:
    print(type(e).__name__, e)
"""


@pytest.mark.parametrize("step", [s.number for s in sgemm_steps.steps() if s.arithmetic != "FP32"])
def test_part_two_refuses_a_forced_sm_75_in_one_line(step):
    env = dict(os.environ, SGEMM_GPU_CLASS="sm_75",
               PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", FORCED_SM_75.format(step=step)], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    ran10, refusal = out.stdout.splitlines()  # two lines: the refusal is one
    assert ran10 == "step10 64.0", ran10
    assert refusal.startswith(f"SgemmError step{step:02d} needs TF32 tensor cores (sm_80 or newer); this GPU, "), refusal
    assert refusal.endswith(", is sm_75 (forced by SGEMM_GPU_CLASS)"), refusal

