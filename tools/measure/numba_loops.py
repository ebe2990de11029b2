#!/usr/bin/env python3
"""Why the notebook's Numba kernels loop with `while k < K`: steps 01 and 02 in Numba's CUDA
Python, each written with a `for k in range(K)` loop and with a `while` loop, timed at 2048^3
(the notebook's size) with CUDA events, median of 10 runs after one warm-up, and checked
against a float64 product on C's top-left 64 x 64 corner. Beside each: its registers and the
`selp` (select) instructions in its PTX, where a range loop's bookkeeping shows.

Writes DIR/numba_loops_<gpu>.txt with the GPU, driver, CUDA, Numba, date and commit on top.
usage: python3 tools/measure/numba_loops.py DIR   (needs Numba with its CUDA target)
"""
import sys
from pathlib import Path

import numpy as np

if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack  # NumPy 2.5 removed it; numba-cuda 0.30 registers it (NVIDIA/numba-cuda#907)

from numba import __version__ as numba_version
from numba import cuda

from bench import gpu_meta  # tools/measure/bench.py: the GPU, driver, CUDA and commit every results file records

TILE = 32
SIZE = 2048


@cuda.jit
def naive_range(M, N, K, A, B, C):
    row = cuda.blockIdx.y * TILE + cuda.threadIdx.x  # consecutive threads, consecutive rows
    col = cuda.blockIdx.x * TILE + cuda.threadIdx.y
    if row < M and col < N:
        acc = np.float32(0.0)
        for k in range(K):
            acc += A[row, k] * B[k, col]
        C[row, col] = acc


@cuda.jit
def naive_while(M, N, K, A, B, C):
    row = cuda.blockIdx.y * TILE + cuda.threadIdx.x
    col = cuda.blockIdx.x * TILE + cuda.threadIdx.y
    if row < M and col < N:
        acc = np.float32(0.0)
        k = 0
        while k < K:
            acc += A[row, k] * B[k, col]
            k += 1
        C[row, col] = acc


@cuda.jit
def coalesced_range(M, N, K, A, B, C):
    row = cuda.blockIdx.y * TILE + cuda.threadIdx.y
    col = cuda.blockIdx.x * TILE + cuda.threadIdx.x  # consecutive threads, consecutive columns
    if row < M and col < N:
        acc = np.float32(0.0)
        for k in range(K):
            acc += A[row, k] * B[k, col]
        C[row, col] = acc


@cuda.jit
def coalesced_while(M, N, K, A, B, C):
    row = cuda.blockIdx.y * TILE + cuda.threadIdx.y
    col = cuda.blockIdx.x * TILE + cuda.threadIdx.x
    if row < M and col < N:
        acc = np.float32(0.0)
        k = 0
        while k < K:
            acc += A[row, k] * B[k, col]
            k += 1
        C[row, col] = acc


def main():
    if len(sys.argv) != 2:
        print("usage: python3 tools/measure/numba_loops.py DIR")
        return 2
    if not cuda.is_available():
        print("numba_loops.py: Numba finds no CUDA GPU")
        return 2
    n = SIZE
    rng = np.random.default_rng(42)
    A = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    B = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    ref = A[:64].astype(np.float64) @ B[:, :64].astype(np.float64)
    dA, dB, dC = cuda.to_device(A), cuda.to_device(B), cuda.device_array((n, n), np.float32)
    grid, block = (n // TILE, n // TILE), (TILE, TILE)

    rows, status = [], 0
    for name, kernel in (("step 01, for k in range(K)", naive_range), ("step 01, while k < K", naive_while),
                         ("step 02, for k in range(K)", coalesced_range), ("step 02, while k < K", coalesced_while)):
        kernel[grid, block](n, n, n, dA, dB, dC)  # compile and warm up
        cuda.synchronize()
        ok = np.allclose(dC.copy_to_host()[:64, :64], ref, atol=1e-3 * n ** 0.5)
        status |= not ok
        times = []
        for _ in range(10):
            start, stop = cuda.event(), cuda.event()
            start.record()
            kernel[grid, block](n, n, n, dA, dB, dC)
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop))
        ms = float(np.median(times))
        ptx = next(iter(kernel.inspect_asm().values()))
        regs = next(iter(kernel.get_regs_per_thread().values()))
        rows.append(f"{name:<28}{2.0 * n ** 3 / (ms * 1e-3) / 1e9:>10,.0f}{ms:>10.2f}{regs:>6}"
                    f"{ptx.count('selp.'):>6}  {'pass' if ok else 'FAIL'}")

    meta = gpu_meta()
    text = "\n".join([
        "# tools/measure/numba_loops.py: steps 01 and 02 in Numba, range loop against while loop, "
        f"{n}^3, median of 10",
        f"# {meta['stamp']}; Numba {numba_version}, NumPy {np.__version__}",
        "",
        f"{'kernel':<28}{'GFLOP/s':>10}{'ms':>10}{'regs':>6}{'selp':>6}  check",
        *rows,
    ]) + "\n"
    out = Path(sys.argv[1]) / f"numba_loops_{meta['slug']}.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print(text, end="")
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main())
