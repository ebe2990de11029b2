/// @file split_k.cuh
/// @brief Split-K, written once: where the tiles of C are too few to fill the GPU, K is cut
///        into gridDim.z slices of whole K-tiles; block z multiplies its slice into slice z of a
///        workspace, and sum_slices() adds the slices, in a fixed order, into C. How many
///        slices pays is the choice's (sgemm::choose_shape()); docs/filling_the_gpu.md teaches it.
///
/// A kernel that supports it asks for its slice with k_slice() and its output with
/// c_slice(); with gridDim.z == 1 the slice is all of K and the output is C itself. The
/// launcher (common/launch/config_launcher.cuh) wraps each launch in a SplitK, which owns the
/// workspace; the same workspace takes the product when B was packed into longer rows than C's.
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
/// W_z is the z-th of the slices the first kernel wrote, each `rows` rows of `ld` floats of which
/// the first N are C's (ld > N where B was packed into longer rows: launch/pack.cuh). The slices
/// are added in the same order on every run, so the same inputs give the same bits.
/// kVector: N and ld multiples of 4 and C 16-byte aligned, one float4 per thread, else one
/// float. The grid is 2-D, columns along x and rows along y, so no thread divides to find its row.
template <bool kVector>
__global__ void __launch_bounds__(256) sum_slices(int rows, int N, int ld, int splits, float alpha,
                                                  const float* __restrict__ W, float beta,
                                                  float* __restrict__ C) {
    constexpr int kWidth = kVector ? 4 : 1;  // floats per thread
    const int c = (blockIdx.x * blockDim.x + threadIdx.x) * kWidth;  // this thread's first column
    if (c >= N) return;
    const std::size_t slice = std::size_t(rows) * ld;  // floats per slice of W
    for (int r = blockIdx.y; r < rows; r += gridDim.y) {
        const float* w = W + std::size_t(r) * ld + c;  // this item in slice 0
        float* out = C + std::size_t(r) * N + c;
        if constexpr (kVector) {
            float4 sum = *reinterpret_cast<const float4*>(w);
            for (int z = 1; z < splits; ++z) {
                const float4 v = *reinterpret_cast<const float4*>(w + z * slice);
                sum = make_float4(sum.x + v.x, sum.y + v.y, sum.z + v.z, sum.w + v.w);
            }
            float4 res = make_float4(alpha * sum.x, alpha * sum.y, alpha * sum.z, alpha * sum.w);
            if (beta != 0.0f) {  // beta == 0: C is not read
                const float4 old = *reinterpret_cast<const float4*>(out);
                res = make_float4(res.x + beta * old.x, res.y + beta * old.y, res.z + beta * old.z,
                                  res.w + beta * old.w);
            }
            *reinterpret_cast<float4*>(out) = res;
        } else {
            float sum = w[0];
            for (int z = 1; z < splits; ++z) sum += w[z * slice];
            *out = beta == 0.0f ? alpha * sum : alpha * sum + beta * *out;
        }
    }
}

/// Launches sum_slices() for the rows x N of C from `splits` slices of W (rows of `ld` floats),
/// on `stream`.
inline void launch_sum_slices(int rows, int N, int ld, int splits, float alpha, const float* W, float beta,
                              float* C, cudaStream_t stream) {
    const bool vector = N % 4 == 0 && ld % 4 == 0 && reinterpret_cast<std::uintptr_t>(C) % 16 == 0;
    const int threads_per_row = vector ? N / 4 : N;
    const dim3 grid((threads_per_row + 255) / 256, std::min(rows, 65535));
    (vector ? sum_slices<true> : sum_slices<false>)<<<grid, 256, 0, stream>>>(rows, N, ld, splits, alpha, W, beta, C);
    CUDA_CHECK(cudaGetLastError());
}

/// Takes `bytes` from the device's memory pool, in the order of `stream`'s work
/// (cudaMallocAsync); the pool keeps what is given back for the next launch. Split-K's
/// workspace and packing's buffers (launch/pack.cuh) come from it.
inline float* pool_alloc(std::size_t bytes, cudaStream_t stream) {
    static const bool kept = [] {  // once: the pool keeps freed memory instead of returning it
        cudaMemPool_t pool{};
        CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
        std::uint64_t keep = UINT64_MAX;
        CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
        return true;
    }();
    (void)kept;
    float* p = nullptr;
    CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&p), bytes, stream));
    return p;
}

/// One launch's output. With splits > 1, or rows longer than C's (ld > N, where B was packed),
/// the kernel writes a workspace of `splits` slices of rows x ld floats, taken from the pool
/// and given back in the order of the stream's work; finish() then sums the slices into C. Else
/// it does nothing: out() is C, alpha() and beta() the caller's.
class SplitK {
public:
    /// For a kernel that computes C (rows x N) = alpha * A * B + beta * C on `stream`, its rows
    /// `ld` floats long (ld >= N).
    SplitK(int splits, int rows, int N, int ld, float alpha, float beta, float* C, cudaStream_t stream)
        : splits_(splits), rows_(rows), N_(N), ld_(ld), alpha_(alpha), beta_(beta), C_(C), stream_(stream) {
        if (splits_ > 1 || ld_ != N_) work_ = pool_alloc(std::size_t(splits_) * rows_ * ld_ * sizeof(float), stream_);
    }
    /// The same with rows as long as C's.
    SplitK(int splits, int rows, int N, float alpha, float beta, float* C, cudaStream_t stream)
        : SplitK(splits, rows, N, N, alpha, beta, C, stream) {}
    ~SplitK() {
        if (work_ != nullptr) (void)cudaFreeAsync(work_, stream_);  // after the work enqueued before it
    }
    SplitK(const SplitK&) = delete;
    SplitK& operator=(const SplitK&) = delete;

    float* out() const { return work_ != nullptr ? work_ : C_; }     ///< what the kernel writes (256-byte aligned)
    float alpha() const { return work_ != nullptr ? 1.0f : alpha_; }  ///< the kernel's alpha: slices unscaled
    float beta() const { return work_ != nullptr ? 0.0f : beta_; }    ///< the kernel's beta: slices not added to
    /// After the kernel: C = alpha * (sum of the slices) + beta * C; nothing without a workspace.
    void finish() const {
        if (work_ != nullptr) launch_sum_slices(rows_, N_, ld_, splits_, alpha_, work_, beta_, C_, stream_);
    }

private:
    int splits_, rows_, N_, ld_;
    float alpha_, beta_;
    float* C_;
    cudaStream_t stream_;
    float* work_ = nullptr;
};

}  // namespace sgemm
