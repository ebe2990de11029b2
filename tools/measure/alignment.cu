// make alignment: steps 10, 11 and 12 at sizes that are not multiples of 4, each run two ways
// in the same process: with the unaligned rows copied 4 bytes at a time (no packing: the
// configuration the launcher chooses without it, K cut into the best of 1, 2, 3, 4, 6 and 8
// slices, found by trying each), and as its launcher runs it (packing where it pays,
// common/launch/pack.cuh). Beside them: step 09 and cuBLAS FP32 (the faster of its two
// strict modes), and the packing copy alone. Each run is verified against cuBLAS's product.
// docs/alignment.md reads the table (docs/results/alignment_<gpu>.txt).
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "device/cuda_check.cuh"
#include "device/device_buffer.cuh"
#include "device/random.cuh"
#include "gpu/gpu.h"
#include "launch/pack.cuh"
#include "run/baseline.h"
#include "run/compare.h"
#include "run/timing.cuh"
#include "steps/09_warptiling/kernel.cuh"
#include "steps/10_double_buffer/kernel.cuh"
#include "steps/11_tensor_cores/kernel.cuh"
#include "steps/12_3xtf32/kernel.cuh"

namespace {

using sgemm::DeviceBuffer;

/// Median milliseconds of 20 launches of `f` after 3 warm-up.
template <class F>
double median_ms(F f) { return sgemm::time_launches(f, 3, 20, nullptr).median_ms; }

/// One shape's inputs, cuBLAS's product (the reference) and cuBLAS's time.
struct Problem {
    int M, N, K;
    DeviceBuffer<float> A, B, C;
    std::vector<float> expected;
    double cublas_ms = 0;
    double gflops(double ms) const { return 2.0 * M * N * double(K) / ms / 1e6; }
    double pct(double ms) const { return 100.0 * cublas_ms / ms; }
};

/// Runs `launch` on a C of NaN, checks it against cuBLAS's product with the step's tolerance.
template <class F>
bool verified(Problem& p, F launch, sgemm::Arithmetic arithmetic) {
    CUDA_CHECK(cudaMemset(p.C.get(), 0xFF, p.C.bytes()));
    launch();
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> got(p.C.size());
    p.C.copy_to_host(got.data());
    return sgemm::verify(got.data(), p.expected.data(), p.M, p.N,
                         sgemm::gemm_tolerance(p.K, 1.0f, 0.0f, 1.0, 1.0, 1.0, arithmetic)).ok();
}

/// Launcher L at p's shape: 4-byte copies (best split), as it runs (its choice), the copy alone.
template <class L>
void row(Problem& p, const char* step, sgemm::Arithmetic arithmetic, double step09_ms) {
    const sgemm::ShapeChoice sc = L::shape_choice(p.M, p.N, p.K);
    const sgemm::ShapeChoice unpacked = L::shape_choice(p.M, p.N, p.K, false, false);  // 4-byte copies
    const bool async = sgemm::gpu_in_force().has_cp_async();
    double direct_ms = 1e30;
    int direct_splits = 1;
    for (int S : {1, 2, 3, 4, 6, 8}) {
        if (S > 1 && S > (p.K + 31) / 32) break;
        const double ms = median_ms([&] {
            L::launch_config(unpacked.index, unpacked.dynamic_smem, async, S, p.M, p.N, p.K, 1.0f, p.A.get(),
                             p.B.get(), 0.0f, p.C.get(), nullptr);
        });
        if (ms < direct_ms) direct_ms = ms, direct_splits = S;
    }
    const bool direct_ok = verified(p, [&] {
        L::launch_config(unpacked.index, unpacked.dynamic_smem, async, direct_splits, p.M, p.N, p.K, 1.0f,
                         p.A.get(), p.B.get(), 0.0f, p.C.get(), nullptr);
    }, arithmetic);
    auto launch = [&] { L::launch(p.M, p.N, p.K, 1.0f, p.A.get(), p.B.get(), 0.0f, p.C.get(), nullptr); };
    const double launcher_ms = median_ms(launch);
    const bool launcher_ok = verified(p, launch, arithmetic);
    const sgemm::PackPlan plan = sgemm::pack_plan(L::kPacking, p.N, p.K);
    const double copy_ms = plan.any() ? median_ms([&] {
        const sgemm::Packed packed(plan, p.M, p.N, p.K, p.A.get(), p.B.get(), nullptr);
    }) : 0.0;
    const std::string shape = std::to_string(p.M) + "x" + std::to_string(p.N) + "x" + std::to_string(p.K);
    const std::string packs = sc.pack.any() ? (sc.pack.a ? "A and B" : "B") : "-";
    std::printf("%-15s %-6s %2d %9.1f %6.1f %9.1f %6.1f  %-7s %8.1f %6.1f %8.1f  %s\n", shape.c_str(), step,
                direct_splits, direct_ms * 1e3, p.pct(direct_ms), launcher_ms * 1e3, p.pct(launcher_ms),
                packs.c_str(), copy_ms * 1e3, p.pct(step09_ms), p.gflops(p.cublas_ms),
                direct_ok && launcher_ok ? "pass" : "FAIL");
    std::fflush(stdout);
}

}  // namespace

int main() {
    sgemm::CublasHandle blas(nullptr);
    const bool tensor_cores = sgemm::actual_gpu().arch >= 80;
    std::printf("# steps 10-12 where K or N is not a multiple of 4: with 4-byte copies (no packing: the "
                "configuration the launcher chooses without it, K cut into the best of 1, 2, 3, 4, 6 and 8 slices, "
                "S), and as the launcher runs them (packing first where it pays); median of 20 after 3 warm-up; %%: "
                "of cuBLAS FP32 (the faster of DEFAULT and PEDANTIC) in the same run\n");
    std::printf("# 4-byte: only the unaligned rows' copies are 4 bytes wide (4096x4096x4095: A's only; "
                "4096x4095x4096: B's; the aligned neighbours: none); packs: what the launcher packs; copy us: the "
                "copy the step's rule would make, timed alone, also where the launcher does not pack; step09: step "
                "09 as it runs, %% of cuBLAS\n");
    std::printf("%-15s %-6s %2s %9s %6s %9s %6s  %-7s %8s %6s %8s  %s\n", "M x N x K", "step", "S", "4-byte us",
                "%cuB", "launch us", "%cuB", "packs", "copy us", "step09", "cuB GF/s", "verified");
    const std::vector<std::array<int, 3>> shapes = {
        {1023, 1023, 1023}, {1024, 1024, 1024}, {1025, 1025, 1025}, {2047, 2047, 2047}, {2048, 2048, 2048},
        {4095, 4095, 4095}, {4096, 4096, 4096}, {3001, 1025, 2047}, {4095, 255, 4095}, {4096, 4095, 4096},
        {4096, 4096, 4095}};
    for (const auto& s : shapes) {
        Problem p{s[0], s[1], s[2], DeviceBuffer<float>(std::size_t(s[0]) * s[2]),
                  DeviceBuffer<float>(std::size_t(s[2]) * s[1]), DeviceBuffer<float>(std::size_t(s[0]) * s[1]), {}};
        const sgemm::InputSeeds seeds = sgemm::input_seeds(42);
        sgemm::fill_uniform(p.A.get(), p.A.size(), seeds.a, nullptr);
        sgemm::fill_uniform(p.B.get(), p.B.size(), seeds.b, nullptr);
        p.cublas_ms = sgemm::time_cublas_modes(blas, [&] {
            sgemm::cublas_sgemm(blas, p.M, p.N, p.K, 1.0f, p.A.get(), p.B.get(), 0.0f, p.C.get());
        }, 3, 20, nullptr).best().median_ms;
        p.expected.resize(p.C.size());
        p.C.copy_to_host(p.expected.data());
        const double step09_ms =
            median_ms([&] { step09::launch(p.M, p.N, p.K, 1.0f, p.A.get(), p.B.get(), 0.0f, p.C.get(), nullptr); });
        row<step10::Launcher>(p, "step10", sgemm::Arithmetic::kFp32, step09_ms);
        if (tensor_cores) {
            row<step11::Launcher>(p, "step11", sgemm::Arithmetic::kTf32, step09_ms);
            row<step12::Launcher>(p, "step12", sgemm::Arithmetic::k3xTf32, step09_ms);
        }
    }
    return 0;
}
