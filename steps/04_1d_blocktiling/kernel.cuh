/**
@file
@brief Step 04, 1D blocktiling: each thread computes a column of TM elements of C, so one value of B read from shared memory feeds TM FMAs.

The idea: in step 03 every FMA needed two shared-memory loads, and those loads, not the
FMAs, set the pace. Here a thread owns TM elements of C stacked in one column: at each k
it loads the one value of B they all need into a register and reuses it for TM FMAs, one
per row, with TM values of A. The block tile grows to (BM, BN) = (128, 64) computed by 512
threads, so each value copied from global memory also serves more FMAs.

@verbatim
  BM = 128 rows, BN = 64 columns, TM = 16: 512 threads, each owns 16 rows of one column.
  Thread t:  col = t % BN,  rows (t / BN) * TM ... (t / BN) * TM + TM - 1.

            col ->  0    1    2         63
        row      +----+----+----+ ... +----+
         0..15   | t0 | t1 | t2 |     | t63|     warps 0 and 1 (t0..t63) share rows 0..15:
        16..31   | t64| t65|    |     |t127|     at each k a warp loads 32 neighbouring
          :      |  : |  : |    |     |  : |     floats of B (one per thread) and 16
       112..127  |t448|t449|    |     |t511|     floats of A (the same for all 32
                 +----+----+----+ ... +----+     threads: broadcasts)

  Per k, per thread: 1 value of B into a register, TM values of A, TM FMAs
  (step 03: 1 load of B and 1 load of A per FMA).
@endverbatim

Template parameters: BM, BN - rows and columns of the block's tile of C; BK - the depth
of the shared-memory tiles; TM - rows of C per thread (the block has BM * BN / TM threads).

Preconditions: A (M x K), B (K x N) and C (M x N) are row-major and contiguous; M, N >= 1,
K >= 0. When beta == 0, C is only written, never read (it may hold NaN).

Build and run:  make step04 && ./step04 4096
*/
#pragma once

#include "device/cuda_check.cuh"
#include "launch/kernel_types.cuh"

namespace step04 {

/// C = alpha * A * B + beta * C, each thread computing TM elements of one column of C,
/// operands staged in shared memory one K-tile at a time; see the file comment.
template <int BM, int BN, int BK, int TM>
__global__ void __launch_bounds__(BM * BN / TM)
sgemm_1d_blocktiling(int M, int N, int K, float alpha, const float* __restrict__ A,
                     const float* __restrict__ B, float beta, float* __restrict__ C) {
    constexpr int kThreads = BM * BN / TM;
    __shared__ float As[BM][BK];  // (BM, BK) tile of A
    __shared__ float Bs[BK][BN];  // (BK, BN) tile of B

    const int m0 = blockIdx.y * BM;  // first row of this block's tile of C
    const int n0 = blockIdx.x * BN;  // first column
    const int row = threadIdx.x / BN * TM;  // this thread's TM elements: rows row..row+TM-1
    const int col = threadIdx.x % BN;       // of column col of the tile
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
    float acc[TM] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
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

        // exercise begin: TM results from each value of B
        for (int k = 0; k < BK; ++k) {
            const float b = Bs[k][col];  // one load of B, reused by TM FMAs
            for (int i = 0; i < TM; ++i) {
                acc[i] += As[row + i][k] * b;  // A: one address per warp (broadcast)
            }
        }
        // exercise end
        __syncthreads();  // 2: everyone has finished reading before the next copy overwrites
        A += BK;                           // the next K-tile: BK columns of A further right
        B += static_cast<size_t>(BK) * N;  // and BK rows of B further down
    }

    for (int i = 0; i < TM; ++i) {
        if (!inside && (m0 + row + i >= M || n0 + col >= N)) break;  // the next rows are outside too
        float* c = C + static_cast<size_t>(m0 + row + i) * N + n0 + col;
        *c = (beta == 0.0f) ? alpha * acc[i] : alpha * acc[i] + beta * *c;  // beta == 0: C is not read
    }
}

/// The one configuration this step is launched with.
struct Config {
    static constexpr int BM = 128; ///< rows of C per block
    static constexpr int BN = 64;  ///< columns of C per block
    static constexpr int BK = 16;  ///< depth of the A and B tiles in shared memory
    static constexpr int TM = 16;  ///< rows of C per thread
    static constexpr int kThreads = BM * BN / TM;  ///< threads per block
};
static_assert(Config::BM % Config::TM == 0, "the TM rows of every thread must tile BM");
static_assert(Config::kThreads <= 1024, "a block holds at most 1024 threads");
static_assert(Config::BN % 32 == 0, "a warp must lie in one row of threads, so its A reads broadcast");
static_assert((Config::BM + Config::BN) * Config::BK * sizeof(float) <= 48 * 1024,
              "static shared memory is limited to 48 KiB per block");

/// The kernel instance launch() runs; the harness reads its registers and occupancy.
inline constexpr auto kernel = sgemm_1d_blocktiling<Config::BM, Config::BN, Config::BK, Config::TM>;

/// Grid, block and shared memory for a slab of `rows` rows of an N-column C.
inline sgemm::LaunchGeometry geometry(int rows, int N) {
    return {dim3(sgemm::ceil_div(N, Config::BN), sgemm::ceil_div(rows, Config::BM)),
            dim3(Config::kThreads), 0};
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

}  // namespace step04
