/// @file harness.cpp
/// @brief The shared program behind every step binary.
#include "harness.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "args.h"
#include "check.h"
#include "cublas_ref.h"
#include "cuda_check.cuh"
#include "device_buffer.cuh"
#include "gpu_info.h"
#include "gpu_limits.h"
#include "random.cuh"
#include "timing.cuh"
#include "verify.h"

namespace sgemm {
namespace {

constexpr double kInputBound = 1.0;  // inputs are uniform in [-1, 1): |value| <= 1

double gflops(const Options& o, double ms) {
    return 2.0 * o.M * static_cast<double>(o.N) * o.K / (ms * 1e-3) / 1e9;
}

std::string dims(const dim3& d) {
    return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

std::string gib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

/// A binary built for one architecture (make ARCH=sm_XX) runs on that GPU and, through its
/// PTX, on newer ones; on an older GPU its kernels have no code. Says so in one line.
void require_kernel_image(const Step& step) {
    cudaFuncAttributes attr{};
    const cudaError_t status = cudaFuncGetAttributes(&attr, step.kernel);
    if (status == cudaErrorNoKernelImageForDevice || status == cudaErrorInvalidDeviceFunction) {
        cudaGetLastError();  // clear it
        const GpuLimits& g = actual_limits();
        throw DeviceError(std::string(step.name) + " was built for another GPU (" + cudaGetErrorName(status) +
                         "); rebuild for this one, " + arch_name(g.arch) + ": make clean && make " + step.name);
    }
    CUDA_CHECK(status);
}

/// Everything a run needs on the device, filled with the run's seeded inputs.
struct Problem {
    const Options& opt;
    cudaStream_t stream;
    DeviceBuffer<float> A, B, C, C0, Cref;
    Problem(const Options& o, cudaStream_t s)
        : opt(o),
          stream(s),
          A(static_cast<size_t>(o.M) * o.K),
          B(static_cast<size_t>(o.K) * o.N),
          C(static_cast<size_t>(o.M) * o.N),
          C0(static_cast<size_t>(o.M) * o.N),
          Cref(static_cast<size_t>(o.M) * o.N) {
        const InputSeeds seeds = input_seeds(o.seed);
        fill_uniform(A.get(), A.size(), seeds.a, stream);
        fill_uniform(B.get(), B.size(), seeds.b, stream);
        fill_uniform(C0.get(), C0.size(), seeds.c, stream);
    }
    /// C <- the initial C, so every launch with beta != 0 starts from the same values.
    void restore(DeviceBuffer<float>& dst) {
        CUDA_CHECK(cudaMemcpyAsync(dst.get(), C0.get(), C0.bytes(), cudaMemcpyDeviceToDevice,
                                   stream));
    }
};

struct Check {
    float beta;
    bool poisoned;
    VerifyResult result;
};

/// One verified launch: cuBLAS and the step from the same inputs. With beta == 0 the
/// step's C is first filled with NaN (all bits set), so an element it never writes fails.
Check verified_launch(const Step& step, Problem& p, const CublasHandle& blas, float beta) {
    const Options& o = p.opt;
    p.restore(p.Cref);
    cublas_sgemm(blas, o.M, o.N, o.K, o.alpha, p.A.get(), p.B.get(), beta, p.Cref.get());
    const bool poison = beta == 0.0f;
    if (poison) {
        CUDA_CHECK(cudaMemsetAsync(p.C.get(), 0xFF, p.C.bytes(), p.stream));
    } else {
        p.restore(p.C);
    }
    step.launch(o.M, o.N, o.K, o.alpha, p.A.get(), p.B.get(), beta, p.C.get(), p.stream);
    CUDA_CHECK(cudaStreamSynchronize(p.stream));

    std::vector<float> got(p.C.size()), expected(p.Cref.size());
    p.C.copy_to_host(got.data());
    p.Cref.copy_to_host(expected.data());
    const Tolerance tol =
        gemm_tolerance(o.K, o.alpha, beta, kInputBound, kInputBound, kInputBound);
    return {beta, poison, verify(got.data(), expected.data(), o.M, o.N, tol)};
}

void print_check(const Check& c, const Options& o) {
    const VerifyResult& r = c.result;
    char how[64];
    if (c.poisoned) {
        std::snprintf(how, sizeof how, "beta = 0, C poisoned with NaN first");
    } else {
        std::snprintf(how, sizeof how, "beta = %g, C random", c.beta);
    }
    if (r.ok()) {
        std::printf("verify     PASS vs cuBLAS (%s): %zu elements, max |error| %.3g, "
                    "%.2f%% of the tolerance\n",
                    how, r.checked, r.max_abs_error, 100.0 * r.worst_ratio);
    } else {
        std::printf("verify     FAIL vs cuBLAS (%s): %zu of %zu elements wrong (M x N = %d x %d)\n",
                    how, r.bad, r.checked, o.M, o.N);
        std::printf("%s", describe_mismatches(r, "           ").c_str());
    }
}

std::string csv_field(std::string s) {
    std::replace(s.begin(), s.end(), ',', ';');
    return s;
}

/// Everything one line of `--csv` is made of.
struct CsvRow {
    const Step& step;
    const Options& o;
    const Timing& t;         ///< the step's timing
    const Timing& tb;        ///< cuBLAS's, in its faster mode
    const Plan& plan;
    const KernelInfo& kinfo;
    const GpuInfo& gpu;
    const GpuLimits& limits;
    const char* verdict;
    const std::string& blas_version;
    const char* blas_mode;   ///< "" without cuBLAS
    double gflops;           ///< the step's GFLOP/s
    double blas_gflops;      ///< cuBLAS's (NaN without it)
    double pct_of_cublas;    ///< 100 * gflops / blas_gflops
    double pct_of_peak;      ///< 100 * gflops / the FP32 peak (NaN where the peak is unknown)
};

/// printf-style formatting into a string.
template <class... Args>
std::string format(const char* fmt, Args... args) {
    char buf[256];
    std::snprintf(buf, sizeof buf, fmt, args...);
    return buf;
}

/// One column of `--csv`: its name in the header and its value in a row.
struct CsvColumn {
    const char* name;
    std::string (*value)(const CsvRow&);
};

/// The columns of `--csv`, in order: the header and every row are written from this one list.
const CsvColumn kCsvColumns[] = {
    {"step", [](const CsvRow& r) { return std::string(r.step.name); }},
    {"title", [](const CsvRow& r) { return std::string(r.step.title); }},
    {"M", [](const CsvRow& r) { return std::to_string(r.o.M); }},
    {"N", [](const CsvRow& r) { return std::to_string(r.o.N); }},
    {"K", [](const CsvRow& r) { return std::to_string(r.o.K); }},
    {"alpha", [](const CsvRow& r) { return format("%g", r.o.alpha); }},
    {"beta", [](const CsvRow& r) { return format("%g", r.o.beta); }},
    {"warmup", [](const CsvRow& r) { return std::to_string(r.o.warmup); }},
    {"reps", [](const CsvRow& r) { return std::to_string(r.o.reps); }},
    {"median_ms", [](const CsvRow& r) { return format("%.4f", r.t.median_ms); }},
    {"best_ms", [](const CsvRow& r) { return format("%.4f", r.t.best_ms); }},
    {"gflops", [](const CsvRow& r) { return format("%.1f", r.gflops); }},
    {"cublas_median_ms", [](const CsvRow& r) { return format("%.4f", r.tb.median_ms); }},
    {"cublas_gflops", [](const CsvRow& r) { return format("%.1f", r.blas_gflops); }},
    {"pct_of_cublas", [](const CsvRow& r) { return format("%.2f", r.pct_of_cublas); }},
    {"pct_of_peak", [](const CsvRow& r) { return format("%.2f", r.pct_of_peak); }},
    {"registers", [](const CsvRow& r) { return std::to_string(r.kinfo.registers); }},
    {"local_bytes", [](const CsvRow& r) { return std::to_string(r.kinfo.local_bytes); }},
    {"static_smem_bytes", [](const CsvRow& r) { return std::to_string(r.kinfo.static_smem); }},
    {"dynamic_smem_bytes", [](const CsvRow& r) { return std::to_string(r.plan.geometry.smem_bytes); }},
    {"blocks_per_sm", [](const CsvRow& r) { return std::to_string(r.kinfo.blocks_per_sm); }},
    {"warps_per_sm", [](const CsvRow& r) { return std::to_string(r.kinfo.warps_per_sm); }},
    {"grid", [](const CsvRow& r) { return dims(r.plan.geometry.grid); }},
    {"block", [](const CsvRow& r) { return dims(r.plan.geometry.block); }},
    {"verified", [](const CsvRow& r) { return std::string(r.verdict); }},
    {"gpu", [](const CsvRow& r) { return csv_field(r.gpu.name); }},
    {"cc", [](const CsvRow& r) { return format("%d.%d", r.gpu.cc_major, r.gpu.cc_minor); }},
    {"sms", [](const CsvRow& r) { return std::to_string(r.gpu.sms); }},
    {"clock_mhz", [](const CsvRow& r) { return std::to_string(r.gpu.clock_mhz()); }},
    {"peak_gflops", [](const CsvRow& r) { return format("%.1f", r.gpu.peak_gflops()); }},
    {"cuda_runtime", [](const CsvRow& r) {
         return format("%d.%d", r.gpu.runtime_version / 1000, r.gpu.runtime_version % 1000 / 10);
     }},
    {"cublas", [](const CsvRow& r) { return csv_field(r.blas_version); }},
    {"config", [](const CsvRow& r) { return csv_field(r.plan.config); }},
    {"gpu_class", [](const CsvRow& r) { return r.limits.forced ? arch_name(r.limits.arch) : std::string(); }},
    {"cublas_mode", [](const CsvRow& r) { return std::string(r.blas_mode); }},
    {"l2", [](const CsvRow& r) { return std::string(r.o.cold_l2 ? "cold" : "warm"); }},
};

/// The columns' texts `text(column)`, comma-separated, in order.
template <class Text>
std::string csv_line(Text text) {
    std::string line;
    for (const CsvColumn& c : kCsvColumns) line += (line.empty() ? "" : ",") + text(c);
    return line;
}

int run(const Step& step, const Options& o) {
    // first: no GPU, one older than sm_75 or a malformed SGEMM_GPU_CLASS is a DeviceError
    const GpuLimits& limits = device_limits();
    const GpuInfo& gpu = gpu_info();
    // room for cuBLAS's handle and workspace on top of the five matrices
    constexpr std::uint64_t kHeadroom = 256ull << 20;
    const std::uint64_t needed = *device_bytes_needed(o.M, o.N, o.K);
    const std::size_t free_bytes = free_device_bytes();
    if (needed > free_bytes || free_bytes - needed < kHeadroom) {
        throw DeviceError(std::to_string(o.M) + " x " + std::to_string(o.N) + " x " +
                         std::to_string(o.K) + " needs " + gib(static_cast<double>(needed + kHeadroom)) +
                         " of GPU memory (A, B, three copies of C and cuBLAS's workspace); " +
                         gib(static_cast<double>(free_bytes)) + " of " +
                         gib(static_cast<double>(gpu.total_bytes)) + " is free");
    }

    CudaStream stream;
    std::optional<CublasHandle> blas;  // created once, never timed; absent with --no-cublas
    if (o.cublas) blas.emplace(stream.get());
    Problem p(o, stream.get());

    require_kernel_image(step);
    const Plan plan = step.plan ? step.plan(o.M, o.N, o.K) : Plan{step.geometry(o.M, o.N), step.kernel, "", ""};
    const LaunchGeometry geo = plan.geometry;
    const KernelInfo kinfo = query_kernel(plan.kernel, geo);

    if (!o.csv) {
        std::printf("%s (%s): C = alpha*A*B + beta*C, M x N x K = %d x %d x %d, alpha = %g, "
                    "beta = %g, seed %llu\n",
                    step.name, step.title, o.M, o.N, o.K, o.alpha, o.beta,
                    static_cast<unsigned long long>(o.seed));
        std::printf("device     %s, compute capability %d.%d, %d SMs, %d MHz peak clock, "
                    "%zu MiB L2, CUDA runtime %d.%d\n",
                    gpu.name.c_str(), gpu.cc_major, gpu.cc_minor, gpu.sms, gpu.clock_mhz(),
                    gpu.l2_bytes >> 20, gpu.runtime_version / 1000, gpu.runtime_version % 1000 / 10);
        std::printf("per SM     %d threads, %d blocks, %d registers, %zu KiB shared memory\n",
                    gpu.max_threads_per_sm, gpu.max_blocks_per_sm, gpu.regs_per_sm,
                    gpu.smem_per_sm / 1024);
        if (gpu.fp32_lanes > 0) {
            std::printf("FP32 peak  %.1f GFLOP/s = %d SMs x %d lanes x 2 FLOP x %d MHz\n",
                        gpu.peak_gflops(), gpu.sms, gpu.fp32_lanes, gpu.clock_mhz());
        } else {
            std::printf("FP32 peak  unknown for compute capability %d.%d\n", gpu.cc_major,
                        gpu.cc_minor);
        }
        if (limits.forced) {
            std::printf("GPU class  forced to %s by SGEMM_GPU_CLASS: %d SMs, %zu B shared memory per "
                        "block, %zu B per SM, %d threads per SM; the kernel still runs on this GPU, "
                        "held to that class's blocks per SM\n",
                        arch_name(limits.arch).c_str(), limits.sms, limits.smem_per_block_optin,
                        limits.smem_per_sm, limits.threads_per_sm);
        }
        if (step.plan) std::printf("config     %s: %s\n", plan.config.c_str(), plan.why.c_str());
        std::printf("launch     grid (%u, %u, %u), block (%u, %u, %u), %zu B dynamic shared memory",
                    geo.grid.x, geo.grid.y, geo.grid.z, geo.block.x, geo.block.y, geo.block.z,
                    geo.smem_bytes);
        if (geo.grid.y > static_cast<unsigned>(kMaxGridY)) {
            std::printf(" (grid.y > %d: launched in slabs of rows)", kMaxGridY);
        }
        std::printf("\nkernel     %d registers/thread, %zu B local memory/thread (spills), "
                    "%zu B static shared memory/block\n",
                    kinfo.registers, kinfo.local_bytes, kinfo.static_smem);
        std::printf("occupancy  %d blocks/SM = %d of %d warps/SM (%.0f%%)%s%s\n",
                    kinfo.blocks_per_sm, kinfo.warps_per_sm, kinfo.max_warps_per_sm,
                    100.0 * kinfo.warps_per_sm / std::max(kinfo.max_warps_per_sm, 1),
                    kinfo.limited_by.empty() ? "" : ", limited by ", kinfo.limited_by.c_str());
        std::fflush(stdout);
    }

    // Verification first: a wrong kernel's speed means nothing.
    std::vector<Check> checks;
    if (o.verify) {
        checks.push_back(verified_launch(step, p, *blas, 0.0f));
        if (o.beta != 0.0f) checks.push_back(verified_launch(step, p, *blas, o.beta));
    }
    const bool verified = std::all_of(checks.begin(), checks.end(),
                                      [](const Check& c) { return c.result.ok(); });

    p.restore(p.C);
    p.restore(p.Cref);
    std::optional<L2Flush> flush;  // --cold-l2: both the step and cuBLAS start from an empty L2
    if (o.cold_l2) flush.emplace(gpu.l2_bytes);
    const L2Flush* cold = flush ? &*flush : nullptr;
    const Timing t = time_launches(
        [&] {
            step.launch(o.M, o.N, o.K, o.alpha, p.A.get(), p.B.get(), o.beta, p.C.get(),
                        stream.get());
        },
        o.warmup, o.reps, stream.get(), cold);
    // cuBLAS in both strict-FP32 math modes; the step races the faster of the two.
    CublasTiming tbm;
    if (blas) {
        tbm = time_cublas_modes(
            *blas,
            [&] {
                cublas_sgemm(*blas, o.M, o.N, o.K, o.alpha, p.A.get(), p.B.get(), o.beta,
                             p.Cref.get());
            },
            o.warmup, o.reps, stream.get(), cold);
    }
    const Timing& tb = tbm.best();
    const cublasMath_t blas_mode = tbm.best_mode();

    const double g = gflops(o, t.median_ms);
    const double gb = blas ? gflops(o, tb.median_ms) : NAN;
    const double pct_blas = 100.0 * g / gb;
    const std::string blas_version = blas ? cublas_version(*blas) : "none";
    const double peak = gpu.peak_gflops();
    const double pct_peak = peak > 0 ? 100.0 * g / peak : NAN;
    const char* verdict = !o.verify ? "skipped" : verified ? "pass" : "FAIL";

    if (o.csv) {
        const CsvRow row{step, o, t, tb, plan, kinfo, gpu, limits, verdict, blas_version,
                         blas ? math_mode_name(blas_mode) : "", g, gb, pct_blas, pct_peak};
        std::printf("%s\n", csv_line([&](const CsvColumn& c) { return c.value(row); }).c_str());
        for (const Check& c : checks) {
            if (!c.result.ok()) {
                std::fprintf(stderr, "%s: verification FAILED (beta = %g): %zu of %zu wrong\n%s",
                             step.name, c.beta, c.result.bad, c.result.checked,
                             describe_mismatches(c.result, "  ").c_str());
            }
        }
    } else {
        std::printf("timing     %d reps after %d warm-up%s: median %.3f ms, best %.3f ms\n", o.reps,
                    o.warmup, o.cold_l2 ? ", the L2 cache flushed before each" : "", t.median_ms, t.best_ms);
        if (peak > 0) {
            std::printf("speed      %.1f GFLOP/s = %.1f%% of FP32 peak\n", g, pct_peak);
        } else {
            std::printf("speed      %.1f GFLOP/s\n", g);
        }
        if (blas) {
            std::printf("cuBLAS     %.1f GFLOP/s (median %.3f ms, %s; DEFAULT %.3f ms, PEDANTIC %.3f ms; "
                        "%s, %s)\n",
                        gb, tb.median_ms, math_mode_name(blas_mode), tbm.mode[0].median_ms,
                        tbm.mode[1].median_ms, cublas_mode_description(), blas_version.c_str());
            std::printf("vs cuBLAS  %s reaches %.1f%% of cuBLAS\n", step.name, pct_blas);
        } else {
            std::printf("cuBLAS     skipped (--no-cublas)\n");
        }
        for (const Check& c : checks) print_check(c, o);
        if (!o.verify) std::printf("verify     skipped (%s)\n", o.cublas ? "--no-verify" : "--no-cublas");
    }
    return verified ? 0 : 1;
}

}  // namespace

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::string csv_header() {
    return csv_line([](const CsvColumn& c) { return std::string(c.name); });
}

int run_step(const Step& step, int argc, char** argv, const char* check_hint) {
    try {
        const Options opt = parse_args(std::vector<std::string>(argv + 1, argv + argc));
        if (opt.help) {
            std::printf("%s", usage(step.name).c_str());
            return 0;
        }
        if (opt.csv_header) {
            std::printf("%s\n", csv_header().c_str());
            return 0;
        }
        if (opt.check) return run_checks(step, check_hint);
        return run(step, opt);
    } catch (const DeviceError& e) {  // the command line was right: no usage after it
        std::fprintf(stderr, "%s: error: %s\n", step.name, e.what());
        return 2;
    } catch (const UsageError& e) {
        std::fprintf(stderr, "%s: error: %s\n%s", step.name, e.what(), usage(step.name).c_str());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", step.name, e.what());
        return 1;
    }
}

}  // namespace sgemm
