/// @file gpu_info.h
/// @brief What the harness reports about the GPU and a kernel: peak FP32 rate, registers,
///        spills, shared memory and occupancy.
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
    int clock_mhz = 0;             ///< peak SM clock the device reports
    int fp32_lanes = 0;            ///< FP32 lanes per SM (0: unknown architecture)
    int max_threads_per_sm = 0;    ///< resident threads per SM
    int max_blocks_per_sm = 0;     ///< resident blocks per SM
    int regs_per_sm = 0;           ///< 32-bit registers per SM
    std::size_t smem_per_sm = 0;   ///< shared memory per SM, bytes
    std::size_t smem_reserved_per_block = 0;  ///< shared memory the system keeps per block
    std::size_t l2_bytes = 0;      ///< L2 cache size
    std::size_t free_bytes = 0;    ///< free device memory when queried
    std::size_t total_bytes = 0;   ///< device memory
    int runtime_version = 0;       ///< CUDA runtime, e.g. 13000 for 13.0
    int driver_version = 0;        ///< newest CUDA version the driver supports
    /// Peak FP32 GFLOP/s (0 when the lane count is unknown).
    double peak_gflops() const { return peak_fp32_gflops(sms, fp32_lanes, clock_mhz); }
};

/// Describes device 0. @throws UsageError when there is no usable CUDA device.
GpuInfo query_gpu();

/// A kernel as compiled, and how many of its blocks fit on one SM.
struct KernelInfo {
    int registers = 0;             ///< registers per thread
    std::size_t local_bytes = 0;   ///< local memory per thread (spills, stack arrays)
    std::size_t static_smem = 0;   ///< static shared memory per block, bytes
    int blocks_per_sm = 0;         ///< resident blocks per SM (occupancy API)
    int warps_per_sm = 0;          ///< resident warps per SM
    int max_warps_per_sm = 0;      ///< the SM's limit
    std::string limited_by;        ///< which resource sets blocks_per_sm ("" if unclear)
};

/// Blocks per SM that each resource alone allows, for the "limited by" note.
struct OccupancyLimits {
    int by_threads = 0;   ///< resident threads per SM / threads per block
    int by_blocks = 0;    ///< resident blocks per SM
    int by_registers = 0; ///< register file / registers of a block (per-warp granularity 256)
    int by_smem = 0;      ///< shared memory per SM / shared memory of a block
};

/// Each resource's limit on resident blocks, from the same rules the occupancy calculator uses.
OccupancyLimits occupancy_limits(const GpuInfo& gpu, int threads_per_block, int registers,
                                 std::size_t smem_per_block);

/// The names of the resources in @p limits that allow exactly @p blocks_per_sm blocks,
/// joined by " and " ("" when none does).
std::string limiting_resources(const OccupancyLimits& limits, int blocks_per_sm);

/// Registers, spills, shared memory and occupancy of @p kernel launched as @p geometry.
KernelInfo query_kernel(const void* kernel, const LaunchGeometry& geometry, const GpuInfo& gpu);

}  // namespace sgemm
