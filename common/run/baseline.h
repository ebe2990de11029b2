/// @file baseline.h
/// @brief The cuBLAS baseline every step races: the handle, strict-FP32 SGEMM on row-major
///        matrices, and CUBLAS_CHECK.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <string>

#include "errors.h"  // CublasError

namespace sgemm {

/// Throws CublasError (errors.h) if @p status is not `CUBLAS_STATUS_SUCCESS`. Called through CUBLAS_CHECK.
/// @param status the value the checked call returned
/// @param expr   the checked expression, as source text
/// @param file   source file of the call
/// @param line   source line of the call
void cublas_check(cublasStatus_t status, const char* expr, const char* file, int line);

/// The cuBLAS handle, created once per run and never timed. Math mode CUBLAS_DEFAULT_MATH
/// (or CUBLAS_PEDANTIC_MATH, set_math_mode()): FP32 inputs, FP32 compute, no TF32
/// tensor-core shortcut, so the race with the FP32 FFMA kernels is fair.
class CublasHandle {
public:
    /// Creates the handle, binds it to @p stream and sets the FP32 math mode.
    explicit CublasHandle(cudaStream_t stream);
    ~CublasHandle();
    CublasHandle(const CublasHandle&) = delete;
    CublasHandle& operator=(const CublasHandle&) = delete;
    /// The raw handle.
    cublasHandle_t get() const { return handle_; }
    /// Switches between CUBLAS_DEFAULT_MATH and CUBLAS_PEDANTIC_MATH (both strict FP32).
    void set_math_mode(cublasMath_t mode) const;

private:
    cublasHandle_t handle_{};
};

/// C = alpha * A * B + beta * C for row-major A (M x K), B (K x N), C (M x N), by cublasSgemm.
/// cuBLAS is column-major, and a row-major matrix read column-major is its transpose, so
/// this computes C^T = B^T * A^T: B goes first, and M and N trade places.
void cublas_sgemm(const CublasHandle& handle, int M, int N, int K, float alpha, const float* A,
                  const float* B, float beta, float* C);

/// The same with TF32 tensor cores allowed (cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32): FP32
/// inputs rounded to TF32, FP32 sums, as PyTorch's allow_tf32 asks for. The second baseline,
/// the one steps 11 and 12 race; on a GPU without TF32 tensor cores (sm_75) cuBLAS computes
/// in FP32.
void cublas_gemm_tf32(const CublasHandle& handle, int M, int N, int K, float alpha, const float* A,
                      const float* B, float beta, float* C);

/// "cuBLAS <major>.<minor>.<patch>" for the library actually loaded.
std::string cublas_version(const CublasHandle& handle);

/// How the baseline computes, in words, for the report: the harness times cublasSgemm in both
/// strict-FP32 math modes and races the faster.
inline const char* cublas_mode_description() {
    return "cublasSgemm, FP32 compute, TF32 off; the faster of CUBLAS_DEFAULT_MATH and CUBLAS_PEDANTIC_MATH";
}

/// "DEFAULT" or "PEDANTIC": the short name of a strict-FP32 math mode, for reports.
inline const char* math_mode_name(cublasMath_t mode) {
    return mode == CUBLAS_PEDANTIC_MATH ? "PEDANTIC" : "DEFAULT";
}

}  // namespace sgemm

/// Checks a cuBLAS call and throws sgemm::CublasError (expression, file, line) on failure.
#define CUBLAS_CHECK(expr)                                               \
    do {                                                                 \
        ::sgemm::cublas_check((expr), #expr, __FILE__, __LINE__);        \
    } while (0)
