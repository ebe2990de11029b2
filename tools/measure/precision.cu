// make precision: how far each way of computing C = A * B in FP32 lands from the exact product.
//
// For M = N = 2048 and K = 1, 2, 3, 4, 8, ..., 128 (where FP32's own rounding is small and
// 3xTF32's split shows) and K = 256, 512, ..., 16384, with A and B uniform in [-1, 1) (the
// harness's seeded inputs), it runs step 10 (FFMA), step 11 (TF32 tensor cores), step 12 (3xTF32)
// and cuBLAS twice (FP32 with TF32 off, and CUBLAS_COMPUTE_32F_FAST_TF32), and compares each C
// with C64, the product of the same inputs in FP64 (tools/measure/fp64_reference.cuh: the max
// error as a share of |A| |B|, and the relative Frobenius error), and times each (median of 10
// launches after 2 warm-up; at small K the times are launch overhead, not speed). Output: a table,
// or with --csv the lines "method,M,N,K,median_ms,gflops,max,fro". A GPU without TF32 tensor
// cores (before sm_80) gets one line and exit status 2.
#include <cublas_v2.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "device/cuda_check.cuh"
#include "device/device_buffer.cuh"
#include "device/random.cuh"
#include "errors.h"
#include "gpu/gpu.h"
#include "run/baseline.h"
#include "run/timing.cuh"
#include "tools/measure/fp64_reference.cuh"
#include "steps/10_double_buffer/kernel.cuh"
#include "steps/11_tensor_cores/kernel.cuh"
#include "steps/12_3xtf32/kernel.cuh"

namespace {

struct Method {
    const char* name;
    std::function<void(int, int, int, const float*, const float*, float*)> run;
};

}  // namespace

int main(int argc, char** argv) try {
    const bool csv = argc > 1 && std::strcmp(argv[1], "--csv") == 0;
    const sgemm::Gpu& gpu = sgemm::actual_gpu();
    if (gpu.arch < step11::kMinArch) {
        throw sgemm::DeviceError("make precision needs TF32 tensor cores (sm_80 or newer); this GPU, " + gpu.name +
                                 ", is " + sgemm::arch_name(gpu.arch));
    }
    const int M = 2048, N = 2048;
    const std::vector<int> depths = {1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
    const int kMax = depths.back();
    sgemm::CublasHandle blas(nullptr);
    sgemm::DeviceBuffer<float> A(std::size_t(M) * kMax), B(std::size_t(kMax) * N), C(std::size_t(M) * N);
    const sgemm::InputSeeds seeds = sgemm::input_seeds(1);
    sgemm::fill_uniform(A.get(), A.size(), seeds.a, nullptr);
    sgemm::fill_uniform(B.get(), B.size(), seeds.b, nullptr);

    auto stream_launch = [](sgemm::LaunchFn f) {
        return [f](int m, int n, int k, const float* a, const float* b, float* c) { f(m, n, k, 1.0f, a, b, 0.0f, c, nullptr); };
    };
    const std::vector<Method> methods = {
        {"step10", stream_launch(step10::launch)},
        {"step11", stream_launch(step11::launch)},
        {"step12", stream_launch(step12::launch)},
        {"cublas_fp32", [&](int m, int n, int k, const float* a, const float* b, float* c) {
             sgemm::cublas_sgemm(blas, m, n, k, 1.0f, a, b, 0.0f, c);
         }},
        {"cublas_tf32", [&](int m, int n, int k, const float* a, const float* b, float* c) {
             sgemm::cublas_gemm_tf32(blas, m, n, k, 1.0f, a, b, 0.0f, c);
         }},
    };

    if (csv) std::printf("method,M,N,K,median_ms,gflops,max,fro\n");
    else std::printf("%s: C = A * B, A and B uniform in [-1, 1), against the FP64 product\n", gpu.name.c_str());
    std::vector<float> got(C.size());
    for (const int K : depths) {
        // A is M x K and B is K x N: the first M * K and K * N floats of the buffers.
        const sgemm_tools::Fp64Reference exact(blas.get(), A.get(), B.get(), M, N, K);
        if (!csv) std::printf("\nK = %d\n%-12s %10s %12s %11s %11s\n", K, "method", "ms", "GFLOP/s", "max", "fro");
        for (const Method& m : methods) {
            const double ms =
                sgemm::time_launches([&] { m.run(M, N, K, A.get(), B.get(), C.get()); }, 2, 10, nullptr).median_ms;
            CUDA_CHECK(cudaMemcpy(got.data(), C.get(), C.bytes(), cudaMemcpyDeviceToHost));
            const sgemm_tools::Fp64Error e = exact.error_of(got);
            const double gflops = 2.0 * M * N * K / ms / 1e6;
            if (csv) std::printf("%s,%d,%d,%d,%.4f,%.1f,%.3e,%.3e\n", m.name, M, N, K, ms, gflops, e.max, e.fro);
            else std::printf("%-12s %10.4f %12.1f %11.3e %11.3e\n", m.name, ms, gflops, e.max, e.fro);
        }
    }
    return 0;
} catch (const sgemm::UsageError& e) {
    std::fprintf(stderr, "precision: %s\n", e.what());
    return 2;
} catch (const std::exception& e) {
    std::fprintf(stderr, "precision: %s\n", e.what());
    return 1;
}
