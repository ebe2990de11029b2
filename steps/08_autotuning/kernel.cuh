/**
@file
@brief Step 08, autotuning: step 07's kernel, with its tile sizes chosen by a search on
the GPU it runs on.

The idea: which BM, BN, BK, TM and TN are fastest depends on the GPU (its registers, shared
memory and SM count), and counting cannot settle it: the best configuration is found by
measuring. `make tune STEP=08` (tools/measure/tune.py) compiles every candidate, measures it,
rejects those that spill registers or fail verification, and writes the winner to
tuned/sm_XX.cuh, which this file includes when you build for that architecture. GPUs
without a tuned file use tuned/default.cuh.

@verbatim
  The kernel is step 07's: each thread owns TM rows and TN / 4 float4s of columns, BN / (TN / 4)
  apart; A is transposed in shared memory with padding; every copy is a float4.

           <------------- BN ------------->          the block: (BM / TM) x (BN / TN) threads
        ^  [t0 ][t1 ] ... [tc ][t0 ][t1 ] ... [tc ]   TM rows each   (c = BN / TN - 1)
        BM [ ...                                   ]
        v  [                                       ]
  What the search changes: the block tile BM x BN (reuse of each copied float), BK (copies
  and barriers per K-tile), TM x TN (registers per thread and FMAs per shared load).
@endverbatim

Template parameters: BM, BN - rows and columns of the block's tile of C; BK - the depth
of the shared-memory tiles; TM, TN - rows and columns of C per thread (the block has
(BM / TM) * (BN / TN) threads); kVector - use 16-byte global loads and stores (as in step
06, the launcher picks it when every row of A, B and C is 16-byte aligned).

Preconditions: A (M x K), B (K x N) and C (M x N) are row-major and contiguous; M, N >= 1,
K >= 0. When beta == 0, C is only written, never read (it may hold NaN).

Build and run:  make step08 && ./step08 4096
*/
#pragma once

#include "choose.h"
#include "cuda_check.cuh"
#include "launch.cuh"

#include <cstdint>
#include <string>
#include <vector>

namespace step08 {

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

/// C = alpha * A * B + beta * C as in step 06, without shared-memory bank conflicts
/// (padded As, spread columns); see the file comment.
template <int BM, int BN, int BK, int TM, int TN, bool kVector>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_autotuned(int M, int N, int K, float alpha, const float* __restrict__ A,
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

    // exercise begin: the store of C
#pragma unroll  // acc stays in registers only if every index is a constant
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
    // exercise end
}

}  // namespace step08

namespace step08 {

/// One tuned configuration: the tile sizes `make tune STEP=08` found fastest for a GPU class,
/// and the blocks per SM it was measured with on that class.
struct Tuned {
    int BM;                 ///< rows of C per block
    int BN;                 ///< columns of C per block
    int BK;                 ///< depth of the A and B tiles in shared memory
    int TM;                 ///< rows of C per thread
    int TN;                 ///< columns of C per thread
    int blocks_per_sm;      ///< blocks per SM it was measured with (1: any)
    /// % of the FP32 peak it reached at 4096^3 in the search (0: not measured); the choice by
    /// shape weighs the entries by it
    double pct_of_peak;
    const char* tuned_for;  ///< the GPU class searched for ("sm_90", "sm_75", "default")
    const char* shape;      ///< the shape class(es) it won ("4096^3", "1024^3", "" by hand)
    constexpr int threads() const { return (BM / TM) * (BN / TN); }  ///< per block
    /// static shared memory per block: the padded A tile and the B tile
    constexpr int smem_bytes() const { return (BK * BM + 32 + BK * BN) * int(sizeof(float)); }
};

}  // namespace step08

// kTuned, the search's winners for the GPU architecture being built for, one per GPU class
// searched for (the Makefile names the file in STEP08_TUNED when tuned/sm_XX.cuh exists),
// else a configuration that is good on most GPUs.
#ifdef STEP08_TUNED
#include STEP08_TUNED
#else
#include "tuned/default.cuh"
#endif

namespace step08 {

/// How many configurations kTuned holds.
inline constexpr int kNumConfigs = int(sizeof(kTuned) / sizeof(kTuned[0]));
static_assert(kNumConfigs <= 6, "kKernels below holds at most six configurations");

static_assert(sgemm::every(kTuned, [](Tuned c) { return c.BM % c.TM == 0 && c.BN % c.TN == 0; }),
              "the TM x TN tiles of the threads must tile the block tile");
static_assert(sgemm::every(kTuned, [](Tuned c) { return c.TM % 4 == 0 && c.TN % 4 == 0 && c.BK % 4 == 0; }),
              "fragments and tile rows are moved as float4s");
static_assert(sgemm::every(kTuned, [](Tuned c) { return c.threads() <= 1024; }),
              "a block holds at most 1024 threads");
static_assert(sgemm::every(kTuned, [](Tuned c) { return c.smem_bytes() <= 48 * 1024; }),
              "static shared memory is limited to 48 KiB per block");

/// Configuration I's kernel (kTuned[I], or the last one past the end of the list), with
/// 16-byte or scalar global accesses.
template <int I, bool kVector>
inline constexpr auto kernel_for = [] {
    constexpr Tuned c = kTuned[I < kNumConfigs ? I : kNumConfigs - 1];
    return sgemm_autotuned<c.BM, c.BN, c.BK, c.TM, c.TN, kVector>;
}();
/// Configuration 0's kernel with 16-byte accesses (the one this architecture's own GPU runs).
inline constexpr auto kernel = kernel_for<0, true>;

/// The kernel signature: (M, N, K, alpha, A, B, beta, C).
using KernelFn = void (*)(int, int, int, float, const float*, const float*, float, float*);
/// Every configuration's kernels, [scalar, vector], indexed like kTuned.
inline constexpr KernelFn kKernels[][2] = {{kernel_for<0, false>, kernel_for<0, true>},
                                           {kernel_for<1, false>, kernel_for<1, true>},
                                           {kernel_for<2, false>, kernel_for<2, true>},
                                           {kernel_for<3, false>, kernel_for<3, true>},
                                           {kernel_for<4, false>, kernel_for<4, true>},
                                           {kernel_for<5, false>, kernel_for<5, true>}};

/// "64x256x32, 8x8 per thread": how the reports name configuration `c`.
inline std::string config_name(const Tuned& c) {
    return std::to_string(c.BM) + "x" + std::to_string(c.BN) + "x" + std::to_string(c.BK) + ", " +
           std::to_string(c.TM) + "x" + std::to_string(c.TN) + " per thread (tuned for " + c.tuned_for +
           (c.shape[0] != '\0' ? std::string(" at ") + c.shape : std::string()) + ")";
}

/// The configurations as sgemm::choose() sees them, with `regs(i)` registers per thread.
template <class Regs>
std::vector<sgemm::Candidate> candidates(Regs regs) {
    std::vector<sgemm::Candidate> out;
    for (int i = 0; i < kNumConfigs; ++i) {
        const Tuned& c = kTuned[i];
        out.push_back({config_name(c), c.threads(), std::size_t(c.smem_bytes()), 0, regs(i), c.blocks_per_sm,
                       c.BM, c.BN, c.BK, c.pct_of_peak});
    }
    return out;
}

/// The configuration this GPU runs (or the forced class's), chosen once.
inline const sgemm::Choice& choice() {
    static sgemm::ChoiceCache cache;
    return cache.get("step08", [] {
        return candidates([](int i) {
            cudaFuncAttributes attr{};
            CUDA_CHECK(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(kKernels[i][1])));
            return attr.numRegs;
        });
    });
}

/// How an M x N x K problem runs on this GPU: of the entries it admits, the one whose blocks
/// should finish first (sgemm::choose_shape(); see "Waves" in step 10's README).
inline sgemm::ShapeChoice shape_choice(int M, int N, int K, bool explain = false) {
    static const std::vector<sgemm::Candidate> cands = candidates([](int) { return 0; });
    return sgemm::choose_shape(choice(), cands, sgemm::device_limits(), sgemm::device_rates(), M, N, K, 1,
                               explain);
}

/// True if `p` lies on a 16-byte boundary, as a float4 access needs.
inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

/// Grid, block and shared memory of entry `i` for a slab of `rows` rows of an N-column C. The
/// dynamic shared memory `smem` is 0 except under a forced GPU class, where it holds the GPU
/// to the class's blocks per SM (sgemm::emulation_smem()).
inline sgemm::LaunchGeometry geometry_of(int i, int rows, int N, std::size_t smem) {
    const Tuned& c = kTuned[i];
    return {dim3(sgemm::ceil_div(N, c.BN), sgemm::ceil_div(rows, c.BM)), dim3(c.threads()), smem};
}

/// Grid, block and shared memory of the GPU's first choice, for a slab of `rows` rows of an
/// N-column C (the report's, for a problem whose K it does not say).
inline sgemm::LaunchGeometry geometry(int rows, int N) {
    const sgemm::Choice& ch = choice();
    return geometry_of(ch.index, rows, N, ch.dynamic_smem);
}

/// Lets kernel `k` take `bytes` of dynamic shared memory (more than 48 KB needs asking).
inline void allow_shared_memory(KernelFn k, std::size_t bytes) {
    if (bytes > 48 * 1024) {  // only under a forced class (emulated occupancy)
        CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(k),
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
    }
}

/// What launch() runs for an M x N x K problem, and why, for the report.
inline sgemm::Plan plan(int M, int N, int K) {
    const sgemm::ShapeChoice sc = shape_choice(M, N, K, true);
    const Tuned& c = kTuned[sc.index];
    allow_shared_memory(kKernels[sc.index][1], sc.dynamic_smem);  // for the occupancy report
    return {geometry_of(sc.index, M, N, sc.dynamic_smem), reinterpret_cast<const void*>(kKernels[sc.index][1]),
            config_name(c) + ", " + std::to_string(c.smem_bytes()) + " B shared memory",
            sc.why + "; the GPU: " + choice().why};
}

/// C = alpha * A * B + beta * C for row-major A (M x K), B (K x N), C (M x N), on `stream`,
/// with entry `i` of kTuned and `smem` bytes of dynamic shared memory.
inline void launch_config(int i, std::size_t smem, int M, int N, int K, float alpha, const float* A,
                          const float* B, float beta, float* C, cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;  // empty C: touch nothing
    sgemm::for_each_row_slab(kTuned[i].BM, M, [&](size_t m0, int rows) {
        const sgemm::LaunchGeometry g = geometry_of(i, rows, N, smem);
        // float4 accesses need every row of A, B and C to start on a 16-byte boundary.
        const bool vector = K % 4 == 0 && N % 4 == 0 && aligned16(A + m0 * K) && aligned16(B) &&
                            aligned16(C + m0 * N);
        const KernelFn k = kKernels[i][vector];
        allow_shared_memory(k, g.smem_bytes);
        k<<<g.grid, g.block, g.smem_bytes, stream>>>(rows, N, K, alpha, A + m0 * K, B, beta, C + m0 * N);
        CUDA_CHECK(cudaGetLastError());
    });
}

/// C = alpha * A * B + beta * C for row-major A (M x K), B (K x N), C (M x N), on `stream`,
/// with the entry shape_choice() picks for this GPU and shape.
inline void launch(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                   float* C, cudaStream_t stream) {
    if (M <= 0 || N <= 0) return;  // empty C: touch nothing (and ask the GPU nothing)
    const sgemm::ShapeChoice sc = shape_choice(M, N, K);
    launch_config(sc.index, sc.dynamic_smem, M, N, K, alpha, A, B, beta, C, stream);
}

}  // namespace step08
