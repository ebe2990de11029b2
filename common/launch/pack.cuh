/// @file pack.cuh
/// @brief Packing, written once: where the rows of A or B do not start on 16-byte boundaries
///        (K or N not a multiple of 4), the operand is first copied into a buffer whose rows
///        are a multiple of 4 floats long, the new elements zero, so that the kernel's copies
///        stay 16 bytes wide. BLIS calls this packing. The copy moves O(n^2) bytes against the
///        product's O(n^3) multiply-adds; docs/alignment.md measures both.
///
/// Which operands a step packs is its Layout's kPacking (launch/choose.h); whether packing
/// pays for one shape is the choice's (Launcher::shape_choice()). The buffers come from the
/// same memory pool as split-K's workspace (launch/split_k.cuh). Where N % 4 != 0, packed B's
/// rows, and so the product's, are longer than C's: the product goes to that workspace and
/// split-K's second kernel writes C.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "device/cuda_check.cuh"
#include "launch/choose.h"   // PackPlan
#include "launch/split_k.cuh"  // pool_alloc

namespace sgemm {

/// One matrix to pack: `rows` x `cols` floats, rows `cols` apart, copied into `rows_out` x
/// `cols_out` (cols_out a multiple of 4, rows_out >= rows, cols_out >= cols); what lies
/// outside the source is written as zero.
struct PackJob {
    const float* src;  ///< the source, row-major and contiguous
    int rows;          ///< its rows
    int cols;          ///< its columns
    float* dst;        ///< the packed copy (16-byte aligned)
    int rows_out;      ///< its rows
    int cols_out;      ///< its columns, a multiple of 4
};

/// Packs job `a` (blockIdx.z == 0) and job `b` (blockIdx.z == 1). Threads run along a row (x),
/// one float each, so that a warp reads 32 neighbouring floats of the source and writes 32 of
/// the copy (4-byte accesses, coalesced: the source's rows are not 16-byte aligned); blocks
/// run down the rows (y). kThreads: threads per block (a template, so that every file that
/// includes this one may hold the kernel).
template <int kThreads>
__global__ void __launch_bounds__(kThreads) pack_matrices(PackJob a, PackJob b) {
    const PackJob j = blockIdx.z == 0 ? a : b;  // by value: registers, not a copy in local memory
    const int c = blockIdx.x * kThreads + threadIdx.x;  // this thread's column
    if (c >= j.cols_out) return;
    for (int r = blockIdx.y; r < j.rows_out; r += gridDim.y) {
        j.dst[std::size_t(r) * j.cols_out + c] = r < j.rows && c < j.cols ? j.src[std::size_t(r) * j.cols + c] : 0.0f;
    }
}

/// The packed operands of one launch: A and B as the kernel reads them, copied (in one
/// kernel, on `stream`) where the plan says so, else the caller's own. The buffers are taken
/// from the pool and given back in the order of the stream's work.
class Packed {
public:
    /// For C (M x N) = A (M x K) * B (K x N), packed as plan `p` says.
    Packed(const PackPlan& p, int M, int N, int K, const float* A, const float* B, cudaStream_t stream)
        : A_(A), B_(B), stream_(stream) {
        if (!p.any()) return;
        PackJob jobs[2];
        int count = 0;
        if (p.a) {
            a_ = pool_alloc(std::size_t(M) * p.K * sizeof(float), stream);
            jobs[count++] = {A, M, K, a_, M, p.K};
            A_ = a_;
        }
        if (p.b) {
            b_ = pool_alloc(std::size_t(p.K) * p.N * sizeof(float), stream);
            jobs[count++] = {B, K, N, b_, p.K, p.N};
            B_ = b_;
        }
        int rows = 0, cols = 0;  // the larger job's rows and columns
        for (int j = 0; j < count; ++j) rows = std::max(rows, jobs[j].rows_out), cols = std::max(cols, jobs[j].cols_out);
        constexpr int kThreads = 256;
        const dim3 grid((cols + kThreads - 1) / kThreads, std::min(rows, 2048), count);  // a few rows per thread
        pack_matrices<kThreads><<<grid, kThreads, 0, stream>>>(jobs[0], jobs[count - 1]);
        CUDA_CHECK(cudaGetLastError());
    }
    ~Packed() {
        if (a_ != nullptr) (void)cudaFreeAsync(a_, stream_);  // after the work enqueued before it
        if (b_ != nullptr) (void)cudaFreeAsync(b_, stream_);
    }
    Packed(const Packed&) = delete;
    Packed& operator=(const Packed&) = delete;

    const float* A() const { return A_; }  ///< A as the kernel reads it
    const float* B() const { return B_; }  ///< B as the kernel reads it

private:
    const float* A_;
    const float* B_;
    cudaStream_t stream_;
    float* a_ = nullptr;
    float* b_ = nullptr;
};

}  // namespace sgemm
