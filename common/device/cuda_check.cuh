/// @file cuda_check.cuh
/// @brief The one error-checking idiom for CUDA runtime calls: `CUDA_CHECK(expr)`.
///
/// A failed call throws sgemm::CudaError (errors.h) whose message names the error, the
/// expression, the file and the line. The program's top level (the harness or the
/// test runner) prints it; nothing here calls `exit()`, so RAII destructors still run.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "errors.h"  // CudaError

namespace sgemm {

/// Throws CudaError if @p status is not `cudaSuccess`. Called through CUDA_CHECK.
/// @param status the value the checked call returned
/// @param expr   the checked expression, as source text
/// @param file   source file of the call
/// @param line   source line of the call
inline void cuda_check(cudaError_t status, const char* expr, const char* file, int line) {
    if (status != cudaSuccess) {
        throw CudaError(std::string("CUDA error ") + cudaGetErrorName(status) + " (" +
                        cudaGetErrorString(status) + ") from `" + expr + "` at " + file + ":" +
                        std::to_string(line));
    }
}

}  // namespace sgemm

/// Checks a CUDA runtime call and throws sgemm::CudaError (expression, file, line) on failure.
/// Use it after every kernel launch too: `CUDA_CHECK(cudaGetLastError());`.
#define CUDA_CHECK(expr)                                                 \
    do {                                                                 \
        ::sgemm::cuda_check((expr), #expr, __FILE__, __LINE__);          \
    } while (0)
