/**
@file
@brief Step 07, bank conflicts: the same kernel as step 06 with shared-memory accesses that
no longer conflict: the transposed A tile gets 4 floats of padding after every 4 rows, and
each thread's TN columns are spread so that neighbouring threads read neighbouring float4s.

The idea: shared memory is 32 banks, each 4 bytes wide; the floats of one access that fall
in the same bank but at different addresses are served one after another. Step 06 has two
such accesses. Its stores of the transposed A tile put a warp's 32 floats in 4 banks (8-way
conflicts): here every group of four rows of As is shifted by 4 more floats, so the warp's
32 floats land in 32 banks. Its reads of B gave each thread 8 neighbouring columns, so 8
threads' float4s spanned 256 bytes and two of them met in each bank: here a thread owns two
float4s of columns, BN / 2 apart, and 8 threads read 128 neighbouring bytes.

@verbatim
  Store of one A float4 per thread into As (BK = 32, BM = 64): thread t holds row m = t / 8
  and columns k = 4 (t % 8) .. 4 (t % 8) + 3 of the A tile; it writes float j to As(k, m).

     step 06: As(k, m) at word 64 k + m         step 07: at word 64 k + 4 (k / 4) + m
     bank = m: threads 0-7 all in bank 0,       bank = 4 (k / 4) + m: threads 0-7 in
     8-15 all in bank 1, ...: 8-way conflict    banks 0, 4, .., 28; 8-15 in 1, 5, .., 29;
                                                ...: 32 banks, no conflict

  Columns of C per thread (BN = 128, TN = 8): step 06: thread c owns 8c .. 8c + 7;
  step 07: thread c owns 4c .. 4c + 3 and 64 + 4c .. 64 + 4c + 3.

     Bs[k][ 0 .. 63]  [ c0 ][ c1 ][ c2 ] ... [c15 ]   one float4 each: threads 0-7 read
     Bs[k][64 .. 127] [ c0 ][ c1 ][ c2 ] ... [c15 ]   128 contiguous bytes, all 32 banks
@endverbatim

Template parameters: BM, BN - rows and columns of the block's tile of C; BK - the depth
of the shared-memory tiles; TM, TN - rows and columns of C per thread (the block has
(BM / TM) * (BN / TN) threads); kVector - use 16-byte global loads and stores (as in step
06, the launcher picks it when every row of A, B and C is 16-byte aligned).

Preconditions: A (M x K), B (K x N) and C (M x N) are row-major and contiguous; M, N >= 1,
K >= 0. When beta == 0, C is only written, never read (it may hold NaN).

Build and run:  make step07 && ./step07 4096
*/
#pragma once

#include "device/cuda_check.cuh"
#include "launch/kernel_types.cuh"

#include <cstdint>

namespace step07 {

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

/// Where element (k, m) of the transposed (BK, BM) A tile lives in As: row k starts at
/// k * BM, plus kPad floats of padding after every four rows. A warp stores to the rows
/// k = 4 w + j of its BK / 4 copy threads w at once; the padding shifts each group of four
/// rows by kPad = 128 / BK floats (the number of rows of A a warp copies at once), so the
/// warp's 32 floats land in 32 different banks. kPad is a multiple of 4: float4s stay
/// 16-byte aligned.
template <int BM, int BK>
__device__ __forceinline__ int a_index(int k, int m) {
    // exercise begin: where element (k, m) of the A tile lives
    constexpr int kPad = 128 / BK;
    return k * BM + k / 4 * kPad + m;
    // exercise end
}

/// Writes the float4 `a`, columns k..k+3 of row m of the A tile, to As (k..k+3, m),
/// transposed.
template <int BM, int BK>
__device__ __forceinline__ void store_transposed(float* As, int m, int k, float4 a) {
    As[a_index<BM, BK>(k, m)] = a.x, As[a_index<BM, BK>(k + 1, m)] = a.y;
    As[a_index<BM, BK>(k + 2, m)] = a.z, As[a_index<BM, BK>(k + 3, m)] = a.w;
}

/// C = alpha * A * B + beta * C as in step 06, without shared-memory bank conflicts
/// (padded As, spread columns); see the file comment.
template <int BM, int BN, int BK, int TM, int TN, bool kVector>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_bank_conflicts(int M, int N, int K, float alpha, const float* __restrict__ A,
                     const float* __restrict__ B, float beta, float* __restrict__ C) {
    constexpr int kThreads = (BM / TM) * (BN / TN);
    __shared__ alignas(16) float As[BK * BM + 32];  // (BM, BK) tile of A, transposed and padded
    __shared__ alignas(16) float Bs[BK][BN];  // (BK, BN) tile of B

    const int m0 = blockIdx.y * BM;  // first row of this block's tile of C
    const int n0 = blockIdx.x * BN;  // first column
    // This thread's TM x TN elements: rows row..row+TM-1; columns in TN / 4 float4s,
    // col..col+3, col + kSpread.., so that neighbouring threads read neighbouring float4s.
    constexpr int kSpread = BN / (TN / 4);
    const int row = threadIdx.x / (BN / TN) * TM;
    const int col = threadIdx.x % (BN / TN) * 4;
    // A block whose tile lies wholly inside C copies full tiles without bounds checks
    // (except for a last, partial K-tile); only blocks on the bottom/right edge check.
    const bool inside = m0 + BM <= M && n0 + BN <= N;

    // This thread's part of every copy: the float4 at column a_col of rows a_row,
    // a_row + kStrideA, ... of the A tile, and likewise for B. Consecutive threads copy
    // consecutive float4s of a row of the tile (coalesced); the offsets stay the same for
    // every K-tile.
    constexpr int kStrideA = kThreads / (BK / 4), kStrideB = kThreads / (BN / 4);
    static_assert(BM % 32 == 0 && BK <= 32,
                  "the padding of As assumes whole banks per row and at least 4 rows per warp copy");
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
                store_transposed<BM, BK>(As, a_row + r, a_col, a);
            }
            for (int r = 0; r < BK; r += kStrideB)
                *reinterpret_cast<float4*>(&Bs[b_row + r][b_col]) =
                    load4<kVector>(B + static_cast<size_t>(b_row + r) * N + b_col, 4);
        } else {  // edge: what lies outside A or B reads as 0 and adds nothing
            for (int r = 0; r < BM; r += kStrideA) {
                const float4 a = load4<kVector>(A + static_cast<size_t>(a_row + r) * K + a_col,
                                                m0 + a_row + r < M ? K - (k0 + a_col) : 0);
                store_transposed<BM, BK>(As, a_row + r, a_col, a);
            }
            for (int r = 0; r < BK; r += kStrideB)
                *reinterpret_cast<float4*>(&Bs[b_row + r][b_col]) =
                    load4<kVector>(B + static_cast<size_t>(b_row + r) * N + b_col,
                                   k0 + b_row + r < K ? N - (n0 + b_col) : 0);
        }
        __syncthreads();  // 1: the tiles are complete before anyone reads them

#pragma unroll  // straight-line code: loads for step k + 1 can go out while step k's FMAs run
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];  // register fragments, 4 floats per load: LDS.128
            for (int i = 0; i < TM; i += 4) {
                const float4 v = *reinterpret_cast<const float4*>(&As[a_index<BM, BK>(k, row + i)]);
                a[i] = v.x, a[i + 1] = v.y, a[i + 2] = v.z, a[i + 3] = v.w;
            }
            for (int j = 0; j < TN; j += 4) {  // float4 j / 4 of the thread's columns
                const float4 v = *reinterpret_cast<const float4*>(&Bs[k][col + j / 4 * kSpread]);
                b[j] = v.x, b[j + 1] = v.y, b[j + 2] = v.z, b[j + 3] = v.w;
            }
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
            const int n = n0 + col + j / 4 * kSpread;  // first column of this float4
            if (!inside && n >= N) break;
            float* c = C + static_cast<size_t>(m0 + row + i) * N + n;
            store4<kVector>(c, N - n,  // beta == 0: C is not read
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
    sgemm_bank_conflicts<Config::BM, Config::BN, Config::BK, Config::TM, Config::TN, true>;
/// The scalar fallback launch() runs otherwise: the same kernel, one float per global access.
inline constexpr auto kernel_scalar =
    sgemm_bank_conflicts<Config::BM, Config::BN, Config::BK, Config::TM, Config::TN, false>;

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

}  // namespace step07
