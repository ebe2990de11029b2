/// @file
/// @brief The step09 program: hands this step's launcher to the shared harness.
#include "kernel.cuh"
#include "run/harness.h"

/// Runs step 09 as `./step09 [SIZE | M N K] [options]`; see sgemm::run_step().
int main(int argc, char** argv) {
    const sgemm::Step step{"step09", "warptiling", step09::launch, step09::geometry,
                           reinterpret_cast<const void*>(step09::kernel), step09::plan};
    return sgemm::run_step(step, argc, argv);
}
