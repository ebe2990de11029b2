/// @file
/// @brief The step10 program: hands this step's launcher to the shared harness.
#include "kernel.cuh"
#include "run/harness.h"

/// Runs step 10 as `./step10 [SIZE | M N K] [options]`; see sgemm::run_step().
int main(int argc, char** argv) {
    const sgemm::Step step{"step10", "double_buffer", step10::launch, step10::geometry,
                           reinterpret_cast<const void*>(step10::kernel), step10::plan};
    return sgemm::run_step(step, argc, argv);
}
