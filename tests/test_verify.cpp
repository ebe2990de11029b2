// Host tests: the verifier, its tolerance and the CPU reference (common/run/compare.h).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "device/random.cuh"
#include "run/compare.h"

using sgemm::gemm_tolerance;
using sgemm::reference_gemm;
using sgemm::verify;

namespace {

std::vector<float> random_matrix(int rows, int cols, std::uint64_t seed) {
    return sgemm::uniform_vector(static_cast<size_t>(rows) * cols, seed);
}

/// What a plain FP32 kernel computes: one float accumulator per element, k in order.
std::vector<float> float_gemm(int M, int N, int K, const std::vector<float>& A,
                              const std::vector<float>& B) {
    std::vector<float> C(static_cast<size_t>(M) * N);
    for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) {
            float acc = 0.0f;
            for (int k = 0; k < K; ++k) acc += A[static_cast<size_t>(i) * K + k] * B[static_cast<size_t>(k) * N + j];
            C[static_cast<size_t>(i) * N + j] = acc;
        }
    }
    return C;
}

struct Fixture {
    int M = 24, N = 40, K = 4096;
    std::vector<float> A = random_matrix(M, K, 1), B = random_matrix(K, N, 2);
    std::vector<float> expected = reference_gemm(M, N, K, 1.0f, A.data(), B.data(), 0.0f, nullptr);
    std::vector<float> got = float_gemm(M, N, K, A, B);
    sgemm::Tolerance tol = gemm_tolerance(K, 1.0f, 0.0f, 1.0, 1.0, 1.0);
};

}  // namespace

TEST_CASE("the verifier passes the rounding noise of a real FP32 sum over K = 4096", "[verify]") {
    Fixture f;
    const sgemm::VerifyResult r = verify(f.got.data(), f.expected.data(), f.M, f.N, f.tol);
    CHECK(r.ok());
    CHECK(r.checked == static_cast<size_t>(f.M) * f.N);
    CHECK(r.max_abs_error > 0.0);    // the float sum really does differ from the double one
    CHECK(r.worst_ratio < 0.5);      // and sits well inside the tolerance
}

TEST_CASE("the verifier fails one wrong element and reports where it is", "[verify]") {
    Fixture f;
    // one product term too few at (3, 5): the mistake of a kernel that drops the last k
    const int row = 3, col = 5, k = f.K - 1;
    f.got[row * f.N + col] -= f.A[static_cast<size_t>(row) * f.K + k] * f.B[static_cast<size_t>(k) * f.N + col];
    REQUIRE(std::fabs(f.A[static_cast<size_t>(row) * f.K + k] * f.B[static_cast<size_t>(k) * f.N + col]) > 0.01f);
    const sgemm::VerifyResult r = verify(f.got.data(), f.expected.data(), f.M, f.N, f.tol);
    CHECK_FALSE(r.ok());
    CHECK(r.bad == 1);
    REQUIRE(r.first.size() == 1);
    CHECK(r.first[0].row == row);
    CHECK(r.first[0].col == col);
    CHECK_THAT(sgemm::describe_mismatches(r, "  "), Catch::Contains("(3, 5)"));
}

TEST_CASE("the verifier fails NaN and Inf, wherever they are", "[verify]") {
    Fixture f;
    f.got[0] = std::numeric_limits<float>::quiet_NaN();
    f.got[f.got.size() - 1] = std::numeric_limits<float>::infinity();
    const sgemm::VerifyResult r = verify(f.got.data(), f.expected.data(), f.M, f.N, f.tol);
    CHECK(r.bad == 2);
    CHECK_FALSE(r.ok());
}

TEST_CASE("the verifier fails an element the kernel never wrote (NaN poison)", "[verify]") {
    Fixture f;
    const std::uint32_t poison = 0xFFFFFFFFu;  // what cudaMemset(C, 0xFF, ...) leaves
    std::memcpy(&f.got[7 * f.N + 11], &poison, sizeof poison);
    const sgemm::VerifyResult r = verify(f.got.data(), f.expected.data(), f.M, f.N, f.tol);
    CHECK(r.bad == 1);
    REQUIRE_FALSE(r.first.empty());
    CHECK((r.first[0].row == 7 && r.first[0].col == 11));
}

TEST_CASE("the tolerance grows with K and with the scale of the inputs", "[verify]") {
    const sgemm::Tolerance t64 = gemm_tolerance(64, 1.0f, 0.0f, 1.0, 1.0, 1.0);
    const sgemm::Tolerance t4096 = gemm_tolerance(4096, 1.0f, 0.0f, 1.0, 1.0, 1.0);
    CHECK(t4096.atol == Approx(64.0 * t64.atol));
    CHECK(gemm_tolerance(64, 2.0f, 0.0f, 1.0, 3.0, 1.0).atol == Approx(6.0 * t64.atol));
    // beta * C adds its own rounding, and only when beta != 0
    CHECK(gemm_tolerance(64, 1.0f, 0.5f, 1.0, 1.0, 1.0).atol > t64.atol);
    CHECK(gemm_tolerance(0, 1.0f, 0.0f, 1.0, 1.0, 1.0).atol == 0.0);
    CHECK(t64.rtol > 0.0);
}

TEST_CASE("the CPU reference computes alpha*A*B + beta*C and ignores C when beta = 0",
          "[verify]") {
    // A = [1 2 3; 4 5 6], B = [1 0; 0 1; 1 1]  ->  A*B = [4 5; 10 11]
    const std::vector<float> A = {1, 2, 3, 4, 5, 6}, B = {1, 0, 0, 1, 1, 1};
    const std::vector<float> C = {1, -1, 2, 0.5f};
    const std::vector<float> r = reference_gemm(2, 2, 3, 2.0f, A.data(), B.data(), -3.0f, C.data());
    CHECK(r == std::vector<float>{8 - 3, 10 + 3, 20 - 6, 22 - 1.5f});
    const std::vector<float> nan_c(4, std::numeric_limits<float>::quiet_NaN());
    const std::vector<float> r0 = reference_gemm(2, 2, 3, 1.0f, A.data(), B.data(), 0.0f, nan_c.data());
    CHECK(r0 == std::vector<float>{4, 5, 10, 11});
    // K = 0: only beta * C is left
    const std::vector<float> rk0 = reference_gemm(2, 2, 0, 1.0f, nullptr, nullptr, 0.5f, C.data());
    CHECK(rk0 == std::vector<float>{0.5f, -0.5f, 1, 0.25f});
}

TEST_CASE("host and device draw the same random inputs in [-1, 1)", "[verify]") {
    double lo = 1, hi = -1, sum = 0;
    constexpr int n = 100000;
    for (int i = 0; i < n; ++i) {
        const float v = sgemm::uniform_at(42, i);
        lo = std::min(lo, double(v));
        hi = std::max(hi, double(v));
        sum += v;
    }
    CHECK(lo >= -1.0);
    CHECK(hi < 1.0);
    CHECK(lo < -0.999);
    CHECK(hi > 0.999);
    CHECK(std::fabs(sum / n) < 0.01);
    CHECK(sgemm::uniform_at(1, 0) != sgemm::uniform_at(2, 0));
}
