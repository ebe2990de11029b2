/// @file self_check.cpp
/// @brief The shapes, the reference and the `--check` report shared by the tests and the
///        step binaries.
#include "run/self_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "device/cuda_check.cuh"
#include "device/random.cuh"
#include "gpu/gpu.h"
#include "run/baseline.h"

namespace sgemm {
namespace {

constexpr double kReferenceOnCpuUpTo = 3e7;  // M * N * K; above it cuBLAS is the reference

std::string scalars_text(const Scalars& ab) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "(%g, %g)", ab.alpha, ab.beta);
    return buf;
}

/// Prints "hint: <text>", wrapped at about 92 columns under its first word; an index such
/// as As[row + i][k] stays on one line.
void print_hint(const char* hint) {
    if (hint == nullptr) return;
    std::istringstream words(hint);
    std::string line = "hint:", word, piece;
    while (words >> piece) {
        word = piece;
        // glue the pieces of a bracketed index back together
        auto open = [](const std::string& w) {
            return std::count(w.begin(), w.end(), '[') - std::count(w.begin(), w.end(), ']');
        };
        while (open(word) > 0 && words >> piece) word += " " + piece;
        if (line.size() + 1 + word.size() > 92 && line.size() > 6) {
            std::printf("%s\n", line.c_str());
            line = "     ";
        }
        line += " " + word;
    }
    std::printf("%s\n", line.c_str());
}

}  // namespace

const std::vector<Shape>& check_shapes() {
    static const std::vector<Shape> shapes = {
        {1, 1, 1},       {1, 300, 77},     {300, 1, 77},     {7, 13, 5},        {31, 33, 17},
        {127, 129, 65},  {255, 257, 300},  {97, 101, 103},   {129, 127, 1},     {64, 64, 1},
        {1000, 1000, 1000}, {2049, 35, 64}, {35, 2049, 64},  {3, 5, 4099},      {2100000, 3, 2},
        // multiples of 4 (float4 paths) that are not multiples of the tiles, and whole tiles only
        {4, 8, 12},      {260, 132, 36},   {256, 256, 16},   {384, 256, 128},
    };
    return shapes;
}

const std::vector<Scalars>& check_scalars() {
    static const std::vector<Scalars> scalars = {{1.0f, 0.0f}, {0.75f, -1.25f}};
    return scalars;
}

CheckProblem::CheckProblem(Shape shape, float a, float b, std::uint64_t seed)
    : s(shape),
      alpha(a),
      beta(b),
      A(uniform_vector(std::size_t(shape.M) * shape.K, seed * 3 + 1)),
      B(uniform_vector(std::size_t(shape.K) * shape.N, seed * 3 + 2)),
      C0(uniform_vector(std::size_t(shape.M) * shape.N, seed * 3 + 3)),
      dA(A.size()),
      dB(B.size()),
      dC(C0.size()) {
    dA.copy_from_host(A.data());
    dB.copy_from_host(B.data());
    reference_is_cpu = double(s.M) * s.N * s.K <= kReferenceOnCpuUpTo;
    if (reference_is_cpu) {
        expected = reference_gemm(s.M, s.N, s.K, alpha, A.data(), B.data(), beta, C0.data());
    } else {
        CublasHandle blas(nullptr);
        dC.copy_from_host(C0.data());
        cublas_sgemm(blas, s.M, s.N, s.K, alpha, dA.get(), dB.get(), beta, dC.get());
        expected.resize(C0.size());
        dC.copy_to_host(expected.data());
    }
}

VerifyResult CheckProblem::run(LaunchFn launch, Arithmetic arithmetic) {
    if (beta == 0.0f) {
        CUDA_CHECK(cudaMemset(dC.get(), 0xFF, dC.bytes()));  // NaN: unwritten elements show
    } else {
        dC.copy_from_host(C0.data());
    }
    launch(s.M, s.N, s.K, alpha, dA.get(), dB.get(), beta, dC.get(), nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> got(C0.size());
    dC.copy_to_host(got.data());
    // inputs are uniform in [-1, 1): every |value| <= 1
    const Tolerance tol = gemm_tolerance(s.K, alpha, beta, 1.0, 1.0, 1.0, arithmetic);
    return verify(got.data(), expected.data(), s.M, s.N, tol);
}

int run_checks(const Step& step, const char* hint) {
    const Gpu& limits = gpu_in_force();  // no GPU, or a bad SGEMM_GPU_CLASS: DeviceError, exit 2
    require_arch(step, limits);          // steps 11 and 12 before sm_80: the same
    const Gpu& gpu = actual_gpu();
    const std::vector<Shape>& shapes = check_shapes();
    const std::vector<Scalars>& scalars = check_scalars();
    std::printf("%s --check on %s: C = alpha*A*B + beta*C at %zu shapes, each with (alpha, beta) =",
                step.name, gpu.name.c_str(), shapes.size());
    for (std::size_t i = 0; i < scalars.size(); ++i) {
        std::printf("%s %s", i == 0 ? "" : " and", scalars_text(scalars[i]).c_str());
    }
    std::printf("\n");
    if (limits.forced) std::printf("GPU class  forced to %s by SGEMM_GPU_CLASS\n", arch_name(limits.arch).c_str());
    if (step.plan) {  // the GPU's choice; each shape's line says which configuration ran
        std::printf("GPU        %s\n", step.plan(1000, 1000, 1000).why.c_str());
    }

    std::size_t wrong_shapes = 0;
    bool unwritten = false;  // some element still held the NaN C starts with
    std::uint64_t seed = 1;  // the seeds the GPU tests use, in the same order
    for (const Shape& shape : shapes) {
        std::string failure;  // the first failing pair of this shape, described
        for (const Scalars& ab : scalars) {
            const std::uint64_t this_seed = seed++;
            if (!failure.empty()) continue;  // one line per shape: the first failure is enough
            try {
                CheckProblem p(shape, ab.alpha, ab.beta, this_seed);
                const VerifyResult r = p.run(step.launch, step.arithmetic);
                if (r.ok()) continue;
                const Mismatch& m = r.first.front();
                char buf[200];
                std::snprintf(buf, sizeof buf, "%s: %zu of %zu wrong, first C(%d, %d) = %g, expected %.6g",
                              scalars_text(ab).c_str(), r.bad, r.checked, m.row, m.col, m.got,
                              m.expected);
                failure = buf;
                unwritten = unwritten || (ab.beta == 0.0f && std::isnan(m.got));
            } catch (const CudaError& e) {
                std::printf("  FAIL  %-18s %s: the kernel failed: %s\n", to_string(shape).c_str(),
                            scalars_text(ab).c_str(), e.what());
                std::printf("FAIL: a CUDA error leaves the GPU unusable to this process, so the "
                            "check stops here.\n      Find the bad access with: compute-sanitizer "
                            "./%s %d %d %d --no-cublas --reps 1 --warmup 0\n",
                            step.name, shape.M, shape.N, shape.K);
                print_hint(hint);
                return 1;
            }
        }
        // steps 08-10 choose by shape: the configuration (and any split of K) this one ran
        const std::string config =
            step.plan ? "  [" + step.plan(shape.M, shape.N, shape.K).config + "]" : std::string();
        if (failure.empty()) {
            std::printf("  ok    %-18s%s\n", to_string(shape).c_str(), config.c_str());
        } else {
            ++wrong_shapes;
            std::printf("  FAIL  %-18s %s%s\n", to_string(shape).c_str(), failure.c_str(), config.c_str());
        }
        std::fflush(stdout);
    }

    if (wrong_shapes == 0) {
        std::printf("PASS: all %zu shapes right with every (alpha, beta).\n", shapes.size());
        return 0;
    }
    std::printf("FAIL: %zu of %zu shapes wrong.\n", wrong_shapes, shapes.size());
    if (unwritten) {
        std::printf("      nan with beta = 0: C starts as NaN, so that element was most likely "
                    "never written.\n");
    }
    print_hint(hint);
    return 1;
}

}  // namespace sgemm
