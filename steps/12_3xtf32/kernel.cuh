/**
@file
@brief Step 12, 3xTF32: FP32's accuracy from TF32 tensor cores. Each input is split into a big
and a small TF32 part, and three mma.sync instructions do the work of one FP32 product.

The idea: x = hi + lo, with hi = tf32(x) and lo = x - hi, of which the tensor core reads the top
11 bits. hi holds the top 11 bits of x's significand, lo the next 11: together 22 of FP32's 24. Then

    a * b = a_hi * b_hi + a_hi * b_lo + a_lo * b_hi + a_lo * b_lo,

and the last term, below 2^-22 |a b|, is dropped: three products instead of four. The small
products go first, so that they are added while the sum is small. The tensor core adds with
less care than an FFMA (it truncates where an FFMA rounds), so each K-tile is summed in its own
accumulator, part, which is added to acc by an FP32 add after the tile: the long sum over K is
rounded as an FFMA loop rounds it.

@verbatim
  per step of 8 along k, for each (A fragment i, B fragment j) of the warp (step 11's picture):

    a[i] -> split -> a_hi[i], a_lo[i]        part[i][j] += a_lo[i] * b_hi[j]   (small)
    b[j] -> split -> b_hi[j], b_lo[j]        part[i][j] += a_hi[i] * b_lo[j]   (small)
                                             part[i][j] += a_hi[i] * b_hi[j]   (big)
  after each K-tile:  acc[i][j] += part[i][j]   (FP32 adds: rounded to nearest)
@endverbatim

Shared memory, the fragments and the pipeline are step 11's; the split happens in registers,
after the fragment loads: 1 cvt and 1 subtraction per element, and no extra memory. lo is not
rounded: the tensor core drops its low 13 bits itself (CUTLASS's 3xTF32 leaves them to it too,
after adding half a TF32 unit).
B's fragments are split as soon as they arrive, a step ahead, so that their splits run beside
this step's mma; A's, at the step itself (both ahead would need more than 255 registers).

Template parameters: as in step 11. BM, BN - rows and columns of the block's tile of C; BK - the
depth of the shared-memory tiles (a multiple of 8); WM, WN - rows and columns of a warp's tile of
C (multiples of 16 and 8); kMinBlocks - blocks per SM that __launch_bounds__ must leave registers
for; kStages - K-tiles in shared memory at once; kVectorA, kVectorB - 16-byte copies of A, and of
B (each where every row of that matrix is 16-byte aligned; else 4-byte copies).

Preconditions: as in step 11 (sm_80 or newer; row-major contiguous A, B, C; M, N >= 1, K >= 0;
when beta == 0, C is only written; under split-K each block computes its slice of K).

Build and run:  make step12 && ./step12 4096
*/
#pragma once

#include "device/cp_async.cuh"
#include "device/cuda_check.cuh"
#include "device/tile_io.cuh"  // store2()
#include "launch/config_launcher.cuh"  // and through it gpu/gpu.h (kArchHere) and launch/split_k.cuh

#include <cstdint>
#include <string>

namespace step12 {

/// The arithmetic the harness verifies this step by: FP32's own bound (run/compare.h).
inline constexpr sgemm::Arithmetic kArithmetic = sgemm::Arithmetic::k3xTf32;
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

/// hi = tf32(x) and lo = x - hi, left unrounded: the tensor core reads only the top 19 bits of
/// each operand (sign, exponent, 10 mantissa bits) and drops the rest, so it cuts lo to TF32
/// itself. lo has at most 12 significant bits, so the cut drops at most its last bit, one unit in
/// x's last place (<= 2^-23 |x|), as rounding would (that bit is a tie).
__device__ __forceinline__ void split(float x, std::uint32_t& hi, std::uint32_t& lo) {
    // hi is read as a float below, so its 13 low bits must be 0, as cvt's result is defined: the
    // compiler clears them where an instruction other than HMMA reads them (sm_80 to 89), or
    // cvt.rn's one instruction leaves them 0 (sm_90 and newer)
    hi = to_tf32(x);
    lo = __float_as_uint(x - __uint_as_float(hi));  // exact: within 2^-11 |x|, at most 12 bits
}

/// The FP32 dot product of a row of A and a column of B, `len` long, as an FFMA loop sums it:
/// the sums that 3xTF32 cannot give (below, in the kernel) are made this way.
__device__ __forceinline__ float fp32_dot(const float* a, const float* b, int ldb, int len) {
    float s = 0.0f;
    for (int k = 0; k < len; ++k) s = fmaf(a[k], b[static_cast<size_t>(k) * ldb], s);
    return s;
}

/// C = alpha * A * B + beta * C in 3xTF32 on tensor cores; see the file comment.
template <int BM, int BN, int BK, int WM, int WN, int kMinBlocks, int kStages, bool kVectorA, bool kVectorB>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, kMinBlocks)
sgemm_3xtf32(int M, int N, int K, float alpha, const float* __restrict__ A, const float* __restrict__ B,
                   float beta, float* __restrict__ C) {
    constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
    constexpr int kTilesM = WM / 16, kTilesN = WN / 8;  // mma tiles of a warp's tile
    constexpr int kSteps = BK / 8;                      // mma steps along k per K-tile
    constexpr int kLdA = BK, kLdB = BN + 8;             // A swizzled, B padded: step 11's
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
    auto copy_tile = [&](int tile, int stage, auto full, int first, int last) {
        constexpr bool kFull = decltype(full)::value;
        const int k0 = tile * BK;
        const float* a_tile = A + k0;                                                  // (BM, BK) tile of A
        const float* b_tile = B + static_cast<size_t>(static_cast<unsigned>(k0)) * N;  // (BK, BN) tile of B
#pragma unroll
        for (int i = 0; i < kCopies; ++i) {
            if (i < first || i >= last) continue;  // the copies of this mma step (the pipeline below)
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

    // 2. Load the fragments of one mma step (step 11's). A's by ldmatrix: lane l names row l % 8 +
    // 8 (l / 8 % 2) of the warp's 16-row tile, at chunk 2 step + l / 16 of the row, stored as that
    // chunk ^ (l % 8) (the swizzle); step s's bytes are step 0's ^ 32 s. B's by one 4-byte load per
    // element: rows t and t + 4, column g of each mma tile (a pair the mma reads from neighbouring
    // registers), split as they arrive: a step ahead of their mma, as the file comment says.
    const int a_row = warp_m + lane % 8 + lane / 8 % 2 * 8;  // the row of A this lane names
    static_assert(kSizeA % 32 == 0 && kSizeB % 32 == 0, "stages of whole 128 bytes: XOR 32 s changes only a chunk");
    const std::uint32_t a_lane = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem)) +
                                 4 * (a_row * kLdA + (lane / 16 ^ lane % 8) * 4);  // its 16 bytes in stage 0, step 0
    const int b_lane = t * kLdB + warp_n + g;                         // its b[0] in stage 0, step 0
    struct Fragments {
        std::uint32_t a[kTilesM][4], b_hi[kTilesN][2], b_lo[kTilesN][2];  // B's already split
    };
    auto load_fragments = [&](Fragments& f, int stage, int step) {  // the next step's, while this one's mma run
        const std::uint32_t at = (a_lane + 4 * stage * (kSizeA + kSizeB)) ^ 32 * step;
#pragma unroll
        for (int i = 0; i < kTilesM; ++i) ldmatrix_x4(f.a[i], at + 4 * i * 16 * kLdA);  // rows + 16 i
        const float* bs = Bs(stage) + b_lane + step * 8 * kLdB;
#pragma unroll
        for (int j = 0; j < kTilesN; ++j) {  // rows t and t + 4, column g of mma tile j, split as they arrive
            split(bs[j * 8], f.b_hi[j][0], f.b_lo[j][0]);
            split(bs[j * 8 + 4 * kLdB], f.b_hi[j][1], f.b_lo[j][1]);
        }
    };

    // 3. Compute: split A's elements into big and small TF32 parts, and issue three mma for
    // every (A, B) fragment pair into this K-tile's own sum, part: each kind of product for all
    // pairs before the next, so that the three mma adding into one part are far apart.
    float acc[kTilesM][kTilesN][4] = {};   // the warp's tile of C: 4 floats per thread per mma tile
    float part[kTilesM][kTilesN][4] = {};  // this K-tile's sum of it
    auto compute = [&](Fragments& f) {
        std::uint32_t a_hi[kTilesM][4], a_lo[kTilesM][4];
        const auto& b_hi = f.b_hi;
        const auto& b_lo = f.b_lo;
#pragma unroll
        for (int i = 0; i < kTilesM; ++i)
#pragma unroll
            for (int r = 0; r < 4; ++r) split(__uint_as_float(f.a[i][r]), a_hi[i][r], a_lo[i][r]);
        // exercise begin: three products per pair of fragments
#pragma unroll
        for (int i = 0; i < kTilesM; ++i)
#pragma unroll
            for (int j = 0; j < kTilesN; ++j) mma_m16n8k8(part[i][j], a_lo[i], b_hi[j]);  // the small products first
#pragma unroll
        for (int i = 0; i < kTilesM; ++i)
#pragma unroll
            for (int j = 0; j < kTilesN; ++j) mma_m16n8k8(part[i][j], a_hi[i], b_lo[j]);
#pragma unroll
        for (int i = 0; i < kTilesM; ++i)
#pragma unroll
            for (int j = 0; j < kTilesN; ++j) mma_m16n8k8(part[i][j], a_hi[i], b_hi[j]);  // then the big one
        // exercise end
    };
    // After each K-tile its sum joins the running one with FP32 adds, which round to nearest.
    auto add_part = [&] {
#pragma unroll
        for (int i = 0; i < kTilesM; ++i)
#pragma unroll
            for (int j = 0; j < kTilesN; ++j)
#pragma unroll
                for (int r = 0; r < 4; ++r) acc[i][j][r] += part[i][j][r], part[i][j][r] = 0.0f;
    };

    // The pipeline: kStages - 1 tiles in flight while one is computed, and the fragments of the
    // next mma step loading while this one's mma run (two buffers, fragments[step % 2]). It is
    // compiled twice: for blocks inside C whose K is whole K-tiles, whose copies check nothing,
    // and for the others, which check every copy.
    auto pipeline = [&](auto at_edge) {
        constexpr bool kAtEdge = decltype(at_edge)::value;
        auto start_copy = [&](int tile, int stage, int first, int last) {
            if (tile >= tiles) return;
            copy_tile(tile, stage, std::bool_constant<!kAtEdge>{}, first, last);
        };
        for (int s = 0; s < kStages - 1; ++s) {
            start_copy(s, s, 0, kCopies);
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
                // The copies into the stage read last tile, a share at each step: spread so, they
                // keep the memory pipes evenly busy (a step here is three times step 11's).
                const int first = step * kCopies / kSteps, last = (step + 1) * kCopies / kSteps;
                if (step < kSteps - 1) {
                    load_fragments(fragments[(step + 1) % 2], read, step + 1);
                    start_copy(tile + kStages - 1, write, first, last);
                } else {
                    start_copy(tile + kStages - 1, write, first, last);
                    sgemm::cp_async_commit();
                    sgemm::cp_async_wait<kStages - 2>();  // my copies of the next tile are in
                    __syncthreads();                      // everyone's are, and this stage is read
                    write = read;
                    read = read + 1 == kStages ? 0 : read + 1;
                    if (tile + 1 < tiles) load_fragments(fragments[0], read, 0);
                }
                compute(fragments[step % 2]);
            }
            add_part();
        }
    };
    if (inside && ks.len % BK == 0) pipeline(std::false_type{});
    else pipeline(std::true_type{});

    // 4. Store C: c[0], c[1] at row g, columns 2t and 2t + 1 of each mma tile; c[2], c[3] at row g + 8.
    // A sum that came out inf or NaN is not stored: its pair is made again in step 5.
    static_assert(kTilesM * kTilesN * 4 <= 64, "one bit per sum of the thread in a 64-bit mask");
    std::uint64_t redo = 0;  // bit (i * kTilesN + j) * 4 + r: acc[i][j][r], and its pair, in step 5
#pragma unroll
    for (int i = 0; i < kTilesM; ++i)
#pragma unroll
        for (int j = 0; j < kTilesN; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h)
                if (!isfinite(acc[i][j][2 * h]) || !isfinite(acc[i][j][2 * h + 1]))
                    redo |= std::uint64_t{3} << ((i * kTilesN + j) * 4 + 2 * h);
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int m = m0 + warp_m + i * 16 + g + h * 8;
            if (!inside && m >= M) continue;
#pragma unroll
            for (int j = 0; j < kTilesN; ++j) {
                const int n = n0 + warp_n + j * 8 + 2 * t;
                if (redo >> ((i * kTilesN + j) * 4 + 2 * h) & 1) continue;
                sgemm::store2<kVectorB>(C + static_cast<size_t>(m) * N + n, inside ? 2 : N - n, acc[i][j][2 * h],
                              acc[i][j][2 * h + 1], alpha, beta);
            }
        }
    }

    // 5. What FP32 gives where 3xTF32 cannot give it. An infinite input meets a zero piece of the
    // other operand (inf * b_lo with b_lo = 0 is NaN, where FP32's inf * b is inf), and an input
    // within half a TF32 unit of FLT_MAX rounds up to inf in the split: those sums, and only those,
    // come out inf or NaN. They are summed again here, in FP32, as an FFMA loop sums them.
    while (redo != 0) {
        const int bit = __ffsll(static_cast<long long>(redo)) - 1;
        redo &= redo - 1;
        const int tile = bit / 4, r = bit % 4;  // mma tile (i, j) = (tile / kTilesN, tile % kTilesN)
        const int m = warp_m + tile / kTilesN * 16 + g + r / 2 * 8, n = warp_n + tile % kTilesN * 8 + 2 * t + r % 2;
        if (m0 + m >= M || n0 + n >= N) continue;
        const float sum = fp32_dot(A + static_cast<size_t>(m) * K, B + n, N, ks.len);
        float* c = C + static_cast<size_t>(m0 + m) * N + n0 + n;
        *c = (beta == 0.0f) ? alpha * sum : alpha * sum + beta * *c;
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
    /// its speed at 4096^3 on the H100 as a % of the FP32 FFMA peak, from make tc-variants
    /// (tc_variants_h100-80gb-hbm3.txt, lab.md); the choice by shape weighs configurations by it
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
/// K-tiles; tc_variants_h100-80gb-hbm3.txt holds a later run, where they differ by a few per
/// cent (steps/11_tensor_cores/lab.md, "The kernel today").
inline constexpr Config kConfigs[] = {
    // BM   BN  BK  WM  WN blk/SM stages %peak %peak unaligned (of 66,908 GFLOP/s: GFLOP/s at 4096^3 / at 4095^3)
    {128, 128, 32, 64, 32, 1, 4, 100.9, 86.5},  // 135,168 B: sm_80, 87, 90, 100, 103, 110 (67,504 / 57,876)
    {128, 128, 32, 64, 32, 1, 2, 97.9, 84.1},   //  67,584 B: GPUs with 99 KB per block (sm_86, 89, 120) (65,531 / 56,288)
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
        else return sgemm_3xtf32<c.BM, c.BN, c.BK, c.WM, c.WN, c.blocks_per_sm, c.stages,
                                       decltype(vector_a)::value, decltype(vector_b)::value>;
    });

/// What the launcher (launch/config_launcher.cuh) needs to know of this step.
struct Layout {
    static constexpr const char* kName = "step12";  ///< for messages
    static constexpr const Config (&kConfigs)[kNumConfigs] = step12::kConfigs;  ///< the configurations
    static constexpr const auto& kKernels = step12::kKernels;  ///< and their kernels
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

}  // namespace step12
