// make precision: how far each way of computing C = A * B in FP32 lands from the exact product.
//
// For M = N = 2048 and K = 256, 512, ..., 16384, with A and B uniform in [-1, 1) (the harness's
// seeded inputs), it runs step 10 (FFMA), step 11 (TF32 tensor cores), step 12 (3xTF32) and
// cuBLAS twice (FP32 with TF32 off, and CUBLAS_COMPUTE_32F_FAST_TF32), and compares each C with
// C64, the product of the same inputs in FP64 (cublasDgemm):
//   max   max over elements of |C - C64| / (|A| |B|)   ((|A| |B|) the product of the absolute
//         values, also by cublasDgemm): the scale an error bound of a dot product is written in
//   fro   ||C - C64||_F / ||C64||_F, the relative error of the whole matrix
// and times each (median of 10 launches after 2 warm-up). Output: a table, or with --csv the
// lines "method,M,N,K,median_ms,gflops,max,fro". A GPU without TF32 tensor cores (before sm_80)
// gets one line and exit status 2.
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
#include "steps/10_double_buffer/kernel.cuh"
#include "steps/11_tensor_cores/kernel.cuh"
#include "steps/12_3xtf32/kernel.cuh"

namespace {

/// y = x (or |x|) in double, for the FP64 reference.
__global__ void widen(const float* x, double* y, std::size_t n, bool absolute) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        y[i] = absolute ? fabs(double(x[i])) : double(x[i]);
}

/// C64 = A * B in FP64 for row-major A (M x K), B (K x N): cuBLAS is column-major, so C^T = B^T A^T.
void dgemm(cublasHandle_t h, int M, int N, int K, const double* A, const double* B, double* C) {
    const double one = 1.0, zero = 0.0;
    CUBLAS_CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N));
}

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
    const std::vector<int> depths = {256, 512, 1024, 2048, 4096, 8192, 16384};
    const int kMax = depths.back();
    sgemm::CublasHandle blas(nullptr);
    sgemm::DeviceBuffer<float> A(std::size_t(M) * kMax), B(std::size_t(kMax) * N), C(std::size_t(M) * N);
    sgemm::DeviceBuffer<double> A64(A.size()), B64(B.size()), C64(C.size()), Aabs(A.size()), Babs(B.size()),
        Cabs(C.size());
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
    std::vector<double> ref(C.size()), mag(C.size());
    for (const int K : depths) {
        // A is M x K and B is K x N: the first M * K and K * N floats of the buffers.
        widen<<<1024, 256>>>(A.get(), A64.get(), std::size_t(M) * K, false);
        widen<<<1024, 256>>>(B.get(), B64.get(), std::size_t(K) * N, false);
        widen<<<1024, 256>>>(A.get(), Aabs.get(), std::size_t(M) * K, true);
        widen<<<1024, 256>>>(B.get(), Babs.get(), std::size_t(K) * N, true);
        CUDA_CHECK(cudaGetLastError());
        dgemm(blas.get(), M, N, K, A64.get(), B64.get(), C64.get());
        dgemm(blas.get(), M, N, K, Aabs.get(), Babs.get(), Cabs.get());
        CUDA_CHECK(cudaMemcpy(ref.data(), C64.get(), C64.bytes(), cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(mag.data(), Cabs.get(), Cabs.bytes(), cudaMemcpyDeviceToHost));
        if (!csv) std::printf("\nK = %d\n%-12s %10s %12s %11s %11s\n", K, "method", "ms", "GFLOP/s", "max", "fro");
        for (const Method& m : methods) {
            const double ms =
                sgemm::time_launches([&] { m.run(M, N, K, A.get(), B.get(), C.get()); }, 2, 10, nullptr).median_ms;
            CUDA_CHECK(cudaMemcpy(got.data(), C.get(), C.bytes(), cudaMemcpyDeviceToHost));
            double worst = 0.0, diff2 = 0.0, ref2 = 0.0;
            for (std::size_t i = 0; i < got.size(); ++i) {
                const double d = double(got[i]) - ref[i];
                worst = std::isfinite(d) ? std::fmax(worst, std::fabs(d) / mag[i]) : INFINITY;
                diff2 += d * d, ref2 += ref[i] * ref[i];
            }
            const double fro = std::sqrt(diff2 / ref2), gflops = 2.0 * M * N * K / ms / 1e6;
            if (csv) std::printf("%s,%d,%d,%d,%.4f,%.1f,%.3e,%.3e\n", m.name, M, N, K, ms, gflops, worst, fro);
            else std::printf("%-12s %10.4f %12.1f %11.3e %11.3e\n", m.name, ms, gflops, worst, fro);
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
