/// @file kernel_types.cuh
/// @brief The small pieces every launcher uses: ceil_div(), the kernel's and the launcher's
///        signatures, LaunchGeometry, for_each_row_slab(), and Plan, what a launcher that
///        chooses among configurations says it chose.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <string>

namespace sgemm {

/// The arithmetic a step's kernel multiplies in, which sets how far from the exact product its
/// result may land (run/compare.h's gemm_tolerance()).
enum class Arithmetic {
    kFp32,    ///< FP32 multiply-adds (steps 01-10): FP32's rounding only
    kTf32,    ///< TF32 inputs on tensor cores, FP32 sums (step 11): each input rounded to 10 bits
    k3xTf32,  ///< 3xTF32 (step 12): FP32's accuracy from three TF32 products
};

/// "FP32", "TF32" or "3xTF32", for reports.
inline const char* arithmetic_name(Arithmetic a) {
    return a == Arithmetic::kTf32 ? "TF32" : a == Arithmetic::k3xTf32 ? "3xTF32" : "FP32";
}

/// Smallest integer not less than a / b, for a >= 0 and b > 0, without the overflow
/// of the usual `(a + b - 1) / b` when a is close to INT_MAX.
constexpr int ceil_div(int a, int b) { return a / b + (a % b != 0 ? 1 : 0); }

/// True if `check` holds for every entry of `configs`: the launchers' static_asserts over
/// their lists of configurations.
template <class Config, std::size_t N, class Check>
constexpr bool every(const Config (&configs)[N], Check check) {
    for (const Config& c : configs) {
        if (!check(c)) return false;
    }
    return true;
}

/// The signature of every step's kernel: (M, N, K, alpha, A, B, beta, C).
using KernelFn = void (*)(int, int, int, float, const float*, const float*, float, float*);

/// Where and how a kernel is launched: the numbers the harness prints for every run.
struct LaunchGeometry {
    dim3 grid;                  ///< blocks in the grid
    dim3 block;                 ///< threads in a block
    std::size_t smem_bytes = 0; ///< dynamic shared memory per block, in bytes
};

/// What a launcher with several configurations runs for a problem, and why (the report
/// prints it): the launch, the kernel, the configuration's name and the reason it was chosen.
struct Plan {
    LaunchGeometry geometry;        ///< grid, block and dynamic shared memory
    const void* kernel = nullptr;   ///< the kernel, for the register and occupancy report
    std::string config;             ///< e.g. "128x256x32, 3 stages"
    std::string why;                ///< which limit chose it
};

/// The signature every step's launcher has: C = alpha * A * B + beta * C for row-major
/// A (M x K), B (K x N), C (M x N), enqueued on `stream`.
using LaunchFn = void (*)(int M, int N, int K, float alpha, const float* A, const float* B,
                          float beta, float* C, cudaStream_t stream);

/// A step's launch geometry for an M x N matrix C (before any split into row slabs).
using GeometryFn = LaunchGeometry (*)(int M, int N);

/// What a step that chooses among configurations runs for M x N x K, and why.
using PlanFn = Plan (*)(int M, int N, int K);

/// CUDA limits gridDim.y to 65535 blocks (gridDim.x may hold 2^31 - 1).
constexpr int kMaxGridY = 65535;

/// Covers the rows [0, M) of C in slabs of at most kMaxGridY * BM rows and calls
/// `launch_slab(first_row, rows)` for each. Every launcher puts block rows of C on
/// gridDim.y; only a C taller than 65535 block tiles (two million rows and more)
/// needs a second slab, so in practice this is one call.
/// @param  BM          rows of C per block tile
/// @param  M           rows of C
/// @param  launch_slab callable taking (std::size_t first_row, int rows)
template <class LaunchSlab>
void for_each_row_slab(int BM, int M, LaunchSlab&& launch_slab) {
    const long long kSlabRows = static_cast<long long>(kMaxGridY) * BM;
    for (long long m0 = 0; m0 < M; m0 += kSlabRows) {
        const int rows = static_cast<int>(std::min<long long>(kSlabRows, M - m0));
        launch_slab(static_cast<std::size_t>(m0), rows);
    }
}

/// The same for a block tile of BM rows known at compile time.
template <int BM, class LaunchSlab>
void for_each_row_slab(int M, LaunchSlab&& launch_slab) {
    for_each_row_slab(BM, M, launch_slab);
}

}  // namespace sgemm
