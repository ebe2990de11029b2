/// @file args.cpp
/// @brief Parsing and validation of the step binaries' command line.
#include "run/args.h"

#include <climits>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace sgemm {
namespace {

bool all_digits(const std::string& s) {
    if (s.empty()) return false;
    for (char ch : s) {
        if (ch < '0' || ch > '9') return false;
    }
    return true;
}

/// A whole number >= 0 that fits in 64 bits; `what` names it in messages.
std::uint64_t parse_u64(const std::string& what, const std::string& text) {
    if (!text.empty() && text[0] == '-' && all_digits(text.substr(1))) {
        throw UsageError(what + " must not be negative, got " + text);
    }
    if (!all_digits(text)) {
        throw UsageError(what + ": '" + text + "' is not a whole number");
    }
    std::uint64_t value = 0;
    for (char ch : text) {
        const std::uint64_t digit = static_cast<std::uint64_t>(ch - '0');
        if (value > (UINT64_MAX - digit) / 10) {
            throw UsageError(what + ": " + text + " is too large to count");
        }
        value = value * 10 + digit;
    }
    return value;
}

/// A size of the problem: a whole number >= 1 (the upper limit is checked later).
std::uint64_t parse_size(const std::string& what, const std::string& text) {
    if (!text.empty() && text[0] == '-' && all_digits(text.substr(1))) {
        throw UsageError(what + " must be at least 1, got " + text);
    }
    const std::uint64_t value = parse_u64(what, text);
    if (value == 0) throw UsageError(what + " must be at least 1, got 0");
    return value;
}

int parse_count(const std::string& what, const std::string& text, int min_value) {
    const std::uint64_t value = parse_u64(what, text);
    constexpr std::uint64_t kMaxCount = 1000000;
    if (value < static_cast<std::uint64_t>(min_value) || value > kMaxCount) {
        throw UsageError(what + " must be between " + std::to_string(min_value) + " and " +
                         std::to_string(kMaxCount) + ", got " + text);
    }
    return static_cast<int>(value);
}

float parse_scalar(const std::string& what, const std::string& text) {
    char* end = nullptr;
    const float value = std::strtof(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) {
        throw UsageError(what + ": '" + text + "' is not a number");
    }
    if (!std::isfinite(value)) {
        throw UsageError(what + " must be a finite number, got " + text);
    }
    return value;
}

}  // namespace

std::optional<std::uint64_t> device_bytes_needed(std::uint64_t M, std::uint64_t N,
                                                 std::uint64_t K) {
    std::uint64_t mk = 0, kn = 0, mn = 0, mn3 = 0, sum = 0, bytes = 0;
    if (__builtin_mul_overflow(M, K, &mk) || __builtin_mul_overflow(K, N, &kn) ||
        __builtin_mul_overflow(M, N, &mn) || __builtin_mul_overflow(mn, 3u, &mn3) ||
        __builtin_add_overflow(mk, kn, &sum) || __builtin_add_overflow(sum, mn3, &sum) ||
        __builtin_mul_overflow(sum, sizeof(float), &bytes)) {
        return std::nullopt;
    }
    return bytes;
}

Options parse_args(const std::vector<std::string>& args) {
    Options opt;
    std::vector<std::string> sizes;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        const bool is_flag = arg.size() > 1 && arg[0] == '-' && !all_digits(arg.substr(1));
        if (!is_flag) {
            sizes.push_back(arg);
            continue;
        }
        std::string inline_value;
        bool has_inline_value = false;
        if (const std::size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
            inline_value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
            has_inline_value = true;
        }
        auto value = [&]() -> std::string {
            if (has_inline_value) return inline_value;
            if (i + 1 >= args.size()) throw UsageError(arg + " needs a value");
            return args[++i];
        };
        auto no_value = [&]() {
            if (has_inline_value) throw UsageError(arg + " takes no value");
        };
        if (arg == "--help" || arg == "-h") {
            no_value();
            opt.help = true;
        } else if (arg == "--warmup") {
            opt.warmup = parse_count("--warmup", value(), 0);
        } else if (arg == "--reps") {
            opt.reps = parse_count("--reps", value(), 1);
        } else if (arg == "--seed") {
            opt.seed = parse_u64("--seed", value());
        } else if (arg == "--alpha") {
            opt.alpha = parse_scalar("--alpha", value());
        } else if (arg == "--beta") {
            opt.beta = parse_scalar("--beta", value());
        } else if (arg == "--no-verify") {
            no_value();
            opt.verify = false;
        } else if (arg == "--no-cublas") {
            no_value();
            opt.cublas = false;
            opt.verify = false;
        } else if (arg == "--cold-l2") {
            no_value();
            opt.cold_l2 = true;
        } else if (arg == "--csv") {
            no_value();
            opt.csv = true;
        } else if (arg == "--csv-header") {
            no_value();
            opt.csv_header = true;
        } else if (arg == "--check") {
            no_value();
            opt.check = true;
        } else {
            throw UsageError("unknown option " + arg);
        }
    }

    if (opt.check && !sizes.empty()) {
        throw UsageError("--check runs its own shapes and takes no SIZE or M N K");
    }
    std::uint64_t m = static_cast<std::uint64_t>(opt.M);
    std::uint64_t n = m, k = m;
    if (sizes.size() == 1) {
        m = n = k = parse_size("SIZE", sizes[0]);
    } else if (sizes.size() == 3) {
        m = parse_size("M", sizes[0]);
        n = parse_size("N", sizes[1]);
        k = parse_size("K", sizes[2]);
    } else if (!sizes.empty()) {
        throw UsageError("expected SIZE or M N K, got " + std::to_string(sizes.size()) +
                         " sizes");
    }
    if (!device_bytes_needed(m, n, k)) {
        std::ostringstream msg;
        msg << "M x N x K = " << m << " x " << n << " x " << k
            << ": the matrices need more bytes than a 64-bit count can hold";
        throw UsageError(msg.str());
    }
    const char* names[3] = {"M", "N", "K"};
    const std::uint64_t values[3] = {m, n, k};
    for (int d = 0; d < 3; ++d) {
        if (values[d] > static_cast<std::uint64_t>(INT_MAX)) {
            throw UsageError(std::string(names[d]) + " = " + std::to_string(values[d]) +
                             " is larger than " + std::to_string(INT_MAX) +
                             ", the largest size the kernels take");
        }
    }
    opt.M = static_cast<int>(m);
    opt.N = static_cast<int>(n);
    opt.K = static_cast<int>(k);
    return opt;
}

std::string usage(const std::string& program) {
    return "usage: " + program +
           " [SIZE | M N K] [--warmup N] [--reps N] [--seed S] [--alpha A] [--beta B]\n"
           "       [--no-verify] [--no-cublas] [--cold-l2] [--csv] [--csv-header] [--check] [--help]\n"
           "  C = alpha * A * B + beta * C with row-major A (M x K), B (K x N), C (M x N);\n"
           "  SIZE sets M = N = K (default 4096). Inputs are seeded random numbers in [-1, 1).\n"
           "  --warmup N    untimed launches first (default 3)\n"
           "  --reps N      timed launches; the median and the best are reported (default 20)\n"
           "  --seed S      seed of the random A, B and C (default 42)\n"
           "  --alpha A     scale of A * B (default 1)\n"
           "  --beta B      scale of the old C (default 0)\n"
           "  --no-verify   skip the comparison with cuBLAS\n"
           "  --no-cublas   run only the step's kernel: no cuBLAS baseline, no comparison\n"
           "                (for compute-sanitizer and profilers)\n"
           "  --cold-l2     flush the L2 cache before every timed launch of the step and of\n"
           "                cuBLAS (default: warm, the inputs left in L2 by the launch before)\n"
           "  --csv         print one CSV line instead of the report\n"
           "  --csv-header  print the CSV column names and exit\n"
           "  --check       instead, check the result at the tests' awkward shapes (1 x 1 x 1,\n"
           "                7 x 13 x 5, ..., 2100000 x 3 x 2) and say which are wrong (exit 1)\n"
           "  exit status: 0 ok, 1 wrong result or CUDA error, 2 bad input or no usable GPU\n";
}

}  // namespace sgemm
