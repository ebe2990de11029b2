/// @file cp_async.cuh
/// @brief The asynchronous copy from global to shared memory (cp.async, sm_80 and newer) that
///        step 10 teaches, written once for the steps after it (11 and 12), whose tiles travel
///        by it. Step 10 keeps its own copy, since there it is the idea.
#pragma once

#include <cuda_runtime.h>

// cp.async exists from sm_80 on. Code compiled for an older GPU may name these functions in
// branches it never runs (the steps' kernels compile empty there); if one ever ran, it traps.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
/// Before sm_80: a trap in place of the instruction (never reached; see above).
#define SGEMM_CP_ASYNC(...) __trap()
#else
/// sm_80 and newer: the cp.async instruction, as inline PTX.
#define SGEMM_CP_ASYNC(...) asm volatile(__VA_ARGS__)
#endif

namespace sgemm {

/// Starts an asynchronous copy of `bytes` (16, or 0: write zeros) from global `src` to shared
/// `dst` (both 16-byte aligned), without passing through registers.
__device__ __forceinline__ void cp_async16(float* dst, const float* src, int bytes) {
    SGEMM_CP_ASYNC("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
                     static_cast<unsigned>(__cvta_generic_to_shared(dst))),
                 "l"(src), "r"(bytes));
}

/// The same for one float (`bytes` 4, or 0: write a zero).
__device__ __forceinline__ void cp_async4(float* dst, const float* src, int bytes) {
    SGEMM_CP_ASYNC("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(
                     static_cast<unsigned>(__cvta_generic_to_shared(dst))),
                 "l"(src), "r"(bytes));
}

/// Copies the four floats src[0..3] to dst[0..3], of which only the first `n` exist (n <= 0:
/// none); the others are written as 0. kVector: one 16-byte copy, for src and dst 16-byte
/// aligned and n either <= 0 or >= 4; else four 4-byte copies. `any` is a valid global address,
/// named (and read from zero bytes) where an element does not exist.
template <bool kVector>
__device__ __forceinline__ void cp_async_row4(float* dst, const float* src, int n, const float* any) {
    if constexpr (kVector) {
        cp_async16(dst, n >= 4 ? src : any, n >= 4 ? 16 : 0);
    } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) cp_async4(dst + j, j < n ? src + j : any, j < n ? 4 : 0);
    }
}

/// Closes the group of copies this thread started since the last call.
__device__ __forceinline__ void cp_async_commit() {
    SGEMM_CP_ASYNC("cp.async.commit_group;\n" ::);
}

/// Waits until at most `kPending` of this thread's groups are still in flight.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
    SGEMM_CP_ASYNC("cp.async.wait_group %0;\n" ::"n"(kPending));
}

}  // namespace sgemm
