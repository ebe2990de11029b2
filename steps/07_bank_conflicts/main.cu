/// @file
/// @brief The step07 program: hands this step's launcher to the shared harness.
#include "kernel.cuh"
#include "run/harness.h"

/// Runs step 07 as `./step07 [SIZE | M N K] [options]`; see sgemm::run_step().
int main(int argc, char** argv) {
    const sgemm::Step step{"step07", "bank_conflicts", step07::launch, step07::geometry,
                           reinterpret_cast<const void*>(step07::kernel)};
    return sgemm::run_step(step, argc, argv);
}
