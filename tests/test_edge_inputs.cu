// GPU tests: IEEE edge inputs (inf, NaN, FLT_MAX, tiny numbers) give what FP32 gives, in every
// step whose arithmetic claims FP32's results (FP32 and 3xTF32; step 11's TF32 rounds FLT_MAX up
// to inf by design, as cuBLAS's TF32 mode does).
#include <catch2/catch.hpp>

#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "device/cuda_check.cuh"
#include "device/device_buffer.cuh"
#include "device/random.cuh"
#include "gpu/gpu.h"
#include "steps_registry.h"

using sgemm_tests::kAllSteps;

namespace {

/// A and B uniform in [-1, 1), with edge values planted in a few rows and columns:
///   row 0 of A: FLT_MAX at k = 0 (3xTF32's split of it rounds up to inf; FP32's sums stay finite)
///   row 1 of A: +inf at k = 1, against B's row 1 of 1 and -0.5 (numbers that are exact in TF32,
///               whose small piece is 0: inf * 0 is NaN where FP32's inf * 1 is inf)
///   row 2 of A: NaN at k = 2
///   row 3 of A: every element tiny (around 2^-120: normal, but their small pieces are not)
///   column 4 of B: -inf at k = 3 (meets row 3's tiny numbers: -inf, and row 1's +inf: NaN)
struct EdgeProblem {
    int M, N, K;
    std::vector<float> A, B, C0;
    EdgeProblem(int m, int n, int k, std::uint64_t seed)
        : M(m), N(n), K(k), A(sgemm::uniform_vector(std::size_t(m) * k, seed)),
          B(sgemm::uniform_vector(std::size_t(k) * n, seed + 1)), C0(sgemm::uniform_vector(std::size_t(m) * n, seed + 2)) {
        auto a = [&](int r, int c) -> float& { return A[std::size_t(r) * K + c]; };
        auto b = [&](int r, int c) -> float& { return B[std::size_t(r) * N + c]; };
        a(0, 0) = FLT_MAX;
        a(1, 1) = INFINITY;
        for (int j = 0; j < N; ++j) b(1, j) = j % 2 ? 1.0f : -0.5f;
        a(2, 2) = NAN;
        for (int c = 0; c < K; ++c) a(3, c) = std::ldexp(a(3, c), -120);
        b(3, 4) = -INFINITY;
    }
};

/// The exact C[i][j] = alpha (A B)[i][j] + beta C0[i][j] in double (beta == 0: C0 is not read; its
/// infinities and NaN are FP32's, whatever the order), and S = sum_k |a_k b_k|, the scale of its bound.
struct Exact {
    double want, mag;
};
Exact exact(const std::vector<float>& A, const std::vector<float>& B, const std::vector<float>& C0, int N, int K,
            int i, int j, float alpha, float beta) {
    double sum = 0, mag = 0;
    for (int k = 0; k < K; ++k) {
        const double x = double(A[std::size_t(i) * K + k]) * double(B[std::size_t(k) * N + j]);
        sum += x, mag += std::fabs(x);
    }
    const double old = beta == 0.0f ? 0.0 : double(C0[std::size_t(i) * N + j]);
    return {double(alpha) * sum + double(beta) * old, mag};
}

}  // namespace

TEST_CASE("inf, NaN, FLT_MAX and tiny inputs give what FP32 gives in the FP32 and 3xTF32 steps",
          "[gpu][steps]") {
    for (const auto& [M, N, K] : {std::array<int, 3>{8, 8, 8}, {64, 64, 64}, {130, 70, 300}, {257, 129, 1024}}) {
        const EdgeProblem p(M, N, K, 5);
        sgemm::DeviceBuffer<float> dA(p.A.size()), dB(p.B.size()), dC(p.C0.size());
        dA.copy_from_host(p.A.data());
        dB.copy_from_host(p.B.data());
        std::vector<float> got(p.C0.size());
        for (const auto& [alpha, beta] : {std::array<float, 2>{1.0f, 0.0f}, {0.75f, -1.25f}}) {
            for (const sgemm::Step& step : kAllSteps) {
                if (step.arithmetic == sgemm::Arithmetic::kTf32 || sgemm::gpu_in_force().arch < step.min_arch) continue;
                if (beta == 0.0f) CUDA_CHECK(cudaMemset(dC.get(), 0xFF, dC.bytes()));  // NaN: C is not read
                else dC.copy_from_host(p.C0.data());
                step.launch(M, N, K, alpha, dA.get(), dB.get(), beta, dC.get(), nullptr);
                CUDA_CHECK(cudaDeviceSynchronize());
                dC.copy_to_host(got.data());
                int bad = 0;
                std::string first;
                for (int i = 0; i < M; ++i) {
                    for (int j = 0; j < N; ++j) {
                        const auto [want, mag] = exact(p.A, p.B, p.C0, N, K, i, j, alpha, beta);
                        const double old = beta == 0.0f ? 0.0 : double(p.C0[std::size_t(i) * N + j]);
                        const double g = got[std::size_t(i) * N + j];
                        // within 3xTF32's bound for its normal numbers with room to spare; tiny
                        // numbers (row 3) lose their small pieces below FP32's normal range, so
                        // they are held to TF32's 2^-10 per product instead
                        const double rel = i == 3 ? std::ldexp(1.0, -10) : (K + 8) * std::ldexp(1.0, -20);
                        const bool ok = std::isnan(want)   ? std::isnan(g)
                                        : std::isinf(want) ? g == want
                                                           : std::isfinite(g) && std::fabs(g - want) <=
                                                                 rel * (std::fabs(alpha) * mag + std::fabs(beta * old));
                        if (!ok && bad++ == 0) {
                            first = "C[" + std::to_string(i) + "][" + std::to_string(j) + "] = " + std::to_string(g) +
                                    ", FP32 gives " + std::to_string(want);
                        }
                    }
                }
                INFO(step.name << " at " << M << " x " << N << " x " << K << ", alpha = " << alpha << ", beta = "
                               << beta << ": " << bad << " elements not what FP32 gives; the first: " << first);
                CHECK(bad == 0);
            }
        }
    }
}

TEST_CASE("step 12 stays within 3xTF32's elementwise bound at small K", "[gpu][steps]") {
    // The bound of steps/12_3xtf32/lab.md ("3xTF32's elementwise bound"), per element of C:
    //   |alpha| S (2^-21 (1 + 2^-10) + 12 T * 10 * 2^-23 + (2 T + 2) 2^-24) + 3 * 2^-24 |beta C|,
    // S = sum_k |a_k b_k|, T = K-tiles of 32 (BK): the split and the dropped lo * lo, twelve
    // truncating mma sums per K-tile, the FP32 adds of the tiles (and of split-K's slices), alpha
    // and beta. FP32's own bound, (K + 2) u, is smaller at small K: 3xTF32 does not meet it there.
    const sgemm::Step* step12 = nullptr;
    for (const sgemm::Step& s : kAllSteps) {
        if (std::string(s.name) == "step12") step12 = &s;
    }
    REQUIRE(step12 != nullptr);
    if (sgemm::gpu_in_force().arch < step12->min_arch) return;
    const int M = 300, N = 200;
    for (const int K : {1, 2, 3, 8, 64}) {
        const std::vector<float> A = sgemm::uniform_vector(std::size_t(M) * K, 11 + K),
                                 B = sgemm::uniform_vector(std::size_t(K) * N, 12 + K),
                                 C0 = sgemm::uniform_vector(std::size_t(M) * N, 13 + K);
        sgemm::DeviceBuffer<float> dA(A.size()), dB(B.size()), dC(C0.size());
        dA.copy_from_host(A.data());
        dB.copy_from_host(B.data());
        std::vector<float> got(C0.size());
        const int T = (K + 31) / 32;
        const double split = std::ldexp(1.0, -21) * (1 + std::ldexp(1.0, -10)), u = std::ldexp(1.0, -24);
        const double per_sum = split + 12.0 * T * 10 * std::ldexp(1.0, -23) + (2.0 * T + 2) * u;
        for (const auto& [alpha, beta] : {std::array<float, 2>{1.0f, 0.0f}, {0.75f, -1.25f}}) {
            if (beta == 0.0f) CUDA_CHECK(cudaMemset(dC.get(), 0xFF, dC.bytes()));
            else dC.copy_from_host(C0.data());
            step12->launch(M, N, K, alpha, dA.get(), dB.get(), beta, dC.get(), nullptr);
            CUDA_CHECK(cudaDeviceSynchronize());
            dC.copy_to_host(got.data());
            double worst = 0, worst_fp32 = 0;  // the largest error as a share of the bound, and of FP32's
            for (int i = 0; i < M; ++i) {
                for (int j = 0; j < N; ++j) {
                    const auto [want, mag] = exact(A, B, C0, N, K, i, j, alpha, beta);
                    const double old = beta == 0.0f ? 0.0 : double(C0[std::size_t(i) * N + j]);
                    const double bound = std::fabs(alpha) * mag * per_sum + 3 * u * std::fabs(beta * old);
                    const double g = got[std::size_t(i) * N + j];
                    worst = std::isfinite(g) ? std::fmax(worst, std::fabs(g - want) / bound) : INFINITY;
                    const double fp32 = (K + 2) * u * (std::fabs(alpha) * mag + std::fabs(beta * old));
                    worst_fp32 = std::isfinite(g) ? std::fmax(worst_fp32, std::fabs(g - want) / fp32) : INFINITY;
                }
            }
            INFO("step12 at " << M << " x " << N << " x " << K << ", alpha = " << alpha << ", beta = " << beta
                              << ": the largest error is " << worst << " of its bound, " << worst_fp32
                              << " of FP32's (K + 2) u");
            CHECK(worst <= 1.0);
        }
    }
}
