/// @file
/// @brief The step12 program: hands this step's launcher to the shared harness.
#include "kernel.cuh"
#include "run/harness.h"

/// Runs step 12 as `./step12 [SIZE | M N K] [options]`; see sgemm::run_step().
int main(int argc, char** argv) {
    const sgemm::Step step{"step12", "3xtf32", step12::launch, step12::geometry,
                           reinterpret_cast<const void*>(step12::kernel), step12::plan,
                           step12::kArithmetic, step12::kMinArch};
    return sgemm::run_step(step, argc, argv);
}
