/// @file
/// @brief The step03 program: hands this step's launcher to the shared harness.
#include "kernel.cuh"
#include "run/harness.h"

/// Runs step 03 as `./step03 [SIZE | M N K] [options]`; see sgemm::run_step().
int main(int argc, char** argv) {
    const sgemm::Step step{"step03", "shared_memory", step03::launch, step03::geometry,
                           reinterpret_cast<const void*>(step03::kernel)};
    return sgemm::run_step(step, argc, argv);
}
