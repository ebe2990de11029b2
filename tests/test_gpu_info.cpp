// Host tests: peak FP32 arithmetic and the median (common/gpu/gpu.h, common/run/stats.h).
#include <catch2/catch.hpp>

#include "gpu/gpu.h"
#include "run/stats.h"

TEST_CASE("FP32 lanes per SM follow the compute capability", "[peak]") {
    CHECK(sgemm::fp32_lanes_per_sm(9, 0) == 128);  // H100
    CHECK(sgemm::fp32_lanes_per_sm(8, 0) == 64);   // A100
    CHECK(sgemm::fp32_lanes_per_sm(8, 6) == 128);  // RTX 30xx
    CHECK(sgemm::fp32_lanes_per_sm(8, 9) == 128);  // RTX 40xx
    CHECK(sgemm::fp32_lanes_per_sm(7, 0) == 64);   // V100
    CHECK(sgemm::fp32_lanes_per_sm(7, 5) == 64);   // T4
    CHECK(sgemm::fp32_lanes_per_sm(6, 0) == 64);   // P100
    CHECK(sgemm::fp32_lanes_per_sm(6, 1) == 128);  // GTX 10xx
    CHECK(sgemm::fp32_lanes_per_sm(12, 0) == 128); // RTX 50xx
    CHECK(sgemm::fp32_lanes_per_sm(42, 0) == 0);   // unknown: no made-up peak
}

TEST_CASE("peak FP32 = SMs x lanes x 2 x clock", "[peak]") {
    // H100 SXM: 132 SMs x 128 lanes x 2 FLOP x 1980 MHz
    CHECK(sgemm::peak_fp32_gflops(132, 128, 1980) == Approx(66908.16));
    // A100: 108 x 64 x 2 x 1410 MHz
    CHECK(sgemm::peak_fp32_gflops(108, 64, 1410) == Approx(19491.84));
    CHECK(sgemm::peak_fp32_gflops(132, 0, 1980) == 0.0);
}

TEST_CASE("median of odd and even counts", "[timing]") {
    CHECK(sgemm::median({3.0, 1.0, 2.0}) == 2.0);
    CHECK(sgemm::median({4.0, 1.0, 3.0, 2.0}) == 2.5);
    CHECK(sgemm::median({}) == 0.0);
}
