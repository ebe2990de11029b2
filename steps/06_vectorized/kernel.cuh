/**
@file
@brief Step 06, vectorized: 16-byte loads and stores (float4) between global memory, shared memory and registers, with A stored transposed in shared memory.

The idea: step 05 moves every float with its own 4-byte instruction. Here each instruction
moves four neighbouring floats: one 16-byte load (LDG.E.128) brings four floats of a row of
A or B from global memory, B goes to shared memory with one 16-byte store (STS.128), and the
fragments come out with 16-byte loads (LDS.128). A thread's TM values of A sit in a column
of the A tile, so the A tile is stored transposed, (BK, BM): the column becomes a row, and
its TM floats are neighbours. C is written four floats at a time.

@verbatim
  Copy of one K-tile (BM = 64, BN = 128, BK = 32, 128 threads). A thread loads one float4
  per pass: A in 4 passes of 16 rows, B in 8 passes of 4 rows.

     A tile in global memory (BM x BK)          As in shared memory, transposed (BK x BM)
            k -> 0..3  4..7        28..31                 m ->  0    1        63
        m  0   [ t0 ][ t1 ] ...  [ t7 ]    one LDG.128    k  0   [ t0 ][ t8 ] ...
           1   [ t8 ][ t9 ] ...  [ t15]    per pass,         1   [ t0 ][ t8 ] ...
           :                               then 4 scalar     2   [ t0 ][ t8 ] ...
          15   [t120][t121] ...  [t127]    stores down a     3   [ t0 ][ t8 ] ...
          16   [ t0 ][ t1 ] ... (pass 2)   column of As      4   [ t1 ][ t9 ] ...

     B tile (BK x BN): row k, floats c..c+3 -> one LDG.128 and one STS.128, same place.

  Compute, per k: a[0..7] = As[k][row..row+7]  (2 x LDS.128)     same threads and
                  b[0..7] = Bs[k][col..col+7]  (2 x LDS.128)     elements of C as in
  and C is written as float4s (2 x STG.128 per row of the thread's tile).   step 05
@endverbatim

Template parameters: BM, BN - rows and columns of the block's tile of C; BK - the depth
of the shared-memory tiles; TM, TN - rows and columns of C per thread (the block has
(BM / TM) * (BN / TN) threads); kVector - use 16-byte global loads and stores. The launcher
picks kVector = true only when every row of A, B and C starts on a 16-byte boundary (K and
N multiples of 4, aligned pointers); otherwise the same kernel moves global data one float
at a time (the scalar fallback), and shared memory is used the same way.

Preconditions: A (M x K), B (K x N) and C (M x N) are row-major and contiguous; M, N >= 1,
K >= 0. When beta == 0, C is only written, never read (it may hold NaN).

Build and run:  make step06 && ./step06 4096
*/
#pragma once

#include "device/cuda_check.cuh"
#include "launch/kernel_types.cuh"

#include <cstdint>

namespace step06 {

/// The four floats p[0..3], of which only the first `n` exist (n <= 0: none); the others
/// read as 0. kVector: one 16-byte load, for p 16-byte aligned and n either <= 0 or >= 4.
template <bool kVector>
__device__ __forceinline__ float4 load4(const float* p, int n) {
    if (kVector) return n >= 4 ? *reinterpret_cast<const float4*>(p) : make_float4(0.f, 0.f, 0.f, 0.f);
    return make_float4(n > 0 ? p[0] : 0.0f, n > 1 ? p[1] : 0.0f, n > 2 ? p[2] : 0.0f,
                       n > 3 ? p[3] : 0.0f);
}

/// p[j] = alpha * v[j] + beta * p[j] for the first `n` of the four floats at p (beta == 0:
/// p is not read). kVector: one 16-byte load and store, for p 16-byte aligned and n >= 4.
template <bool kVector>
__device__ __forceinline__ void store4(float* p, int n, float4 v, float alpha, float beta) {
    if (kVector) {
        float4 c = make_float4(alpha * v.x, alpha * v.y, alpha * v.z, alpha * v.w);
        if (beta != 0.0f) {
            const float4 old = *reinterpret_cast<const float4*>(p);
            c = make_float4(c.x + beta * old.x, c.y + beta * old.y, c.z + beta * old.z, c.w + beta * old.w);
        }
        *reinterpret_cast<float4*>(p) = c;
        return;
    }
    auto put = [&](int j, float x) {  // one float, written only if it exists
        if (j < n) p[j] = (beta == 0.0f) ? alpha * x : alpha * x + beta * p[j];
    };
    put(0, v.x), put(1, v.y), put(2, v.z), put(3, v.w);
}

/// C = alpha * A * B + beta * C as in step 05, moving four floats per instruction
/// (kVector) and with A transposed in shared memory; see the file comment.
template <int BM, int BN, int BK, int TM, int TN, bool kVector>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_vectorized(int M, int N, int K, float alpha, const float* __restrict__ A,
                 const float* __restrict__ B, float beta, float* __restrict__ C) {
    constexpr int kThreads = (BM / TM) * (BN / TN);
    __shared__ alignas(16) float As[BK][BM];  // (BM, BK) tile of A, stored transposed
    __shared__ alignas(16) float Bs[BK][BN];  // (BK, BN) tile of B

    const int m0 = blockIdx.y * BM;  // first row of this block's tile of C
    const int n0 = blockIdx.x * BN;  // first column
    const int row = threadIdx.x / (BN / TN) * TM;  // this thread's TM x TN elements: rows
    const int col = threadIdx.x % (BN / TN) * TN;  // row..row+TM-1, columns col..col+TN-1
    // A block whose tile lies wholly inside C copies full tiles without bounds checks
    // (except for a last, partial K-tile); only blocks on the bottom/right edge check.
    const bool inside = m0 + BM <= M && n0 + BN <= N;

    // This thread's part of every copy: the float4 at column a_col of rows a_row,
    // a_row + kStrideA, ... of the A tile, and likewise for B. Consecutive threads copy
    // consecutive float4s of a row of the tile (coalesced); the offsets stay the same for
    // every K-tile.
    constexpr int kStrideA = kThreads / (BK / 4), kStrideB = kThreads / (BN / 4);
    static_assert(kThreads % (BK / 4) == 0 && BM % kStrideA == 0 && kThreads % (BN / 4) == 0 &&
                      BK % kStrideB == 0, "the threads copy each tile in whole passes");
    const int a_row = threadIdx.x / (BK / 4), a_col = threadIdx.x % (BK / 4) * 4;
    const int b_row = threadIdx.x / (BN / 4), b_col = threadIdx.x % (BN / 4) * 4;
    A += static_cast<size_t>(m0) * K;  // (BM, K) rows of A this block reads
    B += n0;                           // (K, BN) columns of B
    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (inside && k0 + BK <= K) {
            for (int r = 0; r < BM; r += kStrideA) {
                const float4 a = load4<kVector>(A + static_cast<size_t>(a_row + r) * K + a_col, 4);
                As[a_col][a_row + r] = a.x, As[a_col + 1][a_row + r] = a.y;  // transposed: the
                As[a_col + 2][a_row + r] = a.z, As[a_col + 3][a_row + r] = a.w;  // row goes down
            }
            for (int r = 0; r < BK; r += kStrideB)
                *reinterpret_cast<float4*>(&Bs[b_row + r][b_col]) =
                    load4<kVector>(B + static_cast<size_t>(b_row + r) * N + b_col, 4);
        } else {  // edge: what lies outside A or B reads as 0 and adds nothing
            for (int r = 0; r < BM; r += kStrideA) {
                const float4 a = load4<kVector>(A + static_cast<size_t>(a_row + r) * K + a_col,
                                                m0 + a_row + r < M ? K - (k0 + a_col) : 0);
                As[a_col][a_row + r] = a.x, As[a_col + 1][a_row + r] = a.y;
                As[a_col + 2][a_row + r] = a.z, As[a_col + 3][a_row + r] = a.w;
            }
            for (int r = 0; r < BK; r += kStrideB)
                *reinterpret_cast<float4*>(&Bs[b_row + r][b_col]) =
                    load4<kVector>(B + static_cast<size_t>(b_row + r) * N + b_col,
                                   k0 + b_row + r < K ? N - (n0 + b_col) : 0);
        }
        __syncthreads();  // 1: the tiles are complete before anyone reads them

#pragma unroll  // straight-line code: loads for step k + 1 can go out while step k's FMAs run
        for (int k = 0; k < BK; ++k) {
            // exercise begin: the register fragments, four floats per load
            float a[TM], b[TN];  // register fragments, 4 floats per load: LDS.128
            for (int i = 0; i < TM; i += 4) {
                const float4 v = *reinterpret_cast<const float4*>(&As[k][row + i]);
                a[i] = v.x, a[i + 1] = v.y, a[i + 2] = v.z, a[i + 3] = v.w;
            }
            for (int j = 0; j < TN; j += 4) {
                const float4 v = *reinterpret_cast<const float4*>(&Bs[k][col + j]);
                b[j] = v.x, b[j + 1] = v.y, b[j + 2] = v.z, b[j + 3] = v.w;
            }
            // exercise end
            for (int i = 0; i < TM; ++i) {
                for (int j = 0; j < TN; ++j) {
                    acc[i][j] += a[i] * b[j];  // outer product: TM * TN FMAs from TM + TN loads
                }
            }
        }
        __syncthreads();  // 2: everyone has finished reading before the next copy overwrites
        A += BK;                           // the next K-tile: BK columns of A further right
        B += static_cast<size_t>(BK) * N;  // and BK rows of B further down
    }

    for (int i = 0; i < TM; ++i) {
        if (!inside && m0 + row + i >= M) break;  // the next rows are outside too
        for (int j = 0; j < TN; j += 4) {
            if (!inside && n0 + col + j >= N) break;
            float* c = C + static_cast<size_t>(m0 + row + i) * N + n0 + col + j;
            store4<kVector>(c, N - (n0 + col + j),  // beta == 0: C is not read
                            make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]),
                            alpha, beta);
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
static_assert(Config::TM % 4 == 0 && Config::TN % 4 == 0 && Config::BK % 4 == 0,
              "fragments and tile rows are moved as float4s");
static_assert(Config::kThreads <= 1024, "a block holds at most 1024 threads");
static_assert((Config::BM + Config::BN) * Config::BK * sizeof(float) <= 48 * 1024,
              "static shared memory is limited to 48 KiB per block");

/// The kernel launch() runs when every row of A, B and C is 16-byte aligned (4096^3, say);
/// the harness reads its registers and occupancy.
inline constexpr auto kernel =
    sgemm_vectorized<Config::BM, Config::BN, Config::BK, Config::TM, Config::TN, true>;
/// The scalar fallback launch() runs otherwise: the same kernel, one float per global access.
inline constexpr auto kernel_scalar =
    sgemm_vectorized<Config::BM, Config::BN, Config::BK, Config::TM, Config::TN, false>;

/// True if `p` lies on a 16-byte boundary, as a float4 access needs.
inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

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
        // float4 accesses need every row of A, B and C to start on a 16-byte boundary.
        const bool vector = K % 4 == 0 && N % 4 == 0 && aligned16(A + m0 * K) && aligned16(B) &&
                            aligned16(C + m0 * N);
        (vector ? kernel : kernel_scalar)<<<g.grid, g.block, g.smem_bytes, stream>>>(
            rows, N, K, alpha, A + m0 * K, B, beta, C + m0 * N);
        CUDA_CHECK(cudaGetLastError());
    });
}

}  // namespace step06
