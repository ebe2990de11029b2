/// @file harness.h
/// @brief The program every step binary runs: arguments, inputs, timing, the cuBLAS
///        baseline, verification and the report.
///
/// A step's `main.cu` describes its launcher with a Step and calls run_step().
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "launch.cuh"

namespace sgemm {

/// What the harness needs to know about a step.
struct Step {
    const char* name;     ///< binary name, e.g. "step01"
    const char* title;    ///< what the step is about, e.g. "naive"
    LaunchFn launch;      ///< the step's launcher
    GeometryFn geometry;  ///< grid, block and shared memory it launches with
    const void* kernel;   ///< the kernel the launcher runs, for the register/occupancy report
    /// Steps with several configurations (08-10): the one chosen for this GPU and why;
    /// when set, it replaces geometry and kernel in the report. Null: one configuration.
    PlanFn plan = nullptr;
};

/// Runs a step as `./stepNN [SIZE | M N K] [options]` (see usage()): checks the
/// arguments and the GPU, makes seeded random inputs, verifies the step against cuBLAS,
/// times both and prints the report (or one CSV line). With `--check` it runs
/// run_checks() instead.
/// @param step       the step to run
/// @param argc, argv the program's arguments
/// @param check_hint printed when `--check` finds a wrong result: the step's most common
///                   mistake (the exercises pass one); may be null
/// @return the process exit status: 0 success, 1 wrong result or CUDA error, 2 bad input
///         (one line that says what is wrong, then the usage) or no usable GPU (one line)
int run_step(const Step& step, int argc, char** argv, const char* check_hint = nullptr);

/// The columns of the line `--csv` prints, comma-separated, in order.
std::string csv_header();

/// The median of @p values (the mean of the middle two for an even count); 0 for none.
double median(std::vector<double> values);

}  // namespace sgemm
