/// @file gpu_info.h
/// @brief The GPU a run uses, described once (gpu_info()): what the harness reports, and what
///        the limits (gpu_limits.h) and rates (choose.h) the steps choose by are read from; and
///        what one compiled kernel costs (query_kernel()).
#pragma once

#include <cstddef>
#include <string>

#include "launch.cuh"

namespace sgemm {

/// FP32 lanes (FFMA units) per SM for compute capability major.minor, from NVIDIA's
/// CUDA C++ Programming Guide ("arithmetic instructions" throughput table); 0 if unknown.
int fp32_lanes_per_sm(int major, int minor);

/// Peak FP32 rate in GFLOP/s: SMs x lanes x 2 FLOP per FFMA x clock (MHz) / 1000.
double peak_fp32_gflops(int sms, int lanes_per_sm, double clock_mhz);

/// The GPU a run uses (device 0), as the CUDA runtime describes it.
struct GpuInfo {
    std::string name;              ///< marketing name, e.g. "NVIDIA H100 80GB HBM3"
    int cc_major = 0;              ///< compute capability, major
    int cc_minor = 0;              ///< compute capability, minor
    int sms = 0;                   ///< streaming multiprocessors
    int clock_khz = 0;             ///< peak SM clock the device reports, kHz
    int fp32_lanes = 0;            ///< FP32 lanes per SM (0: unknown architecture)
    int max_threads_per_sm = 0;    ///< resident threads per SM
    int max_blocks_per_sm = 0;     ///< resident blocks per SM
    int regs_per_sm = 0;           ///< 32-bit registers per SM
    std::size_t smem_per_sm = 0;   ///< shared memory per SM, bytes
    std::size_t smem_per_block_optin = 0;     ///< the most one block may opt into, bytes
    std::size_t smem_reserved_per_block = 0;  ///< shared memory the system keeps per block
    std::size_t l2_bytes = 0;      ///< L2 cache size
    std::size_t total_bytes = 0;   ///< device memory
    int memory_clock_khz = 0;      ///< peak memory clock, kHz
    int memory_bus_bits = 0;       ///< memory bus width, bits
    int runtime_version = 0;       ///< CUDA runtime, e.g. 13000 for 13.0
    int driver_version = 0;        ///< newest CUDA version the driver supports
    /// Compute capability as 10 * major + minor (90 for the H100).
    int arch() const { return 10 * cc_major + cc_minor; }
    /// Peak SM clock in whole MHz, as the report prints it.
    int clock_mhz() const { return clock_khz / 1000; }
    /// Peak FP32 GFLOP/s (0 when the lane count is unknown).
    double peak_gflops() const { return peak_fp32_gflops(sms, fp32_lanes, clock_khz / 1000.0); }
    /// Device-memory bandwidth, GB/s: two transfers per memory clock (DDR), bus_bits / 8 bytes each.
    double memory_gbytes_per_s() const { return 2.0 * memory_clock_khz * 1e3 * (memory_bus_bits / 8.0) / 1e9; }
};

/// Device 0, queried once and then remembered. @throws DeviceError when there is no usable
/// CUDA device.
const GpuInfo& gpu_info();

/// Device memory free now, bytes (it changes: asked each time).
std::size_t free_device_bytes();

/// A kernel as compiled, and how many of its blocks fit on one SM.
struct KernelInfo {
    int registers = 0;             ///< registers per thread
    std::size_t local_bytes = 0;   ///< local memory per thread (spills, stack arrays)
    std::size_t static_smem = 0;   ///< static shared memory per block, bytes
    int blocks_per_sm = 0;         ///< resident blocks per SM (sgemm::blocks_per_sm())
    int warps_per_sm = 0;          ///< resident warps per SM
    int max_warps_per_sm = 0;      ///< the SM's limit
    std::string limited_by;        ///< which resource sets blocks_per_sm (sgemm::occupancy_limiter())
};

/// Registers, spills, shared memory and occupancy of @p kernel launched as @p geometry on the
/// GPU that is there (its own limits, whatever class is forced: sgemm::actual_limits()).
KernelInfo query_kernel(const void* kernel, const LaunchGeometry& geometry);

}  // namespace sgemm
