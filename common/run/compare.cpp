/// @file compare.cpp
/// @brief The comparison with a reference, its tolerance and the CPU reference.
#include "run/compare.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace sgemm {

Tolerance gemm_tolerance(int K, float alpha, float beta, double max_a, double max_b,
                         double max_c, Arithmetic arithmetic) {
    constexpr double kEps = FLT_EPSILON;  // 2^-23, one unit of float rounding near 1
    Tolerance tol;
    tol.atol = 4.0 * kEps * K * std::fabs(alpha) * max_a * max_b;
    if (arithmetic == Arithmetic::kTf32) tol.atol += std::ldexp(1.0, -10) * K * std::fabs(alpha) * max_a * max_b;
    if (beta != 0.0f) tol.atol += 4.0 * kEps * std::fabs(beta) * max_c;
    tol.rtol = 4.0 * kEps;
    return tol;
}

VerifyResult verify(const float* got, const float* expected, int M, int N, const Tolerance& tol,
                    std::size_t max_reported) {
    VerifyResult result;
    for (int row = 0; row < M; ++row) {
        for (int col = 0; col < N; ++col) {
            const std::size_t i = static_cast<std::size_t>(row) * N + col;
            const double g = got[i];
            const double e = expected[i];
            const double allowed = tol.atol + tol.rtol * std::fabs(e);
            ++result.checked;
            bool pass = std::isfinite(g) && std::isfinite(e);
            if (pass) {
                const double err = std::fabs(g - e);
                if (err > result.max_abs_error) result.max_abs_error = err;
                const double ratio = allowed > 0.0 ? err / allowed : (err > 0.0 ? INFINITY : 0.0);
                if (ratio > result.worst_ratio) result.worst_ratio = ratio;
                pass = err <= allowed;
            }
            if (!pass) {
                ++result.bad;
                if (result.first.size() < max_reported) {
                    result.first.push_back({row, col, got[i], e, allowed});
                }
            }
        }
    }
    return result;
}

std::string describe_mismatches(const VerifyResult& result, const std::string& indent) {
    std::ostringstream out;
    char line[160];
    std::snprintf(line, sizeof line, "%s%-16s %14s %14s %11s\n", indent.c_str(), "(row, col)",
                  "got", "expected", "allowed");
    out << line;
    for (const Mismatch& m : result.first) {
        const std::string where = "(" + std::to_string(m.row) + ", " + std::to_string(m.col) + ")";
        std::snprintf(line, sizeof line, "%s%-16s %14.6g %14.6g %11.3g\n", indent.c_str(),
                      where.c_str(), static_cast<double>(m.got), m.expected, m.allowed);
        out << line;
    }
    return out.str();
}

std::vector<float> reference_gemm(int M, int N, int K, float alpha, const float* A,
                                  const float* B, float beta, const float* C_in) {
    std::vector<double> acc(static_cast<std::size_t>(N));
    std::vector<float> C(static_cast<std::size_t>(M) * N);
    for (int i = 0; i < M; ++i) {
        std::fill(acc.begin(), acc.end(), 0.0);
        for (int k = 0; k < K; ++k) {  // i-k-j order: B is read along its rows
            const double a = A[static_cast<std::size_t>(i) * K + k];
            const float* b = B + static_cast<std::size_t>(k) * N;
            for (int j = 0; j < N; ++j) acc[j] += a * b[j];
        }
        for (int j = 0; j < N; ++j) {
            const std::size_t idx = static_cast<std::size_t>(i) * N + j;
            double c = static_cast<double>(alpha) * acc[j];
            if (beta != 0.0f) c += static_cast<double>(beta) * C_in[idx];
            C[idx] = static_cast<float>(c);
        }
    }
    return C;
}

}  // namespace sgemm
