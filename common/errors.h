/// @file errors.h
/// @brief The errors a run reports in one line with exit status 2: bad input, and a machine
/// that cannot run it.
///
/// Both are thrown where the problem is found and caught once, at the top (the harness, the
/// test runner, the Python library), which prints the message and exits with status 2. A
/// CUDA call that fails is a CudaError (cuda_check.cuh), exit status 1.
#pragma once

#include <stdexcept>
#include <string>

namespace sgemm {

/// Bad command-line input. The message is one line that says what is wrong; the harness
/// prints it with the usage and exits with status 2.
class UsageError : public std::runtime_error {
public:
    /// @param message what is wrong, in one line, without a trailing newline
    explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

/// This machine cannot run the step: no NVIDIA driver, no GPU, one older than sm_75, a binary
/// built for another GPU, too little free GPU memory, a malformed SGEMM_GPU_CLASS. A
/// UsageError too (exit status 2 wherever bad input gives it), but the harness prints no usage
/// after it: the command line was right.
class DeviceError : public UsageError {
public:
    /// @param message what is wrong, in one line, without a trailing newline
    explicit DeviceError(const std::string& message) : UsageError(message) {}
};

}  // namespace sgemm
