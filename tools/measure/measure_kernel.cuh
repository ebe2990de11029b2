// One way to measure a GEMM kernel instance for the tools that compare configurations
// (make tiles, make tune): C poisoned with NaN, one launch verified against a reference,
// then timed, with the compiler's registers and local memory and the occupancy.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "device/cuda_check.cuh"
#include "device/device_buffer.cuh"
#include "device/random.cuh"
#include "gpu/gpu.h"
#include "launch/kernel_types.cuh"
#include "run/baseline.h"
#include "run/compare.h"
#include "run/timing.cuh"

namespace sgemm_tools {

/// The kernel signature of every step: (M, N, K, alpha, A, B, beta, C).
using KernelFn = sgemm::KernelFn;

/// One M x N x K problem a tool races against cuBLAS: seeded inputs, cuBLAS's product
/// (`expected`, the reference) and its speed.
struct Problem {
    int M, N, K;                     ///< the shape
    sgemm::DeviceBuffer<float> A;    ///< M x K
    sgemm::DeviceBuffer<float> B;    ///< K x N
    sgemm::DeviceBuffer<float> C;    ///< M x N
    std::vector<float> expected;     ///< cuBLAS's C = A * B
    double cublas_gflops = 0;        ///< cuBLAS's speed, the faster strict-FP32 mode
};

/// GFLOP/s of a run of `ms` milliseconds on `p`.
inline double gflops(const Problem& p, double ms) { return 2.0 * p.M * p.N * double(p.K) / ms / 1e6; }

/// The percentage of cuBLAS's speed on `p` that a run of `ms` milliseconds reaches.
inline double pct_of_cublas(const Problem& p, double ms) { return 100.0 * gflops(p, ms) / p.cublas_gflops; }

/// "MxNxK", as the tools' tables name a shape.
inline std::string shape_name(const Problem& p) {
    return std::to_string(p.M) + "x" + std::to_string(p.N) + "x" + std::to_string(p.K);
}

/// Median milliseconds of 20 launches of `f` after 3 warm-up.
template <class F>
double median_ms(F f) { return sgemm::time_launches(f, 3, 20, nullptr).median_ms; }

/// An M x N x K problem with seeded inputs, cuBLAS's result (`expected`) and its speed, timed in
/// the faster of its two strict-FP32 modes.
inline Problem problem_at(sgemm::CublasHandle& blas, int M, int N, int K) {
    Problem p{M, N, K, sgemm::DeviceBuffer<float>(std::size_t(M) * K), sgemm::DeviceBuffer<float>(std::size_t(K) * N),
              sgemm::DeviceBuffer<float>(std::size_t(M) * N), {}, 0};
    const sgemm::InputSeeds seeds = sgemm::input_seeds(42);
    sgemm::fill_uniform(p.A.get(), p.A.size(), seeds.a, nullptr);
    sgemm::fill_uniform(p.B.get(), p.B.size(), seeds.b, nullptr);
    const double ms = sgemm::time_cublas_modes(blas, [&] {
        sgemm::cublas_sgemm(blas, M, N, K, 1.0f, p.A.get(), p.B.get(), 0.0f, p.C.get());
    }, 3, 20, nullptr).best().median_ms;
    p.cublas_gflops = gflops(p, ms);
    p.expected.resize(p.C.size());
    p.C.copy_to_host(p.expected.data());
    return p;
}

/// Runs `launch` once on a C of NaN (what is not written fails) and checks C against cuBLAS's
/// product with the tolerance of `arithmetic` (alpha 1, beta 0).
template <class F>
bool verified(Problem& p, F launch, sgemm::Arithmetic arithmetic = sgemm::Arithmetic::kFp32) {
    CUDA_CHECK(cudaMemset(p.C.get(), 0xFF, p.C.bytes()));
    launch();
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> got(p.C.size());
    p.C.copy_to_host(got.data());
    return sgemm::verify(got.data(), p.expected.data(), p.M, p.N,
                         sgemm::gemm_tolerance(p.K, 1.0f, 0.0f, 1.0, 1.0, 1.0, arithmetic)).ok();
}

/// Dynamic shared memory to launch `kernel` (`threads` per block, `smem` bytes of its own
/// dynamic shared memory) with, so that the GPU holds as many of its blocks per SM as the
/// limits in force allow (sgemm::emulation_smem(): more than `smem` only under
/// SGEMM_GPU_CLASS); -1 when one block does not fit those limits at all.
inline int class_smem(KernelFn kernel, int threads, int smem) {
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(kernel)));
    const sgemm::Gpu& limits = sgemm::gpu_in_force();
    if (sgemm::blocks_per_sm(limits, threads, attr.numRegs, attr.sharedSizeBytes + smem) == 0) return -1;
    return int(sgemm::emulation_smem(limits, sgemm::actual_gpu(), threads, attr.numRegs,
                                     attr.sharedSizeBytes, std::size_t(smem)));
}

/// What measure_kernel() found.
struct KernelMeasurement {
    bool verified;            ///< C = A * B within the tolerance, every element written
    double median_ms;         ///< median of the timed launches
    int registers;            ///< per thread
    std::size_t local_bytes;  ///< per thread: spills or arrays not kept in registers
    int blocks_per_sm;        ///< resident blocks the occupancy calculator allows
};

/// Runs `kernel` on a (BM, BN)-tiled grid of `threads`-thread blocks with `smem` bytes of
/// dynamic shared memory for C = A * B (alpha 1, beta 0), checks C against `expected`, and
/// times `reps` launches after 3 warm-up ones.
inline KernelMeasurement measure_kernel(KernelFn kernel, int BM, int BN, int threads, int smem, int M,
                                        int N, int K, const float* A, const float* B,
                                        sgemm::DeviceBuffer<float>& C,
                                        const std::vector<float>& expected, int reps) {
    const void* k = reinterpret_cast<const void*>(kernel);
    if (smem > 0) {  // dynamic shared memory beyond 48 KB must be asked for
        CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    }
    const dim3 grid(sgemm::ceil_div(N, BN), sgemm::ceil_div(M, BM));
    auto launch = [&] {
        kernel<<<grid, threads, smem>>>(M, N, K, 1.0f, A, B, 0.0f, C.get());
        CUDA_CHECK(cudaGetLastError());
    };
    CUDA_CHECK(cudaMemset(C.get(), 0xFF, C.bytes()));  // NaN: what is not written fails
    launch();
    std::vector<float> got(C.size());
    C.copy_to_host(got.data());
    KernelMeasurement m{};
    m.verified = sgemm::verify(got.data(), expected.data(), M, N,
                               sgemm::gemm_tolerance(K, 1.0f, 0.0f, 1.0, 1.0, 1.0)).ok();
    m.median_ms = sgemm::time_launches(launch, 3, reps, nullptr).median_ms;
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, k));
    m.registers = attr.numRegs;
    m.local_bytes = attr.localSizeBytes;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&m.blocks_per_sm, k, threads, smem));
    return m;
}

}  // namespace sgemm_tools
