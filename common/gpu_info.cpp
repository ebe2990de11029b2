/// @file gpu_info.cpp
/// @brief The description of device 0, the peak-rate arithmetic, and a kernel's resources.
#include "gpu_info.h"

#include "cuda_check.cuh"
#include "gpu_limits.h"

namespace sgemm {

int fp32_lanes_per_sm(int major, int minor) {
    switch (major) {
        case 5: return 128;                          // Maxwell
        case 6: return minor == 0 ? 64 : 128;        // P100 : other Pascal
        case 7: return 64;                           // Volta, Turing
        case 8: return minor == 0 ? 64 : 128;        // A100 : GA10x, Orin, Ada
        case 9: return 128;                          // Hopper
        case 10: case 11: case 12: return 128;       // Blackwell
        default: return 0;
    }
}

double peak_fp32_gflops(int sms, int lanes_per_sm, double clock_mhz) {
    return static_cast<double>(sms) * lanes_per_sm * 2.0 * clock_mhz / 1000.0;
}

const GpuInfo& gpu_info() {
    static const GpuInfo gpu = [] {
        require_cuda_device();
        constexpr int dev = 0;
        cudaDeviceProp prop{};
        CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
        auto attribute = [](cudaDeviceAttr attr) {
            int value = 0;
            CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, dev));
            return value;
        };
        GpuInfo g;
        g.name = prop.name;
        g.cc_major = prop.major;
        g.cc_minor = prop.minor;
        g.sms = prop.multiProcessorCount;
        // cudaDeviceProp's clockRate and memoryClockRate are gone in CUDA 13; the attributes stay
        g.clock_khz = attribute(cudaDevAttrClockRate);
        g.fp32_lanes = fp32_lanes_per_sm(prop.major, prop.minor);
        g.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
        g.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
        g.regs_per_sm = prop.regsPerMultiprocessor;
        g.smem_per_sm = prop.sharedMemPerMultiprocessor;
        g.smem_per_block_optin = prop.sharedMemPerBlockOptin;
        g.smem_reserved_per_block = prop.reservedSharedMemPerBlock;
        g.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
        g.total_bytes = prop.totalGlobalMem;
        g.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate);
        g.memory_bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth);
        CUDA_CHECK(cudaRuntimeGetVersion(&g.runtime_version));
        CUDA_CHECK(cudaDriverGetVersion(&g.driver_version));
        return g;
    }();
    return gpu;
}

std::size_t free_device_bytes() {
    gpu_info();  // a DeviceError first when there is no GPU
    std::size_t free = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return free;
}

KernelInfo query_kernel(const void* kernel, const LaunchGeometry& geometry) {
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    KernelInfo info;
    info.registers = attr.numRegs;
    info.local_bytes = attr.localSizeBytes;
    info.static_smem = attr.sharedSizeBytes;
    const int threads = static_cast<int>(geometry.block.x * geometry.block.y * geometry.block.z);
    const std::size_t smem = attr.sharedSizeBytes + geometry.smem_bytes;
    const GpuLimits& g = actual_limits();
    info.blocks_per_sm = blocks_per_sm(g, threads, attr.numRegs, smem);
    info.warps_per_sm = info.blocks_per_sm * ((threads + 31) / 32);
    info.max_warps_per_sm = g.threads_per_sm / 32;
    info.limited_by = info.blocks_per_sm > 0 ? occupancy_limiter(g, threads, attr.numRegs, smem) : "";
    return info;
}

}  // namespace sgemm
