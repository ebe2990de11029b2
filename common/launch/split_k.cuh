/// @file split_k.cuh
/// @brief Split-K, written once: where the tiles of C are too few to fill the GPU, K is cut
///        into gridDim.z slices of whole K-tiles; block z multiplies its slice into slice z of a
///        workspace, and sum_slices() adds the slices, in a fixed order, into C. How many
///        slices pays is the choice's (sgemm::choose_shape()); docs/filling_the_gpu.md teaches it.
///
/// A kernel that supports it asks for its slice with k_slice() and its output with
/// c_slice(); with gridDim.z == 1 the slice is all of K and the output is C itself. The
/// launcher (common/launch/config_launcher.cuh) wraps each launch in a SplitK, which owns the workspace.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "device/cuda_check.cuh"

namespace sgemm {

/// The columns of A (and rows of B) one block multiplies: [first, first + len).
struct KSlice {
    int first;  ///< first column of A of the slice
    int len;    ///< columns in it (<= 0: an empty slice, which adds nothing)
};

/// This block's slice of K: gridDim.z slices of whole BK-wide K-tiles, the last possibly
/// shorter or empty; all of K when gridDim.z == 1.
template <int BK>
__device__ __forceinline__ KSlice k_slice(int K) {
    const int k_split = (K / BK + gridDim.z - 1 + (K % BK != 0)) / gridDim.z * BK;  // whole K-tiles
    const int first = blockIdx.z * k_split;
    return {first, min(k_split, K - first)};
}

/// Where this block writes its product: slice blockIdx.z of the M x N slices the launcher
/// passed as C (the workspace under split-K; C itself when gridDim.z == 1).
__device__ __forceinline__ float* c_slice(float* C, int M, int N) {
    return C + static_cast<std::size_t>(blockIdx.z) * M * N;
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

/// Launches sum_slices() for `count` floats of C from `splits` slices of W, on `stream`.
inline void launch_sum_slices(std::size_t count, int splits, float alpha, const float* W, float beta, float* C,
                              cudaStream_t stream) {
    const bool vector = count % 4 == 0 && reinterpret_cast<std::uintptr_t>(C) % 16 == 0;
    const std::size_t items = vector ? count / 4 : count;
    const int blocks = int(std::min<std::size_t>((items + 255) / 256, 65535));
    (vector ? sum_slices<true> : sum_slices<false>)<<<blocks, 256, 0, stream>>>(count, splits, alpha, W, beta, C);
    CUDA_CHECK(cudaGetLastError());
}

/// One launch's split-K: with splits > 1, a workspace of `splits` slices of the rows x N part
/// of C, taken and given back in the order of the stream's work (cudaMallocAsync, from the
/// device's memory pool, which keeps it for the next launch). The kernel writes out(),
/// scaled by alpha() and beta(); finish() then sums the slices into C. With splits == 1 it
/// does nothing: out() is C, alpha() and beta() the caller's.
class SplitK {
public:
    /// For a kernel that computes C (rows x N) = alpha * A * B + beta * C on `stream`.
    SplitK(int splits, int rows, int N, float alpha, float beta, float* C, cudaStream_t stream)
        : splits_(splits), count_(std::size_t(rows) * N), alpha_(alpha), beta_(beta), C_(C), stream_(stream) {
        if (splits_ <= 1) return;
        static const bool kept = [] {  // once: the pool keeps freed memory instead of returning it
            cudaMemPool_t pool{};
            CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
            std::uint64_t keep = UINT64_MAX;
            CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
            return true;
        }();
        (void)kept;
        CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&work_), splits_ * count_ * sizeof(float), stream_));
    }
    ~SplitK() {
        if (work_ != nullptr) (void)cudaFreeAsync(work_, stream_);  // after the work enqueued before it
    }
    SplitK(const SplitK&) = delete;
    SplitK& operator=(const SplitK&) = delete;

    float* out() const { return splits_ > 1 ? work_ : C_; }     ///< what the kernel writes (256-byte aligned)
    float alpha() const { return splits_ > 1 ? 1.0f : alpha_; }  ///< the kernel's alpha: slices unscaled
    float beta() const { return splits_ > 1 ? 0.0f : beta_; }    ///< the kernel's beta: slices not added to
    /// After the kernel: C = alpha * (sum of the slices) + beta * C; nothing without a split.
    void finish() const {
        if (splits_ > 1) launch_sum_slices(count_, splits_, alpha_, work_, beta_, C_, stream_);
    }

private:
    int splits_;
    std::size_t count_;
    float alpha_, beta_;
    float* C_;
    cudaStream_t stream_;
    float* work_ = nullptr;
};

}  // namespace sgemm
