/**
@file
@brief Step 01, naive: one thread per element of C, mapped so that a warp's loads are uncoalesced.

The idea: every thread computes one element of C as the dot product of a row of A and a
column of B, reading both straight from global memory. Consecutive threads of a block take
consecutive *rows* of C, so the 32 threads of a warp read 32 different rows of A, K floats
apart: each warp-wide load of A fetches 32 separate 32-byte sectors to use 4 bytes of each
(the load of B is a broadcast of one float).

@verbatim
  One block computes a BM x BN tile of C with BM * BN threads (BM = BN = 32: 1024 threads).

          col ->   0     1     2         31
        row     +-----+-----+-----+ ... +------+
         0      |  t0 | t32 | t64 |     | t992 |     t = threadIdx.x
         1      |  t1 | t33 | t65 |     | t993 |     row = t % BM, col = t / BM
         2      |  t2 | t34 |     |     |      |
         :      |  :  |  :  |     |     |      |     warp 0 = t0..t31 fills column 0:
        31      | t31 | t63 |     |     | t1023|     it reads 32 rows of A (K floats apart)
                +-----+-----+-----+ ... +------+     and writes 32 rows of C (N floats apart)
@endverbatim

Template parameters: BM, BN - rows and columns of the block's tile of C; the block has
BM * BN threads, one per element.

Preconditions: A (M x K), B (K x N) and C (M x N) are row-major and contiguous; M, N >= 1,
K >= 0. When beta == 0, C is only written, never read (it may hold NaN).

Build and run:  make step01 && ./step01 4096
*/
#pragma once

#include "device/cuda_check.cuh"
#include "launch/kernel_types.cuh"

namespace step01 {

/// C = alpha * A * B + beta * C with one thread per element of C; see the file comment.
template <int BM, int BN>
__global__ void __launch_bounds__(BM * BN)
sgemm_naive(int M, int N, int K, float alpha, const float* __restrict__ A,
            const float* __restrict__ B, float beta, float* __restrict__ C) {
    // thread -> element of C: consecutive threads walk DOWN a column (uncoalesced)
    const int row = blockIdx.y * BM + threadIdx.x % BM;
    const int col = blockIdx.x * BN + threadIdx.x / BM;
    if (row >= M || col >= N) return;  // only blocks on the bottom/right edge have such threads

    const float* a = A + static_cast<size_t>(row) * K;  // (1, K) row `row` of A
    const float* b = B + col;                           // (K, 1) column `col` of B, stride N
    float acc = 0.0f;
    // exercise begin: the dot product
    for (int k = 0; k < K; ++k) {
        acc += a[k] * b[static_cast<size_t>(k) * N];
    }
    // exercise end

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
inline constexpr auto kernel = sgemm_naive<Config::BM, Config::BN>;

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

}  // namespace step01
