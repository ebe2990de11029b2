/// @file tile_io.cuh
/// @brief The pieces of the tile copies that steps 06 and 07 teach, written once for the steps
///        after them (08, 09 and 10): load4() and store4(), the 16-byte global accesses with
///        their edge-safe fallback (step 06), and a_index() and store_transposed(), the padded,
///        transposed A tile without bank conflicts (step 07), and store2(), the same as store4()
///        for the pairs of C a tensor-core thread holds (steps 11, 12). Steps 06 and 07 keep their
///        own copies, since there they are the idea.
#pragma once

#include <cuda_runtime.h>

namespace sgemm {

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

/// p[j] = alpha * v_j + beta * p[j] for the first `n` of the two floats (v0, v1) at p (beta == 0:
/// p is not read), as the tensor-core steps (11, 12) store the pair of columns a thread holds of
/// each mma tile. kVector: one 8-byte access, for p 8-byte aligned and n >= 2.
template <bool kVector>
__device__ __forceinline__ void store2(float* p, int n, float v0, float v1, float alpha, float beta) {
    if (kVector && n >= 2) {
        float2 c = make_float2(alpha * v0, alpha * v1);
        if (beta != 0.0f) {
            const float2 old = *reinterpret_cast<const float2*>(p);
            c = make_float2(c.x + beta * old.x, c.y + beta * old.y);
        }
        *reinterpret_cast<float2*>(p) = c;
        return;
    }
    if (n > 0) p[0] = (beta == 0.0f) ? alpha * v0 : alpha * v0 + beta * p[0];
    if (n > 1) p[1] = (beta == 0.0f) ? alpha * v1 : alpha * v1 + beta * p[1];
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

}  // namespace sgemm
