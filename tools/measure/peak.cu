// make peak: three micro-benchmarks that measure the ceilings the roofline and the
// "% of peak" figures use, on the GPU at hand:
//   fp32    FFMA throughput: every thread runs 8 independent chains of fused multiply-adds
//           on registers, so nothing but the FMA pipes can limit it;
//   dram    device-memory bandwidth: a float4 copy of 1 GiB to another 1 GiB (bytes read +
//           bytes written per second), large enough that the 50 MB L2 holds almost none of it;
//   shared  shared-memory bandwidth: every thread reads float4s (LDS.128) from a
//           conflict-free 16 KB array in shared memory, over and over;
//   mma_tf32  the TF32 tensor-core rate of mma.sync.m16n8k8 (steps 11 and 12): every warp runs
//           8 independent chains of the instruction on registers (sm_80 and newer; none before).
// Each is the best of 10 timed launches after 2 warm-up ones (a ceiling is a best case),
// printed beside the paper figure worked out from the device's properties (SMs x lanes x 2
// x clock; memory clock x bus width x 2; 32 banks x 4 bytes x SMs x clock), which is not
// a measurement. Output: a readable table and, with --csv, lines "quantity,measured,paper,unit".
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "device/cuda_check.cuh"
#include "device/device_buffer.cuh"
#include "gpu/gpu.h"
#include "run/timing.cuh"
#include "steps/11_tensor_cores/kernel.cuh"  // mma_m16n8k8(), kMinArch

namespace {

constexpr int kChains = 8;       // independent FMA chains per thread: enough to fill the pipe
constexpr int kFmaIters = 4096;  // iterations of the 8 chains per thread

__global__ void __launch_bounds__(256) ffma_loop(float* out, float a, float b) {
    float x[kChains];
    for (int c = 0; c < kChains; ++c) x[c] = threadIdx.x + c;
    for (int i = 0; i < kFmaIters; ++i) {
#pragma unroll
        for (int c = 0; c < kChains; ++c) x[c] = fmaf(x[c], a, b);  // FFMA, dependent on itself only
    }
    float s = 0.0f;
    for (int c = 0; c < kChains; ++c) s += x[c];
    if (s == 12345.678f) out[blockIdx.x] = s;  // keeps the loop alive; never true in practice
}

__global__ void __launch_bounds__(256) copy_float4(const float4* __restrict__ in,
                                                   float4* __restrict__ out, size_t n) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        out[i] = in[i];
}

constexpr int kSharedFloat4s = 1024;  // 16 KB
constexpr int kSharedIters = 2048;

__global__ void __launch_bounds__(256) lds_loop(float* out) {
    __shared__ float4 buf[kSharedFloat4s];
    for (int i = threadIdx.x; i < kSharedFloat4s; i += blockDim.x) buf[i] = make_float4(i, i, i, i);
    __syncthreads();
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    // Lane l of a warp reads float4 (base + l) % 1024: each group of 8 lanes reads 128
    // contiguous bytes, so no bank conflicts. The base moves each iteration, so the
    // compiler cannot keep the values in registers.
    int idx = threadIdx.x;
    for (int i = 0; i < kSharedIters; ++i) {
        const float4 v = buf[idx];
        acc.x += v.x, acc.y += v.y, acc.z += v.z, acc.w += v.w;
        idx = (idx + 32 * 5) & (kSharedFloat4s - 1);
    }
    if (acc.x + acc.y + acc.z + acc.w == 12345.678f) out[blockIdx.x] = acc.x;
}

constexpr int kMmaIters = 4096;  // iterations of the 8 mma chains per warp

__global__ void __launch_bounds__(256) mma_loop(float* out) {
    float acc[kChains][4] = {};
    std::uint32_t a[4], b[2];
    for (int i = 0; i < 4; ++i) a[i] = __float_as_uint(threadIdx.x * 1e-3f + i);
    for (int i = 0; i < 2; ++i) b[i] = __float_as_uint(threadIdx.x * 2e-3f + i);
    for (int it = 0; it < kMmaIters; ++it) {
#pragma unroll
        for (int c = 0; c < kChains; ++c) step11::mma_m16n8k8(acc[c], a, b);  // 16 x 8 x 8, dependent on itself only
    }
    float s = 0.0f;
    for (int c = 0; c < kChains; ++c) s += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
    if (s == 12345.678f) out[blockIdx.x] = s;
}

struct Row {
    const char* quantity;
    double measured, paper;
    const char* unit;
    std::string how;
};

}  // namespace

int main(int argc, char** argv) try {
    const bool csv = argc > 1 && std::strcmp(argv[1], "--csv") == 0;
    const sgemm::Gpu& gpu = sgemm::actual_gpu();
    int mem_khz = 0, bus_bits = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
    CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
    sgemm::DeviceBuffer<float> sink(65536);
    std::vector<Row> rows;

    {  // FP32 FFMA: enough blocks for every SM many times over
        const int blocks = gpu.sms * 64;
        auto launch = [&] { ffma_loop<<<blocks, 256>>>(sink.get(), 0.999f, 0.001f); CUDA_CHECK(cudaGetLastError()); };
        const double ms = sgemm::time_launches(launch, 2, 10, nullptr).best_ms;
        const double flop = 2.0 * blocks * 256.0 * kFmaIters * kChains;
        rows.push_back({"fp32", flop / ms / 1e6, gpu.peak_gflops(), "GFLOP/s",
                        "SMs x FP32 lanes x 2 x peak clock"});
    }
    {  // device memory: 1 GiB -> 1 GiB
        const size_t n = (size_t(1) << 30) / sizeof(float4);
        sgemm::DeviceBuffer<float4> in(n), out(n);
        CUDA_CHECK(cudaMemset(in.get(), 0, in.bytes()));
        auto launch = [&] { copy_float4<<<gpu.sms * 16, 256>>>(in.get(), out.get(), n); CUDA_CHECK(cudaGetLastError()); };
        const double ms = sgemm::time_launches(launch, 2, 10, nullptr).best_ms;
        rows.push_back({"dram", 2.0 * in.bytes() / ms / 1e6, 2.0 * mem_khz * 1e3 * (bus_bits / 8) / 1e9, "GB/s",
                        "memory clock x bus width x 2 (double data rate)"});
    }
    {  // shared memory
        const int blocks = gpu.sms * 8;
        auto launch = [&] { lds_loop<<<blocks, 256>>>(sink.get()); CUDA_CHECK(cudaGetLastError()); };
        const double ms = sgemm::time_launches(launch, 2, 10, nullptr).best_ms;
        const double bytes = double(blocks) * 256 * kSharedIters * sizeof(float4);
        rows.push_back({"shared", bytes / ms / 1e6, 32.0 * 4 * gpu.sms * gpu.clock_mhz() / 1e3, "GB/s",
                        "32 banks x 4 bytes x SMs x peak clock"});
    }

    if (gpu.arch >= step11::kMinArch) {  // TF32 tensor cores: 2 * 16 * 8 * 8 flops per warp instruction
        const int blocks = gpu.sms * 4;
        auto launch = [&] { mma_loop<<<blocks, 256>>>(sink.get()); CUDA_CHECK(cudaGetLastError()); };
        const double ms = sgemm::time_launches(launch, 2, 10, nullptr).best_ms;
        const double flop = 2.0 * 16 * 8 * 8 * blocks * (256 / 32) * double(kMmaIters) * kChains;
        rows.push_back({"mma_tf32", flop / ms / 1e6, NAN, "GFLOP/s", "no paper figure: the device does not report its tensor rate"});
    }

    if (csv) {
        std::printf("quantity,measured,paper,unit\n");
        for (const Row& r : rows) std::printf("%s,%.1f,%.1f,%s\n", r.quantity, r.measured, r.paper, r.unit);
        return 0;
    }
    std::printf("%s, %d SMs, %d MHz peak clock; best of 10 launches after 2 warm-up\n", gpu.name.c_str(),
                gpu.sms, gpu.clock_mhz());
    std::printf("%-8s %12s %12s %-8s %7s  %s\n", "ceiling", "measured", "paper", "unit", "ratio", "paper figure");
    for (const Row& r : rows)
        if (std::isnan(r.paper)) {
            std::printf("%-8s %12.1f %12s %-8s %7s  %s\n", r.quantity, r.measured, "-", r.unit, "-", r.how.c_str());
        } else {
            std::printf("%-8s %12.1f %12.1f %-8s %6.1f%%  %s\n", r.quantity, r.measured, r.paper, r.unit,
                        100.0 * r.measured / r.paper, r.how.c_str());
        }
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "peak: %s\n", e.what());
    return 1;
}
