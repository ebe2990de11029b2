/// @file
/// @brief The step01 program: hands this step's launcher to the shared harness.
#include "kernel.cuh"
#include "run/harness.h"

/// Runs step 01 as `./step01 [SIZE | M N K] [options]`; see sgemm::run_step().
int main(int argc, char** argv) {
    const sgemm::Step step{"step01", "naive", step01::launch, step01::geometry,
                           reinterpret_cast<const void*>(step01::kernel)};
    return sgemm::run_step(step, argc, argv);
}
