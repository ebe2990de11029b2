/**
@file
@brief Step 03, shared memory: a block copies a tile of A and a tile of B into shared memory, then every thread reads its operands from there.

The idea: the 32 threads of a row of the block all need the same row of A, and the 32
threads of a column all need the same column of B; in step 02 each of them fetched it
from global memory on its own. Here the block walks along K one (BM, BK) tile of A and one
(BK, BN) tile of B at a time: it copies both into shared memory once, waits at a barrier,
computes BK terms of every dot product from the fast on-chip copy, and waits again before
the copy is overwritten.

@verbatim
  Thread t of the block owns one element of C, as in step 02:  row = t / BN, col = t % BN.

            A tile (BM x BK)           B tile (BK x BN)            C tile (BM x BN)
            k ->                       col ->                      col ->
        row +----------------+       k +----------------+      row +----------------+
            | t0   ...   t31 |         | t0   ...   t31 |          | t0   ...   t31 |
            | t32  ...   t63 |         | t32  ...   t63 |          | t32  ...   t63 |
            |  :          :  |         |  :          :  |          |  :          :  |
            +----------------+         +----------------+          +----------------+
        copy: thread t stores one      copy: thread t stores       compute: thread t reads
        float of each tile, at the     one float, the same way     row `row` of the A tile
        same (t / 32, t % 32) place                                and column `col` of the
                                                                   B tile: BK FMAs
        Drawn for BK = 32. The step runs with BM = BN = 32 and BK = 128: the block copies
        the A tile in 4 passes of 8 rows x 128 floats, the B tile in 4 passes of 32 rows.
@endverbatim

Template parameters: BM, BN - rows and columns of the block's tile of C (BM * BN threads,
one per element); BK - the depth of the tiles staged in shared memory per step along K.

Preconditions: A (M x K), B (K x N) and C (M x N) are row-major and contiguous; M, N >= 1,
K >= 0. When beta == 0, C is only written, never read (it may hold NaN).

Build and run:  make step03 && ./step03 4096
*/
#pragma once

#include "device/cuda_check.cuh"
#include "launch/kernel_types.cuh"

namespace step03 {

/// C = alpha * A * B + beta * C, one thread per element of C, operands staged in shared
/// memory one K-tile at a time; see the file comment.
template <int BM, int BN, int BK>
__global__ void __launch_bounds__(BM * BN)
sgemm_shared(int M, int N, int K, float alpha, const float* __restrict__ A,
             const float* __restrict__ B, float beta, float* __restrict__ C) {
    constexpr int kThreads = BM * BN;
    __shared__ float As[BM][BK];  // (BM, BK) tile of A
    __shared__ float Bs[BK][BN];  // (BK, BN) tile of B

    const int m0 = blockIdx.y * BM;  // first row of this block's tile of C
    const int n0 = blockIdx.x * BN;  // first column
    const int row = threadIdx.x / BN;  // this thread's element of the tile, as in step 02
    const int col = threadIdx.x % BN;
    // A block whose tile lies wholly inside C copies full tiles without bounds checks
    // (except for a last, partial K-tile); only blocks on the bottom/right edge check.
    const bool inside = m0 + BM <= M && n0 + BN <= N;

    // This thread's part of every copy: column a_col of rows a_row, a_row + kStrideA, ... of
    // the A tile, and likewise for B. Consecutive threads copy consecutive floats of a row of
    // the tile (coalesced), and the offsets stay the same for every K-tile.
    constexpr int kStrideA = kThreads / BK, kStrideB = kThreads / BN;  // rows copied per pass
    static_assert(kThreads % BK == 0 && BM % kStrideA == 0 && kThreads % BN == 0 &&
                      BK % kStrideB == 0, "the threads copy each tile in whole passes");
    const int a_row = threadIdx.x / BK, a_col = threadIdx.x % BK;
    const int b_row = threadIdx.x / BN, b_col = threadIdx.x % BN;
    A += static_cast<size_t>(m0) * K;  // (BM, K) rows of A this block reads
    B += n0;                           // (K, BN) columns of B
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        // exercise begin: stage a K-tile in shared memory and use it
        if (inside && k0 + BK <= K) {
            for (int r = 0; r < BM; r += kStrideA)
                As[a_row + r][a_col] = A[static_cast<size_t>(a_row + r) * K + a_col];
            for (int r = 0; r < BK; r += kStrideB)
                Bs[b_row + r][b_col] = B[static_cast<size_t>(b_row + r) * N + b_col];
        } else {  // edge: what lies outside A or B reads as 0 and adds nothing
            for (int r = 0; r < BM; r += kStrideA)
                As[a_row + r][a_col] = (m0 + a_row + r < M && k0 + a_col < K)
                                           ? A[static_cast<size_t>(a_row + r) * K + a_col] : 0.0f;
            for (int r = 0; r < BK; r += kStrideB)
                Bs[b_row + r][b_col] = (k0 + b_row + r < K && n0 + b_col < N)
                                           ? B[static_cast<size_t>(b_row + r) * N + b_col] : 0.0f;
        }
        __syncthreads();  // 1: the tiles are complete before anyone reads them

        for (int k = 0; k < BK; ++k) {
            acc += As[row][k] * Bs[k][col];  // A: one address per warp (broadcast); B: 32 banks
        }
        __syncthreads();  // 2: everyone has finished reading before the next copy overwrites
        // exercise end
        A += BK;                           // the next K-tile: BK columns of A further right
        B += static_cast<size_t>(BK) * N;  // and BK rows of B further down
    }

    // After the loop, because every thread had to help copy; inside blocks skip the check.
    if (!inside && (m0 + row >= M || n0 + col >= N)) return;
    float* c = C + static_cast<size_t>(m0 + row) * N + n0 + col;
    *c = (beta == 0.0f) ? alpha * acc : alpha * acc + beta * *c;  // beta == 0: C is not read
}

/// The one configuration this step is launched with.
struct Config {
    static constexpr int BM = 32;  ///< rows of C per block
    static constexpr int BN = 32;  ///< columns of C per block
    static constexpr int BK = 128; ///< depth of the A and B tiles in shared memory
};
static_assert(Config::BM * Config::BN <= 1024, "a block holds at most 1024 threads");
static_assert(Config::BN % 32 == 0, "a warp must lie in one row of the tile, so its A reads broadcast");
static_assert((Config::BM + Config::BN) * Config::BK * sizeof(float) <= 48 * 1024,
              "static shared memory is limited to 48 KiB per block");

/// The kernel instance launch() runs; the harness reads its registers and occupancy.
inline constexpr auto kernel = sgemm_shared<Config::BM, Config::BN, Config::BK>;

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

}  // namespace step03
