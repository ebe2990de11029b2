/// @file
/// @brief The step04 program: hands this step's launcher to the shared harness.
#include "kernel.cuh"
#include "run/harness.h"

/// Runs step 04 as `./step04 [SIZE | M N K] [options]`; see sgemm::run_step().
int main(int argc, char** argv) {
    const sgemm::Step step{"step04", "1d_blocktiling", step04::launch, step04::geometry,
                           reinterpret_cast<const void*>(step04::kernel)};
    return sgemm::run_step(step, argc, argv);
}
