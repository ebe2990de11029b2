/**
@file
@brief Step 11, tensor cores: the FFMA loop of step 10 becomes one warp instruction, `mma.sync`,
that multiplies a 16 x 8 tile of A by an 8 x 8 tile of B in TF32 and adds it to a 16 x 8 tile of C.

The idea: a tensor core multiplies small matrices, not numbers. One `mma.sync.m16n8k8` of a warp
does 16 * 8 * 8 = 1024 multiply-adds, 32 per thread, where an FFMA does one. Its inputs are TF32
(an FP32 with only 10 of its 23 mantissa bits), its sums FP32. The block tiles, the warp tiles
and step 10's cp.async pipeline stay; what changes is the innermost loop, and that each thread
now holds pieces of the warp's tiles in the fixed places the instruction expects (lane = 4 g + t):

@verbatim
  A fragment, 16 x 8 (rows m, depth k)    B fragment, 8 x 8 (k, columns n)   C, 16 x 8 (m, n)
              k = t     k = t + 4                    n = g                          n = 2t  n = 2t+1
    m = g     a[0]      a[2]              k = t      b[0]             m = g        c[0]    c[1]
    m = g + 8 a[1]      a[3]              k = t + 4  b[1]             m = g + 8    c[2]    c[3]

  A warp's WM x WN tile of C is (WM / 16) x (WN / 8) such C tiles; per step of 8 along k it
  loads WM / 16 A fragments and WN / 8 B fragments and issues one mma.sync for every pair.
@endverbatim

Shared memory: A's tile is kept as it lies in memory, rows of BK floats (cp.async copies it
straight in; step 10 had to transpose it), unpadded, with each row's 16-byte chunks swizzled:
chunk c of row r is stored as chunk c ^ (r % 8). A's fragments come by `ldmatrix`, one instruction
for a whole 16 x 8 fragment: it reads four blocks of 8 rows x 16 bytes, one chunk of 8 rows, which
the swizzle puts in 8 different chunks of the banks. Padding would do that too (rows of BK + 4
floats), but a padded row starts off a 32-byte sector every other row, and L2 then serves a third
more sectors than with the swizzle (lab notes); a swizzled row starts on 128 bytes. B's rows are
padded to BN + 8 floats, whole sectors. B's come one float per load (no instruction gathers a
column): its 4 rows t fall 8 banks apart, 4 x 8 columns g = 32 banks. Each element is rounded to TF32 before the mma: `cvt.rn`, one instruction,
on sm_90 and newer; `cvt.rna`, two, before. The fragments of the next mma step load while this
step's mma run (two buffers), and the pipeline is compiled twice: blocks inside C whose K is
whole K-tiles copy without a check, the others check every copy. What is left per mma is about
three and a half instructions: the mma itself, one rounding, and a share of the loads and copies.

Template parameters: BM, BN - rows and columns of the block's tile of C; BK - the depth of the
shared-memory tiles (a multiple of 8); WM, WN - rows and columns of a warp's tile of C
(multiples of 16 and 8); kMinBlocks - blocks per SM that __launch_bounds__ must leave registers
for; kStages - K-tiles in shared memory at once; kVectorA, kVectorB - 16-byte copies of A, and of
B (each where every row of that matrix is 16-byte aligned; else 4-byte copies).

Preconditions: a GPU of sm_80 or newer (TF32 tensor cores; compiled for an older architecture,
the kernel is empty and the harness refuses to run the step). A (M x K), B (K x N) and C (M x N)
are row-major and contiguous; M, N >= 1, K >= 0. When beta == 0, C is only written. Under split-K
(launch/split_k.cuh, gridDim.z > 1) each block multiplies its slice of K into its slice of C.

Build and run:  make step11 && ./step11 4096
*/
#pragma once

#include "device/cp_async.cuh"
#include "device/cuda_check.cuh"
#include "device/tile_io.cuh"  // store2()
#include "launch/config_launcher.cuh"  // and through it gpu/gpu.h (kArchHere) and launch/split_k.cuh

#include <cstdint>
#include <string>

namespace step11 {

/// The arithmetic the harness verifies this step by: TF32 inputs, FP32 sums (run/compare.h).
inline constexpr sgemm::Arithmetic kArithmetic = sgemm::Arithmetic::kTf32;
/// The oldest architecture with TF32 tensor cores (Ampere): the harness refuses older GPUs.
inline constexpr int kMinArch = 80;

/// x rounded to TF32 (10 mantissa bits, to nearest), as the 32-bit pattern mma.sync reads: the
/// 13 low mantissa bits are zero. sm_90 and newer round in one instruction (`cvt.rn`, ties to
/// even); sm_80 to 89 have only `cvt.rna` (ties away from zero), which costs two.
__device__ __forceinline__ std::uint32_t to_tf32(float x) {
    std::uint32_t r;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    r = 0, __trap();  // never runs: the kernels compile empty before sm_80 (see below)
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm("cvt.rn.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
#else
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
#endif
    return r;
}

/// c (16 x 8, FP32) += a (16 x 8, TF32) * b (8 x 8, TF32), one warp together; each thread
/// passes its own pieces of a, b and c (the picture in the file comment).
__device__ __forceinline__ void mma_m16n8k8(float (&c)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    __trap();  // never runs: the kernels compile empty before sm_80
#else
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

/// One A fragment in one instruction: ldmatrix.x4 reads four 8 x 4 blocks of 32-bit words (it
/// calls them 8 x 8 blocks of 16-bit ones), each lane naming the row of one; lane 4 g + t
/// receives word t of row g of each block: a[0..3] as the mma expects them (the file comment).
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&a)[4], std::uint32_t smem_address) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    __trap();  // never runs: the kernels compile empty before sm_80
#else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(smem_address));
#endif
}

/// C = alpha * A * B + beta * C with TF32 tensor cores; see the file comment.
template <int BM, int BN, int BK, int WM, int WN, int kMinBlocks, int kStages, bool kVectorA, bool kVectorB>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, kMinBlocks)
sgemm_tensor_cores(int M, int N, int K, float alpha, const float* __restrict__ A, const float* __restrict__ B,
                   float beta, float* __restrict__ C) {
    constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
    constexpr int kTilesM = WM / 16, kTilesN = WN / 8;  // mma tiles of a warp's tile
    constexpr int kSteps = BK / 8;                      // mma steps along k per K-tile
    constexpr int kLdA = BK, kLdB = BN + 8;             // A swizzled, B padded: see the file comment
    constexpr int kSizeA = BM * kLdA, kSizeB = BK * kLdB;  // floats per stage
    constexpr int kCopiesA = BM * BK / 4 / kThreads, kCopies = kCopiesA + BK * BN / 4 / kThreads;  // per thread
    static_assert(WM % 16 == 0 && WN % 8 == 0 && BK % 8 == 0, "whole mma tiles: 16 x 8 x 8");
    static_assert((BM * BK / 4) % kThreads == 0 && (BK * BN / 4) % kThreads == 0,
                  "the threads copy each tile in whole passes of 16 bytes each");
    static_assert(kStages >= 2 && kSteps % 2 == 0, "a pipeline; fragments alternate between two buffers");
    static_assert(BK % 32 == 0, "A's swizzle permutes 8 chunks of 16 bytes: rows of whole 128 bytes");
    // No tensor cores for TF32 before sm_80, or a configuration too large: the kernel compiles
    // empty, and no GPU of that architecture launches it.
    if constexpr (sgemm::kArchHere < kMinArch ||
                  kStages * (kSizeA + kSizeB) * int(sizeof(float)) > sgemm::kSmemPerBlockHere) return;
    extern __shared__ __align__(128) float4 smem4[];  // 128: the swizzle below XORs addresses
    float* const smem = reinterpret_cast<float*>(smem4);
    auto As = [&](int s) { return smem + s * (kSizeA + kSizeB); };           // stage s: (BM, BK) of A
    auto Bs = [&](int s) { return smem + s * (kSizeA + kSizeB) + kSizeA; };  // and (BK, BN) of B

    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;  // this block's tile of C
    const sgemm::KSlice ks = sgemm::k_slice<BK>(K);          // split-K: its part of K
    C += static_cast<size_t>(blockIdx.z) * M * N;            // and its slice of the output
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int warp_m = warp / (BN / WN) * WM, warp_n = warp % (BN / WN) * WN;  // the warp's tile
    const int g = lane / 4, t = lane % 4;  // the lane's group and place in it (the picture)
    const bool inside = m0 + BM <= M && n0 + BN <= N;  // full tiles: no bounds checks
    A += static_cast<size_t>(m0) * K + ks.first;       // (BM, ks.len) part of A, rows K apart
    B += static_cast<size_t>(ks.first) * N + n0;       // (ks.len, BN) part of B
    const int tiles = (max(ks.len, 0) + BK - 1) / BK;

    // 1. Load a tile: every 16 bytes by cp.async, straight into the stage (A untransposed). What
    // lies outside A or B reads as 0. A warp copies whole rows of A's tile at once, BK / 4 lanes to
    // a row: thread x copies chunk x of the tile's first kThreads chunks, and the same chunk of the
    // rows kRowsA, 2 kRowsA, ... further down. B's rows are longer (BN floats): a warp copies 32 floats
    // of 4 rows at once, 8 lanes to a row, and a thread copies the chunks 8, 16, 24, ... after its
    // first one from the same pointer, 128 bytes apart, an offset the copy instruction holds.
    constexpr int kRowsA = kThreads / (BK / 4), kRowsB = kThreads / 8;  // rows per pass of the threads
    constexpr int kPassesB = BK / kRowsB, kChunksB = BN / 32;            // B: passes, and copies per row
    static_assert(kThreads % (BK / 4) == 0 && BK % kRowsB == 0 && BN % 32 == 0 &&
                      kPassesB * kChunksB == kCopies - kCopiesA,
                  "a pass of the threads copies whole rows of A, and 32-float pieces of whole rows of B");
    const int ra = threadIdx.x / (BK / 4), ca = threadIdx.x % (BK / 4);  // row and chunk of its first copy of A
    const int rb = warp * 4 + lane / 8, cb = lane % 8;                   // and of B: 4 rows a warp
    // Byte offsets within a tile stay below 2^32: 32-bit arithmetic, one 64-bit pointer per tile.
    const unsigned a_at = 4u * (ra * K + ca * 4), a_pass = 4u * kRowsA * K;  // its first copy of A; + a_pass per pass
    const unsigned b_at = 4u * (rb * N + cb * 4), b_pass = 4u * kRowsB * N;
    auto byte_offset = [](const float* p, unsigned bytes) {
        return reinterpret_cast<const float*>(reinterpret_cast<const char*>(p) + bytes);
    };
    static_assert(kRowsA % 8 == 0, "a thread's rows of A are 8 apart: one swizzle for all its copies");
    const int a_dst = ra * kLdA + (ca ^ ra % 8) * 4, b_dst = rb * kLdB + cb * 4;  // where they land in a stage
    // kFull: a tile wholly inside A and B, copied without a check.
    auto copy_tile = [&](int tile, int stage, auto full) {
        constexpr bool kFull = decltype(full)::value;
        const int k0 = tile * BK;
        const float* a_tile = A + k0;                                                  // (BM, BK) tile of A
        const float* b_tile = B + static_cast<size_t>(static_cast<unsigned>(k0)) * N;  // (BK, BN) tile of B
#pragma unroll
        for (int i = 0; i < kCopies; ++i) {
            if (i < kCopiesA) {  // row ra + i kRowsA of A's tile: the floats of it that exist
                const int n = kFull ? 4 : m0 + ra + i * kRowsA < M ? ks.len - (k0 + ca * 4) : 0;
                sgemm::cp_async_row4<kVectorA>(As(stage) + a_dst + i * kRowsA * kLdA, byte_offset(a_tile, a_at + i * a_pass), n, A);
            } else {  // row rb + h kRowsB of B's tile, its floats 32 j to 32 j + 3 after the thread's first
                const int h = (i - kCopiesA) / kChunksB, j = (i - kCopiesA) % kChunksB;
                const int n = kFull ? 4 : k0 + rb + h * kRowsB < ks.len ? N - (n0 + cb * 4 + 32 * j) : 0;
                sgemm::cp_async_row4<kVectorB>(Bs(stage) + b_dst + h * kRowsB * kLdB + 32 * j,
                                               byte_offset(b_tile, b_at + h * b_pass) + 32 * j, n, B);
            }
        }
    };

    // 2. Load the fragments of one mma step. A's by ldmatrix: lane l names row l % 8 + 8 (l / 8 %
    // 2) of the warp's 16-row tile, at chunk 2 step + l / 16 of the row, stored as that chunk ^ (l %
    // 8) (the swizzle: the row's number is l % 8 modulo 8). Step s's chunk is step 0's ^ 2 s, so its
    // bytes are step 0's ^ 32 s. B's by one 4-byte load per element: rows t and t + 4, column g of
    // each mma tile (a pair the mma reads from neighbouring registers).
    const int a_row = warp_m + lane % 8 + lane / 8 % 2 * 8;  // the row of A this lane names
    static_assert(kSizeA % 32 == 0 && kSizeB % 32 == 0, "stages of whole 128 bytes: XOR 32 s changes only a chunk");
    const std::uint32_t a_lane = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem)) +
                                 4 * (a_row * kLdA + (lane / 16 ^ lane % 8) * 4);  // its 16 bytes in stage 0, step 0
    const int b_lane = t * kLdB + warp_n + g;                         // its b[0] in stage 0, step 0
    struct Fragments {
        std::uint32_t a[kTilesM][4], b[kTilesN][2];
    };
    auto load_fragments = [&](Fragments& f, int stage, int step) {  // the next step's, while this one's mma run
        // exercise begin: load this thread's fragments of one mma step
        const std::uint32_t at = (a_lane + 4 * stage * (kSizeA + kSizeB)) ^ 32 * step;
#pragma unroll
        for (int i = 0; i < kTilesM; ++i) ldmatrix_x4(f.a[i], at + 4 * i * 16 * kLdA);  // rows + 16 i
        const float* bs = Bs(stage) + b_lane + step * 8 * kLdB;
#pragma unroll
        for (int j = 0; j < kTilesN; ++j)  // rows t and t + 4, column g of mma tile j
            f.b[j][0] = __float_as_uint(bs[j * 8]), f.b[j][1] = __float_as_uint(bs[j * 8 + 4 * kLdB]);
        // exercise end
    };

    // 3. Compute: round every element to TF32, and issue one mma for every (A, B) fragment pair.
    float acc[kTilesM][kTilesN][4] = {};  // the warp's tile of C: 4 floats per thread per mma tile
    auto compute = [&](Fragments& f) {
#pragma unroll
        for (int i = 0; i < kTilesM; ++i)
#pragma unroll
            for (int r = 0; r < 4; ++r) f.a[i][r] = to_tf32(__uint_as_float(f.a[i][r]));
#pragma unroll
        for (int j = 0; j < kTilesN; ++j)
#pragma unroll
            for (int r = 0; r < 2; ++r) f.b[j][r] = to_tf32(__uint_as_float(f.b[j][r]));
#pragma unroll
        for (int i = 0; i < kTilesM; ++i)
#pragma unroll
            for (int j = 0; j < kTilesN; ++j) mma_m16n8k8(acc[i][j], f.a[i], f.b[j]);
    };

    // The pipeline: kStages - 1 tiles in flight while one is computed, and the fragments of the
    // next mma step loading while this one's mma run (two buffers, fragments[step % 2]). It is
    // compiled twice: for blocks inside C whose K is whole K-tiles, whose copies check nothing,
    // and for the others, which check every copy.
    auto pipeline = [&](auto at_edge) {
        constexpr bool kAtEdge = decltype(at_edge)::value;
        auto start_copy = [&](int tile, int stage) {
            if (tile >= tiles) return;
            copy_tile(tile, stage, std::bool_constant<!kAtEdge>{});
        };
        for (int s = 0; s < kStages - 1; ++s) {
            start_copy(s, s);
            sgemm::cp_async_commit();
        }
        Fragments fragments[2];
        sgemm::cp_async_wait<kStages - 2>();  // tile 0 is in
        __syncthreads();
        if (tiles > 0) load_fragments(fragments[0], 0, 0);
        int read = 0, write = kStages - 1;  // the stage read (tile % kStages) and the one written
        for (int tile = 0; tile < tiles; ++tile) {
#pragma unroll
            for (int step = 0; step < kSteps; ++step) {
                if (step < kSteps - 1) {
                    load_fragments(fragments[(step + 1) % 2], read, step + 1);
                    if (step == 0) {
                        start_copy(tile + kStages - 1, write);  // into the stage read last tile
                        sgemm::cp_async_commit();
                    }
                } else {
                    sgemm::cp_async_wait<kStages - 2>();  // my copies of the next tile are in
                    __syncthreads();                      // everyone's are, and this stage is read
                    write = read;
                    read = read + 1 == kStages ? 0 : read + 1;
                    if (tile + 1 < tiles) load_fragments(fragments[0], read, 0);
                }
                compute(fragments[step % 2]);
            }
        }
    };
    if (inside && ks.len % BK == 0) pipeline(std::false_type{});
    else pipeline(std::true_type{});

    // 4. Store C: c[0], c[1] at row g, columns 2t and 2t + 1 of each mma tile; c[2], c[3] at row g + 8.
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int m = m0 + warp_m + i * 16 + g + h * 8;
            if (!inside && m >= M) continue;
#pragma unroll
            for (int j = 0; j < kTilesN; ++j) {
                const int n = n0 + warp_n + j * 8 + 2 * t;
                sgemm::store2<kVectorB>(C + static_cast<size_t>(m) * N + n, inside ? 2 : N - n, acc[i][j][2 * h],
                              acc[i][j][2 * h + 1], alpha, beta);
            }
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
    int blocks_per_sm;  ///< blocks per SM the registers must allow (kMinBlocks)
    int stages;         ///< K-tiles in shared memory at once (kStages)
    /// its speed at 4096^3 on the H100 as a % of the FP32 FFMA peak (over 100: the tensor cores
    /// outrun the FFMA units), from make tc-variants (tc_variants_h100-80gb-hbm3.txt, lab.md);
    /// the choice by shape weighs configurations by it
    double pct_of_peak;
    /// the same at 4095^3, where every copy is 4 bytes wide (the same make tc-variants run: its
    /// speed there over its speed at 4096^3, times pct_of_peak); weighed against packing when K %
    /// 4 != 0 or N % 4 != 0 (launch/config_launcher.cuh)
    double pct_unaligned;
    constexpr int threads() const { return (BM / WM) * (BN / WN) * 32; }  ///< per block
    /// dynamic shared memory per block: `stages` x (A tile + padded B tile)
    constexpr int smem_bytes() const { return stages * (BM * BK + BK * (BN + 8)) * int(sizeof(float)); }
    /// "128x256x32, 3 stages": how the reports name it
    std::string name() const {
        return std::to_string(BM) + "x" + std::to_string(BN) + "x" + std::to_string(BK) + ", " +
               std::to_string(stages) + " stages";
    }
};

/// The configurations, the fastest at 4096^3 first. Their speeds (in parentheses below) are from
/// a make tc-variants run on the H100 made before the unchecked pipeline was kept to whole
/// K-tiles; tc_variants_h100-80gb-hbm3.txt holds a later run, with A swizzled, where the 128 x
/// 256 tiles ran ahead of the first at 4096^3 and 8192^3 and behind it where K is short
/// (steps/11_tensor_cores/lab.md, "The kernel today"). The weights were left as they are.
inline constexpr Config kConfigs[] = {
    // BM   BN  BK  WM  WN blk/SM stages %peak  %peak unaligned (of 66,908 GFLOP/s: GFLOP/s at 4096^3 / at 4095^3)
    {128, 128, 32, 64, 64, 2, 3, 282.6, 125.1},  // 101,376 B: two blocks per SM on sm_90, 100, 103, 110 (189,106 / 83,709)
    {128, 256, 32, 64, 64, 1, 4, 274.2, 149.0},  // 200,704 B: sm_90, 100, 103, 110 (183,475 / 99,661)
    {128, 256, 32, 64, 64, 1, 3, 271.5, 153.4},  // 150,528 B: sm_80, 87 (181,667 / 102,670)
    {128, 128, 32, 64, 64, 1, 2, 250.5, 136.0},  //  67,584 B: GPUs with 99 KB per block (sm_86, 89, 120) (167,608 / 90,979)
};
/// How many configurations kConfigs holds.
inline constexpr int kNumConfigs = int(sizeof(kConfigs) / sizeof(kConfigs[0]));

static_assert(sgemm::every(kConfigs, [](Config c) { return c.BM % c.WM == 0 && c.BN % c.WN == 0; }),
              "the warp tiles must tile the block tile");
static_assert(sgemm::every(kConfigs, [](Config c) { return c.WM % 16 == 0 && c.WN % 8 == 0 && c.BK % 8 == 0; }),
              "a warp tile is made of whole 16 x 8 mma tiles, and BK of whole steps of 8");
static_assert(sgemm::every(kConfigs, [](Config c) { return c.BM <= 128 && c.BK <= 32; }),
              "Layout::kMaxK and kMaxN allow for tiles of at most 128 rows of A and 32 of B");
static_assert(sgemm::every(kConfigs, [](Config c) { return c.threads() <= 1024; }),
              "a block holds at most 1024 threads");
static_assert(sgemm::every(kConfigs, [](Config c) { return c.smem_bytes() <= 227 * 1024; }),
              "a block may use at most 227 KB of shared memory (sm_90, the largest)");

/// Every configuration's kernels, for each way a launch copies (sgemm::Access). There is no
/// kernel without cp.async: every GPU with TF32 tensor cores has it.
inline constexpr auto kKernels = sgemm::kernel_table<kNumConfigs>(
    [](auto i, auto vector_a, auto vector_b, auto async) -> sgemm::KernelFn {
        constexpr Config c = kConfigs[decltype(i)::value];
        if constexpr (!decltype(async)::value) return nullptr;
        else return sgemm_tensor_cores<c.BM, c.BN, c.BK, c.WM, c.WN, c.blocks_per_sm, c.stages,
                                       decltype(vector_a)::value, decltype(vector_b)::value>;
    });

/// What the launcher (launch/config_launcher.cuh) needs to know of this step.
struct Layout {
    static constexpr const char* kName = "step11";  ///< for messages
    static constexpr const Config (&kConfigs)[kNumConfigs] = step11::kConfigs;  ///< the configurations
    static constexpr const auto& kKernels = step11::kKernels;  ///< and their kernels
    static constexpr int kMaxSplits = sgemm::kMaxSplits;  ///< split-K where C has too few tiles
    /// Rows of A or B off 16-byte boundaries (K or N % 4 != 0) are packed first
    /// (launch/pack.cuh): both travel by cp.async, which copies 16 bytes only from aligned rows.
    static constexpr sgemm::Packing kPacking = sgemm::Packing::kAB;
    /// The tile copies address A and B by 32-bit byte offsets within a tile (step 1 of the
    /// kernel): 128 rows of K floats and 32 rows of N floats stay below 2^32 bytes, with the
    /// padding packing may add.
    static constexpr long long kMaxK = (1LL << 30) / 128 - 4;
    static constexpr long long kMaxN = (1LL << 30) / 32 - 4;  ///< the same for N
    /// Configurations are built for sm_80 and newer only.
    static constexpr bool built(const Config&, int arch) { return arch >= kMinArch; }
    /// One block of c.threads() threads per (BM, BN) tile of C, its stages in dynamic shared memory.
    static sgemm::LaunchGeometry launch_geometry(const Config& c, int M, int N) {
        return {dim3(sgemm::ceil_div(N, c.BN), sgemm::ceil_div(M, c.BM)), dim3(c.threads()),
                std::size_t(c.smem_bytes())};
    }
};
/// The selection and launch layer for this step (launch/config_launcher.cuh).
using Launcher = sgemm::Launcher<Layout>;

/// C = alpha * A * B + beta * C, with the configuration and split-K this GPU and shape choose.
inline constexpr sgemm::LaunchFn launch = Launcher::launch;
inline constexpr sgemm::GeometryFn geometry = Launcher::geometry;  ///< for the report
inline constexpr sgemm::PlanFn plan = Launcher::plan;              ///< what launch() runs, and why
/// Configuration 0's kernel with 16-byte copies (the one the H100 runs).
inline constexpr sgemm::KernelFn kernel = kKernels(0, {true, true, true});

}  // namespace step11
