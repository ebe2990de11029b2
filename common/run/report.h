/// @file report.h
/// @brief What a step binary prints about a run, apart from running it (run/harness.cpp runs):
///        the lines about the run, the GPU and the launch before it, and after it the timing,
///        the speed against cuBLAS and the verification, or one `--csv` line.
#pragma once

#include <string>
#include <vector>

#include "gpu/gpu.h"
#include "launch/kernel_types.cuh"
#include "run/args.h"
#include "run/compare.h"
#include "run/step.h"
#include "run/timing.cuh"

namespace sgemm {

/// What is known before the first launch: the step, its options, the GPU and what runs on it.
struct RunSetup {
    const Step& step;          ///< the step run
    const Options& opt;        ///< its command line
    const Gpu& gpu;            ///< the GPU that is there (actual_gpu())
    const Gpu& limits;         ///< the GPU the step chose by (gpu_in_force(): the GPU or a forced class)
    const Plan& plan;          ///< the launch, the kernel, and (steps 08-10) the configuration and why
    const KernelInfo& kernel;  ///< the kernel's registers, spills, shared memory and occupancy
};

/// One comparison of the step's C with cuBLAS's, and how C started.
struct Verification {
    float beta;            ///< the beta of that launch
    bool poisoned;         ///< true: C was filled with NaN first (beta == 0)
    VerifyResult result;   ///< what the comparison found
};

/// What the run measured and found.
struct RunResult {
    Timing step;                          ///< the step's timing
    CublasTiming blas;                    ///< cuBLAS's in both math modes (zeros without cuBLAS)
    Timing blas_tf32;                     ///< cuBLAS's with TF32 tensor cores allowed (zeros without cuBLAS)
    bool has_blas = false;                ///< false with --no-cublas
    std::string blas_version;             ///< "cuBLAS 13.0.0"; "none" without cuBLAS
    std::vector<Verification> checks;     ///< one per verified launch (none with --no-verify)
    bool verified = true;                 ///< every check passed
};

/// The lines before the run (`step01 (naive): C = ...`, device, per SM, peak, class,
/// config, launch, kernel, occupancy), flushed so that they show while the run goes on.
void print_setup(const RunSetup& setup);

/// The lines after it: timing, speed, cuBLAS, verification; with `--csv`, one CSV line
/// instead (and any failed verification on standard error).
void print_result(const RunSetup& setup, const RunResult& result);

/// The columns of the line `--csv` prints, comma-separated, in order.
std::string csv_header();

}  // namespace sgemm
