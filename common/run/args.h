/// @file args.h
/// @brief Command-line options of every step binary, and their validation.
///
/// Parsing is pure host code so that every rule can be unit-tested without a GPU:
/// bad input throws UsageError, which the harness turns into one line, the usage
/// text and exit status 2.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "errors.h"  // UsageError

namespace sgemm {

/// Everything a run of `./stepNN` can be told.
struct Options {
    int M = 4096;             ///< rows of A and C
    int N = 4096;             ///< columns of B and C
    int K = 4096;             ///< columns of A, rows of B
    int warmup = 3;           ///< untimed launches before timing
    int reps = 20;            ///< timed launches; median and best are reported
    std::uint64_t seed = 42;  ///< seed of the random inputs (A, B and C)
    float alpha = 1.0f;       ///< scale of A * B
    float beta = 0.0f;        ///< scale of the old C
    bool verify = true;       ///< compare with cuBLAS (off with --no-verify)
    bool cublas = true;       ///< run cuBLAS at all (off with --no-cublas: no baseline, no verify)
    bool csv = false;         ///< print one machine-readable line instead of the report
    bool cold_l2 = false;     ///< flush the L2 cache before every timed launch (--cold-l2)
    bool csv_header = false;  ///< print the CSV column names and exit
    bool check = false;       ///< run the correctness checks at the awkward shapes instead (--check)
    bool help = false;        ///< print the usage and exit
};

/// Parses the arguments of a step binary (argv[0] is skipped).
/// Accepted: `[SIZE | M N K] [--warmup N] [--reps N] [--seed S] [--alpha A] [--beta B]
/// [--no-verify] [--no-cublas] [--cold-l2] [--csv] [--csv-header] [--check] [--help]`; a flag's value may
/// also follow `=`. `--check` takes no sizes: it runs its own shapes.
/// @throws UsageError on a non-number, a size < 1 or > INT_MAX, buffers whose byte count
///         overflows 64 bits, an unknown flag, a missing value, a wrong count of sizes, or sizes with --check.
Options parse_args(const std::vector<std::string>& args);

/// The usage text for program @p program, several lines ending in a newline.
std::string usage(const std::string& program);

/// Bytes of device memory a run of M x N x K needs: A, B, the kernel's C, the initial C
/// (kept to restore C between launches) and cuBLAS's C. Empty if the count overflows 64 bits.
std::optional<std::uint64_t> device_bytes_needed(std::uint64_t M, std::uint64_t N, std::uint64_t K);

}  // namespace sgemm
