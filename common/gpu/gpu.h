/// @file gpu.h
/// @brief The one description of a GPU (struct Gpu): the GPU a run uses, as the CUDA runtime
///        describes it, or a smaller GPU class forced on top of it with SGEMM_GPU_CLASS; the
///        table of every architecture this CUDA release compiles for (archs.def); and the
///        occupancy arithmetic the steps choose their configuration with.
///
/// Forcing a class: `SGEMM_GPU_CLASS=sm_75 ./step10 4096` (or `sm_86:46` to also say 46
/// SMs) makes the steps choose as on that class, and hold the GPU to that class's blocks
/// per SM by asking for unused dynamic shared memory (see emulation_smem()). The kernel
/// itself still runs on the GPU that is there: its speed is that GPU's, never the class's.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

namespace sgemm {

/// One architecture's limits, a row of common/gpu/archs.def (its sources are named there). A
/// table row rather than a Gpu because kernels read it at compile time (kSmemPerBlockHere).
/// Every architecture here has 64 K 32-bit registers per SM and at most 255 per thread.
struct ArchLimits {
    int arch;                         ///< compute capability as 10 * major + minor: 75, 86, 120
    const char* gpus;                 ///< examples of GPUs with it
    std::size_t smem_per_sm;          ///< shared memory per SM, bytes
    std::size_t smem_per_block_optin; ///< the most a block may opt into, bytes
    std::size_t reserved_per_block;   ///< shared memory the system keeps per block, bytes
    int threads_per_sm;               ///< resident threads per SM
    int blocks_per_sm;                ///< resident blocks per SM
};

/// One line of common/gpu/archs.def as an ArchLimits initializer (KiB to bytes).
#define SGEMM_ARCH(arch, gpus, smem_sm_kib, smem_block_kib, reserved_kib, threads, blocks) \
    {arch, gpus, (smem_sm_kib) * 1024u, (smem_block_kib) * 1024u, (reserved_kib) * 1024u, threads, blocks},
/// Every architecture of common/gpu/archs.def, oldest first (the same list the Makefile reads).
inline constexpr ArchLimits kArchs[] = {
#include "gpu/archs.def"
};
#undef SGEMM_ARCH

/// The most shared memory one block may opt into on architecture @p arch (10 * major + minor),
/// bytes; 0 for an architecture not in the table. A kernel reads it at compile time for the
/// architecture it is compiled for (kSmemPerBlockHere).
constexpr std::size_t smem_per_block_optin_of(int arch) {
    for (const ArchLimits& a : kArchs) {
        if (a.arch == arch) return a.smem_per_block_optin;
    }
    return 0;
}

/// The architecture this code is compiled for, 10 * major + minor (__CUDA_ARCH__ / 10); on
/// the host, where no kernel runs, sm_90's. Kernels choose at compile time by it.
#if defined(__CUDA_ARCH__)
inline constexpr int kArchHere = __CUDA_ARCH__ / 10;
#else
inline constexpr int kArchHere = 90;
#endif

/// The most shared memory one block may have on the architecture this is compiled for, bytes.
/// A kernel compiles a configuration that cannot fit here as an empty body: no GPU of this
/// architecture would launch it.
inline constexpr int kSmemPerBlockHere = int(smem_per_block_optin_of(kArchHere));
static_assert(kSmemPerBlockHere > 0, "an architecture missing from common/gpu/archs.def");

/// Every architecture `nvcc --list-gpu-arch` names for CUDA 13.0, oldest first.
const std::vector<ArchLimits>& supported_archs();

/// The row of @p arch (e.g. 86), or null when it is not in the table.
const ArchLimits* find_arch(int arch);

/// "sm_86" for 86.
std::string arch_name(int arch);

/// FP32 lanes (FFMA units) per SM for compute capability major.minor, from NVIDIA's
/// CUDA C++ Programming Guide ("arithmetic instructions" throughput table); 0 if unknown.
int fp32_lanes_per_sm(int major, int minor);

/// Peak FP32 rate in GFLOP/s: SMs x lanes x 2 FLOP per FFMA x clock (MHz) / 1000.
double peak_fp32_gflops(int sms, int lanes_per_sm, double clock_mhz);

/// A GPU: the one a run uses (actual_gpu()), or a GPU class the steps choose by (gpu_in_force(),
/// gpu_of_class()). The limits come first: they are what a configuration is chosen by, and what
/// a forced class lowers. The rest describes the GPU that is there, for the report and the rates
/// (a forced class keeps it: the kernel still runs on that GPU); a GPU of the table alone
/// (gpu_of_class()) leaves it empty.
struct Gpu {
    int arch = 0;                          ///< compute capability, 10 * major + minor (90 for the H100)
    int sms = 0;                           ///< streaming multiprocessors
    std::size_t smem_per_sm = 0;           ///< shared memory per SM, bytes
    std::size_t smem_per_block_optin = 0;  ///< the most one block may opt into, bytes
    std::size_t reserved_per_block = 0;    ///< shared memory the system keeps per block, bytes
    int regs_per_sm = 65536;               ///< 32-bit registers per SM
    int threads_per_sm = 0;                ///< resident threads per SM
    int blocks_per_sm = 0;                 ///< resident blocks per SM
    bool forced = false;                   ///< true: a class forced by SGEMM_GPU_CLASS

    std::string name;              ///< marketing name, e.g. "NVIDIA H100 80GB HBM3"
    int cc_major = 0;              ///< compute capability, major (kept as the device says it)
    int cc_minor = 0;              ///< compute capability, minor
    int clock_khz = 0;             ///< peak SM clock the device reports, kHz
    int fp32_lanes = 0;            ///< FP32 lanes per SM (0: unknown architecture)
    std::size_t l2_bytes = 0;      ///< L2 cache size
    std::size_t total_bytes = 0;   ///< device memory
    int memory_clock_khz = 0;      ///< peak memory clock, kHz
    int memory_bus_bits = 0;       ///< memory bus width, bits
    int runtime_version = 0;       ///< CUDA runtime, e.g. 13000 for 13.0
    int driver_version = 0;        ///< newest CUDA version the driver supports

    /// True where the GPU has cp.async (sm_80 and newer); a forced older class goes without.
    bool has_cp_async() const { return arch >= 80; }
    /// Peak SM clock in whole MHz, as the report prints it.
    int clock_mhz() const { return clock_khz / 1000; }
    /// Peak FP32 GFLOP/s (0 when the lane count is unknown).
    double peak_gflops() const { return peak_fp32_gflops(sms, fp32_lanes, clock_khz / 1000.0); }
    /// Device-memory bandwidth, GB/s: two transfers per memory clock (DDR), bus_bits / 8 bytes each.
    double memory_gbytes_per_s() const { return 2.0 * memory_clock_khz * 1e3 * (memory_bus_bits / 8.0) / 1e9; }
};

/// A GPU of architecture @p a with @p sms SMs, as the table gives it (no device asked): what
/// `make regs` and the host tests choose by, and what a forced class starts from.
Gpu gpu_of_class(const ArchLimits& a, int sms);

/// Returns if a CUDA device answers. @throws DeviceError (one line, for exit status 2) when
/// the runtime finds none or cannot talk to the driver: no_device_reason()'s line.
void require_cuda_device();

/// Why no CUDA device answers, in one line that starts "no usable CUDA device" (empty when
/// one does): no NVIDIA driver installed (libcuda.so.1 cannot be loaded: the CUDA runtime
/// calls this "driver version is insufficient"), a driver older than the runtime, or the
/// runtime's own error. The test runner's skip line and require_cuda_device() both say it.
std::string no_device_reason();

/// Device 0 as the CUDA runtime describes it, queried once and then remembered: what the
/// report prints, the rates the choice by shape weighs, and the limits of the GPU that is
/// there whatever class is forced (for emulation_smem()).
/// @throws DeviceError when there is no usable CUDA device
const Gpu& actual_gpu();

/// Device memory free now, bytes (it changes: asked each time).
std::size_t free_device_bytes();

/// A forced class as SGEMM_GPU_CLASS spells it: "sm_75", or "sm_75:40" for 40 SMs.
struct ForcedClass {
    int arch = 0;  ///< 0: none forced
    int sms = 0;   ///< 0: the GPU's own SM count
};

/// Parses @p spec ("" means none). @throws DeviceError for anything else than sm_XX[:SMS]
/// with an architecture of the table and 1 <= SMS <= 1024.
ForcedClass parse_gpu_class(const std::string& spec);

/// The GPU the steps choose by in this process: device 0 itself, or SGEMM_GPU_CLASS's class on
/// top of it (a forced class may only be smaller than the GPU: each limit is the smaller of
/// the two). Read once, then cached. @throws DeviceError when there is no usable GPU, the GPU
/// is older than sm_75, or SGEMM_GPU_CLASS is malformed.
const Gpu& gpu_in_force();

/// Forces @p spec as SGEMM_GPU_CLASS would ("" for none) and drops the cached GPU in force;
/// the tests use it to run every class in one process. @throws DeviceError as parse_gpu_class().
void force_gpu_class(const std::string& spec);

/// Changes each time the GPU in force changes (force_gpu_class()), so that a launcher may
/// cache its choice.
int limits_generation();

/// Resident blocks per SM of a kernel with @p threads threads, @p regs registers per thread
/// and @p smem bytes of shared memory per block on @p g; 0 when one block does not fit.
/// Registers are counted per warp in units of 256, as the hardware hands them out.
int blocks_per_sm(const Gpu& g, int threads, int regs, std::size_t smem);

/// The resources that hold blocks_per_sm() where it is ("shared memory", "registers and
/// threads per SM", ...), or why one block does not fit.
std::string occupancy_limiter(const Gpu& g, int threads, int regs, std::size_t smem);

/// Dynamic shared memory to ask for so that the GPU that is there (@p actual) holds the same
/// number of blocks per SM as a GPU of the forced class (@p forced) would: @p smem itself
/// when nothing needs holding back. @p static_smem is the kernel's static shared memory.
std::size_t emulation_smem(const Gpu& forced, const Gpu& actual, int threads, int regs,
                           std::size_t static_smem, std::size_t smem);

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

/// Registers, spills, shared memory and occupancy of @p kernel launched with blocks of
/// @p block and @p dynamic_smem bytes of dynamic shared memory, on the GPU that is there (its
/// own limits, whatever class is forced: sgemm::actual_gpu()).
KernelInfo query_kernel(const void* kernel, dim3 block, std::size_t dynamic_smem);

}  // namespace sgemm
