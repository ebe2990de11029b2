// make tc-variants: the kernel steps 11 and 12 were chosen from, with the choices that did not
// pay still switchable, for steps/11_tensor_cores/lab.md and steps/12_3xtf32/lab.md. One template,
// flags instead of one patch each (as tools/measure/variants/ does for step 10), because the
// choices cross: kSplit 0 feeds the mma unrounded FP32 bits (it truncates them), 1 rounds with
// cvt.rna (step 11), 3 adds the three 3xTF32 products straight into the running sum, 4 sums each
// step of 8 apart and 5 each K-tile apart (step 12); kFrag loads the fragments as LDS.64/LDS.128
// with the columns of each warp tile permuted, instead of step 11's LDS.32.
#pragma once
#include <cuda_runtime.h>
#include <cstdint>

#include "device/cp_async.cuh"                // cp.async, as step 11 copies its tiles
#include "steps/11_tensor_cores/kernel.cuh"  // to_tf32() and mma_m16n8k8(), step 11's own

namespace proto {

using sgemm::cp_async16, sgemm::cp_async_commit, sgemm::cp_async_row4, sgemm::cp_async_wait;
using step11::to_tf32;
/// acc (16x8) += a (16x8, TF32) * b (8x8, TF32): step 11's mma_m16n8k8().
__device__ __forceinline__ void mma_tf32(float (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    step11::mma_m16n8k8(c, a, b);
}

// kSplit: 1 = TF32 (step 11), 3 = 3xTF32 (step 12)
template <int BM, int BN, int BK, int WM, int WN, int kStages, int kMinBlocks, bool kVecA, bool kVecB, int kSplit, bool kFrag = false>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, kMinBlocks)
gemm_tc(int M, int N, int K, float alpha, const float* __restrict__ A, const float* __restrict__ B, float beta,
        float* __restrict__ C) {
    constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
    constexpr int kMT = WM / 16, kNT = WN / 8;  // mma tiles per warp
    constexpr int kLdA = kFrag ? BK + 8 : BK + 4;
    constexpr int kLdB = kFrag ? BN + 4 : BN + 8;
    constexpr int kSizeA = BM * kLdA, kSizeB = BK * kLdB;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    return;
#else
    extern __shared__ float4 smem4[];
    float* const smem = reinterpret_cast<float*>(smem4);
    auto As = [&](int s) { return smem + s * (kSizeA + kSizeB); };
    auto Bs = [&](int s) { return smem + s * (kSizeA + kSizeB) + kSizeA; };

    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int warp_m = warp / (BN / WN) * WM, warp_n = warp % (BN / WN) * WN;
    const int g = lane / 4, t = lane % 4;  // group and thread in group
    const bool inside = m0 + BM <= M && n0 + BN <= N;
    A += static_cast<size_t>(m0) * K;
    B += n0;

    auto copy_tile = [&](int kt, int s, auto full) {
        constexpr bool kFull = decltype(full)::value;
        const int k0 = kt * BK;
        // A: BM rows of BK floats, in 16-byte chunks
#pragma unroll
        for (int i = 0; i < BM * BK / 4 / kThreads; ++i) {
            const int c = threadIdx.x + i * kThreads;
            const int r = c / (BK / 4), col = c % (BK / 4) * 4;
            const float* src = A + static_cast<size_t>(r) * K + k0 + col;
            float* dst = As(s) + r * kLdA + col;
            if constexpr (kFull && kVecA) {
                cp_async16(dst, src, 16);
            } else {
                const int n = m0 + r < M ? K - (k0 + col) : 0;
                cp_async_row4<kVecA>(dst, src, n, A);
            }
        }
#pragma unroll
        for (int i = 0; i < BK * BN / 4 / kThreads; ++i) {
            const int c = threadIdx.x + i * kThreads;
            const int r = c / (BN / 4), col = c % (BN / 4) * 4;
            const float* src = B + static_cast<size_t>(k0 + r) * N + col;
            float* dst = Bs(s) + r * kLdB + col;
            if constexpr (kFull && kVecB) {
                cp_async16(dst, src, 16);
            } else {
                const int n = k0 + r < K ? N - (n0 + col) : 0;
                cp_async_row4<kVecB>(dst, src, n, B);
            }
        }
    };
    const int tiles = (K + BK - 1) / BK;
    auto start_copy = [&](int kt) {
        if (inside && (kt + 1) * BK <= K) copy_tile(kt, kt % kStages, std::true_type{});
        else copy_tile(kt, kt % kStages, std::false_type{});
    };
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < tiles) start_copy(s);
        cp_async_commit();
    }
    float acc[kMT][kNT][4] = {};
    for (int kt = 0; kt < tiles; ++kt) {
        cp_async_wait<kStages - 2>();
        __syncthreads();
        if (kt + kStages - 1 < tiles) start_copy(kt + kStages - 1);
        cp_async_commit();
        float tpart[kSplit == 5 ? kMT : 1][kSplit == 5 ? kNT : 1][4] = {};
        const float* as = As(kt % kStages) + (warp_m + g) * kLdA;
        const float* bs = Bs(kt % kStages);
#pragma unroll
        for (int kk = 0; kk < BK; kk += 8) {
            float af[kMT][4], bf[kNT][2];
            if constexpr (kFrag) {
#pragma unroll
                for (int i = 0; i < kMT; ++i) {
                    const float2 v0 = *reinterpret_cast<const float2*>(as + i * 16 * kLdA + kk + 2 * t);
                    const float2 v1 = *reinterpret_cast<const float2*>(as + (i * 16 + 8) * kLdA + kk + 2 * t);
                    af[i][0] = v0.x, af[i][2] = v0.y, af[i][1] = v1.x, af[i][3] = v1.y;
                }
#pragma unroll
                for (int q = 0; q < kNT / 4; ++q) {
                    const float4 v0 = *reinterpret_cast<const float4*>(bs + (kk + 2 * t) * kLdB + warp_n + q * 32 + g * 4);
                    const float4 v1 = *reinterpret_cast<const float4*>(bs + (kk + 2 * t + 1) * kLdB + warp_n + q * 32 + g * 4);
                    bf[q * 4 + 0][0] = v0.x, bf[q * 4 + 1][0] = v0.y, bf[q * 4 + 2][0] = v0.z, bf[q * 4 + 3][0] = v0.w;
                    bf[q * 4 + 0][1] = v1.x, bf[q * 4 + 1][1] = v1.y, bf[q * 4 + 2][1] = v1.z, bf[q * 4 + 3][1] = v1.w;
                }
            } else {
#pragma unroll
                for (int i = 0; i < kMT; ++i) {
                    const float* p = as + i * 16 * kLdA + kk + t;
                    af[i][0] = p[0], af[i][1] = p[8 * kLdA], af[i][2] = p[4], af[i][3] = p[8 * kLdA + 4];
                }
#pragma unroll
                for (int j = 0; j < kNT; ++j) {
                    const float* p = bs + (kk + t) * kLdB + warp_n + j * 8 + g;
                    bf[j][0] = p[0], bf[j][1] = p[4 * kLdB];
                }
            }
            if constexpr (kSplit <= 1) {
                uint32_t a[kMT][4], b[kNT][2];
#pragma unroll
                for (int i = 0; i < kMT; ++i)
                    for (int r = 0; r < 4; ++r) a[i][r] = kSplit == 1 ? to_tf32(af[i][r]) : __float_as_uint(af[i][r]);
#pragma unroll
                for (int j = 0; j < kNT; ++j)
                    for (int r = 0; r < 2; ++r) b[j][r] = kSplit == 1 ? to_tf32(bf[j][r]) : __float_as_uint(bf[j][r]);
#pragma unroll
                for (int i = 0; i < kMT; ++i)
#pragma unroll
                    for (int j = 0; j < kNT; ++j) mma_tf32(acc[i][j], a[i], b[j]);
            } else {
                uint32_t ah[kMT][4], al[kMT][4], bh[kNT][2], bl[kNT][2];
                auto split = [](float x, uint32_t& hi, uint32_t& lo) {
                    hi = to_tf32(x);
                    lo = to_tf32(x - __uint_as_float(hi));
                };
#pragma unroll
                for (int i = 0; i < kMT; ++i)
                    for (int r = 0; r < 4; ++r) split(af[i][r], ah[i][r], al[i][r]);
#pragma unroll
                for (int j = 0; j < kNT; ++j)
                    for (int r = 0; r < 2; ++r) split(bf[j][r], bh[j][r], bl[j][r]);
#pragma unroll
                for (int i = 0; i < kMT; ++i)
#pragma unroll
                    for (int j = 0; j < kNT; ++j) {
                        if constexpr (kSplit == 5) {
                            mma_tf32(tpart[i][j], al[i], bh[j]);
                            mma_tf32(tpart[i][j], ah[i], bl[j]);
                            mma_tf32(tpart[i][j], ah[i], bh[j]);
                        } else if constexpr (kSplit == 3) {
                            mma_tf32(acc[i][j], al[i], bh[j]);
                            mma_tf32(acc[i][j], ah[i], bl[j]);
                            mma_tf32(acc[i][j], ah[i], bh[j]);
                        } else {
                            float part[4] = {};
                            mma_tf32(part, al[i], bh[j]);
                            mma_tf32(part, ah[i], bl[j]);
                            mma_tf32(part, ah[i], bh[j]);
                            for (int r = 0; r < 4; ++r) acc[i][j][r] += part[r];
                        }
                    }
            }
        }
        if constexpr (kSplit == 5) {
#pragma unroll
            for (int i = 0; i < kMT; ++i)
#pragma unroll
                for (int j = 0; j < kNT; ++j)
#pragma unroll
                    for (int r = 0; r < 4; ++r) acc[i][j][r] += tpart[i][j][r];
        }
    }
    cp_async_wait<0>();
    // store C: c0,c1 at (g, 2t..2t+1), c2,c3 at (g+8, ...) of logical n-tile j
    auto put = [&](int m, int n, float v) {
        if (inside || (m < M && n < N)) {
            float* c = C + static_cast<size_t>(m) * N + n;
            *c = beta == 0.0f ? alpha * v : alpha * v + beta * *c;
        }
    };
#pragma unroll
    for (int i = 0; i < kMT; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int m = m0 + warp_m + i * 16 + g + h * 8;
            if (!inside && m >= M) continue;
            if constexpr (kFrag) {
#pragma unroll
                for (int q = 0; q < kNT / 4; ++q)
#pragma unroll
                    for (int e2 = 0; e2 < 2; ++e2) {  // logical column 2t + e2 -> 4 physical columns
                        const int n = n0 + warp_n + q * 32 + (2 * t + e2) * 4;
                        float4 v = make_float4(acc[i][q * 4][2 * h + e2], acc[i][q * 4 + 1][2 * h + e2],
                                               acc[i][q * 4 + 2][2 * h + e2], acc[i][q * 4 + 3][2 * h + e2]);
                        if (kVecB && (inside || n + 3 < N)) {
                            float* c = C + static_cast<size_t>(m) * N + n;
                            float4 o = make_float4(alpha * v.x, alpha * v.y, alpha * v.z, alpha * v.w);
                            if (beta != 0.0f) {
                                const float4 old = *reinterpret_cast<const float4*>(c);
                                o.x += beta * old.x, o.y += beta * old.y, o.z += beta * old.z, o.w += beta * old.w;
                            }
                            *reinterpret_cast<float4*>(c) = o;
                        } else {
                            put(m, n, v.x), put(m, n + 1, v.y), put(m, n + 2, v.z), put(m, n + 3, v.w);
                        }
                    }
            } else {
#pragma unroll
                for (int j = 0; j < kNT; ++j) {
                    const int n = n0 + warp_n + j * 8 + 2 * t;
                    put(m, n, acc[i][j][2 * h]), put(m, n + 1, acc[i][j][2 * h + 1]);
                }
            }
        }
#endif
}

}  // namespace proto
