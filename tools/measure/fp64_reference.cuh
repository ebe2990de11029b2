// The exact product a measured C is compared with, for make precision and make cutlass: C64 =
// A * B in FP64 and (|A| |B|), the product of the absolute values, both by cublasDgemm, and the
// two error figures the pages quote:
//   max   max over elements of |C - C64| / (|A| |B|): the scale an error bound of a dot product
//         is written in
//   fro   ||C - C64||_F / ||C64||_F, the relative error of the whole matrix
#pragma once

#include <cublas_v2.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include "device/cuda_check.cuh"
#include "device/device_buffer.cuh"
#include "run/baseline.h"

namespace sgemm_tools {

/// y = x (or |x|) in double.
static __global__ void widen(const float* x, double* y, std::size_t n, bool absolute) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        y[i] = absolute ? fabs(double(x[i])) : double(x[i]);
}

/// How far a C lands from the FP64 product.
struct Fp64Error {
    double max;  ///< max |C - C64| / (|A| |B|), infinite where C is not finite
    double fro;  ///< ||C - C64||_F / ||C64||_F
};

/// C64 and (|A| |B|) of row-major A (M x K) and B (K x N), kept on the host.
class Fp64Reference {
public:
    Fp64Reference(cublasHandle_t blas, const float* A, const float* B, int M, int N, int K)
        : ref_(std::size_t(M) * N), mag_(std::size_t(M) * N) {
        sgemm::DeviceBuffer<double> a(std::size_t(M) * K), b(std::size_t(K) * N), c(ref_.size());
        for (const bool absolute : {false, true}) {
            widen<<<1024, 256>>>(A, a.get(), a.size(), absolute);
            widen<<<1024, 256>>>(B, b.get(), b.size(), absolute);
            CUDA_CHECK(cudaGetLastError());
            // cuBLAS is column-major: C^T = B^T A^T
            const double one = 1.0, zero = 0.0;
            CUBLAS_CHECK(cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, b.get(), N, a.get(), K, &zero, c.get(), N));
            CUDA_CHECK(cudaMemcpy((absolute ? mag_ : ref_).data(), c.get(), c.bytes(), cudaMemcpyDeviceToHost));
        }
    }

    /// The error of `got` (M x N, row-major, on the host) against C64.
    Fp64Error error_of(const std::vector<float>& got) const {
        double worst = 0.0, diff2 = 0.0, ref2 = 0.0;
        for (std::size_t i = 0; i < got.size(); ++i) {
            const double d = double(got[i]) - ref_[i];
            worst = std::isfinite(d) ? std::fmax(worst, std::fabs(d) / mag_[i]) : INFINITY;
            diff2 += d * d, ref2 += ref_[i] * ref_[i];
        }
        return {worst, std::sqrt(diff2 / ref2)};
    }

private:
    std::vector<double> ref_, mag_;
};

}  // namespace sgemm_tools
