/// @file gpu.cpp
/// @brief The description of device 0, the architecture table, the GPU in force (a forced class
///        on top of the device), the peak-rate and occupancy arithmetic, and a kernel's resources.
#include "gpu/gpu.h"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "device/cuda_check.cuh"
#include "errors.h"  // DeviceError

namespace sgemm {
namespace {

struct State {
    bool read = false;
    bool have_env = false;  // SGEMM_GPU_CLASS read (force_gpu_class() replaces it)
    ForcedClass forced;
    Gpu in_force;
    int generation = 0;
};

State& state() {
    static State s;
    return s;
}

/// Device 0, checked to be one this course runs on.
/// @throws DeviceError: no GPU, or one older than sm_75.
const Gpu& supported_device() {
    const Gpu& gpu = actual_gpu();
    if (gpu.arch < kArchs[0].arch) {
        throw DeviceError(gpu.name + " is compute capability " + std::to_string(gpu.cc_major) + "." +
                         std::to_string(gpu.cc_minor) + "; this course needs sm_75 (Turing) or newer");
    }
    return gpu;
}

/// The forced class on top of the GPU: each limit the smaller of the two, so that a class
/// larger than the GPU cannot pretend to resources that are not there. What describes the GPU
/// itself (name, clocks, L2) stays the GPU's: the kernel still runs there.
Gpu apply(const ForcedClass& f, const Gpu& gpu) {
    if (f.arch == 0) return gpu;
    const Gpu k = gpu_of_class(*find_arch(f.arch), f.sms > 0 ? f.sms : gpu.sms);
    Gpu c = gpu;
    c.sms = std::min(k.sms, gpu.sms);
    c.smem_per_sm = std::min(k.smem_per_sm, gpu.smem_per_sm);
    c.smem_per_block_optin = std::min(k.smem_per_block_optin, gpu.smem_per_block_optin);
    c.reserved_per_block = k.reserved_per_block;
    c.threads_per_sm = std::min(k.threads_per_sm, gpu.threads_per_sm);
    c.blocks_per_sm = std::min(k.blocks_per_sm, gpu.blocks_per_sm);
    c.regs_per_sm = std::min(k.regs_per_sm, gpu.regs_per_sm);
    c.arch = std::min(k.arch, gpu.arch);  // no cp.async where the GPU or the class lacks it
    c.forced = true;
    return c;
}

State& ready() {
    State& s = state();
    if (!s.read) {
        if (!s.have_env) {
            const char* env = std::getenv("SGEMM_GPU_CLASS");
            s.forced = parse_gpu_class(env ? env : "");
            s.have_env = true;
        }
        s.in_force = apply(s.forced, supported_device());
        s.read = true;
    }
    return s;
}

}  // namespace

const std::vector<ArchLimits>& supported_archs() {
    static const std::vector<ArchLimits> table(std::begin(kArchs), std::end(kArchs));
    return table;
}

const ArchLimits* find_arch(int arch) {
    for (const ArchLimits& a : supported_archs()) {
        if (a.arch == arch) return &a;
    }
    return nullptr;
}

std::string arch_name(int arch) { return "sm_" + std::to_string(arch); }

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

Gpu gpu_of_class(const ArchLimits& a, int sms) {
    Gpu g;
    g.arch = a.arch;
    g.sms = sms;
    g.smem_per_sm = a.smem_per_sm;
    g.smem_per_block_optin = a.smem_per_block_optin;
    g.reserved_per_block = a.reserved_per_block;
    g.threads_per_sm = a.threads_per_sm;
    g.blocks_per_sm = a.blocks_per_sm;
    return g;
}

std::string no_device_reason() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaSuccess && count > 0) return "";
    // The driver's library, which the CUDA runtime loads: without it there is no driver at all.
    if (void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
        dlclose(driver);
    } else {
        return "no usable CUDA device: no NVIDIA driver found (libcuda.so.1 is not installed)";
    }
    if (status == cudaErrorInsufficientDriver) {
        int runtime = 0;
        cudaRuntimeGetVersion(&runtime);
        return "no usable CUDA device: the NVIDIA driver is older than the CUDA " + std::to_string(runtime / 1000) +
               "." + std::to_string(runtime % 1000 / 10) + " runtime this was built with; update the driver";
    }
    if (status != cudaSuccess) {
        return std::string("no usable CUDA device (cudaGetDeviceCount: ") + cudaGetErrorString(status) + ")";
    }
    return "no usable CUDA device: the driver finds no GPU";
}

void require_cuda_device() {
    if (const std::string reason = no_device_reason(); !reason.empty()) throw DeviceError(reason);
}

const Gpu& actual_gpu() {
    static const Gpu gpu = [] {
        require_cuda_device();
        constexpr int dev = 0;
        cudaDeviceProp prop{};
        CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
        auto attribute = [](cudaDeviceAttr attr) {
            int value = 0;
            CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, dev));
            return value;
        };
        Gpu g;
        g.arch = 10 * prop.major + prop.minor;
        g.sms = prop.multiProcessorCount;
        g.smem_per_sm = prop.sharedMemPerMultiprocessor;
        g.smem_per_block_optin = prop.sharedMemPerBlockOptin;
        g.reserved_per_block = prop.reservedSharedMemPerBlock;
        g.regs_per_sm = prop.regsPerMultiprocessor;
        g.threads_per_sm = prop.maxThreadsPerMultiProcessor;
        g.blocks_per_sm = prop.maxBlocksPerMultiProcessor;
        g.name = prop.name;
        g.cc_major = prop.major;
        g.cc_minor = prop.minor;
        // cudaDeviceProp's clockRate and memoryClockRate are gone in CUDA 13; the attributes stay
        g.clock_khz = attribute(cudaDevAttrClockRate);
        g.fp32_lanes = fp32_lanes_per_sm(prop.major, prop.minor);
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
    actual_gpu();  // a DeviceError first when there is no GPU
    std::size_t free = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return free;
}

ForcedClass parse_gpu_class(const std::string& spec) {
    ForcedClass f;
    if (spec.empty()) return f;
    auto known = [] {
        std::string list;
        for (const ArchLimits& a : supported_archs()) list += (list.empty() ? "" : " ") + arch_name(a.arch);
        return list;
    };
    const std::size_t colon = spec.find(':');
    const std::string arch = spec.substr(0, colon);
    auto digits = [](const std::string& s) {
        return !s.empty() && s.size() <= 4 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (arch.rfind("sm_", 0) != 0 || !digits(arch.substr(3)) || !find_arch(std::stoi(arch.substr(3)))) {
        throw DeviceError("SGEMM_GPU_CLASS='" + spec + "' is not a GPU class; use sm_XX or sm_XX:SMS with one of: " + known());
    }
    f.arch = std::stoi(arch.substr(3));
    if (colon != std::string::npos) {
        const std::string sms = spec.substr(colon + 1);
        if (!digits(sms) || std::stoi(sms) < 1 || std::stoi(sms) > 1024) {
            throw DeviceError("SGEMM_GPU_CLASS='" + spec + "': the SM count after ':' must be a whole number from 1 to 1024");
        }
        f.sms = std::stoi(sms);
    }
    return f;
}

const Gpu& gpu_in_force() { return ready().in_force; }

void force_gpu_class(const std::string& spec) {
    State& s = state();
    s.forced = parse_gpu_class(spec);
    s.have_env = true;
    s.read = false;
    ++s.generation;
}

int limits_generation() { return state().generation; }

int blocks_per_sm(const Gpu& g, int threads, int regs, std::size_t smem) {
    if (threads <= 0 || threads > g.threads_per_sm || smem > g.smem_per_block_optin) return 0;
    const int warps = (threads + 31) / 32;
    const int regs_per_warp = (regs * 32 + 255) / 256 * 256;
    int blocks = std::min(g.threads_per_sm / threads, g.blocks_per_sm);
    if (regs_per_warp > 0) blocks = std::min(blocks, g.regs_per_sm / (regs_per_warp * warps));
    if (smem + g.reserved_per_block > 0) {  // sm_75 reserves none: a block without shared memory takes none
        blocks = std::min<long long>(blocks, static_cast<long long>(g.smem_per_sm / (smem + g.reserved_per_block)));
    }
    return std::max(blocks, 0);
}

std::string occupancy_limiter(const Gpu& g, int threads, int regs, std::size_t smem) {
    if (smem > g.smem_per_block_optin) {
        return "needs " + std::to_string(smem) + " B of shared memory per block, " + arch_name(g.arch) +
               " allows " + std::to_string(g.smem_per_block_optin) + " B";
    }
    if (threads > g.threads_per_sm) return "needs more threads than an SM holds";
    const int blocks = blocks_per_sm(g, threads, regs, smem);
    if (blocks == 0) return "does not fit on one SM";
    const int warps = (threads + 31) / 32;
    const int regs_per_warp = (regs * 32 + 255) / 256 * 256;
    std::string out;
    auto add = [&](bool limits, const char* what) {
        if (limits) out += (out.empty() ? "" : " and ") + std::string(what);
    };
    add(g.threads_per_sm / threads == blocks, "threads per SM");
    add(g.blocks_per_sm == blocks, "blocks per SM");
    add(regs_per_warp > 0 && g.regs_per_sm / (regs_per_warp * warps) == blocks, "registers");
    add(smem + g.reserved_per_block > 0 &&
            static_cast<int>(g.smem_per_sm / (smem + g.reserved_per_block)) == blocks, "shared memory");
    return out;
}

std::size_t emulation_smem(const Gpu& forced, const Gpu& actual, int threads, int regs,
                           std::size_t static_smem, std::size_t smem) {
    if (!forced.forced) return smem;
    const int want = blocks_per_sm(forced, threads, regs, static_smem + smem);
    const int have = blocks_per_sm(actual, threads, regs, static_smem + smem);
    if (want <= 0 || have <= want) return smem;
    // the most shared memory per block with which `want` blocks still fit on the actual SM
    const std::size_t per_block = actual.smem_per_sm / static_cast<std::size_t>(want) - actual.reserved_per_block;
    const std::size_t total = std::min(per_block, actual.smem_per_block_optin);
    return total > static_smem ? total - static_smem : smem;
}

KernelInfo query_kernel(const void* kernel, dim3 block, std::size_t dynamic_smem) {
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    KernelInfo info;
    info.registers = attr.numRegs;
    info.local_bytes = attr.localSizeBytes;
    info.static_smem = attr.sharedSizeBytes;
    const int threads = static_cast<int>(block.x * block.y * block.z);
    const std::size_t smem = attr.sharedSizeBytes + dynamic_smem;
    const Gpu& g = actual_gpu();
    info.blocks_per_sm = blocks_per_sm(g, threads, attr.numRegs, smem);
    info.warps_per_sm = info.blocks_per_sm * ((threads + 31) / 32);
    info.max_warps_per_sm = g.threads_per_sm / 32;
    info.limited_by = info.blocks_per_sm > 0 ? occupancy_limiter(g, threads, attr.numRegs, smem) : "";
    return info;
}

}  // namespace sgemm
