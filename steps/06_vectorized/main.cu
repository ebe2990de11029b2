/// @file
/// @brief The step06 program: hands this step's launcher to the shared harness.
#include "kernel.cuh"
#include "run/harness.h"

/// Runs step 06 as `./step06 [SIZE | M N K] [options]`; see sgemm::run_step().
int main(int argc, char** argv) {
    const sgemm::Step step{"step06", "vectorized", step06::launch, step06::geometry,
                           reinterpret_cast<const void*>(step06::kernel)};
    return sgemm::run_step(step, argc, argv);
}
