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

#include "device/cuda_check.cuh"
#include "device/tile_io.cuh"
#include "launch/config_launcher.cuh"

#include <string>

namespace step08 {

// load4() and store4() (step 06), a_index() and store_transposed() (step 07): common/device/tile_io.cuh
using sgemm::a_index, sgemm::load4, sgemm::store4, sgemm::store_transposed;

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
    /// "64x256x32, 8x8 per thread (tuned for sm_90 at 4096^3)": how the reports name it
    std::string name() const {
        return std::to_string(BM) + "x" + std::to_string(BN) + "x" + std::to_string(BK) + ", " +
               std::to_string(TM) + "x" + std::to_string(TN) + " per thread (tuned for " + tuned_for +
               (shape[0] != '\0' ? std::string(" at ") + shape : std::string()) + ")";
    }
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

static_assert(sgemm::every(kTuned, [](Tuned c) { return c.BM % c.TM == 0 && c.BN % c.TN == 0; }),
              "the TM x TN tiles of the threads must tile the block tile");
static_assert(sgemm::every(kTuned, [](Tuned c) { return c.TM % 4 == 0 && c.TN % 4 == 0 && c.BK % 4 == 0; }),
              "fragments and tile rows are moved as float4s");
static_assert(sgemm::every(kTuned, [](Tuned c) { return c.threads() <= 1024; }),
              "a block holds at most 1024 threads");
static_assert(sgemm::every(kTuned, [](Tuned c) { return c.smem_bytes() <= 48 * 1024; }),
              "static shared memory is limited to 48 KiB per block");

/// Every entry's kernels: 16-byte accesses where A, B and C all allow them, else scalar.
inline constexpr auto kKernels = sgemm::kernel_table<kNumConfigs>(
    [](auto i, auto vector_a, auto vector_b, auto) -> sgemm::KernelFn {
        constexpr Tuned c = kTuned[decltype(i)::value];
        return sgemm_autotuned<c.BM, c.BN, c.BK, c.TM, c.TN, decltype(vector_a)::value && decltype(vector_b)::value>;
    });

/// What the launcher (common/launch/config_launcher.cuh) needs to know of this step.
struct Layout {
    static constexpr const char* kName = "step08";  ///< for messages
    static constexpr const Tuned (&kConfigs)[kNumConfigs] = kTuned;  ///< the configurations
    static constexpr const auto& kKernels = step08::kKernels;  ///< and their kernels
    static constexpr int kMaxSplits = 1;  ///< no split-K (step 10 brings it)
    /// One block of c.threads() threads per (BM, BN) tile of C; its shared memory is static.
    static sgemm::LaunchGeometry launch_geometry(const Tuned& c, int M, int N) {
        return {dim3(sgemm::ceil_div(N, c.BN), sgemm::ceil_div(M, c.BM)), dim3(c.threads()), 0};
    }
};
/// The selection and launch layer for this step (common/launch/config_launcher.cuh).
using Launcher = sgemm::Launcher<Layout>;

/// C = alpha * A * B + beta * C, with the entry of kTuned this GPU and shape choose.
inline constexpr sgemm::LaunchFn launch = Launcher::launch;
inline constexpr sgemm::GeometryFn geometry = Launcher::geometry;  ///< for the report
inline constexpr sgemm::PlanFn plan = Launcher::plan;              ///< what launch() runs, and why
/// Entry 0's kernel with 16-byte accesses (the one this architecture's own GPU runs).
inline constexpr sgemm::KernelFn kernel = kKernels(0, {true, true, true});

}  // namespace step08
