/**
@file
@brief Step 09, warptiling: a warp tile between the block tile and the thread tile, so
that the 32 threads of a warp read few, shared fragments from shared memory.

The idea: in step 08 (64 x 256 tile, 8 x 8 per thread) a warp's 32 threads sit side by
side in one row of the block: together they own 8 rows by 256 columns of C, and per k they
read 8 floats of As (the same for all) and 256 floats of Bs, 1,056 distinct bytes. Here
each warp owns a compact WM x WN tile of C (64 x 32), its threads sit in an 8 x 4 grid
inside it, and each thread owns (TM / 4) x (TN / 4) little 4 x 4 tiles, one in each quarter
of the warp tile. Per k the warp reads 64 floats of As and 32 of Bs, 384 distinct bytes:
every float4 it reads is wanted by 4 or 8 of its threads at once.

@verbatim
  Block tile 128 x 128, 8 warps of 64 x 32 (w0..w7), each thread 8 x 8 (TM = TN = 8):

         <----------- BN = 128 ----------->        one warp tile (WM = 64, WN = 32):
      ^  [  w0  ][  w1  ][  w2  ][  w3  ]                <- 16 -><- 16 ->
   BM |  [      ][      ][      ][      ]           ^  [ 0 1 2 3 | 0 1 2 3 ]  lane l owns the
  128 |  [  w4  ][  w5  ][  w6  ][  w7  ]        32 |  [ 4 5 6 7 | 4 5 6 7 ]  4 x 4 tiles marked
      v  [      ][      ][      ][      ]           |  [   ...   |   ...   ]  l in all four
                                                    v  [28 .. 31 |28 .. 31 ]  quarters: 8 rows
                                                       [ --- the same 32 rows below ---   ]
  Per k, lane l reads As(k, 4 (l / 4) + {0..3, 32..35}) and Bs(k, 4 (l % 4) + {0..3, 16..19}):
  lanes 0-3 read the same float4 of A, lanes 0, 4, 8, .. the same float4 of B.
@endverbatim

Template parameters: BM, BN - rows and columns of the block's tile of C; BK - the depth
of the shared-memory tiles; WM, WN - rows and columns of a warp's tile of C (the block has
(BM / WM) * (BN / WN) warps); TM, TN - rows and columns of C per thread, in 4 x 4 pieces
(a warp's threads form a (WM / TM) x (WN / TN) grid, 32 in all); kMinBlocks - blocks per SM
that __launch_bounds__ must leave registers for (it caps registers at 65536 / (threads x
kMinBlocks)); kVector - use 16-byte global loads and stores (as in step
06, the launcher picks it when every row of A, B and C is 16-byte aligned).

Preconditions: A (M x K), B (K x N) and C (M x N) are row-major and contiguous; M, N >= 1,
K >= 0. When beta == 0, C is only written, never read (it may hold NaN).

Build and run:  make step09 && ./step09 4096
*/
#pragma once

#include "device/cuda_check.cuh"
#include "device/tile_io.cuh"
#include "launch/config_launcher.cuh"

#include <string>

namespace step09 {

// load4() and store4() (step 06), a_index() and store_transposed() (step 07): common/device/tile_io.cuh
using sgemm::a_index, sgemm::load4, sgemm::store4, sgemm::store_transposed;

/// C = alpha * A * B + beta * C as in step 08, with each warp computing a WM x WN tile of
/// the block's tile; see the file comment.
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int kMinBlocks, bool kVector>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, kMinBlocks)
sgemm_warptiling(int M, int N, int K, float alpha, const float* __restrict__ A,
                 const float* __restrict__ B, float beta, float* __restrict__ C) {
    constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
    constexpr int kLanesN = WN / TN;  // a warp's threads: (32 / kLanesN) rows of kLanesN
    static_assert((WM / TM) * kLanesN == 32, "a warp's threads must tile its warp tile");
    __shared__ alignas(16) float As[BK * BM + 32];  // (BM, BK) tile of A, transposed and padded
    __shared__ alignas(16) float Bs[BK][BN];        // (BK, BN) tile of B

    const int m0 = blockIdx.y * BM;  // first row of this block's tile of C
    const int n0 = blockIdx.x * BN;  // first column
    // This thread's TM x TN elements: 4 x 4 pieces at rows row + {0, kStepM, ..} and columns
    // col + {0, kStepN, ..}, inside the warp's tile, whose first element is (warp_m, warp_n).
    // exercise begin: which elements of C this thread computes
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int warp_m = warp / (BN / WN) * WM, warp_n = warp % (BN / WN) * WN;
    const int row = warp_m + lane / kLanesN * 4;
    const int col = warp_n + lane % kLanesN * 4;
    // exercise end
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
    // How many of the A copy's loads are in flight at once. All of them on sm_90, the GPU
    // whose figures this course shows: there ptxas keeps them within the 128 registers
    // kMinBlocks = 2 leaves. For every other architecture ptxas spills with two or more, at
    // one tile depth or the other (make regs ARCH=all), so there the copy goes one at a time.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900
    constexpr int kUnrollA = BM / kStrideA;
#else
    constexpr int kUnrollA = 1;
#endif
    A += static_cast<size_t>(m0) * K;  // (BM, K) rows of A this block reads
    B += n0;                           // (K, BN) columns of B
    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (inside && k0 + BK <= K) {
#pragma unroll(kUnrollA)
            for (int r = 0; r < BM; r += kStrideA) {
                const float4 a = load4<kVector>(A + static_cast<size_t>(a_row + r) * K + a_col, 4);
                store_transposed<BM, BK>(As, a_row + r, a_col, a);
            }
            for (int r = 0; r < BK; r += kStrideB)
                *reinterpret_cast<float4*>(&Bs[b_row + r][b_col]) =
                    load4<kVector>(B + static_cast<size_t>(b_row + r) * N + b_col, 4);
        } else {  // edge: what lies outside A or B reads as 0 and adds nothing
#pragma unroll(kUnrollA)
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
            for (int i = 0; i < TM; i += 4) {  // piece i / 4 of the thread's rows
                const float4 v =
                    *reinterpret_cast<const float4*>(&As[a_index<BM, BK>(k, row + i / 4 * kStepM)]);
                a[i] = v.x, a[i + 1] = v.y, a[i + 2] = v.z, a[i + 3] = v.w;
            }
            for (int j = 0; j < TN; j += 4) {  // piece j / 4 of the thread's columns
                const float4 v = *reinterpret_cast<const float4*>(&Bs[k][col + j / 4 * kStepN]);
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

#pragma unroll  // acc stays in registers only if every index is a constant
    for (int i = 0; i < TM; ++i) {
        const int m = m0 + row + i / 4 * kStepM + i % 4;  // the row of acc[i]
        if (!inside && m >= M) break;  // rows only grow with i: the next ones are outside too
        for (int j = 0; j < TN; j += 4) {
            const int n = n0 + col + j / 4 * kStepN;  // first column of this float4
            if (!inside && n >= N) break;
            float* c = C + static_cast<size_t>(m) * N + n;
            store4<kVector>(c, N - n,  // beta == 0: C is not read
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
    /// % of the FP32 peak it reached at 4096^3 on the H100 with its GPU class forced
    /// (docs/results/h100-80gb-hbm3*.csv of the run at commit c90637c; the small tile, which
    /// the bench never runs at 4096^3, from tiles_h100-80gb-hbm3.txt); the choice by shape
    /// weighs configurations by it
    double pct_of_peak;
    constexpr int threads() const { return (BM / WM) * (BN / WN) * 32; }  ///< per block
    /// static shared memory per block: the padded A tile and the B tile
    constexpr int smem_bytes() const { return (BK * BM + 32 + BK * BN) * int(sizeof(float)); }
    /// "128x128x32": how the reports name it
    std::string name() const { return std::to_string(BM) + "x" + std::to_string(BN) + "x" + std::to_string(BK); }
};

/// The configurations, fastest first as measured on the H100 with each GPU class forced
/// (see the README). The GPU admits those it holds with blocks_per_sm blocks/SM; of those, the
/// problem's shape chooses the one whose waves of blocks should finish first
/// (common/launch/config_launcher.cuh: the smaller tile wins where the larger leaves SMs idle).
inline constexpr Config kConfigs[] = {
    // BM   BN  BK  WM  WN TM TN blk/SM %peak
    {128, 128, 32, 64, 32, 8, 8, 2, 71.39},  // 32,896 B; two blocks need 65,792 B of an SM: all but sm_75
    {128, 128, 16, 64, 32, 8, 8, 2, 67.96},  // 16,512 B: sm_75 (64 KB per SM)
    {64, 64, 32, 32, 32, 8, 4, 5, 62.33},    // 16,512 B, five blocks per SM: for shapes whose 128 x 128
                                             // tiles are too few to fill the SMs (1024^3: 64 for 132)
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
static_assert(sgemm::every(kConfigs, [](Config c) { return c.smem_bytes() <= 48 * 1024; }),
              "static shared memory is limited to 48 KiB per block");

/// Every configuration's kernels: 16-byte accesses where A, B and C all allow them, else scalar.
inline constexpr auto kKernels = sgemm::kernel_table<kNumConfigs>(
    [](auto i, auto vector_a, auto vector_b, auto) -> sgemm::KernelFn {
        constexpr Config c = kConfigs[decltype(i)::value];
        return sgemm_warptiling<c.BM, c.BN, c.BK, c.WM, c.WN, c.TM, c.TN, c.blocks_per_sm,
                                decltype(vector_a)::value && decltype(vector_b)::value>;
    });

/// What the launcher (common/launch/config_launcher.cuh) needs to know of this step.
struct Layout {
    static constexpr const char* kName = "step09";  ///< for messages
    static constexpr const Config (&kConfigs)[kNumConfigs] = step09::kConfigs;  ///< the configurations
    static constexpr const auto& kKernels = step09::kKernels;  ///< and their kernels
    static constexpr int kMaxSplits = 1;  ///< no split-K (step 10 brings it)
    /// One block of c.threads() threads per (BM, BN) tile of C; its shared memory is static.
    static sgemm::LaunchGeometry launch_geometry(const Config& c, int M, int N) {
        return {dim3(sgemm::ceil_div(N, c.BN), sgemm::ceil_div(M, c.BM)), dim3(c.threads()), 0};
    }
};
/// The selection and launch layer for this step (common/launch/config_launcher.cuh).
using Launcher = sgemm::Launcher<Layout>;

/// C = alpha * A * B + beta * C, with the configuration this GPU and shape choose.
inline constexpr sgemm::LaunchFn launch = Launcher::launch;
inline constexpr sgemm::GeometryFn geometry = Launcher::geometry;  ///< for the report
inline constexpr sgemm::PlanFn plan = Launcher::plan;              ///< what launch() runs, and why
/// Configuration 0's kernel with 16-byte accesses (the one the H100 runs).
inline constexpr sgemm::KernelFn kernel = kKernels(0, {true, true, true});

}  // namespace step09
