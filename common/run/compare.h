/// @file compare.h
/// @brief Checking a computed C against a reference, and a double-precision CPU reference.
///
/// Both are host code, so the verifier itself is unit-tested without a GPU.
#pragma once

#include "launch/kernel_types.cuh"  // Arithmetic

#include <cstddef>
#include <string>
#include <vector>

namespace sgemm {

/// Element (row, col) passes when |got - expected| <= atol + rtol * |expected|.
struct Tolerance {
    double atol = 0.0;  ///< absolute part; grows with K
    double rtol = 0.0;  ///< relative part
};

/// The tolerance for an FP32 GEMM of depth K compared with a reference.
///
/// A float dot product of length K, summed in any order, is off by a few units of
/// rounding (FLT_EPSILON) for each of its K additions, each of a size bounded by
/// |alpha| * max|A| * max|B| per term: hence an absolute part proportional to K.
/// beta * C adds one more rounding of |beta| * max|C|. Rounding errors of a real
/// kernel are far smaller than this bound (they mostly cancel), while a wrong index,
/// a missing K-tile or an unwritten element is off by a whole term or more.
/// @param K      depth of the product (0 allowed: then only beta * C remains)
/// @param alpha  the alpha of the run
/// @param beta   the beta of the run
/// @param max_a  largest |A(i,k)|
/// @param max_b  largest |B(k,j)|
/// @param max_c  largest |C(i,j)| before the run (ignored when beta == 0)
/// @param arithmetic what the kernel multiplies in. kTf32 (step 11) rounds both inputs to 10
///        mantissa bits, each off by at most u = 2^-11 of itself, so each product by at most
///        2u + u^2 < 2^-10 of |a b|: the bound grows by 2^-10 * K * |alpha| * max|A| * max|B|
///        (steps/11_tensor_cores/README.md derives it). k3xTf32 (step 12) keeps FP32's bound.
Tolerance gemm_tolerance(int K, float alpha, float beta, double max_a, double max_b,
                         double max_c, Arithmetic arithmetic = Arithmetic::kFp32);

/// One element that failed the check.
struct Mismatch {
    int row = 0;           ///< row of C
    int col = 0;           ///< column of C
    float got = 0.0f;      ///< what the kernel wrote
    double expected = 0;   ///< what the reference holds
    double allowed = 0;    ///< the tolerance at this element
};

/// What a comparison found.
struct VerifyResult {
    std::size_t checked = 0;          ///< elements compared
    std::size_t bad = 0;              ///< elements out of tolerance, NaN or Inf
    double max_abs_error = 0.0;       ///< largest |got - expected| over the finite elements
    double worst_ratio = 0.0;         ///< largest |got - expected| / allowed (1 is the limit)
    std::vector<Mismatch> first;      ///< the first few failures, in row-major order
    /// True when every element passed.
    bool ok() const { return bad == 0 && checked > 0; }
};

/// Compares row-major M x N matrices @p got and @p expected element by element.
/// An element fails when it is NaN or Inf, when the reference is, or when it is
/// farther from the reference than @p tol allows. At most @p max_reported failures
/// are kept in VerifyResult::first.
VerifyResult verify(const float* got, const float* expected, int M, int N, const Tolerance& tol,
                    std::size_t max_reported = 5);

/// The failures in @p result as text: a header line, then one `(row, col) got expected`
/// line each, every line indented by @p indent.
std::string describe_mismatches(const VerifyResult& result, const std::string& indent);

/// C = alpha * A * B + beta * C on the CPU in double precision, for row-major A (M x K),
/// B (K x N) and C (M x N); when beta == 0, C_in is not read (BLAS semantics).
/// Returns the result rounded to float. For the small shapes of the tests.
std::vector<float> reference_gemm(int M, int N, int K, float alpha, const float* A,
                                  const float* B, float beta, const float* C_in);

}  // namespace sgemm
