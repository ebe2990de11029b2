/**
@file
@brief Step 02, coalescing: the naive kernel with the thread mapping that makes a warp read contiguous memory.

The idea: the same one-thread-per-element kernel as step 01, with one change: consecutive
threads of a block now take consecutive *columns* of C. A warp then reads one value of A
(the same address for all 32 threads, a broadcast) and 32 neighbouring floats of B (one
128-byte line when N is a multiple of 32, else two), and writes 32 neighbouring floats of C:
every access of the warp is coalesced.

@verbatim
  One block computes a BM x BN tile of C with BM * BN threads (BM = BN = 32: 1024 threads).

          col ->   0     1     2         31
        row     +-----+-----+-----+ ... +------+
         0      |  t0 |  t1 |  t2 |     |  t31 |     t = threadIdx.x
         1      | t32 | t33 | t34 |     |  t63 |     row = t / BN, col = t % BN
         2      | t64 | t65 |     |     |      |
         :      |  :  |  :  |     |     |      |     warp 0 = t0..t31 fills row 0:
        31      | t992| t993|     |     | t1023|     it reads 32 neighbouring floats of B
                +-----+-----+-----+ ... +------+     and writes 32 neighbouring floats of C
@endverbatim

Template parameters: BM, BN - rows and columns of the block's tile of C; the block has
BM * BN threads, one per element.

Preconditions: A (M x K), B (K x N) and C (M x N) are row-major and contiguous; M, N >= 1,
K >= 0. When beta == 0, C is only written, never read (it may hold NaN).

Build and run:  make step02 && ./step02 4096
*/
#pragma once

#include "device/cuda_check.cuh"
#include "launch/kernel_types.cuh"

namespace step02 {

/// C = alpha * A * B + beta * C with one thread per element of C; see the file comment.
template <int BM, int BN>
__global__ void __launch_bounds__(BM * BN)
sgemm_coalesced(int M, int N, int K, float alpha, const float* __restrict__ A,
                const float* __restrict__ B, float beta, float* __restrict__ C) {
    // thread -> element of C: consecutive threads walk ALONG a row (coalesced)
    // exercise begin: which element of C this thread computes
    const int row = blockIdx.y * BM + threadIdx.x / BN;
    const int col = blockIdx.x * BN + threadIdx.x % BN;
    // exercise end
    if (row >= M || col >= N) return;  // only blocks on the bottom/right edge have such threads

    const float* a = A + static_cast<size_t>(row) * K;  // (1, K) row `row` of A
    const float* b = B + col;                           // (K, 1) column `col` of B, stride N
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) {
        acc += a[k] * b[static_cast<size_t>(k) * N];
    }

    float* c = C + static_cast<size_t>(row) * N + col;
    *c = (beta == 0.0f) ? alpha * acc : alpha * acc + beta * *c;  // beta == 0: C is not read
}

/// The one configuration this step is launched with.
struct Config {
    static constexpr int BM = 32;  ///< rows of C per block
    static constexpr int BN = 32;  ///< columns of C per block
};
static_assert(Config::BM * Config::BN <= 1024, "a block holds at most 1024 threads");

/// The kernel instance launch() runs; the harness reads its registers and occupancy.
inline constexpr auto kernel = sgemm_coalesced<Config::BM, Config::BN>;

/// Grid, block and shared memory for a slab of `rows` rows of an N-column C.
inline sgemm::LaunchGeometry geometry(int rows, int N) {
    return {dim3(sgemm::ceil_div(N, Config::BN), sgemm::ceil_div(rows, Config::BM)),
            dim3(Config::BM * Config::BN), 0};
}

/// C = alpha * A * B + beta * C for row-major A (M x K), B (K x N), C (M x N), on `stream`.
inline void launch(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                   float* C, cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;  // empty C: touch nothing
    sgemm::for_each_row_slab<Config::BM>(M, [&](size_t m0, int rows) {
        const sgemm::LaunchGeometry g = geometry(rows, N);
        kernel<<<g.grid, g.block, g.smem_bytes, stream>>>(rows, N, K, alpha, A + m0 * K, B, beta,
                                                          C + m0 * N);
        CUDA_CHECK(cudaGetLastError());
    });
}

}  // namespace step02
