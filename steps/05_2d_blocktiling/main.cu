/// @file
/// @brief The step05 program: hands this step's launcher to the shared harness.
#include "kernel.cuh"
#include "run/harness.h"

/// Runs step 05 as `./step05 [SIZE | M N K] [options]`; see sgemm::run_step().
int main(int argc, char** argv) {
    const sgemm::Step step{"step05", "2d_blocktiling", step05::launch, step05::geometry,
                           reinterpret_cast<const void*>(step05::kernel)};
    return sgemm::run_step(step, argc, argv);
}
