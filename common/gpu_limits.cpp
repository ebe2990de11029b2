/// @file gpu_limits.cpp
/// @brief The architecture table, the limits in force, and occupancy arithmetic.
#include "gpu_limits.h"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "errors.h"  // DeviceError
#include "cuda_check.cuh"
#include "gpu_info.h"

namespace sgemm {
namespace {

struct State {
    bool read = false;
    bool have_env = false;  // SGEMM_GPU_CLASS read (force_gpu_class() replaces it)
    ForcedClass forced;
    GpuLimits actual, in_force;
    int generation = 0;
};

State& state() {
    static State s;
    return s;
}

/// Device 0's own limits, from the one description of it (gpu_info()).
/// @throws DeviceError: no GPU, or one older than sm_75.
GpuLimits read_device() {
    const GpuInfo& gpu = gpu_info();
    if (gpu.arch() < kArchs[0].arch) {
        throw DeviceError(gpu.name + " is compute capability " + std::to_string(gpu.cc_major) + "." +
                         std::to_string(gpu.cc_minor) + "; this course needs sm_75 (Turing) or newer");
    }
    GpuLimits g;
    g.arch = gpu.arch();
    g.sms = gpu.sms;
    g.smem_per_sm = gpu.smem_per_sm;
    g.smem_per_block_optin = gpu.smem_per_block_optin;
    g.reserved_per_block = gpu.smem_reserved_per_block;
    g.regs_per_sm = gpu.regs_per_sm;
    g.threads_per_sm = gpu.max_threads_per_sm;
    g.blocks_per_sm = gpu.max_blocks_per_sm;
    return g;
}

/// The forced class on top of the GPU: each limit the smaller of the two, so that a class
/// larger than the GPU cannot pretend to resources that are not there.
GpuLimits apply(const ForcedClass& f, const GpuLimits& gpu) {
    if (f.arch == 0) return gpu;
    GpuLimits c = limits_of(*find_arch(f.arch), f.sms > 0 ? f.sms : gpu.sms);
    c.sms = std::min(c.sms, gpu.sms);
    c.smem_per_sm = std::min(c.smem_per_sm, gpu.smem_per_sm);
    c.smem_per_block_optin = std::min(c.smem_per_block_optin, gpu.smem_per_block_optin);
    c.threads_per_sm = std::min(c.threads_per_sm, gpu.threads_per_sm);
    c.blocks_per_sm = std::min(c.blocks_per_sm, gpu.blocks_per_sm);
    c.regs_per_sm = std::min(c.regs_per_sm, gpu.regs_per_sm);
    c.arch = std::min(c.arch, gpu.arch);  // no cp.async where the GPU or the class lacks it
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
        s.actual = read_device();
        s.in_force = apply(s.forced, s.actual);
        s.read = true;
    }
    return s;
}

}  // namespace

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

GpuLimits limits_of(const ArchLimits& a, int sms) {
    GpuLimits g;
    g.arch = a.arch;
    g.sms = sms;
    g.smem_per_sm = a.smem_per_sm;
    g.smem_per_block_optin = a.smem_per_block_optin;
    g.reserved_per_block = a.reserved_per_block;
    g.threads_per_sm = a.threads_per_sm;
    g.blocks_per_sm = a.blocks_per_sm;
    return g;
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

const GpuLimits& device_limits() { return ready().in_force; }

const GpuLimits& actual_limits() { return ready().actual; }

void force_gpu_class(const std::string& spec) {
    State& s = state();
    s.forced = parse_gpu_class(spec);
    s.have_env = true;
    s.read = false;
    ++s.generation;
}

int limits_generation() { return state().generation; }

int blocks_per_sm(const GpuLimits& g, int threads, int regs, std::size_t smem) {
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

std::string occupancy_limiter(const GpuLimits& g, int threads, int regs, std::size_t smem) {
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

std::size_t emulation_smem(const GpuLimits& forced, const GpuLimits& actual, int threads, int regs,
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

}  // namespace sgemm
