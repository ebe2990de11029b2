/// @file
/// @brief The step02 program: hands this step's launcher to the shared harness.
#include "kernel.cuh"
#include "run/harness.h"

/// Runs step 02 as `./step02 [SIZE | M N K] [options]`; see sgemm::run_step().
int main(int argc, char** argv) {
    const sgemm::Step step{"step02", "coalescing", step02::launch, step02::geometry,
                           reinterpret_cast<const void*>(step02::kernel)};
    return sgemm::run_step(step, argc, argv);
}
