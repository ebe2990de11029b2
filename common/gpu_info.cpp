/// @file gpu_info.cpp
/// @brief Device and kernel queries, peak-rate and occupancy arithmetic.
#include "gpu_info.h"

#include <algorithm>
#include <climits>

#include "args.h"
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

GpuInfo query_gpu() {
    require_cuda_device();
    constexpr int dev = 0;
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    GpuInfo gpu;
    gpu.name = prop.name;
    gpu.cc_major = prop.major;
    gpu.cc_minor = prop.minor;
    gpu.sms = prop.multiProcessorCount;
    int clock_khz = 0;  // cudaDeviceProp::clockRate is gone in CUDA 13; the attribute stays
    CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
    gpu.clock_mhz = clock_khz / 1000;
    gpu.fp32_lanes = fp32_lanes_per_sm(prop.major, prop.minor);
    gpu.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
    gpu.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
    gpu.regs_per_sm = prop.regsPerMultiprocessor;
    gpu.smem_per_sm = prop.sharedMemPerMultiprocessor;
    gpu.smem_reserved_per_block = prop.reservedSharedMemPerBlock;
    gpu.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
    CUDA_CHECK(cudaMemGetInfo(&gpu.free_bytes, &gpu.total_bytes));
    CUDA_CHECK(cudaRuntimeGetVersion(&gpu.runtime_version));
    CUDA_CHECK(cudaDriverGetVersion(&gpu.driver_version));
    return gpu;
}

OccupancyLimits occupancy_limits(const GpuInfo& gpu, int threads_per_block, int registers,
                                 std::size_t smem_per_block) {
    OccupancyLimits lim;
    const int warps_per_block = (threads_per_block + 31) / 32;
    lim.by_threads = gpu.max_threads_per_sm / std::max(threads_per_block, 1);
    lim.by_blocks = gpu.max_blocks_per_sm;
    // registers are handed out per warp in units of 256
    const int regs_per_warp = (registers * 32 + 255) / 256 * 256;
    lim.by_registers = regs_per_warp == 0
                           ? INT_MAX
                           : gpu.regs_per_sm / regs_per_warp / std::max(warps_per_block, 1);
    const std::size_t smem = smem_per_block + gpu.smem_reserved_per_block;
    lim.by_smem = smem_per_block == 0 ? INT_MAX : static_cast<int>(gpu.smem_per_sm / smem);
    return lim;
}

std::string limiting_resources(const OccupancyLimits& limits, int blocks_per_sm) {
    const std::pair<int, const char*> named[] = {{limits.by_threads, "threads per SM"},
                                                 {limits.by_blocks, "blocks per SM"},
                                                 {limits.by_registers, "registers"},
                                                 {limits.by_smem, "shared memory"}};
    std::string out;
    for (const auto& [blocks, name] : named) {
        if (blocks == blocks_per_sm) out += (out.empty() ? "" : " and ") + std::string(name);
    }
    return out;
}

KernelInfo query_kernel(const void* kernel, const LaunchGeometry& geometry, const GpuInfo& gpu) {
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    KernelInfo info;
    info.registers = attr.numRegs;
    info.local_bytes = attr.localSizeBytes;
    info.static_smem = attr.sharedSizeBytes;
    const int threads = static_cast<int>(geometry.block.x * geometry.block.y * geometry.block.z);
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&info.blocks_per_sm, kernel, threads,
                                                             geometry.smem_bytes));
    info.warps_per_sm = info.blocks_per_sm * ((threads + 31) / 32);
    info.max_warps_per_sm = gpu.max_threads_per_sm / 32;
    const OccupancyLimits lim = occupancy_limits(gpu, threads, attr.numRegs,
                                                 attr.sharedSizeBytes + geometry.smem_bytes);
    info.limited_by = limiting_resources(lim, info.blocks_per_sm);
    return info;
}

}  // namespace sgemm
