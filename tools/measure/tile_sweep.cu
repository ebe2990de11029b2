// make tiles: steps 03-07, 09 and 10 at other tile sizes than the ones they ship with (step
// 08 has its own, larger search: make tune STEP=08), timed at 4096^3 against cuBLAS in the
// same run, with each instance's registers, local memory (spills), occupancy and
// verification. Arguments name the steps to run ("09 10"); none: all of them. The step READMEs show these lines, to explain why each step
// uses its configuration and what a larger thread tile costs in registers.
// The configuration a step ships with is marked '*'. The argument "classes" adds steps 09
// and 10's candidates for the smaller GPU classes (sm_86: 99 KB per block; sm_75: 64 KB per
// block and per SM), each held to the blocks per SM its class gives it (SGEMM_GPU_CLASS,
// common/gpu/gpu.h) and marked "as sm_XX": this GPU's speed for that class's limits.
// The argument "splitk" (make splitk) times step 10 with K cut into 1 to 16 slices instead.
#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "device/device_buffer.cuh"
#include "device/random.cuh"
#include "gpu/gpu.h"
#include "measure_kernel.cuh"
#include "run/baseline.h"
#include "run/compare.h"
#include "run/timing.cuh"

#include "steps/03_shared_memory/kernel.cuh"
#include "steps/04_1d_blocktiling/kernel.cuh"
#include "steps/05_2d_blocktiling/kernel.cuh"
#include "steps/06_vectorized/kernel.cuh"
#include "steps/07_bank_conflicts/kernel.cuh"
#include "steps/09_warptiling/kernel.cuh"
#include "steps/10_double_buffer/kernel.cuh"

namespace {

using sgemm_tools::KernelFn;

using sgemm_tools::gflops, sgemm_tools::median_ms, sgemm_tools::pct_of_cublas, sgemm_tools::Problem,
    sgemm_tools::problem_at, sgemm_tools::shape_name, sgemm_tools::verified;

/// The GPU class the sweep runs as ("" for this GPU's own), see main().
std::string g_class;

/// Times one kernel instance launched on a (BM, BN) grid of `threads`-thread blocks.
void measure(Problem& p, const char* step, std::string tiles, bool shipped, KernelFn kernel,
             int BM, int BN, int threads, int smem = 0) {
    if (!g_class.empty()) {  // held to the class's blocks per SM, and said so
        smem = sgemm_tools::class_smem(kernel, threads, smem);
        if (smem < 0) {
            std::printf("%-7s %-44s   does not fit %s\n", step, tiles.c_str(), g_class.c_str());
            return;
        }
        tiles += " as " + g_class;
        shipped = false;
    }
    const sgemm_tools::KernelMeasurement m = sgemm_tools::measure_kernel(
        kernel, BM, BN, threads, smem, p.M, p.N, p.K, p.A.get(), p.B.get(), p.C, p.expected, 20);
    const double g = gflops(p, m.median_ms);
    std::printf("%-7s %-44s %c %7d %5d %6zu %6d %6d %10.0f %6.1f  %s\n", step, tiles.c_str(),
                shipped ? '*' : ' ', threads, m.registers, m.local_bytes, m.blocks_per_sm,
                m.blocks_per_sm * threads / 32, g, pct_of_cublas(p, m.median_ms), m.verified ? "pass" : "FAIL");
    std::fflush(stdout);
}

/// The tile parameters as the table prints them: "<BM, BN, BK, ...>".
template <class... Ints>
std::string tiles(int first, Ints... rest) {
    std::string s = "<" + std::to_string(first);
    ((s += ", " + std::to_string(rest)), ...);
    return s + ">";
}

template <int BM, int BN, int BK>
void sweep03(Problem& p) {
    measure(p, "step03", tiles(BM, BN, BK),
            BM == step03::Config::BM && BN == step03::Config::BN && BK == step03::Config::BK,
            step03::sgemm_shared<BM, BN, BK>, BM, BN, BM * BN);
}

template <int BM, int BN, int BK, int TM>
void sweep04(Problem& p) {
    using C = step04::Config;
    measure(p, "step04", tiles(BM, BN, BK, TM),
            BM == C::BM && BN == C::BN && BK == C::BK && TM == C::TM,
            step04::sgemm_1d_blocktiling<BM, BN, BK, TM>, BM, BN, BM * BN / TM);
}

template <int BM, int BN, int BK, int TM, int TN>
void sweep05(Problem& p) {
    using C = step05::Config;
    measure(p, "step05", tiles(BM, BN, BK, TM, TN),
            BM == C::BM && BN == C::BN && BK == C::BK && TM == C::TM && TN == C::TN,
            step05::sgemm_2d_blocktiling<BM, BN, BK, TM, TN>, BM, BN, (BM / TM) * (BN / TN));
}

template <int BM, int BN, int BK, int TM, int TN, bool kVector>
void sweep06(Problem& p) {
    using C = step06::Config;
    measure(p, "step06", tiles(BM, BN, BK, TM, TN) + (kVector ? "" : " scalar"),
            BM == C::BM && BN == C::BN && BK == C::BK && TM == C::TM && TN == C::TN && kVector,
            step06::sgemm_vectorized<BM, BN, BK, TM, TN, kVector>, BM, BN, (BM / TM) * (BN / TN));
}

template <int BM, int BN, int BK, int TM, int TN>
void sweep07(Problem& p) {
    using C = step07::Config;
    measure(p, "step07", tiles(BM, BN, BK, TM, TN),
            BM == C::BM && BN == C::BN && BK == C::BK && TM == C::TM && TN == C::TN,
            step07::sgemm_bank_conflicts<BM, BN, BK, TM, TN, true>, BM, BN, (BM / TM) * (BN / TN));
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int kMinBlocks>
void sweep09(Problem& p) {
    const step09::Config& C = step09::kConfigs[0];
    measure(p, "step09", tiles(BM, BN, BK, WM, WN, TM, TN, kMinBlocks),
            BM == C.BM && BN == C.BN && BK == C.BK && WM == C.WM && WN == C.WN && TM == C.TM &&
                TN == C.TN && kMinBlocks == C.blocks_per_sm,
            step09::sgemm_warptiling<BM, BN, BK, WM, WN, TM, TN, kMinBlocks, true>, BM, BN,
            (BM / WM) * (BN / WN) * 32);
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int kMinBlocks, int kStages, int kUnroll,
          bool kAsync>
void sweep10(Problem& p) {
    const step10::Config& C = step10::kConfigs[0];
    // how the tiles travel: B by cp.async (the shipped way), or all through registers (as on
    // GPUs before sm_80); A by cp.async too is a variant (make variants: async_a)
    measure(p, "step10", tiles(BM, BN, BK, WM, WN, TM, TN, kMinBlocks, kStages, kUnroll) + (kAsync ? " async B" : " registers"),
            BM == C.BM && BN == C.BN && BK == C.BK && WM == C.WM && WN == C.WN && TM == C.TM &&
                TN == C.TN && kMinBlocks == C.blocks_per_sm && kStages == C.stages && kUnroll == C.unroll && kAsync,
            step10::sgemm_double_buffer<BM, BN, BK, WM, WN, TM, TN, kMinBlocks, kStages, kUnroll, true, true, kAsync>,
            BM, BN, (BM / WM) * (BN / WN) * 32,
            step10::Config{BM, BN, BK, WM, WN, TM, TN, kMinBlocks, kStages, kUnroll, 0, 0}.smem_bytes());
}

/// `ladder`: one launch each of cuBLAS and of step 10's rungs, for Nsight Compute to read side
/// by side (tools/profile/ladder.sh); nothing is timed. The rungs: the shipped tile (128 x 256 x 32) with
/// 3 stages (what the H100 ran before two measured faster), then with the shipped 2 stages,
/// unrolled 16 steps (shipped), all 32 and 8.
template <int kStages, int kUnroll>
void once10(Problem& p) {
    constexpr step10::Config c = step10::kConfigs[0];
    constexpr int smem = step10::Config{c.BM, c.BN, c.BK, c.WM, c.WN, c.TM, c.TN, c.blocks_per_sm, kStages, kUnroll, 0, 0}
                             .smem_bytes();
    const auto k = step10::sgemm_double_buffer<c.BM, c.BN, c.BK, c.WM, c.WN, c.TM, c.TN, c.blocks_per_sm,
                                               kStages, kUnroll, true, true, true>;
    CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(k),
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    k<<<dim3(sgemm::ceil_div(p.N, c.BN), sgemm::ceil_div(p.M, c.BM)), c.threads(), smem>>>(
        p.M, p.N, p.K, 1.0f, p.A.get(), p.B.get(), 0.0f, p.C.get());
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::printf("step10 %dx%dx%d, %d stages, unroll %d: launched once\n", c.BM, c.BN, c.BK, kStages, kUnroll);
}

/// `warps`: launches step 09's kernel once at 4096^3 with each block tile (64 x 256, 128 x 128)
/// and each warp shape (step 08's flat row of threads, step 09's compact warp tile), all under
/// step 09's register cap of two blocks per SM, for Nsight Compute (tools/profile/warp_tile.sh).
template <int BM, int BN, int WM, int WN>
void once09(Problem& p) {
    const auto k = step09::sgemm_warptiling<BM, BN, 32, WM, WN, 8, 8, 2, true>;
    k<<<dim3(sgemm::ceil_div(p.N, BN), sgemm::ceil_div(p.M, BM)), (BM / WM) * (BN / WN) * 32>>>(
        p.M, p.N, p.K, 1.0f, p.A.get(), p.B.get(), 0.0f, p.C.get());
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::printf("step09 %dx%d block tile, %dx%d warp tile: launched once\n", BM, BN, WM, WN);
}

/// `splitk`: step 10 (the configuration this GPU runs) with K cut into 1 to 16 slices, at shapes
/// whose tiles of C are too few for the SMs and at one that has plenty, against cuBLAS (the
/// faster math mode) in the same run; beside each, the wave model's estimate
/// (sgemm::choose_shape()) and, timed alone, the second kernel that sums the slices.
int splitk(sgemm::CublasHandle& blas) {
    using step10::Launcher;
    const sgemm::Choice& ch = Launcher::choice();
    const step10::Config& c = step10::kConfigs[ch.index];
    const sgemm::Gpu& g = sgemm::gpu_in_force();
    std::printf("# step 10 %s on %d SMs, K cut into S slices (gridDim.z = S), then sum_slices; median of 20 "
                "after 3 warm-up; cuBLAS: the faster of DEFAULT and PEDANTIC in the same run\n",
                c.name().c_str(), g.sms);
    std::printf("# blocks: tiles of C x S; sum: sum_slices alone (S slices of M x N read, C written); "
                "model: the estimate the launcher chooses by; * = the launcher's choice\n");
    std::printf("%-16s %3s %7s %10s %9s %8s %9s %10s %8s\n", "M x N x K", "S", "blocks", "time us",
                "GFLOP/s", "%cuBLAS", "model us", "sum us", "work MB");
    const std::vector<sgemm::Candidate> cands = Launcher::candidates([](int) { return 0; });
    for (const auto& shape : std::vector<std::array<int, 3>>{{512, 512, 512}, {1024, 1024, 1024},
                                                              {1024, 1024, 8192}, {128, 4096, 4096},
                                                              {4096, 4096, 4096}}) {
        const int M = shape[0], N = shape[1], K = shape[2];
        Problem p = problem_at(blas, M, N, K);
        const sgemm::DeviceBuffer<float>&A = p.A, &B = p.B;
        sgemm::DeviceBuffer<float>& C = p.C;
        const int chosen = Launcher::shape_choice(M, N, K).splits;
        const int k_tiles = sgemm::ceil_div(K, c.BK);
        for (int S : {1, 2, 3, 4, 6, 8, 12, 16}) {
            if (S > k_tiles || sgemm::ceil_div(k_tiles, sgemm::ceil_div(k_tiles, S)) != S) continue;
            const double ms = median_ms([&] {
                Launcher::launch_config(ch.index, ch.dynamic_smem, true, S, M, N, K, 1.0f, A.get(), B.get(), 0.0f,
                                        C.get(), nullptr);
            });
            const double model =  // the estimate the launcher weighs this S with
                sgemm::estimate_split(cands[std::size_t(ch.index)], g, sgemm::device_rates(), M, N, K, S).us;
            double sum_ms = 0;
            if (S > 1) {  // the second kernel alone, on a workspace of S slices
                sgemm::DeviceBuffer<float> work(size_t(S) * M * N);
                CUDA_CHECK(cudaMemset(work.get(), 0, work.size() * sizeof(float)));
                sum_ms = median_ms([&] {
                    sgemm::launch_sum_slices(M, N, N, S, 1.0f, work.get(), 0.0f, C.get(), nullptr);
                });
            }
            const long long blocks = (long long)sgemm::ceil_div(M, c.BM) * sgemm::ceil_div(N, c.BN) * S;
            char model_text[32], sum_text[32] = "-";
            std::snprintf(model_text, sizeof model_text, "%.1f", model);
            if (S > 1) std::snprintf(sum_text, sizeof sum_text, "%.1f", sum_ms * 1e3);
            std::printf("%-16s %3d %7lld %10.1f %9.0f %8.1f %9s %10s %8.1f %c\n", shape_name(p).c_str(), S,
                        blocks, ms * 1e3, gflops(p, ms), pct_of_cublas(p, ms), model_text, sum_text,
                        S > 1 ? S * 4.0 * M * N / 1e6 : 0.0, S == chosen ? '*' : ' ');
        }
    }
    return 0;
}

/// `thin` (make thin): step 10 at the shapes whose M or N is small against the other two, with
/// every configuration this GPU admits and K cut into 1 to 16 slices, against cuBLAS (the faster
/// math mode) in the same run; '*' marks what the launcher itself runs. Each row is verified.
int thin(sgemm::CublasHandle& blas) {
    using step10::Launcher;
    const sgemm::Choice& ch = Launcher::choice();
    std::printf("# step 10 at thin shapes: every admitted configuration, K cut into S slices; median of 20 after "
                "3 warm-up; cuBLAS: the faster of DEFAULT and PEDANTIC in the same run; * = the launcher's choice\n");
    std::printf("%-16s %-34s %3s %10s %9s %8s  %s\n", "M x N x K", "configuration", "S", "time us", "GFLOP/s",
                "%cuBLAS", "verified");
    for (const auto& shape : std::vector<std::array<int, 3>>{{64, 4096, 4096}, {128, 4096, 4096}, {256, 4096, 4096},
                                                              {4096, 64, 4096}, {4096, 128, 4096}, {4096, 256, 4096},
                                                              {4095, 4095, 4095}, {4096, 4096, 4096}}) {
        const int M = shape[0], N = shape[1], K = shape[2];
        Problem p = problem_at(blas, M, N, K);
        const sgemm::DeviceBuffer<float>&A = p.A, &B = p.B;
        sgemm::DeviceBuffer<float>& C = p.C;
        const sgemm::ShapeChoice chosen = Launcher::shape_choice(M, N, K);
        const std::string name = shape_name(p);
        for (std::size_t a = 0; a < ch.admitted.size(); ++a) {
            const int i = ch.admitted[a];
            const int k_tiles = sgemm::ceil_div(K, step10::kConfigs[i].BK);
            for (int S : {1, 2, 4, 8, 16}) {
                if (S > k_tiles) continue;
                auto run = [&] {
                    Launcher::launch_config(i, ch.admitted_smem[a], true, S, M, N, K, 1.0f, A.get(), B.get(), 0.0f,
                                            C.get(), nullptr);
                };
                const bool ok = verified(p, run);
                const double ms = median_ms(run);
                std::printf("%-16s %-34s %3d %10.1f %9.0f %8.1f  %s %c\n", name.c_str(),
                            step10::kConfigs[i].name().c_str(), S, ms * 1e3, gflops(p, ms), pct_of_cublas(p, ms),
                            ok ? "pass" : "FAIL", i == chosen.index && S == chosen.splits ? '*' : ' ');
                std::fflush(stdout);
            }
        }
        const double launcher_ms = median_ms([&] { Launcher::launch(M, N, K, 1.0f, A.get(), B.get(), 0.0f, C.get(), nullptr); });
        std::printf("%-16s launcher: %s, %d slices: %.1f us, %.1f%% of cuBLAS (%.0f GFLOP/s)\n", name.c_str(),
                    step10::kConfigs[chosen.index].name().c_str(), chosen.splits, launcher_ms * 1e3,
                    pct_of_cublas(p, launcher_ms), p.cublas_gflops);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    // optional arguments: the steps to sweep ("07 09"); all of them without
    auto wanted = [&](const char* step) {
        if (argc < 2) return true;
        for (int i = 1; i < argc; ++i)
            if (std::string(argv[i]) == step) return true;
        return false;
    };
    Problem p{4096, 4096, 4096, sgemm::DeviceBuffer<float>(size_t(4096) * 4096),
              sgemm::DeviceBuffer<float>(size_t(4096) * 4096),
              sgemm::DeviceBuffer<float>(size_t(4096) * 4096), {}, 0};
    const sgemm::InputSeeds seeds = sgemm::input_seeds(42);
    sgemm::fill_uniform(p.A.get(), p.A.size(), seeds.a, nullptr);
    sgemm::fill_uniform(p.B.get(), p.B.size(), seeds.b, nullptr);
    sgemm::CublasHandle blas(nullptr);
    if (argc == 2 && std::string(argv[1]) == "splitk") return splitk(blas);
    if (argc == 2 && std::string(argv[1]) == "thin") return thin(blas);
    if (argc == 2 && std::string(argv[1]) == "warps") {
        once09<64, 256, 8, 256>(p), once09<64, 256, 32, 64>(p);
        once09<128, 128, 16, 128>(p), once09<128, 128, 64, 32>(p);
        return 0;
    }
    if (argc == 2 && std::string(argv[1]) == "ladder") {
        sgemm::cublas_sgemm(blas, p.M, p.N, p.K, 1.0f, p.A.get(), p.B.get(), 0.0f, p.C.get());
        CUDA_CHECK(cudaDeviceSynchronize());
        std::printf("cuBLAS: launched once\n");
        once10<3, 16>(p), once10<2, 16>(p), once10<2, 32>(p), once10<2, 8>(p);
        return 0;
    }
    // the baseline: cuBLAS in the faster of its two strict-FP32 math modes, as the steps race it
    const sgemm::CublasTiming blas_t = sgemm::time_cublas_modes(blas, [&] {
        sgemm::cublas_sgemm(blas, p.M, p.N, p.K, 1.0f, p.A.get(), p.B.get(), 0.0f, p.C.get());
    }, 3, 20, nullptr);
    p.cublas_gflops = gflops(p, blas_t.best().median_ms);
    p.expected.resize(p.C.size());
    p.C.copy_to_host(p.expected.data());

    std::printf("# M = N = K = %d, median of 20 runs after 3 warm-up; cuBLAS %.0f GFLOP/s in the same run "
                "(%s, the faster of DEFAULT %.0f and PEDANTIC %.0f)\n",
                p.M, p.cublas_gflops, blas_t.faster == 1 ? "PEDANTIC" : "DEFAULT",
                gflops(p, blas_t.mode[0].median_ms), gflops(p, blas_t.mode[1].median_ms));
    std::printf("# tiles: <BM, BN, BK> (03), <BM, BN, BK, TM> (04), <BM, BN, BK, TM, TN> (05-07), "
                "<BM, BN, BK, WM, WN, TM, TN, kMinBlocks> (09), the same, kStages and kUnroll (10); "
                "* = the configuration the step ships with\n");
    std::printf("%-7s %-44s %c %7s %5s %6s %6s %6s %10s %6s  %s\n", "step", "tiles", ' ', "threads",
                "regs", "local", "blk/SM", "warps", "GFLOP/s", "%cuBLAS", "verified");
    if (wanted("03")) {
        // 03: the depth of the tiles, i.e. how many FMAs each pair of barriers pays for
        sweep03<32, 32, 32>(p);
        sweep03<32, 32, 64>(p);
        sweep03<32, 32, 128>(p);
    }
    if (wanted("04")) {
        // 04: TM, the rows each thread computes, at a 64 x 64 tile; then the shipped tile
        sweep04<64, 64, 16, 4>(p);
        sweep04<64, 64, 16, 8>(p);
        sweep04<64, 64, 16, 16>(p);
        sweep04<64, 64, 16, 32>(p);
        sweep04<128, 64, 16, 16>(p);
    }
    if (wanted("05")) {
        // 05: TM x TN at a 128 x 128 tile, up to a thread tile too large for the registers
        sweep05<128, 128, 32, 4, 4>(p);
        sweep05<128, 128, 32, 8, 4>(p);
        sweep05<128, 128, 32, 8, 8>(p);
        sweep05<128, 128, 32, 16, 8>(p);
        sweep05<64, 128, 32, 8, 8>(p);
    }
    if (wanted("06")) {
        // 06: the shipped tile with and without 16-byte accesses, and its neighbours
        sweep06<64, 128, 32, 8, 8, true>(p);
        sweep06<64, 128, 32, 8, 8, false>(p);
        sweep06<64, 128, 16, 8, 8, true>(p);
        sweep06<128, 128, 32, 8, 8, true>(p);
        sweep06<128, 128, 16, 8, 4, true>(p);
    }
    if (wanted("07")) {
        // 07: the shipped tile (step 06's) and larger ones, now without bank conflicts
        sweep07<64, 128, 32, 8, 8>(p);
        sweep07<64, 128, 16, 8, 8>(p);
        sweep07<128, 128, 8, 8, 8>(p);
        sweep07<128, 128, 32, 8, 8>(p);
    }
    if (wanted("09")) {
        // 09: the depth and the warp tile's shape; the step-08 tile with warps; and the
        // registers: without a second block (kMinBlocks = 1), and forced to three (spills)
        sweep09<128, 128, 32, 64, 32, 8, 8, 2>(p);
        sweep09<128, 128, 16, 64, 32, 8, 8, 2>(p);
        sweep09<128, 128, 32, 32, 64, 8, 8, 2>(p);
        sweep09<64, 256, 32, 32, 64, 8, 8, 2>(p);
        // the control experiment of the lesson: each block tile with step 08's flat warp,
        // its 32 threads side by side across the tile (8 x 256, or 16 x 128: two rows of 16)
        sweep09<64, 256, 32, 8, 256, 8, 8, 2>(p);
        sweep09<128, 128, 32, 16, 128, 8, 8, 2>(p);
        sweep09<64, 64, 32, 32, 32, 8, 4, 5>(p);  // the small tile, for shapes with few tiles of C
        sweep09<128, 128, 32, 64, 32, 8, 8, 1>(p);
        sweep09<128, 128, 16, 64, 32, 8, 8, 3>(p);
        sweep09<128, 256, 16, 64, 64, 8, 16, 1>(p);
    }
    if (wanted("10")) {
        // 10: how far the k loop is unrolled (32: all of a K-tile); stages, at BK = 32 and 16; how
        // A and B travel; step 09's tile with a pipeline; another large tile
        sweep10<128, 256, 32, 64, 64, 8, 16, 1, 2, 16, true>(p);
        sweep10<128, 256, 32, 64, 64, 8, 16, 1, 2, 32, true>(p);
        sweep10<128, 256, 32, 64, 64, 8, 16, 1, 2, 8, true>(p);
        sweep10<128, 256, 32, 64, 64, 8, 16, 1, 3, 16, true>(p);
        sweep10<128, 256, 32, 64, 64, 8, 16, 1, 4, 16, true>(p);
        sweep10<128, 256, 16, 64, 64, 8, 16, 1, 3, 16, true>(p);
        sweep10<128, 256, 16, 64, 64, 8, 16, 1, 4, 16, true>(p);
        sweep10<128, 256, 32, 64, 64, 8, 16, 1, 2, 16, false>(p);
        sweep10<128, 256, 32, 64, 64, 8, 16, 1, 3, 16, false>(p);
        sweep10<128, 128, 32, 64, 32, 8, 8, 2, 2, 16, true>(p);
        sweep10<128, 128, 32, 64, 32, 8, 8, 2, 3, 16, true>(p);
        sweep10<256, 128, 32, 64, 64, 16, 8, 1, 2, 16, true>(p);
        sweep10<256, 128, 32, 64, 64, 16, 8, 1, 3, 16, true>(p);
        // the tiles for thin shapes: half as wide or half as tall as the shipped one, and a quarter
        sweep10<64, 256, 32, 64, 32, 8, 8, 1, 2, 16, true>(p);
        sweep10<256, 64, 32, 32, 64, 8, 8, 1, 2, 16, true>(p);
    }
    if (wanted("classes")) {
        // the smaller GPU classes' candidates: step 09 at 64 KB per SM, where two blocks of its
        // 128 x 128 x 32 tile no longer fit; step 10 at 99 KB and at 64 KB per block (sm_75
        // has no cp.async: through registers)
        g_class = "sm_75";
        sgemm::force_gpu_class(g_class);
        sweep09<128, 128, 32, 64, 32, 8, 8, 2>(p);
        sweep09<128, 128, 16, 64, 32, 8, 8, 2>(p);
        g_class = "sm_86";
        sgemm::force_gpu_class(g_class);
        sweep10<128, 256, 32, 64, 64, 8, 16, 1, 2, 16, true>(p);
        sweep10<128, 256, 32, 64, 64, 8, 16, 1, 2, 32, true>(p);
        sweep10<128, 256, 32, 64, 64, 8, 16, 1, 2, 8, true>(p);
        sweep10<128, 256, 32, 64, 64, 8, 16, 1, 2, 16, false>(p);
        sweep10<128, 256, 16, 64, 64, 8, 16, 1, 4, 16, true>(p);
        sweep10<128, 256, 16, 64, 64, 8, 16, 1, 3, 16, true>(p);
        sweep10<256, 128, 32, 64, 64, 16, 8, 1, 2, 16, true>(p);
        sweep10<128, 128, 32, 64, 32, 8, 8, 2, 2, 16, true>(p);
        g_class = "sm_75";
        sgemm::force_gpu_class(g_class);
        sweep10<128, 256, 16, 64, 64, 8, 16, 1, 2, 16, false>(p);
        sweep10<128, 256, 16, 64, 64, 8, 16, 1, 2, 8, false>(p);
        sweep10<256, 128, 16, 64, 64, 16, 8, 1, 2, 16, false>(p);
        sweep10<128, 128, 16, 64, 32, 8, 8, 1, 3, 16, false>(p);
        sweep10<128, 128, 8, 64, 32, 8, 8, 2, 3, 8, false>(p);
        sweep10<128, 256, 32, 64, 64, 8, 16, 1, 2, 16, false>(p);
    }
    return 0;
}
