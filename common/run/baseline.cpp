/// @file baseline.cpp
/// @brief The cuBLAS baseline.
#include "run/baseline.h"

#include <algorithm>

namespace sgemm {

void cublas_check(cublasStatus_t status, const char* expr, const char* file, int line) {
    if (status != CUBLAS_STATUS_SUCCESS) {
        throw CublasError(std::string("cuBLAS error ") + cublasGetStatusName(status) + " (" +
                          cublasGetStatusString(status) + ") from `" + expr + "` at " + file +
                          ":" + std::to_string(line));
    }
}

CublasHandle::CublasHandle(cudaStream_t stream) {
    CUBLAS_CHECK(cublasCreate(&handle_));
    try {
        CUBLAS_CHECK(cublasSetStream(handle_, stream));
        CUBLAS_CHECK(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH));
    } catch (...) {
        cublasDestroy(handle_);
        throw;
    }
}

CublasHandle::~CublasHandle() { cublasDestroy(handle_); }

void CublasHandle::set_math_mode(cublasMath_t mode) const { CUBLAS_CHECK(cublasSetMathMode(handle_, mode)); }

void cublas_sgemm(const CublasHandle& handle, int M, int N, int K, float alpha, const float* A,
                  const float* B, float beta, float* C) {
    if (M <= 0 || N <= 0) return;
    // Column-major view: C^T (N x M) = B^T (N x K) * A^T (K x M); leading dimensions N, K, N
    // (cuBLAS wants a leading dimension of at least 1 even when K = 0).
    CUBLAS_CHECK(cublasSgemm(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A,
                             std::max(K, 1), &beta, C, N));
}

void cublas_gemm_tf32(const CublasHandle& handle, int M, int N, int K, float alpha, const float* A,
                      const float* B, float beta, float* C) {
    if (M <= 0 || N <= 0) return;
    CUBLAS_CHECK(cublasGemmEx(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_32F, N, A,
                              CUDA_R_32F, std::max(K, 1), &beta, C, CUDA_R_32F, N, CUBLAS_COMPUTE_32F_FAST_TF32,
                              CUBLAS_GEMM_DEFAULT));
}

std::string cublas_version(const CublasHandle& handle) {
    int v = 0;
    CUBLAS_CHECK(cublasGetVersion(handle.get(), &v));
    return "cuBLAS " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
           std::to_string(v % 100);
}

}  // namespace sgemm
