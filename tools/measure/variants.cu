// make variants: step 10 as it ships beside variants of it that did not pay, each built from
// steps/10_double_buffer/kernel.cuh by one patch in tools/measure/variants/ (tools/measure/
// variants.py applies them and builds this file). Each is timed at 4096^3 and 8192^3 against
// cuBLAS (the faster of DEFAULT and PEDANTIC) in the same run, after one launch verified
// against cuBLAS with C poisoned. The shipped kernel runs first and last, so the table shows
// how far two runs of the same kernel differ.
#include <cstdio>
#include <string>
#include <vector>

#include "device/device_buffer.cuh"
#include "device/random.cuh"
#include "measure_kernel.cuh"
#include "run/baseline.h"
#include "run/timing.cuh"
#include "variant.h"

namespace {

/// One problem size, with its inputs, cuBLAS's result and speed.
struct Problem {
    int n;
    sgemm::DeviceBuffer<float> A, B, C;
    std::vector<float> expected;
    double cublas_gflops = 0;
    explicit Problem(int size)
        : n(size), A(size_t(size) * size), B(size_t(size) * size), C(size_t(size) * size) {}
};

double gflops(int n, double ms) { return 2.0 * n * double(n) * n / ms / 1e6; }

}  // namespace

// variant_info_<name>() is defined in build/<arch>/variants/<name>.cu (variants.py)
#define VARIANT(name) sgemm_tools::Variant variant_info_##name();
#include "variants_list.inc"
#undef VARIANT

int main() {
    const sgemm_tools::Variant variants[] = {
#define VARIANT(name) variant_info_##name(),
#include "variants_list.inc"
#undef VARIANT
    };
    sgemm::CublasHandle blas(nullptr);
    std::vector<Problem> problems;
    problems.reserve(2);
    for (int n : {4096, 8192}) {
        Problem& p = problems.emplace_back(n);
        const sgemm::InputSeeds seeds = sgemm::input_seeds(42);
        sgemm::fill_uniform(p.A.get(), p.A.size(), seeds.a, nullptr);
        sgemm::fill_uniform(p.B.get(), p.B.size(), seeds.b, nullptr);
        const sgemm::CublasTiming t = sgemm::time_cublas_modes(blas, [&] {
            sgemm::cublas_sgemm(blas, n, n, n, 1.0f, p.A.get(), p.B.get(), 0.0f, p.C.get());
        }, 3, 20, nullptr);
        p.cublas_gflops = gflops(n, t.best().median_ms);
        p.expected.resize(p.C.size());
        p.C.copy_to_host(p.expected.data());
        std::printf("# %d^3: cuBLAS %.0f GFLOP/s (%s, the faster of DEFAULT %.0f and PEDANTIC %.0f)\n", n,
                    p.cublas_gflops, t.faster == 1 ? "PEDANTIC" : "DEFAULT", gflops(n, t.mode[0].median_ms),
                    gflops(n, t.mode[1].median_ms));
    }
    const sgemm_tools::Variant& shipped = variants[0];
    std::printf("# configuration 0 of step 10 (%dx%dx%d, %d stages, unroll %d), each variant one patch away "
                "from it; median of 20 launches (10 at 8192^3) after 3 warm-up\n",
                shipped.BM, shipped.BN, shipped.BK, shipped.stages, shipped.unroll);
    std::printf("%-26s %5s %6s %10s %8s %10s %8s  %s\n", "variant", "regs", "local", "4096^3", "%cuBLAS",
                "8192^3", "%cuBLAS", "verified");
    std::vector<sgemm_tools::Variant> order(std::begin(variants), std::end(variants));
    order.push_back(shipped);  // the shipped kernel again, last
    for (const sgemm_tools::Variant& v : order) {
        double g[2] = {}, pct[2] = {};
        bool ok = true;
        sgemm_tools::KernelMeasurement m{};
        for (int i = 0; i < 2; ++i) {
            Problem& p = problems[std::size_t(i)];
            m = sgemm_tools::measure_kernel(v.kernel, v.BM, v.BN, v.threads, v.smem, p.n, p.n, p.n, p.A.get(),
                                            p.B.get(), p.C, p.expected, p.n >= 8192 ? 10 : 20);
            g[i] = gflops(p.n, m.median_ms);
            pct[i] = 100.0 * g[i] / p.cublas_gflops;
            ok = ok && m.verified;
        }
        std::printf("%-26s %5d %6zu %10.0f %8.1f %10.0f %8.1f  %s\n", v.name, m.registers, m.local_bytes, g[0],
                    pct[0], g[1], pct[1], ok ? "pass" : "FAIL");
        std::fflush(stdout);
    }
    return 0;
}
