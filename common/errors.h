/// @file errors.h
/// @brief Every exception the project throws, in one place: the bottom layer of common/, which
///        includes nothing of ours (common/README.md draws the layers).
///
/// Each is thrown where the problem is found and caught once, at the top (the harness, the test
/// runner, the Python library), which prints its one-line message and picks the exit status:
///   - UsageError: bad input, exit status 2 (the harness prints the usage after it);
///   - DeviceError: this machine cannot run it, exit status 2 (no usage: the command line was right);
///   - CudaError: a CUDA runtime call failed (device/cuda_check.cuh's CUDA_CHECK), exit status 1;
///   - CublasError: a cuBLAS call failed (run/baseline.h's CUBLAS_CHECK), exit status 1.
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

/// A CUDA runtime call returned an error. what() says which call, which error and where.
class CudaError : public std::runtime_error {
public:
    /// @param message the complete description, as built by cuda_check() (device/cuda_check.cuh)
    explicit CudaError(const std::string& message) : std::runtime_error(message) {}
};

/// A cuBLAS call returned an error. what() says which call, which status and where.
class CublasError : public std::runtime_error {
public:
    /// @param message the complete description, as built by cublas_check() (run/baseline.h)
    explicit CublasError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace sgemm
