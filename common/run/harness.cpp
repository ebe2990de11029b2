/// @file harness.cpp
/// @brief The shared program behind every step binary: it runs; run/report.cpp prints.
#include "run/harness.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "device/cuda_check.cuh"
#include "device/device_buffer.cuh"
#include "device/random.cuh"
#include "errors.h"
#include "gpu/gpu.h"
#include "run/args.h"
#include "run/baseline.h"
#include "run/compare.h"
#include "run/report.h"
#include "run/self_check.h"
#include "run/timing.cuh"

namespace sgemm {
namespace {

constexpr double kInputBound = 1.0;  // inputs are uniform in [-1, 1): |value| <= 1

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
        const Gpu& g = actual_gpu();
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

/// One verified launch: cuBLAS and the step from the same inputs. With beta == 0 the
/// step's C is first filled with NaN (all bits set), so an element it never writes fails.
Verification verified_launch(const Step& step, Problem& p, const CublasHandle& blas, float beta) {
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
        gemm_tolerance(o.K, o.alpha, beta, kInputBound, kInputBound, kInputBound, step.arithmetic);
    return {beta, poison, verify(got.data(), expected.data(), o.M, o.N, tol)};
}

int run(const Step& step, const Options& o) {
    // first: no GPU, one older than sm_75 or a malformed SGEMM_GPU_CLASS is a DeviceError
    const Gpu& limits = gpu_in_force();
    require_arch(step, limits);  // steps 11 and 12 need TF32 tensor cores: one line, exit 2
    const Gpu& gpu = actual_gpu();
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
    const KernelInfo kinfo = query_kernel(plan.kernel, geo.block, geo.smem_bytes);

    const RunSetup setup{step, o, gpu, limits, plan, kinfo};
    if (!o.csv) print_setup(setup);

    // Verification first: a wrong kernel's speed means nothing.
    std::vector<Verification> checks;
    if (o.verify) {
        checks.push_back(verified_launch(step, p, *blas, 0.0f));
        if (o.beta != 0.0f) checks.push_back(verified_launch(step, p, *blas, o.beta));
    }
    const bool verified = std::all_of(checks.begin(), checks.end(),
                                      [](const Verification& c) { return c.result.ok(); });

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
    // The second baseline: cuBLAS with TF32 tensor cores allowed, the one steps 11 and 12 race.
    Timing tf32;
    if (blas) {
        tf32 = time_launches(
            [&] {
                cublas_gemm_tf32(*blas, o.M, o.N, o.K, o.alpha, p.A.get(), p.B.get(), o.beta, p.Cref.get());
            },
            o.warmup, o.reps, stream.get(), cold);
    }
    const RunResult result{t, tbm, tf32, blas.has_value(), blas ? cublas_version(*blas) : "none", std::move(checks),
                           verified};
    print_result(setup, result);
    return verified ? 0 : 1;
}

}  // namespace

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
