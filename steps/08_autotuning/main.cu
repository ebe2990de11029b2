/// @file
/// @brief The step08 program: hands this step's launcher to the shared harness.
#include "kernel.cuh"
#include "run/harness.h"

/// Runs step 08 as `./step08 [SIZE | M N K] [options]`; see sgemm::run_step().
int main(int argc, char** argv) {
    const sgemm::Step step{"step08", "autotuning", step08::launch, step08::geometry,
                           reinterpret_cast<const void*>(step08::kernel), step08::plan};
    return sgemm::run_step(step, argc, argv);
}
