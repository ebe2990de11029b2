// One candidate of `make tune STEP=08`: step 08's kernel with the tile sizes given as
// -DTUNE_BM=.. -DTUNE_BN=.. -DTUNE_BK=.. -DTUNE_TM=.. -DTUNE_TN=.., run at SIZE^3 (default
// 4096) against cuBLAS in the same process. Prints one line of key=value pairs for
// tools/measure/tune.py: registers, local memory, occupancy, speed, the GPU's FP32 peak and whether
// the result is right.
// Under SGEMM_GPU_CLASS=sm_XX (make tune STEP=08 CLASS=sm_XX) the candidate is held to the
// blocks per SM a GPU of that class would give it (sgemm::emulation_smem()), and one that
// does not fit that class at all prints fits=0.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "device/device_buffer.cuh"
#include "device/random.cuh"
#include "gpu/gpu.h"
#include "measure_kernel.cuh"
#include "run/baseline.h"
#include "run/timing.cuh"

#include "steps/08_autotuning/kernel.cuh"

int main(int argc, char** argv) try {
    constexpr int BM = TUNE_BM, BN = TUNE_BN, BK = TUNE_BK, TM = TUNE_TM, TN = TUNE_TN;
    constexpr int kThreads = (BM / TM) * (BN / TN);
    constexpr auto kernel = step08::sgemm_autotuned<BM, BN, BK, TM, TN, true>;
    const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
    if (n <= 0 || n % 4 != 0) {
        std::fprintf(stderr, "usage: %s [SIZE]   (SIZE a positive multiple of 4)\n", argv[0]);
        return 2;
    }
    const size_t count = size_t(n) * n;
    sgemm::DeviceBuffer<float> A(count), B(count), C(count);
    const sgemm::InputSeeds seeds = sgemm::input_seeds(42);
    sgemm::fill_uniform(A.get(), count, seeds.a, nullptr);
    sgemm::fill_uniform(B.get(), count, seeds.b, nullptr);
    auto gflops = [&](double ms) { return 2.0 * n * double(n) * n / ms / 1e6; };

    sgemm::CublasHandle blas(nullptr);
    const double cublas = gflops(sgemm::time_launches([&] {
        sgemm::cublas_sgemm(blas, n, n, n, 1.0f, A.get(), B.get(), 0.0f, C.get());
    }, 3, 10, nullptr).median_ms);
    std::vector<float> expected(count);
    C.copy_to_host(expected.data());

    const int smem = sgemm_tools::class_smem(kernel, kThreads, 0);
    if (smem < 0) {  // the candidate's registers and local memory still go in its row
        cudaFuncAttributes attr{};
        CUDA_CHECK(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(kernel)));
        std::printf("threads=%d regs=%d local=%zu fits=0\n", kThreads, attr.numRegs, attr.localSizeBytes);
        return 0;
    }
    const sgemm_tools::KernelMeasurement m = sgemm_tools::measure_kernel(
        kernel, BM, BN, kThreads, smem, n, n, n, A.get(), B.get(), C, expected, 10);
    const double g = gflops(m.median_ms);
    std::printf("threads=%d regs=%d local=%zu blocks=%d warps=%d gflops=%.0f cublas=%.0f peak=%.1f verified=%s\n",
                kThreads, m.registers, m.local_bytes, m.blocks_per_sm, m.blocks_per_sm * kThreads / 32,
                g, cublas, sgemm::actual_gpu().peak_gflops(), m.verified ? "pass" : "FAIL");
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
}
