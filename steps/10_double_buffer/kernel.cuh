/**
@file
@brief Step 10, double buffering: the copy of the next K-tile runs while the current one is
computed, so the SM never stops its math to wait for memory.

The idea: in step 09 a block copies a K-tile, waits at a barrier, computes, and waits again;
while it copies it does no math. Here shared memory holds two K-tiles (two stages): while the
math reads one stage, the copy of the next tile fills the other, and one barrier per tile is
enough. B travels by cp.async, which copies global to shared memory without passing through
registers (sm_80 and newer). A cannot, since it is transposed on the way: its next tile is
loaded into registers before the math and stored, transposed, after it.

With the copies hidden, one block per SM no longer leaves the SM idle at every barrier, so
this step also takes the larger tile one block per SM allows: 128 x 256, 8 x 16 per thread
(the warp tiles of step 09, twice as wide). Each thread owns the same 4 x 4 pieces of its
warp's tile as in step 09; what is new is when the tiles arrive:

@verbatim
  Two stages, one block over time (K-tiles t = 0, 1, 2, ...; tile t lives in stage t % 2):

    prologue    | iteration 0          | iteration 1          | iteration 2          | ...
    copy of     | wait for 0, barrier  | wait for 1, barrier  | wait for 2, barrier  |
    tile 0 set  | copy 1 -> stage 1    | copy 2 -> stage 0    | copy 3 -> stage 1    |
    off         | math on stage 0      | math on stage 1      | math on stage 0      |
                | A of 1 -> stage 1    | A of 2 -> stage 0    | A of 3 -> stage 1    |

  The stage written in iteration t held tile t - 1: the barrier at the top of iteration t
  proves that every warp has finished its math on it.
@endverbatim

Template parameters: BM, BN - rows and columns of the block's tile of C; BK - the depth of
the shared-memory tiles; WM, WN - rows and columns of a warp's tile of C (the block has
(BM / WM) * (BN / WN) warps); TM, TN - rows and columns of C per thread, in 4 x 4 pieces;
kMinBlocks - blocks per SM that __launch_bounds__ must leave registers for; kStages - K-tiles
in shared memory at once (2: double buffering; more for a deeper pipeline); kUnroll - k steps
unrolled into straight code (a divisor of BK); kVectorA, kVectorB - 16-byte global accesses to
A, and to B and C (each where every row of that matrix is 16-byte aligned); kAsync - B by
cp.async where the GPU has it (otherwise through registers, as on sm_75).

Preconditions: A (M x K), B (K x N) and C (M x N) are row-major and contiguous; M, N >= 1,
K >= 0. When beta == 0, C is only written, never read (it may hold NaN). Under split-K
(common/launch/split_k.cuh, gridDim.z > 1) each block multiplies its slice of K into its slice of C.

Build and run:  make step10 && ./step10 4096
*/
#pragma once

#include "device/cuda_check.cuh"
#include "device/tile_io.cuh"
#include "launch/config_launcher.cuh"  // and through it gpu/gpu.h (kArchHere) and launch/split_k.cuh (k_slice)

#include <string>

namespace step10 {

// load4() and store4() (step 06), a_index() and store_transposed() (step 07): common/device/tile_io.cuh
using sgemm::a_index, sgemm::load4, sgemm::store4, sgemm::store_transposed;

/// True where this code is compiled for a GPU with cp.async (sm_80+), where the wrappers run.
inline constexpr bool kHaveCpAsync = sgemm::kArchHere >= 80;
/// sm_100 and newer: ptxas spills an edge tile's 4-byte copies of B if they are unrolled, and
/// the 16 x 8 thread tile (make regs ARCH=all). There those copies stay a loop, and that tile's
/// kernels compile empty (built_for()), so the launcher does not offer it (Layout::built).
inline constexpr bool kRollEdgeCopies = sgemm::kArchHere >= 100;
/// Whether a configuration with TM rows per thread is built for architecture `arch` (see above).
__host__ __device__ constexpr bool built_for(int arch, int TM) { return !(arch >= 100 && TM > 8); }

/// Starts an asynchronous copy of `bytes` (16, or 0: write zeros) from global `src` to shared
/// `dst` (both 16-byte aligned), without passing through registers.
__device__ __forceinline__ void cp_async16(float* dst, const float* src, int bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
                     static_cast<unsigned>(__cvta_generic_to_shared(dst))),
                 "l"(src), "r"(bytes));
}

/// The same for one float (`bytes` 4, or 0: write a zero).
__device__ __forceinline__ void cp_async4(float* dst, const float* src, int bytes) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(
                     static_cast<unsigned>(__cvta_generic_to_shared(dst))),
                 "l"(src), "r"(bytes));
}

/// Closes the group of copies this thread started since the last call.
__device__ __forceinline__ void cp_async_commit() {
    asm volatile("cp.async.commit_group;\n" ::);
}

/// Waits until at most `kPending` of this thread's groups are still in flight.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
}

/// C = alpha * A * B + beta * C as in step 09, with the copy of K-tile t + kStages - 1 in
/// flight while K-tile t is computed; see the file comment.
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int kMinBlocks, int kStages,
          int kUnroll, bool kVectorA, bool kVectorB, bool kAsync>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, kMinBlocks)
sgemm_double_buffer(int M, int N, int K, float alpha, const float* __restrict__ A,
                    const float* __restrict__ B, float beta, float* __restrict__ C) {
    constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
    constexpr int kLanesN = WN / TN;  // a warp's threads: (32 / kLanesN) rows of kLanesN
    static_assert((WM / TM) * kLanesN == 32, "a warp's threads must tile its warp tile");
    static_assert(kStages >= 2, "a pipeline needs at least two stages");
    static_assert(kUnroll >= 1 && BK % kUnroll == 0, "kUnroll must divide BK");
    constexpr bool kCpAsync = kAsync && kHaveCpAsync;  // B by cp.async; A, and B without it, via registers
    // kStages stages, each a (BM, BK) tile of A, transposed and padded, and a (BK, BN) tile of B
    constexpr int kSizeA = BK * BM + 32, kSizeB = BK * BN;  // floats
    // A configuration too large for this architecture, or not built for it, compiles empty:
    // no GPU of it launches it.
    if constexpr (kStages * (kSizeA + kSizeB) * int(sizeof(float)) > sgemm::kSmemPerBlockHere ||
                  !built_for(sgemm::kArchHere, TM)) return;
    extern __shared__ float4 smem4[];
    float* const smem = reinterpret_cast<float*>(smem4);
    auto As = [&](int s) { return smem + s * (kSizeA + kSizeB); };           // stage s of A
    auto Bs = [&](int s) { return smem + s * (kSizeA + kSizeB) + kSizeA; };  // and of B

    const int m0 = blockIdx.y * BM;  // first row of this block's tile of C
    const int n0 = blockIdx.x * BN;  // first column
    const sgemm::KSlice ks = sgemm::k_slice<BK>(K);  // split-K: this block's part of K (all of it unsplit)
    C += static_cast<size_t>(blockIdx.z) * M * N;    // and its slice of the output
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
    // a_row + kStrideA, ... of the A tile, and likewise for B (coalesced, as in step 09).
    constexpr int kStrideA = kThreads / (BK / 4), kStrideB = kThreads / (BN / 4);
    static_assert(BM % 32 == 0 && BK <= 32,
                  "the padding of As assumes whole banks per row and at least 4 rows per warp copy");
    static_assert(kThreads % (BK / 4) == 0 && BM % kStrideA == 0 && kThreads % (BN / 4) == 0 &&
                      BK % kStrideB == 0, "the threads copy each tile in whole passes");
    const int a_row = threadIdx.x / (BK / 4), a_col = threadIdx.x % (BK / 4) * 4;
    const int b_row = threadIdx.x / (BN / 4), b_col = threadIdx.x % (BN / 4) * 4;
    A += static_cast<size_t>(m0) * K + ks.first;  // (BM, ks.len) part of A this block reads; rows K apart
    B += static_cast<size_t>(ks.first) * N + n0;  // (ks.len, BN) part of B

    // 1. Load a tile, in two halves. start_copy(t) sets off the copy of K-tile t into its stage,
    // t % kStages: B by cp.async, straight into shared memory; A (and B without cp.async) into
    // registers. finish_copy(t) stores those registers to the stage, after the current math.
    float4 a_regs[BM / kStrideA], b_regs[BK / kStrideB];
    // What lies outside A or B reads as 0. kFull: the tile lies wholly inside A and B, and
    // n = 4 everywhere is known at compile time, so the copies carry no bounds checks.
    auto copy_tile = [&](int t, int s, auto full) {
        constexpr bool kFull = decltype(full)::value;
        const int k0 = t * BK;
        const float* a = A + k0;                           // (BM, BK) tile of A
        const float* b = B + static_cast<size_t>(k0) * N;  // (BK, BN) tile of B
        for (int r = 0; r < BM; r += kStrideA) {
            const float* p = a + static_cast<size_t>(a_row + r) * K + a_col;
            const int n = kFull ? 4 : (m0 + a_row + r < M ? ks.len - (k0 + a_col) : 0);
            a_regs[r / kStrideA] = load4<kVectorA>(p, n);
        }
#pragma unroll(kFull || kVectorB || !kCpAsync || !kRollEdgeCopies ? BK / kStrideB : 1)
        for (int r = 0; r < BK; r += kStrideB) {
            const float* p = b + static_cast<size_t>(b_row + r) * N + b_col;
            const int n = kFull ? 4 : (k0 + b_row + r < ks.len ? N - (n0 + b_col) : 0);
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
    auto start_copy = [&](int t) {
        const int write = t % kStages;  // the stage written: it held tile t - kStages
        if (inside && (t + 1) * BK <= ks.len) copy_tile(t, write, std::true_type{});
        else copy_tile(t, write, std::false_type{});
    };
    auto finish_copy = [&](int t) {
        const int write = t % kStages;  // the stage written
        for (int r = 0; r < BM; r += kStrideA)
            store_transposed<BM, BK>(As(write), a_row + r, a_col, a_regs[r / kStrideA]);
        if constexpr (!kCpAsync) {
            for (int r = 0; r < BK; r += kStrideB)
                *reinterpret_cast<float4*>(Bs(write) + (b_row + r) * BN + b_col) = b_regs[r / kStrideB];
        }
    };

    // 2. The pipeline. Each K-tile's copies are one commit group: the prologue sets off the
    // first kStages - 1 tiles, and each iteration one more group (empty past the last tile, so
    // that with three stages or more "at most kStages - 2 pending" still means "tile t is in").
    const int tiles = (max(ks.len, 0) + BK - 1) / BK;  // K-tiles of the slice, the last possibly partial
    // exercise begin: the prologue
    for (int t = 0; t < kStages - 1; ++t) {
        if (t < tiles) start_copy(t), finish_copy(t);
        if constexpr (kCpAsync) cp_async_commit();
    }
    // exercise end
    float acc[TM][TN] = {};
    for (int t = 0; t < tiles; ++t) {
        const int next = t + kStages - 1;  // the tile copied while tile t is computed
        // exercise begin: the head of the K-tile loop
        if constexpr (kCpAsync) cp_async_wait<kStages - 2>();  // my copies of tile t are in
        // One barrier per K-tile: every thread's part of tile t is in shared memory, and
        // every thread has finished the math on tile t - 1, whose stage is written next.
        __syncthreads();
        if (next < tiles) start_copy(next);
        if constexpr (kCpAsync) cp_async_commit();
        // exercise end
        // Compute on tile t: acc += its (BM, BK) tile of A times its (BK, BN) tile of B.
        const int read = t % kStages;  // the stage read: it holds tile t
        const float* as = As(read);
        const float* bs = Bs(read);
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
        // The registers of tile `next` go to their stage now, after the math: their global
        // loads had the whole of tile t's math to arrive.
        // exercise begin: after the math, store the registers of tile next
        if (next < tiles) finish_copy(next);
        // exercise end
    }

    // 3. Store C, as in step 09.
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

/// One configuration: the kernel's template parameters, and what it costs a GPU.
struct Config {
    int BM;             ///< rows of C per block
    int BN;             ///< columns of C per block
    int BK;             ///< depth of the A and B tiles in shared memory
    int WM;             ///< rows of C per warp
    int WN;             ///< columns of C per warp
    int TM;             ///< rows of C per thread
    int TN;             ///< columns of C per thread
    int blocks_per_sm;  ///< blocks per SM the registers must allow (kMinBlocks), as measured
    int stages;         ///< K-tiles in shared memory at once (kStages)
    int unroll;         ///< k steps of a K-tile unrolled into straight-line code (kUnroll)
    /// % of the FP32 peak it reached at 4096^3 on the H100 (docs/results/h100-80gb-hbm3.csv;
    /// sm_75's: _as_sm_75.csv; the runs at commit 1220900, 3 stages at b5c6188; configurations
    /// 3-5 from make tiles, tiles_h100-80gb-hbm3.txt); the choice by shape weighs them by it
    double pct_of_peak;
    /// the same at 4095^3, where every copy is 4 bytes wide (configurations 3-5: make thin,
    /// thin_h100-80gb-hbm3.txt); weighed when K % 4 != 0 or N % 4 != 0
    double pct_unaligned;
    constexpr int threads() const { return (BM / WM) * (BN / WN) * 32; }  ///< per block
    /// dynamic shared memory per block: `stages` x (padded A tile + B tile)
    constexpr int smem_bytes() const { return stages * (BK * BM + 32 + BK * BN) * int(sizeof(float)); }
    /// "128x256x32, 2 stages, unroll 16": how the reports name it
    std::string name() const {
        return std::to_string(BM) + "x" + std::to_string(BN) + "x" + std::to_string(BK) + ", " +
               std::to_string(stages) + " stages, unroll " + std::to_string(unroll);
    }
};

/// The configurations, the fastest at 4096^3 first; the GPU admits those it holds as they were
/// measured, and the shape chooses among them (common/launch/config_launcher.cuh): three stages where the
/// copies cannot be 16 bytes wide, if they fit, and the narrower tiles where C has few rows or
/// few columns (make thin measured each at M or N of 64, 128 and 256).
inline constexpr Config kConfigs[] = {
    // BM   BN  BK  WM  WN TM  TN  blk/SM stages unroll %peak  %peak unaligned
    {128, 256, 32, 64, 64, 8, 16, 1, 2, 16, 77.30, 64.72},  //  98,560 B: every GPU with 99 KB per block or more
    {128, 256, 32, 64, 64, 8, 16, 1, 3, 16, 75.14, 66.44},  // 147,840 B: sm_80, 87, 90, 100, 103, 110
    {128, 256, 16, 64, 64, 8, 16, 1, 2, 16, 70.87, 64.55},  //  49,408 B: sm_75 (64 KB per block)
    {256, 128, 32, 64, 64, 16, 8, 1, 2, 16, 73.84, 63.82},  //  98,560 B: C of few columns (N = 128)
    {64, 256, 32, 64, 32, 8, 8, 1, 2, 16, 68.84, 55.13},    //  82,176 B: C of few rows (M = 64)
    {256, 64, 32, 32, 64, 8, 8, 1, 2, 16, 66.22, 58.65},    //  82,176 B: C of few columns (N = 64)
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
static_assert(sgemm::every(kConfigs, [](Config c) { return c.smem_bytes() <= 227 * 1024; }),
              "a block may use at most 227 KB of shared memory (sm_90, the largest)");
static_assert(kConfigs[2].smem_bytes() <= 64 * 1024, "configuration 2 must fit sm_75 (64 KB per block)");

/// Every configuration's kernels, for each way a launch copies (sgemm::Access). Only those that
/// fit sm_75's 64 KB, the one GPU without cp.async, have kernels that copy B through registers.
inline constexpr auto kKernels = sgemm::kernel_table<kNumConfigs>(
    [](auto i, auto vector_a, auto vector_b, auto async) -> sgemm::KernelFn {
        constexpr Config c = kConfigs[decltype(i)::value];
        if constexpr (!decltype(async)::value && c.smem_bytes() > 64 * 1024) return nullptr;
        else return sgemm_double_buffer<c.BM, c.BN, c.BK, c.WM, c.WN, c.TM, c.TN, c.blocks_per_sm, c.stages,
                                        c.unroll, decltype(vector_a)::value, decltype(vector_b)::value,
                                        decltype(async)::value>;
    });

/// What the launcher (common/launch/config_launcher.cuh) needs to know of this step.
struct Layout {
    static constexpr const char* kName = "step10";  ///< for messages
    static constexpr const Config (&kConfigs)[kNumConfigs] = step10::kConfigs;  ///< the configurations
    static constexpr const auto& kKernels = step10::kKernels;  ///< and their kernels
    static constexpr int kMaxSplits = sgemm::kMaxSplits;  ///< split-K where C has too few tiles
    /// Rows of B off 16-byte boundaries (N % 4 != 0) are packed first (launch/pack.cuh); A's
    /// are read in place, since A goes through registers, where 4-byte loads cost little.
    static constexpr sgemm::Packing kPacking = sgemm::Packing::kB;
    /// Whether configuration c has kernels for architecture `arch` (built_for()).
    static constexpr bool built(const Config& c, int arch) { return built_for(arch, c.TM); }
    /// One block of c.threads() threads per (BM, BN) tile of C, its stages in dynamic shared memory.
    static sgemm::LaunchGeometry launch_geometry(const Config& c, int M, int N) {
        return {dim3(sgemm::ceil_div(N, c.BN), sgemm::ceil_div(M, c.BM)), dim3(c.threads()),
                std::size_t(c.smem_bytes())};
    }
};
/// The selection and launch layer for this step (common/launch/config_launcher.cuh).
using Launcher = sgemm::Launcher<Layout>;

/// C = alpha * A * B + beta * C, with the configuration and split-K this GPU and shape choose.
inline constexpr sgemm::LaunchFn launch = Launcher::launch;
inline constexpr sgemm::GeometryFn geometry = Launcher::geometry;  ///< for the report
inline constexpr sgemm::PlanFn plan = Launcher::plan;              ///< what launch() runs, and why
/// Configuration 0's kernel with 16-byte accesses and cp.async (the one the H100 runs).
inline constexpr sgemm::KernelFn kernel = kKernels(0, {true, true, true});

}  // namespace step10
