/// @file step.h
/// @brief What the run layer knows about a step (struct Step), and the shape of one product
///        (struct Shape): the two nouns the harness, the report and the self-check share.
///
/// A step's `main.cu` describes its launcher with a Step and hands it to run_step()
/// (run/harness.h).
#pragma once

#include <string>

#include "errors.h"
#include "gpu/gpu.h"
#include "launch/kernel_types.cuh"

namespace sgemm {

/// What the harness needs to know about a step.
struct Step {
    const char* name;     ///< binary name, e.g. "step01"
    const char* title;    ///< what the step is about, e.g. "naive"
    LaunchFn launch;      ///< the step's launcher
    GeometryFn geometry;  ///< grid, block and shared memory it launches with
    const void* kernel;   ///< the kernel the launcher runs, for the register/occupancy report
    /// Steps with several configurations (08-10): the one chosen for this GPU and why;
    /// when set, it replaces geometry and kernel in the report. Null: one configuration.
    PlanFn plan = nullptr;
    /// What the kernel multiplies in: its results are held to that arithmetic's bound.
    Arithmetic arithmetic = Arithmetic::kFp32;
    /// The oldest architecture the step runs on (80: TF32 tensor cores); 0: every one the
    /// course supports. An older GPU, or a forced older class, gets one line and exit status 2.
    int min_arch = 0;
};

/// Throws DeviceError (one line: what the step needs, and this GPU) when @p gpu (the GPU, or
/// the class forced on it) is older than the step's min_arch.
inline void require_arch(const Step& step, const Gpu& gpu) {
    if (gpu.arch >= step.min_arch) return;
    throw DeviceError(std::string(step.name) + " needs TF32 tensor cores (" + arch_name(step.min_arch) +
                      " or newer); this GPU, " + gpu.name + ", is " + arch_name(gpu.arch) +
                      (gpu.forced ? " (forced by SGEMM_GPU_CLASS)" : ""));
}

/// The sizes of one product: A is M x K, B is K x N, C is M x N.
struct Shape {
    int M;  ///< rows of A and C
    int N;  ///< columns of B and C
    int K;  ///< columns of A, rows of B
};

/// "M x N x K", as the reports print a shape.
inline std::string to_string(const Shape& s) {
    return std::to_string(s.M) + " x " + std::to_string(s.N) + " x " + std::to_string(s.K);
}

}  // namespace sgemm
