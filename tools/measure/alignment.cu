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

#include "gpu/gpu.h"
#include "launch/pack.cuh"
#include "measure_kernel.cuh"
#include "steps/09_warptiling/kernel.cuh"
#include "steps/10_double_buffer/kernel.cuh"
#include "steps/11_tensor_cores/kernel.cuh"
#include "steps/12_3xtf32/kernel.cuh"

namespace {

using sgemm_tools::median_ms, sgemm_tools::pct_of_cublas, sgemm_tools::Problem, sgemm_tools::verified;

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
    const std::string shape = sgemm_tools::shape_name(p);
    const std::string packs = sc.pack.any() ? (sc.pack.a ? "A and B" : "B") : "-";
    std::printf("%-15s %-6s %2d %9.1f %6.1f %9.1f %6.1f  %-7s %8.1f %6.1f %8.1f  %s\n", shape.c_str(), step,
                direct_splits, direct_ms * 1e3, pct_of_cublas(p, direct_ms), launcher_ms * 1e3,
                pct_of_cublas(p, launcher_ms), packs.c_str(), copy_ms * 1e3, pct_of_cublas(p, step09_ms),
                p.cublas_gflops,
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
        Problem p = sgemm_tools::problem_at(blas, s[0], s[1], s[2]);
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
