/// @file
/// @brief The step11 program: hands this step's launcher to the shared harness.
#include "kernel.cuh"
#include "run/harness.h"

/// Runs step 11 as `./step11 [SIZE | M N K] [options]`; see sgemm::run_step().
int main(int argc, char** argv) {
    const sgemm::Step step{"step11", "tensor_cores", step11::launch, step11::geometry,
                           reinterpret_cast<const void*>(step11::kernel), step11::plan,
                           step11::kArithmetic, step11::kMinArch};
    return sgemm::run_step(step, argc, argv);
}
