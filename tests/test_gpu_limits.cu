// Host tests: the architecture table, SGEMM_GPU_CLASS, and the choice of configuration each
// GPU class gets (common/gpu/gpu.h, common/launch/choose.h). No GPU needed: the registers are
// each kernel's __launch_bounds__ cap, the most ptxas may give it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <utility>

#include "errors.h"  // UsageError
#include "gpu/gpu.h"
#include "launch/choose.h"
#include "steps_registry.h"

namespace {

/// The most registers __launch_bounds__(threads, min_blocks) lets a thread have.
int cap(int threads, int min_blocks) { return std::min(255, 65536 / (threads * min_blocks) / 8 * 8); }

sgemm::Gpu limits(int arch) { return sgemm::gpu_of_class(*sgemm::find_arch(arch), 100); }

int step10_choice(int arch) {
    const auto c = step10::Launcher::candidates([](int i) { return cap(step10::kConfigs[i].threads(), step10::kConfigs[i].blocks_per_sm); });
    return sgemm::choose(limits(arch), limits(arch), c).index;
}

int step09_choice(int arch) {
    const auto c = step09::Launcher::candidates([](int i) { return cap(step09::kConfigs[i].threads(), step09::kConfigs[i].blocks_per_sm); });
    return sgemm::choose(limits(arch), limits(arch), c).index;
}

}  // namespace

TEST_CASE("the architecture table covers every architecture CUDA 13.0 compiles for", "[limits]") {
    for (int arch : {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121}) {
        INFO("sm_" << arch);
        REQUIRE(sgemm::find_arch(arch) != nullptr);
    }
    CHECK(sgemm::find_arch(61) == nullptr);
    // the per-block limits the issue measured against (bytes a block may opt into)
    CHECK(sgemm::find_arch(75)->smem_per_block_optin == 65536);
    CHECK(sgemm::find_arch(80)->smem_per_block_optin == 166912);
    CHECK(sgemm::find_arch(86)->smem_per_block_optin == 101376);
    CHECK(sgemm::find_arch(89)->smem_per_block_optin == 101376);
    CHECK(sgemm::find_arch(90)->smem_per_block_optin == 232448);
    CHECK(sgemm::find_arch(100)->smem_per_block_optin == 232448);
    CHECK(sgemm::find_arch(120)->smem_per_block_optin == 101376);
    for (const sgemm::ArchLimits& a : sgemm::supported_archs()) {
        INFO("sm_" << a.arch);
        CHECK(a.smem_per_block_optin + a.reserved_per_block == a.smem_per_sm);
    }
}

TEST_CASE("SGEMM_GPU_CLASS takes sm_XX or sm_XX:SMS and nothing else", "[limits]") {
    CHECK(sgemm::parse_gpu_class("").arch == 0);
    CHECK(sgemm::parse_gpu_class("sm_75").arch == 75);
    CHECK(sgemm::parse_gpu_class("sm_75").sms == 0);
    CHECK(sgemm::parse_gpu_class("sm_86:46").sms == 46);
    for (const char* bad : {"sm_61", "86", "sm_", "sm_86:", "sm_86:0", "sm_86:x", "sm_86:5000", "sm_9O", "gpu"}) {
        INFO(bad);
        CHECK_THROWS_AS(sgemm::parse_gpu_class(bad), sgemm::UsageError);
    }
}

TEST_CASE("occupancy arithmetic: blocks per SM and what limits them", "[limits]") {
    const sgemm::Gpu h100 = limits(90), t4 = limits(75), rtx30 = limits(86);
    // a block of 256 threads, up to 255 registers, 147,840 B (step 10's tile with 3 stages)
    CHECK(sgemm::blocks_per_sm(h100, 256, 250, 147840) == 1);
    CHECK(sgemm::blocks_per_sm(rtx30, 256, 250, 147840) == 0);
    CHECK_THAT(sgemm::occupancy_limiter(rtx30, 256, 250, 147840), Catch::Contains("101376 B"));
    // step 09's tile: two blocks of 32,896 B fit 100 KB but not 64 KB
    CHECK(sgemm::blocks_per_sm(rtx30, 256, 128, 32896) == 2);
    CHECK(sgemm::blocks_per_sm(t4, 256, 128, 32896) == 1);
    CHECK(sgemm::occupancy_limiter(t4, 256, 128, 32896) == "shared memory");
    CHECK(sgemm::blocks_per_sm(h100, 256, 128, 32896) == 2);
    CHECK(sgemm::occupancy_limiter(h100, 256, 128, 32896) == "registers");
    // threads per SM: 1,024 on sm_75
    CHECK(sgemm::blocks_per_sm(t4, 1024, 32, 0) == 1);
    CHECK(sgemm::blocks_per_sm(h100, 1024, 32, 0) == 2);
    CHECK(sgemm::occupancy_limiter(h100, 1024, 32, 0) == "threads per SM and registers");
    // registers go out per warp in units of 256: 33 registers take 40
    CHECK(sgemm::blocks_per_sm(h100, 256, 33, 0) == 65536 / (40 * 32) / 8);
    // 48 KiB of shared memory per block: 233,472 / (49,152 + 1,024) = 4 blocks
    CHECK(sgemm::blocks_per_sm(h100, 256, 32, 48 * 1024) == 4);
    CHECK(sgemm::occupancy_limiter(h100, 256, 32, 48 * 1024) == "shared memory");
}

TEST_CASE("each GPU class gets the step 09 and 10 configuration its limits allow", "[limits]") {
    for (int arch : {80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121}) {
        INFO("sm_" << arch);
        CHECK(step10_choice(arch) == 0);  // 98,560 B fits 99 KB and more per block
    }
    CHECK(step10_choice(75) == 2);        // 64 KB per block
    for (const sgemm::ArchLimits& a : sgemm::supported_archs()) {
        INFO("sm_" << a.arch);
        CHECK(step09_choice(a.arch) == (a.arch == 75 ? 1 : 0));  // two blocks need 66 KB of an SM
    }
}

TEST_CASE("a GPU that no configuration fits gets one line that says why", "[limits]") {
    sgemm::Gpu tiny = limits(75);
    tiny.smem_per_block_optin = tiny.smem_per_sm = 32 * 1024;
    const auto c = step10::Launcher::candidates([](int) { return 255; });
    const sgemm::Choice ch = sgemm::choose(tiny, tiny, c);
    CHECK(ch.index == -1);
    CHECK_THAT(ch.why, Catch::StartsWith("no configuration fits sm_75") && Catch::Contains("49408 B"));
}

TEST_CASE("a forced class holds the GPU to the class's blocks per SM with unused shared memory",
          "[limits]") {
    sgemm::Gpu t4 = limits(75), h100 = limits(90);
    t4.forced = true;
    // step 10's 64 KB configuration: 1 block/SM on sm_75, 4 on the H100 without padding
    CHECK(sgemm::blocks_per_sm(h100, 256, 238, 49408) == 1);  // registers already allow only 1
    CHECK(sgemm::emulation_smem(t4, h100, 256, 238, 0, 49408) == 49408);
    // step 09's 16,512 B tile with 128 registers: 2 blocks on both, nothing to hold back
    CHECK(sgemm::emulation_smem(t4, h100, 256, 128, 16512, 0) == 0);
    // step 09's 32,896 B tile: 1 block on sm_75, 2 on the H100: padded so that only 1 fits
    const std::size_t pad = sgemm::emulation_smem(t4, h100, 256, 128, 32896, 0);
    CHECK(sgemm::blocks_per_sm(h100, 256, 128, 32896 + pad) == 1);
    // not forced: never padded
    CHECK(sgemm::emulation_smem(h100, h100, 256, 128, 32896, 0) == 0);
}

namespace {

/// An H100-like GPU for the choice by shape: 132 SMs, 128 FP32 lanes at 1980 MHz per SM, and
/// HBM3 at 2 x 2619 MHz x 640 B (the numbers its driver reports).
const sgemm::Rates kH100Rates{128 * 2 * 1.98, 2 * 2619e6 * 640 / 1e9};

template <class Candidates>
sgemm::ShapeChoice shape_choice(const Candidates& c, int arch, int M, int N, int K, int max_splits) {
    const sgemm::Gpu g = sgemm::gpu_of_class(*sgemm::find_arch(arch), 132);
    return sgemm::choose_shape(sgemm::choose(g, g, c), c, g, kH100Rates, M, N, K, max_splits, true);
}

}  // namespace

TEST_CASE("step 10 splits K only where the tiles of C are too few for the SMs", "[limits][shape]") {
    const auto c = step10::Launcher::candidates([](int i) { return cap(step10::kConfigs[i].threads(), step10::kConfigs[i].blocks_per_sm); });
    auto choice = [&](int M, int N, int K) { return shape_choice(c, 90, M, N, K, sgemm::kMaxSplits); };
    // 512 tiles of 128 x 256: enough for 132 SMs, the fastest configuration, whole
    CHECK(choice(4096, 4096, 4096).splits == 1);
    CHECK(choice(4096, 4096, 4096).index == 0);
    CHECK(choice(8192, 8192, 8192).splits == 1);
    CHECK(choice(2048, 2048, 16384).splits == 1);  // 128 tiles: nearly one full wave
    // 32 tiles for 132 SMs and a long K: four slices give 128 blocks
    const sgemm::ShapeChoice long_k = choice(1024, 1024, 8192);
    INFO(long_k.why);
    CHECK(long_k.splits == 4);
    CHECK_THAT(long_k.why, Catch::Contains("32 tiles") && Catch::Contains("K split 4 ways"));
    CHECK(choice(1024, 1024, 1024).splits > 1);
    CHECK(choice(512, 512, 512).splits > 1);
    // one K-tile: nothing to split
    CHECK(choice(64, 64, 32).splits == 1);
    // no split where the launcher does not allow it
    CHECK(shape_choice(c, 90, 1024, 1024, 8192, 1).splits == 1);
    // sm_75 admits only its own configuration, split or not
    CHECK(shape_choice(c, 75, 1024, 1024, 8192, sgemm::kMaxSplits).index == 2);
}

TEST_CASE("step 10 takes three stages where the copies cannot be 16 bytes wide and the GPU holds them",
          "[limits][shape]") {
    auto regs = [](int i) { return cap(step10::kConfigs[i].threads(), step10::kConfigs[i].blocks_per_sm); };
    const auto aligned = step10::Launcher::candidates(regs, true), unaligned = step10::Launcher::candidates(regs, false);
    CHECK(shape_choice(aligned, 90, 4096, 4096, 4096, 1).index == 0);    // 2 stages
    CHECK(shape_choice(unaligned, 90, 4095, 4095, 4095, 1).index == 1);  // 3 stages
    CHECK(shape_choice(unaligned, 86, 4095, 4095, 4095, 1).index == 0);  // 3 stages do not fit 99 KB
    CHECK(shape_choice(unaligned, 75, 4095, 4095, 4095, 1).index == 2);
}

TEST_CASE("step 09 takes its small tile where the 128 x 128 tiles cannot fill the SMs", "[limits][shape]") {
    const auto c = step09::Launcher::candidates([](int i) { return cap(step09::kConfigs[i].threads(), step09::kConfigs[i].blocks_per_sm); });
    CHECK(shape_choice(c, 90, 4096, 4096, 4096, 1).index == 0);
    const sgemm::ShapeChoice small = shape_choice(c, 90, 1024, 1024, 1024, 1);
    INFO(small.why);
    CHECK(small.index == 2);  // 64 tiles of 128 x 128 for 132 SMs; 256 of 64 x 64
    CHECK(small.splits == 1);
    CHECK(shape_choice(c, 75, 1024, 1024, 1024, 1).index == 1);  // sm_75 holds only its own
}

TEST_CASE("step 10's 16 x 8 thread tile is offered only where it is built (not on sm_100 and newer)",
          "[limits][shape]") {
    auto regs = [](int i) { return cap(step10::kConfigs[i].threads(), step10::kConfigs[i].blocks_per_sm); };
    int tall = -1;  // the configuration with 16 rows per thread
    for (int i = 0; i < step10::kNumConfigs; ++i) {
        if (step10::kConfigs[i].TM > 8) tall = i;
    }
    REQUIRE(tall >= 0);
    for (int arch : {90, 100, 120}) {
        INFO("sm_" << arch);
        const sgemm::Choice ch = sgemm::choose(limits(arch), limits(arch), step10::Launcher::candidates(regs, true, arch));
        const bool offered = std::find(ch.admitted.begin(), ch.admitted.end(), tall) != ch.admitted.end();
        CHECK(offered == step10::Layout::built(step10::kConfigs[tall], arch));
        if (arch >= 100) CHECK_FALSE(offered);
    }
    // where it is offered, 4096 x 128 x 4096 takes it (its 128 columns fill the tile)
    const auto c = step10::Launcher::candidates(regs, true, 90);
    CHECK(shape_choice(c, 90, 4096, 128, 4096, sgemm::kMaxSplits).index == tall);
    CHECK(shape_choice(step10::Launcher::candidates(regs, true, 100), 100, 4096, 128, 4096, sgemm::kMaxSplits).index != tall);
}

TEST_CASE("steps 11 and 12 refuse a K or N their 32-bit tile offsets cannot address, in one line",
          "[limits]") {
    // Checked before anything asks the GPU: this runs without one.
    struct Limit {
        sgemm::LaunchFn launch;
        long long max_k, max_n;
    };
    const Limit limits[] = {{step11::launch, step11::Layout::kMaxK, step11::Layout::kMaxN},
                            {step12::launch, step12::Layout::kMaxK, step12::Layout::kMaxN}};
    for (const Limit& l : limits) {
        // 128 rows of K floats, and 32 rows of N floats, in bytes: below 2^32
        CHECK(4 * 128 * (l.max_k + 3) < (1LL << 32));
        CHECK(4 * 32 * (l.max_n + 3) < (1LL << 32));
        for (const auto& [k, n] : {std::pair<long long, long long>{l.max_k + 1, 64}, {64, l.max_n + 1}}) {
            std::string message;
            try {
                l.launch(128, static_cast<int>(n), static_cast<int>(k), 1.0f, nullptr, nullptr, 0.0f, nullptr, nullptr);
            } catch (const sgemm::UsageError& e) {
                message = e.what();
            }
            INFO("K = " << k << ", N = " << n);
            CHECK(message.find("32-bit offsets within a tile") != std::string::npos);
            CHECK(message.find('\n') == std::string::npos);
        }
    }
}
