/**
@file
@brief Step 05, 2D blocktiling: each thread computes a TM x TN tile of C as a sum of outer products of a column of A and a row of B held in registers.

The idea: in step 04 a thread reused each value of B for TM FMAs, but still loaded one
value of A per FMA. Here a thread owns a TM x TN tile of C: at each k it loads TM values
of A and TN values of B into registers and does all TM * TN FMAs of their outer product,
so TM + TN loads feed TM * TN FMAs. The TM * TN accumulators live in registers too, which
is what limits how far this can go: register pressure.

@verbatim
  BM = 64, BN = 128, TM = TN = 8: 8 x 16 = 128 threads, each owns an 8 x 8 tile of C.
  Thread t:  rows (t / 16) * TM ... + TM - 1,  columns (t % 16) * TN ... + TN - 1.

           col ->  0..7  8..15        120..127
        row      +------+------+ ... +------+
          0..7   |  t0  |  t1  |     |  t15 |      at each k thread t1 loads
          8..15  |  t16 |  t17 |     |  t31 |        a = As[0..7][k]    (TM values of A)
           :     |   :  |   :  |     |   :  |        b = Bs[k][8..15]   (TN values of B)
         56..63  | t112 | t113 |     | t127 |      and adds the outer product a x b
                 +------+------+ ... +------+      to its 8 x 8 accumulators

  Per k, per thread: TM + TN = 16 loads from shared memory, TM * TN = 64 FMAs
  (step 04: 1 + TM = 17 loads for TM = 16 FMAs).
@endverbatim

Template parameters: BM, BN - rows and columns of the block's tile of C; BK - the depth
of the shared-memory tiles; TM, TN - rows and columns of C per thread (the block has
(BM / TM) * (BN / TN) threads).

Preconditions: A (M x K), B (K x N) and C (M x N) are row-major and contiguous; M, N >= 1,
K >= 0. When beta == 0, C is only written, never read (it may hold NaN).

Build and run:  make step05 && ./step05 4096
*/
#pragma once

#include "device/cuda_check.cuh"
#include "launch/kernel_types.cuh"

namespace step05 {

/// C = alpha * A * B + beta * C, each thread computing a TM x TN tile of C from register
/// fragments, operands staged in shared memory one K-tile at a time; see the file comment.
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_2d_blocktiling(int M, int N, int K, float alpha, const float* __restrict__ A,
                     const float* __restrict__ B, float beta, float* __restrict__ C) {
    constexpr int kThreads = (BM / TM) * (BN / TN);
    __shared__ float As[BM][BK];  // (BM, BK) tile of A
    __shared__ float Bs[BK][BN];  // (BK, BN) tile of B

    const int m0 = blockIdx.y * BM;  // first row of this block's tile of C
    const int n0 = blockIdx.x * BN;  // first column
    const int row = threadIdx.x / (BN / TN) * TM;  // this thread's TM x TN elements: rows
    const int col = threadIdx.x % (BN / TN) * TN;  // row..row+TM-1, columns col..col+TN-1
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
    float acc[TM][TN] = {};
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

        // exercise begin: the outer product
#pragma unroll  // straight-line code: loads for step k + 1 can go out while step k's FMAs run
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];  // register fragments: a column of A, a row of B
            for (int i = 0; i < TM; ++i) a[i] = As[row + i][k];
            for (int j = 0; j < TN; ++j) b[j] = Bs[k][col + j];
            for (int i = 0; i < TM; ++i) {
                for (int j = 0; j < TN; ++j) {
                    acc[i][j] += a[i] * b[j];  // outer product: TM * TN FMAs from TM + TN loads
                }
            }
        }
        // exercise end
        __syncthreads();  // 2: everyone has finished reading before the next copy overwrites
        A += BK;                           // the next K-tile: BK columns of A further right
        B += static_cast<size_t>(BK) * N;  // and BK rows of B further down
    }

    for (int i = 0; i < TM; ++i) {
        if (!inside && m0 + row + i >= M) break;  // the next rows are outside too
        for (int j = 0; j < TN; ++j) {
            if (!inside && n0 + col + j >= N) break;
            float* c = C + static_cast<size_t>(m0 + row + i) * N + n0 + col + j;
            *c = (beta == 0.0f) ? alpha * acc[i][j] : alpha * acc[i][j] + beta * *c;  // beta == 0: C is not read
        }
    }
}

/// The one configuration this step is launched with.
struct Config {
    static constexpr int BM = 64;   ///< rows of C per block
    static constexpr int BN = 128;  ///< columns of C per block
    static constexpr int BK = 32;   ///< depth of the A and B tiles in shared memory
    static constexpr int TM = 8;    ///< rows of C per thread
    static constexpr int TN = 8;    ///< columns of C per thread
    static constexpr int kThreads = (BM / TM) * (BN / TN);  ///< threads per block
};
static_assert(Config::BM % Config::TM == 0 && Config::BN % Config::TN == 0,
              "the TM x TN tiles of the threads must tile the block tile");
static_assert(Config::kThreads <= 1024, "a block holds at most 1024 threads");
static_assert((Config::BM + Config::BN) * Config::BK * sizeof(float) <= 48 * 1024,
              "static shared memory is limited to 48 KiB per block");

/// The kernel instance launch() runs; the harness reads its registers and occupancy.
inline constexpr auto kernel =
    sgemm_2d_blocktiling<Config::BM, Config::BN, Config::BK, Config::TM, Config::TN>;

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

}  // namespace step05
