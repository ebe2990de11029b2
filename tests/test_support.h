// Helpers shared by the test files.
#pragma once

#include <string>

namespace sgemm_tests {

/// True when a CUDA device answers; decided once by the test runner's main().
bool have_gpu();

/// Output (stdout and stderr together) and exit status of a shell command.
struct CommandResult {
    std::string output;
    int status = -1;
};

/// Runs @p command with /bin/sh from the repository root and waits for it.
CommandResult run_command(const std::string& command);

}  // namespace sgemm_tests
