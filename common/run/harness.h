/// @file harness.h
/// @brief The program every step binary runs: arguments, inputs, timing, the cuBLAS
///        baseline, verification and the report (printed by run/report.h), or `--check`
///        (run/self_check.h).
///
/// A step's `main.cu` describes its launcher with a Step (run/step.h) and calls run_step().
#pragma once

#include "run/step.h"

namespace sgemm {

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

}  // namespace sgemm
