/// @file report.cpp
/// @brief The report of a run: its text lines and its `--csv` line, from one list of columns.
#include "run/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "run/baseline.h"  // math_mode_name(), cublas_mode_description()

namespace sgemm {
namespace {

double gflops(const Options& o, double ms) {
    return 2.0 * o.M * static_cast<double>(o.N) * o.K / (ms * 1e-3) / 1e9;
}

std::string dims(const dim3& d) {
    return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

void print_check(const Verification& c, const Options& o) {
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
    const Gpu& gpu;
    const Gpu& limits;
    const char* verdict;
    const std::string& blas_version;
    const char* blas_mode;   ///< "" without cuBLAS
    double gflops;           ///< the step's GFLOP/s
    double blas_gflops;      ///< cuBLAS's (NaN without it)
    double pct_of_cublas;    ///< 100 * gflops / blas_gflops
    double pct_of_peak;      ///< 100 * gflops / the FP32 peak (NaN where the peak is unknown)
    const Timing& ttf;       ///< cuBLAS's with TF32 allowed
    double tf32_gflops;      ///< its GFLOP/s (NaN without cuBLAS)
    double pct_of_tf32;      ///< 100 * gflops / tf32_gflops
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
    {"arithmetic", [](const CsvRow& r) { return std::string(arithmetic_name(r.step.arithmetic)); }},
    {"cublas_tf32_median_ms", [](const CsvRow& r) { return format("%.4f", r.ttf.median_ms); }},
    {"cublas_tf32_gflops", [](const CsvRow& r) { return format("%.1f", r.tf32_gflops); }},
    {"pct_of_cublas_tf32", [](const CsvRow& r) { return format("%.2f", r.pct_of_tf32); }},
};

/// The columns' texts `text(column)`, comma-separated, in order.
template <class Text>
std::string csv_line(Text text) {
    std::string line;
    for (const CsvColumn& c : kCsvColumns) line += (line.empty() ? "" : ",") + text(c);
    return line;
}

}  // namespace

void print_setup(const RunSetup& setup) {
    const Step& step = setup.step;
    const Options& o = setup.opt;
    const Gpu& gpu = setup.gpu;
    const Gpu& limits = setup.limits;
    const Plan& plan = setup.plan;
    const LaunchGeometry& geo = plan.geometry;
    const KernelInfo& kinfo = setup.kernel;
    std::printf("%s (%s): C = alpha*A*B + beta*C, M x N x K = %d x %d x %d, alpha = %g, "
                "beta = %g, seed %llu\n",
                step.name, step.title, o.M, o.N, o.K, o.alpha, o.beta,
                static_cast<unsigned long long>(o.seed));
    std::printf("device     %s, compute capability %d.%d, %d SMs, %d MHz peak clock, "
                "%zu MiB L2, CUDA runtime %d.%d\n",
                gpu.name.c_str(), gpu.cc_major, gpu.cc_minor, gpu.sms, gpu.clock_mhz(),
                gpu.l2_bytes >> 20, gpu.runtime_version / 1000, gpu.runtime_version % 1000 / 10);
    std::printf("per SM     %d threads, %d blocks, %d registers, %zu KiB shared memory\n",
                gpu.threads_per_sm, gpu.blocks_per_sm, gpu.regs_per_sm,
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

void print_result(const RunSetup& setup, const RunResult& res) {
    const Step& step = setup.step;
    const Options& o = setup.opt;
    const Gpu& gpu = setup.gpu;
    const Gpu& limits = setup.limits;
    const Plan& plan = setup.plan;
    const KernelInfo& kinfo = setup.kernel;
    const Timing& t = res.step;
    const CublasTiming& tbm = res.blas;
    const Timing& tb = tbm.best();
    const cublasMath_t blas_mode = tbm.best_mode();
    const bool blas = res.has_blas;
    const bool verified = res.verified;
    const std::string& blas_version = res.blas_version;
    const std::vector<Verification>& checks = res.checks;

    const double g = gflops(o, t.median_ms);
    const double gb = blas ? gflops(o, tb.median_ms) : NAN;
    const double pct_blas = 100.0 * g / gb;
    const double peak = gpu.peak_gflops();
    const double pct_peak = peak > 0 ? 100.0 * g / peak : NAN;
    const char* verdict = !o.verify ? "skipped" : verified ? "pass" : "FAIL";
    const double gtf = blas ? gflops(o, res.blas_tf32.median_ms) : NAN;
    const double pct_tf32 = 100.0 * g / gtf;

    if (o.csv) {
        const CsvRow row{step, o, t, tb, plan, kinfo, gpu, limits, verdict, blas_version,
                         blas ? math_mode_name(blas_mode) : "", g, gb, pct_blas, pct_peak, res.blas_tf32, gtf,
                         pct_tf32};
        std::printf("%s\n", csv_line([&](const CsvColumn& c) { return c.value(row); }).c_str());
        for (const Verification& c : checks) {
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
            std::printf("cuBLAS TF32 %.1f GFLOP/s (median %.3f ms; cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32: "
                        "inputs rounded to TF32 on tensor cores)\n", gtf, res.blas_tf32.median_ms);
            std::printf("vs TF32    %s reaches %.1f%% of cuBLAS TF32\n", step.name, pct_tf32);
        } else {
            std::printf("cuBLAS     skipped (--no-cublas)\n");
        }
        for (const Verification& c : checks) print_check(c, o);
        if (!o.verify) std::printf("verify     skipped (%s)\n", o.cublas ? "--no-verify" : "--no-cublas");
    }
}

std::string csv_header() {
    return csv_line([](const CsvColumn& c) { return std::string(c.name); });
}

}  // namespace sgemm
