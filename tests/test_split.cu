// GPU tests of step 10's split-K: every number of slices at awkward shapes, the launcher's own
// choice of splitting, and the same bits on every run (the slices are summed in a fixed order).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include "gpu/gpu.h"
#include "run/compare.h"
#include "run/self_check.h"
#include "steps/10_double_buffer/kernel.cuh"

namespace {

using sgemm::Shape;
using Problem = sgemm::CheckProblem;

/// Step 10 as this GPU runs it, but with K cut into kSplits slices whatever the shape.
template <int kSplits>
void launch_split(int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
                  cudaStream_t stream) {
    const sgemm::Choice& ch = step10::Launcher::choice();
    step10::Launcher::launch_config(ch.index, ch.dynamic_smem, sgemm::gpu_in_force().has_cp_async(), kSplits, M, N,
                                    K, alpha, A, B, beta, C, stream);
}

}  // namespace

// More slices than K-tiles leaves some empty (they add zeros); partial K-tiles, edge tiles and
// odd sizes go through the same slices; K % 4 != 0 with N % 4 == 0 (A on 4-byte copies, B and
// C on 16-byte ones) and the reverse, with full tiles inside; beta == 0 starts from a C of
// NaN, so a sum that read C would show.
TEST_CASE("step 10 split into 2 to 16 slices of K matches the reference at awkward shapes",
          "[gpu][split]") {
    std::uint64_t seed = 700;
    for (const Shape s : {Shape{1, 1, 1}, Shape{7, 13, 5}, Shape{131, 67, 257}, Shape{255, 257, 300},
                          Shape{3, 5, 4099}, Shape{129, 127, 1}, Shape{33, 129, 127}, Shape{260, 132, 36},
                          Shape{256, 256, 1024}, Shape{300, 256, 999}, Shape{257, 300, 1000}}) {
        for (const sgemm::Scalars& ab : sgemm::check_scalars()) {
            Problem p(s, ab.alpha, ab.beta, seed++);
            struct Case { int splits; sgemm::LaunchFn launch; };
            for (const Case c : {Case{2, launch_split<2>}, Case{3, launch_split<3>}, Case{5, launch_split<5>},
                                 Case{8, launch_split<8>}, Case{16, launch_split<16>}}) {
                const sgemm::VerifyResult r = p.run(c.launch);
                INFO(sgemm::to_string(s) << ", " << c.splits << " slices, alpha = " << ab.alpha << ", beta = " << ab.beta);
                INFO(sgemm::describe_mismatches(r, "  "));
                CHECK(r.ok());
            }
        }
    }
}

// The launcher itself splits a C of few tiles with a long K, and the result is the same bits
// on every run: no atomics, and the slices are added in the same order.
TEST_CASE("step 10 splits K where C has few tiles, and gives the same bits on every run", "[gpu][split]") {
    const Shape s{96, 200, 5000};
    const sgemm::ShapeChoice sc = step10::Launcher::shape_choice(s.M, s.N, s.K, true);
    INFO(sc.why);
    REQUIRE(sc.splits > 1);  // else this test would not test a split
    Problem p(s, 0.75f, -1.25f, 800);
    std::vector<float> first, again(std::size_t(s.M) * s.N);
    for (int run = 0; run < 3; ++run) {
        const sgemm::VerifyResult r = p.run(step10::launch);
        INFO(sgemm::describe_mismatches(r, "  "));
        CHECK(r.ok());
        p.dC.copy_to_host(again.data());
        if (run == 0) first = again;
        CHECK(std::memcmp(first.data(), again.data(), first.size() * sizeof(float)) == 0);
    }
    // and the big shapes stay whole: splitting there would only add traffic
    CHECK(step10::Launcher::shape_choice(4096, 4096, 4096).splits == 1);
}
