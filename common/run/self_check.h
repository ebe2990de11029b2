/// @file self_check.h
/// @brief The correctness checks every step is held to: the awkward shapes, a reference
///        result for each, and the report `./stepNN --check` (and so `make check-exercise`)
///        prints.
///
/// The GPU tests (tests/test_steps.cu) and `--check` use the same shapes, seeds, reference
/// and tolerance, so a kernel that passes one passes the other.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "device/device_buffer.cuh"
#include "run/compare.h"
#include "run/step.h"

namespace sgemm {

/// The shapes every step must be right at: ones, primes, one off a power of two, tall,
/// wide, K = 1, a long K with a tiny C, a C taller than 65535 block rows, multiples of 4
/// that are not multiples of any tile, and whole tiles only.
const std::vector<Shape>& check_shapes();

/// One (alpha, beta) pair a shape is checked with.
struct Scalars {
    float alpha;  ///< scale of A * B
    float beta;   ///< scale of the old C (0: C must not be read)
};

/// The pairs each shape is checked with: (1, 0), where C starts as NaN so that an element
/// never written fails, and (0.75, -1.25), where C starts random and must be read.
const std::vector<Scalars>& check_scalars();

/// One checked product: seeded random A, B and C on host and device, and the reference
/// result for (alpha, beta): the CPU in double precision for small shapes, cuBLAS for
/// large ones (more than 3e7 multiply-adds).
struct CheckProblem {
    Shape s;                             ///< the shape
    float alpha;                         ///< scale of A * B
    float beta;                          ///< scale of the old C
    std::vector<float> A;                ///< A on the host, M x K
    std::vector<float> B;                ///< B on the host, K x N
    std::vector<float> C0;               ///< C before the product, M x N
    std::vector<float> expected;         ///< the reference result, M x N
    DeviceBuffer<float> dA;              ///< A on the device
    DeviceBuffer<float> dB;              ///< B on the device
    DeviceBuffer<float> dC;              ///< C on the device
    bool reference_is_cpu;               ///< true: CPU double precision; false: cuBLAS

    /// Makes the inputs from @p seed and computes the reference.
    CheckProblem(Shape shape, float alpha, float beta, std::uint64_t seed);

    /// Runs @p launch on a fresh C (all NaN when beta == 0, else the random C0), waits for
    /// it and compares the result with the reference (tolerance from gemm_tolerance()).
    /// @throws CudaError when the launch or the kernel fails
    VerifyResult run(LaunchFn launch, Arithmetic arithmetic = Arithmetic::kFp32);
};

/// `./stepNN --check`: runs @p step at every check_shapes() shape with every
/// check_scalars() pair and prints a short report: one line per shape (ok, or the first
/// wrong element), a summary and, if anything failed and @p hint is given, the hint.
/// A kernel that fails with a CUDA error stops the check (the GPU context is lost) with a
/// pointer to compute-sanitizer.
/// @param step the step to check (its name appears in the report)
/// @param hint the most common mistake of this step, printed on failure; may be null
/// @return 0 when every check passed, 1 otherwise
/// @throws DeviceError when there is no usable GPU
int run_checks(const Step& step, const char* hint);

}  // namespace sgemm
