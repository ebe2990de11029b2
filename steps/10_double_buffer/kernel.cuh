/**
@file
@brief Step 10, double buffering: the copies of the next K-tiles run while the current one
is computed, in a pipeline of kStages shared-memory buffers, with cp.async on sm_80 and newer.

The idea: in step 09 a block copies a K-tile, waits at a barrier, computes, and waits again;
while it copies it does no math, and only the other block on the SM hides that. Here shared
memory holds kStages K-tiles: tile t + kStages - 1 is on its way while tile t is computed,
and one barrier per tile is enough. B travels by cp.async (global to shared memory without
registers) on GPUs that have it. A cannot, since it is transposed on the way, and cp.async
copies bytes where they are: its next tile is loaded into registers before the math and
stored, transposed, after it. GPUs before sm_80 copy B that way too.

With the copies hidden, one block per SM no longer leaves the SM idle at every barrier, so
this step also takes the larger tile that one block per SM allows: 128 x 256, 8 x 16 per
thread (TN = 16 columns as four 4-wide pieces). Two stages (double buffering) measured faster
than three on the H100 wherever the copies are 16 bytes wide, three where they cannot be (an
odd K or N): the launcher picks by the shape (see "Against cuBLAS" in the README). The picture
shows three stages.

@verbatim
  kStages = 3, one block over time (tiles t = 0, 1, 2, ... of K; stage = t % 3):

     prologue  | iteration 0         | iteration 1         | iteration 2         | ...
     tiles 0,1 | wait for 0, barrier | wait for 1, barrier | wait for 2, barrier |
     set off   | set off 2 -> stage 2| set off 3 -> stage 0| set off 4 -> stage 1|
               | math on stage 0     | math on stage 1     | math on stage 2     |
               | A of 2 -> stage 2   | A of 3 -> stage 0   | A of 4 -> stage 1   |

  The stage that tile t + 2 fills held tile t - 1: the barrier at the top of iteration t
  proves every warp has finished its math on it. Past the last tile the commit groups are
  empty, so "wait until at most kStages - 2 groups are pending" stays right for any number
  of K-tiles, 1 included.
@endverbatim

Template parameters: BM, BN - rows and columns of the block's tile of C; BK - the depth
of the shared-memory tiles; WM, WN - rows and columns of a warp's tile of C (the block has
(BM / WM) * (BN / WN) warps); TM, TN - rows and columns of C per thread, in 4 x 4 pieces
(a warp's threads form a (WM / TM) x (WN / TN) grid, 32 in all); kStages - K-tiles in shared
memory at once (2 is double buffering); kUnroll - k steps the compiler unrolls into straight
code (a divisor of BK; see "How far to unroll" in the README); kMinBlocks - blocks per SM
that __launch_bounds__ must leave registers for; kAsync - copy B with cp.async where the GPU has it; kAsyncA - copy A
with cp.async too, one float at a time (slower; kept for the comparison in `make tiles`);
kVectorA, kVectorB - use 16-byte global accesses to A, and to B and C (the launcher picks
each when every row of that matrix is 16-byte aligned: K % 4 == 0 for A, N % 4 == 0 for B
and C, so that an odd K or N costs only its own matrix the fast copies).

Where the tiles of C are too few to fill the GPU, the launcher cuts K into gridDim.z slices
(split-K): block z writes the product of its slice to slice z of a workspace, and
sum_slices() adds the slices in a fixed order into C. Which configuration, and how many
slices, the shape decides (see "Waves and split-K" in the README).

Preconditions: A (M x K), B (K x N) and C (M x N) are row-major and contiguous; M, N >= 1,
K >= 0. When beta == 0, C is only written, never read (it may hold NaN).

Build and run:  make step10 && ./step10 4096
*/
#pragma once

#include "choose.h"
#include "cuda_check.cuh"
#include "gpu_limits.h"
#include "launch.cuh"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <string>
#include <vector>

namespace step10 {

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
    constexpr int kPad = 128 / BK;
    return k * BM + k / 4 * kPad + m;
}

/// Writes the float4 `a`, columns k..k+3 of row m of the A tile, to As (k..k+3, m),
/// transposed.
template <int BM, int BK>
__device__ __forceinline__ void store_transposed(float* As, int m, int k, float4 a) {
    As[a_index<BM, BK>(k, m)] = a.x, As[a_index<BM, BK>(k + 1, m)] = a.y;
    As[a_index<BM, BK>(k + 2, m)] = a.z, As[a_index<BM, BK>(k + 3, m)] = a.w;
}

/// True where this code is compiled for a GPU with cp.async (sm_80 and newer), and on the host.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
inline constexpr bool kHaveCpAsync = false;
#else
inline constexpr bool kHaveCpAsync = true;
#endif

/// The most shared memory one block may have on the architecture this is compiled for, bytes
/// (sgemm::smem_per_block_optin_of(); on the host, where it does not matter, sm_90's).
#if defined(__CUDA_ARCH__)
inline constexpr int kSmemPerBlockHere = int(sgemm::smem_per_block_optin_of(__CUDA_ARCH__ / 10));
#else
inline constexpr int kSmemPerBlockHere = int(sgemm::smem_per_block_optin_of(90));
#endif
static_assert(kSmemPerBlockHere > 0, "an architecture missing from sgemm::smem_per_block_optin_of()");

/// True where ptxas spills the kernels with 4-byte copies of B if their edge-tile copies are
/// unrolled (sm_100 and newer, as `make regs ARCH=all` found): there those stay a loop.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
inline constexpr bool kRollEdgeCopies = true;
#else
inline constexpr bool kRollEdgeCopies = false;
#endif

/// Starts an asynchronous copy of `bytes` (16, or 0: write zeros) from global `src` to shared
/// `dst` (both 16-byte aligned), without passing through registers.
__device__ __forceinline__ void cp_async16(float* dst, const float* src, int bytes) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
                     static_cast<unsigned>(__cvta_generic_to_shared(dst))),
                 "l"(src), "r"(bytes));
#endif
}

/// The same for one float (`bytes` 4, or 0: write a zero).
__device__ __forceinline__ void cp_async4(float* dst, const float* src, int bytes) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(
                     static_cast<unsigned>(__cvta_generic_to_shared(dst))),
                 "l"(src), "r"(bytes));
#endif
}

/// Closes the group of copies this thread started since the last call.
__device__ __forceinline__ void cp_async_commit() {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}

/// Waits until at most `kPending` of this thread's groups are still in flight.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
#endif
}

/// C = alpha * A * B + beta * C as in step 09, with the copies of K-tile t + kStages - 1
/// in flight while K-tile t is computed; see the file comment.
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int kMinBlocks, int kStages,
          int kUnroll, bool kVectorA, bool kVectorB, bool kAsync, bool kAsyncA = false>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, kMinBlocks)
sgemm_double_buffer(int M, int N, int K, float alpha, const float* __restrict__ A,
                    const float* __restrict__ B, float beta, float* __restrict__ C) {
    constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
    // A configuration this architecture cannot launch (too much shared memory per block) is
    // compiled empty: no GPU would run it, and ptxas need not fit it in registers.
    if constexpr (kStages * (BK * BM + 32 + BK * BN) * int(sizeof(float)) > kSmemPerBlockHere) return;
    constexpr int kLanesN = WN / TN;  // a warp's threads: (32 / kLanesN) rows of kLanesN
    static_assert((WM / TM) * kLanesN == 32, "a warp's threads must tile its warp tile");
    // B goes by cp.async where the GPU has it; A only if kAsyncA, one float per cp.async,
    // since cp.async cannot transpose (measured slower: see the README). The rest goes
    // through registers.
    constexpr bool kCpAsync = kAsync && kHaveCpAsync;
    constexpr bool kCpAsyncA = kCpAsync && kAsyncA;
    static_assert(kStages >= 2, "a pipeline needs at least two stages");
    static_assert(kUnroll >= 1 && BK % kUnroll == 0, "kUnroll must divide BK");
    // kStages stages, each a (BM, BK) tile of A, transposed and padded, and a (BK, BN) tile of B
    constexpr int kSizeA = BK * BM + 32, kSizeB = BK * BN;  // floats
    extern __shared__ float4 smem4[];
    float* const smem = reinterpret_cast<float*>(smem4);
    auto As = [&](int s) { return smem + s * (kSizeA + kSizeB); };           // stage s of A
    auto Bs = [&](int s) { return smem + s * (kSizeA + kSizeB) + kSizeA; };  // and of B

    const int m0 = blockIdx.y * BM;  // first row of this block's tile of C
    const int n0 = blockIdx.x * BN;  // first column
    // Split-K (gridDim.z > 1, see "Split-K" in the README): block z multiplies only the z-th
    // slice of K, k_len columns of A and rows of B from k_first on, and writes its product
    // to the z-th M x N slice of C, a workspace that a second kernel sums. With gridDim.z == 1
    // the slice is all of K and C is C.
    const int k_split = (K / BK + gridDim.z - 1 + (K % BK != 0)) / gridDim.z * BK;  // whole K-tiles
    const int k_first = blockIdx.z * k_split;
    const int k_len = min(k_split, K - k_first);
    C += static_cast<size_t>(blockIdx.z) * M * N;
    // This thread's TM x TN elements: 4 x 4 pieces at rows row + {0, kStepM, ..} and columns
    // col + {0, kStepN, ..}, inside the warp's tile, whose first element is (warp_m, warp_n).
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int warp_m = warp / (BN / WN) * WM, warp_n = warp % (BN / WN) * WN;
    const int row = warp_m + lane / kLanesN * 4;
    const int col = warp_n + lane % kLanesN * 4;
    constexpr int kStepM = WM / (TM / 4), kStepN = WN / (TN / 4);
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
    A += static_cast<size_t>(m0) * K + k_first;  // (BM, k_len) part of A this block reads; rows K apart
    B += static_cast<size_t>(k_first) * N + n0;  // (k_len, BN) part of B

    // What does not go by cp.async goes through these registers: fetch() loads K-tile t into
    // them, and deposit() stores them to shared memory after the math of the current tile.
    float4 a_regs[BM / kStrideA], b_regs[BK / kStrideB];
    // Starts the copy of K-tile t (of this block's slice) to stage s. What lies outside A or B
    // reads as 0. kFull: the tile lies wholly inside A and B, and n = 4 everywhere is known
    // at compile time, so the copies carry no bounds checks; only tiles on an edge check.
    auto copy_tile = [&](int t, int s, auto full) {
        constexpr bool kFull = decltype(full)::value;
        const int k0 = t * BK;
        const float* a = A + k0;                           // (BM, BK) tile of A
        const float* b = B + static_cast<size_t>(k0) * N;  // (BK, BN) tile of B
        for (int r = 0; r < BM; r += kStrideA) {
            const float* p = a + static_cast<size_t>(a_row + r) * K + a_col;
            const int n = kFull ? 4 : (m0 + a_row + r < M ? k_len - (k0 + a_col) : 0);
            if constexpr (kCpAsyncA) {  // four floats, each to its place in the transposed As
                for (int j = 0; j < 4; ++j)
                    cp_async4(As(s) + a_index<BM, BK>(a_col + j, a_row + r), j < n ? p + j : A,
                              j < n ? 4 : 0);
            } else {
                a_regs[r / kStrideA] = load4<kVectorA>(p, n);
            }
        }
        // kRollEdgeCopies: where ptxas runs short of registers, an edge tile's 4-byte copies of
        // B stay a loop instead of being unrolled.
#pragma unroll(kFull || kVectorB || !kCpAsync || !kRollEdgeCopies ? BK / kStrideB : 1)
        for (int r = 0; r < BK; r += kStrideB) {
            const float* p = b + static_cast<size_t>(b_row + r) * N + b_col;
            const int n = kFull ? 4 : (k0 + b_row + r < k_len ? N - (n0 + b_col) : 0);
            float* dst = Bs(s) + (b_row + r) * BN + b_col;
            if constexpr (kCpAsync && kVectorB) {  // n <= 0 or n >= 4 when N % 4 == 0
                cp_async16(dst, n >= 4 ? p : B, n >= 4 ? 16 : 0);
            } else if constexpr (kCpAsync) {
                for (int j = 0; j < 4; ++j) cp_async4(dst + j, j < n ? p + j : B, j < n ? 4 : 0);
            } else {
                b_regs[r / kStrideB] = load4<kVectorB>(p, n);
            }
        }
    };
    auto fetch = [&](int t, int s) {
        if (inside && (t + 1) * BK <= k_len) copy_tile(t, s, std::true_type{});
        else copy_tile(t, s, std::false_type{});
    };
    // Stores the registers fetch() filled to stage s (nothing to do for what cp.async copies).
    auto deposit = [&](int s) {
        if constexpr (!kCpAsyncA) {
            for (int r = 0; r < BM; r += kStrideA)
                store_transposed<BM, BK>(As(s), a_row + r, a_col, a_regs[r / kStrideA]);
        }
        if constexpr (!kCpAsync) {
            for (int r = 0; r < BK; r += kStrideB)
                *reinterpret_cast<float4*>(Bs(s) + (b_row + r) * BN + b_col) = b_regs[r / kStrideB];
        }
    };

    const int tiles = (max(k_len, 0) + BK - 1) / BK;  // K-tiles of the slice, the last possibly partial
    // Prologue: the first kStages - 1 K-tiles start on their way, one commit group each
    // (empty ones past the last tile, so that the wait below always counts the same).
    // exercise begin: the prologue
    for (int t = 0; t < kStages - 1; ++t) {
        if (t < tiles) fetch(t, t), deposit(t);
        if constexpr (kCpAsync) cp_async_commit();
    }
    // exercise end
    float acc[TM][TN] = {};
    for (int t = 0; t < tiles; ++t) {
        // exercise begin: the head of the K-tile loop
        if constexpr (kCpAsync) cp_async_wait<kStages - 2>();  // my copies of tile t are in
        // One barrier per K-tile: every thread's part of tile t is in shared memory, and
        // every thread has finished the math on tile t - 1, whose stage is refilled next.
        __syncthreads();
        const int next = t + kStages - 1;  // the tile that goes where tile t - 1 was
        if (next < tiles) fetch(next, next % kStages);
        if constexpr (kCpAsync) cp_async_commit();
        // exercise end
        const float* as = As(t % kStages);
        const float* bs = Bs(t % kStages);

        // kUnroll steps of straight-line code (loads for step k + 1 go out while step k's FMAs
        // run), repeated BK / kUnroll times: a body short enough for the instruction cache.
#pragma unroll(kUnroll)
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];  // register fragments, 4 floats per load: LDS.128
            for (int i = 0; i < TM; i += 4) {  // piece i / 4 of the thread's rows
                const float4 v =
                    *reinterpret_cast<const float4*>(&as[a_index<BM, BK>(k, row + i / 4 * kStepM)]);
                a[i] = v.x, a[i + 1] = v.y, a[i + 2] = v.z, a[i + 3] = v.w;
            }
            for (int j = 0; j < TN; j += 4) {  // piece j / 4 of the thread's columns
                const float4 v = *reinterpret_cast<const float4*>(&bs[k * BN + col + j / 4 * kStepN]);
                b[j] = v.x, b[j + 1] = v.y, b[j + 2] = v.z, b[j + 3] = v.w;
            }
            for (int i = 0; i < TM; ++i) {
                for (int j = 0; j < TN; ++j) {
                    acc[i][j] += a[i] * b[j];  // outer product: TM * TN FMAs from TM + TN loads
                }
            }
        }
        // The registers of tile `next` go to its stage now, after the math: their global
        // loads had the whole of tile t's math to arrive.
        // exercise begin: after the math, store the registers of tile next
        if (next < tiles) deposit(next % kStages);
        // exercise end
    }

#pragma unroll  // acc stays in registers only if every index is a constant
    for (int i = 0; i < TM; ++i) {
        const int m = m0 + row + i / 4 * kStepM + i % 4;  // the row of acc[i]
        if (!inside && m >= M) break;  // rows only grow with i: the next ones are outside too
        for (int j = 0; j < TN; j += 4) {
            const int n = n0 + col + j / 4 * kStepN;  // first column of this float4
            if (!inside && n >= N) break;
            float* c = C + static_cast<size_t>(m) * N + n;
            store4<kVectorB>(c, N - n,  // beta == 0: C is not read
                            make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]),
                            alpha, beta);
        }
    }
}

/// Split-K's second kernel: C = alpha * (W_0 + W_1 + ... + W_(splits - 1)) + beta * C, where
/// W_z is the z-th of the `count`-float slices (count = M * N) that the first kernel wrote. The
/// slices are added in the same order on every run, so the same inputs give the same bits.
/// kVector: count % 4 == 0 and C 16-byte aligned, one float4 per thread and pass.
template <bool kVector>
__global__ void __launch_bounds__(256) sum_slices(std::size_t count, int splits, float alpha,
                                                  const float* __restrict__ W, float beta,
                                                  float* __restrict__ C) {
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    const std::size_t first = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if constexpr (kVector) {
        const float4* w = reinterpret_cast<const float4*>(W);
        float4* c = reinterpret_cast<float4*>(C);
        for (std::size_t i = first; i < count / 4; i += stride) {
            float4 sum = w[i];
            for (int z = 1; z < splits; ++z) {  // slice z of the float4s: count / 4 apart
                const float4 v = w[z * (count / 4) + i];
                sum = make_float4(sum.x + v.x, sum.y + v.y, sum.z + v.z, sum.w + v.w);
            }
            float4 out = make_float4(alpha * sum.x, alpha * sum.y, alpha * sum.z, alpha * sum.w);
            if (beta != 0.0f) {  // beta == 0: C is not read
                const float4 old = c[i];
                out = make_float4(out.x + beta * old.x, out.y + beta * old.y, out.z + beta * old.z,
                                  out.w + beta * old.w);
            }
            c[i] = out;
        }
    } else {
        for (std::size_t i = first; i < count; i += stride) {
            float sum = W[i];
            for (int z = 1; z < splits; ++z) sum += W[z * count + i];
            C[i] = beta == 0.0f ? alpha * sum : alpha * sum + beta * C[i];
        }
    }
}

/// One configuration: the kernel's template parameters, and what it costs a GPU.
struct Config {
    int BM;          ///< rows of C per block
    int BN;          ///< columns of C per block
    int BK;          ///< depth of the A and B tiles in shared memory
    int WM;          ///< rows of C per warp
    int WN;          ///< columns of C per warp
    int TM;          ///< rows of C per thread
    int TN;          ///< columns of C per thread
    int kMinBlocks;  ///< blocks per SM the registers must allow (and it was measured with)
    int kStages;     ///< K-tiles in shared memory at once
    int kUnroll;     ///< k steps of a K-tile unrolled into straight-line code (divides BK)
    /// % of the FP32 peak it reached at 4096^3 on the H100 (docs/results/h100-80gb-hbm3.csv;
    /// sm_75's: _as_sm_75.csv; the runs at commit 1220900, 3 stages at b5c6188); the choice by
    /// shape weighs configurations by it
    double pct_of_peak;
    /// the same at 4095^3, where no row of A or B is 16-byte aligned and every copy is 4 bytes
    /// wide; the choice uses it when K % 4 != 0 or N % 4 != 0
    double pct_unaligned;
    constexpr int threads() const { return (BM / WM) * (BN / WN) * 32; }  ///< per block
    /// dynamic shared memory per block: kStages x (padded A tile + B tile)
    constexpr int smem_bytes() const { return kStages * (BK * BM + 32 + BK * BN) * int(sizeof(float)); }
};

/// The configurations, fastest first as measured on the H100 with each GPU class forced
/// (see the README); the GPU admits those it holds as they were measured, and the shape
/// chooses among them (sgemm::choose_shape()): on the GPUs with 163 KB or more per block,
/// three stages where the copies cannot be 16 bytes wide ("Against cuBLAS" in the README).
///   0:  98,560 B: every GPU with 99 KB or more per block (sm_80 ... sm_121)
///   1: 147,840 B: sm_80, sm_87, sm_90, sm_100, sm_103, sm_110 (163 KB or more per block)
///   2:  49,408 B: sm_75 (64 KB per block and per SM)
inline constexpr Config kConfigs[] = {
    {128, 256, 32, 64, 64, 8, 16, 1, 2, 16, 77.30, 64.72},
    {128, 256, 32, 64, 64, 8, 16, 1, 3, 16, 75.14, 66.44},
    {128, 256, 16, 64, 64, 8, 16, 1, 2, 16, 70.87, 64.55},
};
/// How many configurations kConfigs holds.
inline constexpr int kNumConfigs = int(sizeof(kConfigs) / sizeof(kConfigs[0]));

static_assert(sgemm::every(kConfigs, [](Config c) { return c.BM % c.WM == 0 && c.BN % c.WN == 0; }),
              "the warp tiles must tile the block tile");
static_assert(sgemm::every(kConfigs, [](Config c) { return (c.WM / c.TM) * (c.WN / c.TN) == 32; }),
              "the TM x TN tiles of a warp's 32 threads must tile the warp tile");
static_assert(sgemm::every(kConfigs, [](Config c) { return c.TM % 4 == 0 && c.TN % 4 == 0 && c.BK % 4 == 0; }),
              "fragments and tile rows are moved as float4s");
static_assert(sgemm::every(kConfigs, [](Config c) { return c.threads() <= 1024; }),
              "a block holds at most 1024 threads");
static_assert(sgemm::every(kConfigs, [](Config c) { return c.kUnroll >= 1 && c.BK % c.kUnroll == 0; }),
              "kUnroll must divide BK");
static_assert(sgemm::every(kConfigs, [](Config c) { return c.smem_bytes() <= 227 * 1024; }),
              "a block may use at most 227 KB of shared memory (sm_90, the largest)");
static_assert(kConfigs[kNumConfigs - 1].smem_bytes() <= 64 * 1024,
              "the last configuration must fit the smallest GPU, sm_75 (64 KB per block)");

/// Configuration I's kernel, with 16-byte or scalar global accesses to A (kVectorA) and to B
/// and C (kVectorB), and B by cp.async or not.
template <int I, bool kVectorA, bool kVectorB, bool kAsync>
inline constexpr auto kernel_for =
    sgemm_double_buffer<kConfigs[I].BM, kConfigs[I].BN, kConfigs[I].BK, kConfigs[I].WM, kConfigs[I].WN,
                        kConfigs[I].TM, kConfigs[I].TN, kConfigs[I].kMinBlocks, kConfigs[I].kStages,
                        kConfigs[I].kUnroll, kVectorA, kVectorB, kAsync>;
/// Configuration 0's kernel with 16-byte accesses and cp.async (the one the H100 runs).
inline constexpr auto kernel = kernel_for<0, true, true, true>;

/// How a K-tile travels from global to shared memory.
enum class Copy {
    kAsync,      ///< B by cp.async where the GPU has it (sm_80+), the rest through registers
    kRegisters,  ///< all through registers (what GPUs before sm_80 run; for the tests)
};

/// The kernel signature: (M, N, K, alpha, A, B, beta, C).
using KernelFn = void (*)(int, int, int, float, const float*, const float*, float, float*);

/// The kernels of one configuration: [vector A][vector B and C][async]. Only the last
/// configuration, the one sm_75 runs, has kernels that copy B through registers: the others
/// need more shared memory than the one GPU without cp.async has, so no GPU would run them
/// that way (and for sm_100 and newer ptxas spills the 2-stage one with B in registers too).
struct Kernels {
    KernelFn k[2][2][2];  ///< [16-byte A][16-byte B and C][B by cp.async]; null where not compiled
};
static_assert(kConfigs[0].smem_bytes() > 64 * 1024 && kConfigs[1].smem_bytes() > 64 * 1024,
              "configurations 0 and 1 must not fit sm_75: they have no kernels without cp.async");
/// Configuration I's kernels, as kKernels holds them.
template <int I>
constexpr Kernels kernels_of() {
    if constexpr (I == kNumConfigs - 1) {  // see above: only this one copies through registers
        return {{{{kernel_for<I, false, false, false>, kernel_for<I, false, false, true>},
                  {kernel_for<I, false, true, false>, kernel_for<I, false, true, true>}},
                 {{kernel_for<I, true, false, false>, kernel_for<I, true, false, true>},
                  {kernel_for<I, true, true, false>, kernel_for<I, true, true, true>}}}};
    } else {
        return {{{{nullptr, kernel_for<I, false, false, true>}, {nullptr, kernel_for<I, false, true, true>}},
                 {{nullptr, kernel_for<I, true, false, true>}, {nullptr, kernel_for<I, true, true, true>}}}};
    }
}
/// Every configuration's kernels, indexed like kConfigs.
inline constexpr Kernels kKernels[] = {kernels_of<0>(), kernels_of<1>(), kernels_of<2>()};
static_assert(sizeof(kKernels) / sizeof(kKernels[0]) == kNumConfigs, "one entry of kKernels per configuration");

/// "128x256x32, 3 stages, unroll 16": how the reports name configuration `c`.
inline std::string config_name(const Config& c) {
    return std::to_string(c.BM) + "x" + std::to_string(c.BN) + "x" + std::to_string(c.BK) + ", " +
           std::to_string(c.kStages) + " stages, unroll " + std::to_string(c.kUnroll);
}

/// The configurations as sgemm::choose() sees them, with `regs(i)` registers per thread,
/// weighed by their speed with 16-byte copies (`aligned`) or with 4-byte ones.
template <class Regs>
std::vector<sgemm::Candidate> candidates(Regs regs, bool aligned = true) {
    std::vector<sgemm::Candidate> out;
    for (int i = 0; i < kNumConfigs; ++i) {
        const Config& c = kConfigs[i];
        out.push_back({config_name(c), c.threads(), 0, std::size_t(c.smem_bytes()), regs(i), c.kMinBlocks,
                       c.BM, c.BN, c.BK, aligned ? c.pct_of_peak : c.pct_unaligned});
    }
    return out;
}

/// Configuration i's kernel with 16-byte accesses, copying as this GPU (or the forced class)
/// does: B by cp.async where it has it, through registers where not.
inline KernelFn kernel_of(int i) {
    const KernelFn k = kKernels[i].k[1][1][sgemm::device_limits().has_cp_async()];
    return k != nullptr ? k : kKernels[i].k[1][1][1];  // only sm_75's configuration copies through registers
}

/// The configurations this GPU holds as they were measured (or the forced class's), found once.
inline const sgemm::Choice& choice() {
    static sgemm::ChoiceCache cache;
    return cache.get("step10", [] {
        return candidates([](int i) {
            cudaFuncAttributes attr{};
            CUDA_CHECK(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(kernel_of(i))));
            return attr.numRegs;
        });
    });
}

/// How an M x N x K problem runs on this GPU: the configuration and the slices of K with the
/// least estimated time (sgemm::choose_shape(); see "Waves and split-K" in the README).
/// A K or N that is not a multiple of 4 leaves the rows of A or B off 16-byte boundaries: the
/// copies go 4 bytes at a time, and the configurations are weighed by their speed that way.
inline sgemm::ShapeChoice shape_choice(int M, int N, int K, bool explain = false) {
    const sgemm::Choice& ch = choice();
    const bool aligned = K % 4 == 0 && N % 4 == 0;
    static const std::vector<sgemm::Candidate> cands[2] = {candidates([](int) { return 0; }, false),
                                                           candidates([](int) { return 0; }, true)};
    sgemm::ShapeChoice sc = sgemm::choose_shape(ch, cands[aligned], sgemm::device_limits(), sgemm::device_rates(),
                                                M, N, K, sgemm::kMaxSplits, explain);
    if (explain && !aligned) sc.why += " (K or N not a multiple of 4: weighed by 4-byte copies' speed)";
    return sc;
}

/// True if `p` lies on a 16-byte boundary, as a float4 access needs.
inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

/// Lets kernel `k` use `bytes` of dynamic shared memory: more than 48 KB needs asking.
/// Asked before every launch, because the answer belongs to the copy of the kernel in one
/// compiled file, and a program built from several files (the tests) has several.
inline void allow_shared_memory(KernelFn k, std::size_t bytes) {
    CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(k),
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
}

/// Grid, block and shared memory of configuration `i` for a slab of `rows` rows of an
/// N-column C, K cut into `splits` slices (gridDim.z), with `smem` bytes of shared memory.
inline sgemm::LaunchGeometry geometry_of(int i, int rows, int N, int splits, std::size_t smem) {
    const Config& c = kConfigs[i];
    return {dim3(sgemm::ceil_div(N, c.BN), sgemm::ceil_div(rows, c.BM), splits), dim3(c.threads()), smem};
}

/// Grid, block and shared memory for a slab of `rows` rows of an N-column C, for the report
/// (of a problem whose K the harness does not say: the unsplit launch).
inline sgemm::LaunchGeometry geometry(int rows, int N) {
    const sgemm::Choice& ch = choice();
    allow_shared_memory(kernel_of(ch.index), ch.dynamic_smem);  // for the occupancy report
    return geometry_of(ch.index, rows, N, 1, ch.dynamic_smem);
}

/// What launch() runs for an M x N x K problem, and why, for the report.
inline sgemm::Plan plan(int M, int N, int K) {
    const sgemm::ShapeChoice sc = shape_choice(M, N, K, true);
    const int i = sc.index;
    allow_shared_memory(kernel_of(i), sc.dynamic_smem);  // for the occupancy report
    std::string config = config_name(kConfigs[i]) + ", " + std::to_string(kConfigs[i].smem_bytes()) +
                         " B shared memory";
    if (sc.splits > 1) config += ", split-K " + std::to_string(sc.splits) + " + sum_slices";
    return {geometry_of(i, M, N, sc.splits, sc.dynamic_smem), reinterpret_cast<const void*>(kernel_of(i)), config,
            sc.why + "; the GPU: " + choice().why};
}

/// Split-K's workspace: device memory taken and given back in the order of a stream's work
/// (cudaMallocAsync), from the device's memory pool, which keeps it for the next launch.
class Workspace {
public:
    /// `bytes` of device memory for the work enqueued on `stream` after this.
    Workspace(std::size_t bytes, cudaStream_t stream) : stream_(stream) {
        static const bool kept = [] {  // once: the pool keeps freed memory instead of returning it
            cudaMemPool_t pool{};
            CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
            std::uint64_t keep = UINT64_MAX;
            CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
            return true;
        }();
        (void)kept;
        CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&data_), bytes, stream));
    }
    ~Workspace() { (void)cudaFreeAsync(data_, stream_); }  // after the work enqueued before it
    Workspace(const Workspace&) = delete;
    Workspace& operator=(const Workspace&) = delete;
    float* data() const { return data_; }  ///< the memory, 256-byte aligned

private:
    float* data_ = nullptr;
    cudaStream_t stream_;
};

/// C = alpha * A * B + beta * C for row-major A (M x K), B (K x N), C (M x N), on `stream`,
/// with configuration `i`, `smem` bytes of dynamic shared memory (at least its own), K cut
/// into `splits` slices (1: none), copying K-tiles as `copy` says.
inline void launch_config(int i, std::size_t smem, Copy copy, int splits, int M, int N, int K, float alpha,
                          const float* A, const float* B, float beta, float* C, cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;  // empty C: touch nothing
    sgemm::for_each_row_slab(kConfigs[i].BM, M, [&](size_t m0, int rows) {
        const sgemm::LaunchGeometry g = geometry_of(i, rows, N, splits, smem);
        const std::size_t count = std::size_t(rows) * N;
        std::unique_ptr<Workspace> work;  // split-K: the slices' partial products
        if (splits > 1) work = std::make_unique<Workspace>(splits * count * sizeof(float), stream);
        float* out = splits > 1 ? work->data() : C + m0 * N;
        // float4 accesses need every row to start on a 16-byte boundary: those of A when K % 4
        // == 0 and A is aligned, those of B and C (or the workspace) when N % 4 == 0 and they are.
        const bool vector_a = K % 4 == 0 && aligned16(A + m0 * K);
        const bool vector_b = N % 4 == 0 && aligned16(B) && aligned16(out);
        const KernelFn k = kKernels[i].k[vector_a][vector_b][copy == Copy::kAsync];
        if (k == nullptr) throw std::invalid_argument("step10: configuration " + config_name(kConfigs[i]) +
                                                      " has no kernel that copies through registers");
        allow_shared_memory(k, g.smem_bytes);
        // Split: each slice's product goes, unscaled, to its slice of the workspace.
        k<<<g.grid, g.block, g.smem_bytes, stream>>>(rows, N, K, splits > 1 ? 1.0f : alpha, A + m0 * K, B,
                                                     splits > 1 ? 0.0f : beta, out);
        CUDA_CHECK(cudaGetLastError());
        if (splits > 1) {
            const bool vector = count % 4 == 0 && aligned16(C + m0 * N);
            const std::size_t items = vector ? count / 4 : count;
            const int blocks = int(std::min<std::size_t>((items + 255) / 256, 65535));
            (vector ? sum_slices<true> : sum_slices<false>)<<<blocks, 256, 0, stream>>>(
                count, splits, alpha, work->data(), beta, C + m0 * N);
            CUDA_CHECK(cudaGetLastError());
        }
    });
}

/// C = alpha * A * B + beta * C for row-major A (M x K), B (K x N), C (M x N), on `stream`,
/// as this GPU runs it (shape_choice()), copying K-tiles as `copy` says.
inline void launch_with(Copy copy, int M, int N, int K, float alpha, const float* A,
                        const float* B, float beta, float* C, cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;  // empty C: touch nothing (and ask the GPU nothing)
    const sgemm::ShapeChoice sc = shape_choice(M, N, K);
    launch_config(sc.index, sc.dynamic_smem, copy, sc.splits, M, N, K, alpha, A, B, beta, C, stream);
}

/// C = alpha * A * B + beta * C for row-major A (M x K), B (K x N), C (M x N), on `stream`:
/// B by cp.async where the GPU (or the forced class) has it.
inline void launch(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                   float* C, cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;  // empty C: touch nothing
    launch_with(sgemm::device_limits().has_cp_async() ? Copy::kAsync : Copy::kRegisters, M, N, K,
                alpha, A, B, beta, C, stream);
}

}  // namespace step10
