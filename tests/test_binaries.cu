// End-to-end tests of the ./stepNN programs, run as a user runs them.
// Bad input needs no GPU, so those tests run everywhere (CI too).
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/gpu.h"  // no_device_reason
#include "run/report.h"  // csv_header
#include "steps_registry.h"
#include "test_support.h"

using sgemm_tests::kAllSteps;
using sgemm_tests::run_command;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

/// Bad input: exit status 2, a first line "stepNN: error: <what>", then the usage.
void check_rejected(const std::string& step, const std::string& args, const std::string& what) {
    INFO("./" << step << " " << args);
    const auto r = run_command("./" + step + " " + args);
    INFO("output:\n" << r.output);
    CHECK(r.status == 2);
    const auto lines = lines_of(r.output);
    REQUIRE(lines.size() >= 2);
    CHECK_THAT(lines[0], Catch::StartsWith(step + ": error: ") && Catch::Contains(what));
    CHECK_THAT(lines[1], Catch::StartsWith("usage: " + step));
}

/// A machine that cannot run it (no driver, no GPU, a bad SGEMM_GPU_CLASS): exit status 2 and
/// one line "stepNN: error: <what>", with no usage after it (the command line was right).
void check_refused(const std::string& command, const std::string& step, const std::string& what) {
    INFO(command);
    const auto r = run_command(command);
    INFO("output:\n" << r.output);
    CHECK(r.status == 2);
    const auto lines = lines_of(r.output);
    REQUIRE(lines.size() == 1);
    CHECK_THAT(lines[0], Catch::StartsWith(step + ": error: " + what));
}

}  // namespace

TEST_CASE("every step binary prints its usage for --help and exits 0", "[binaries]") {
    for (const sgemm::Step& s : kAllSteps) {
        const auto r = run_command(std::string("./") + s.name + " --help");
        INFO(s.name << " output:\n" << r.output);
        CHECK(r.status == 0);
        CHECK_THAT(r.output, Catch::StartsWith(std::string("usage: ") + s.name));
    }
}

TEST_CASE("the --help listing of docs/running.md is what ./step01 --help prints", "[binaries]") {
    std::ifstream page(SGEMM_ROOT "/docs/running.md");
    REQUIRE(page);
    std::string listing, line;
    bool inside = false;
    while (std::getline(page, line)) {
        if (line == "<!-- results: usage step01 -->") {
            inside = true;
        } else if (inside && line == "<!-- /results -->") {
            break;
        } else if (inside && line.rfind("```", 0) != 0) {
            listing += line + "\n";
        }
    }
    CHECK(run_command("./step01 --help").output == listing);
}

TEST_CASE("every step binary answers bad arguments with one line, the usage and exit 2",
          "[binaries]") {
    for (const sgemm::Step& s : kAllSteps) {
        check_rejected(s.name, "abc", "'abc' is not a whole number");
        check_rejected(s.name, "0", "must be at least 1");
        check_rejected(s.name, "-4", "must be at least 1");
        check_rejected(s.name, "64 64", "expected SIZE or M N K");
        check_rejected(s.name, "--frobnicate", "unknown option --frobnicate");
        check_rejected(s.name, "--reps", "--reps needs a value");
        check_rejected(s.name, "--alpha 1.5.2", "is not a number");
        check_rejected(s.name, "4294967296", "more bytes than a 64-bit count");
        check_rejected(s.name, "3000000000 1 1", "larger than 2147483647");
    }
}

TEST_CASE("a malformed SGEMM_GPU_CLASS gets one line and exit 2, GPU or not", "[binaries]") {
    for (const char* spec : {"sm_61", "sm_86:0", "turing"}) {
        check_refused(std::string("SGEMM_GPU_CLASS=") + spec + " ./step10 64", "step10",
                      "SGEMM_GPU_CLASS='" + std::string(spec) + "'");
    }
}

TEST_CASE("--csv-header names the columns of the --csv line", "[binaries]") {
    const auto r = run_command("./step01 --csv-header");
    CHECK(r.status == 0);
    CHECK(r.output == sgemm::csv_header() + "\n");
}

TEST_CASE("without a GPU a step binary says so in one line and exits 2", "[binaries]") {
    if (sgemm_tests::have_gpu()) {
        WARN("a GPU is present: the no-GPU answer is tested on machines without one (CI)");
        return;
    }
    // no_device_reason() says why: on a machine without any NVIDIA driver (CI), that no driver was
    // found, not the CUDA runtime's "driver version is insufficient"
    const std::string reason = sgemm::no_device_reason();
    if (void* driver = dlopen("libcuda.so.1", RTLD_LAZY)) {
        dlclose(driver);
    } else {
        CHECK(reason == "no usable CUDA device: no NVIDIA driver found (libcuda.so.1 is not installed)");
    }
    for (const sgemm::Step& s : kAllSteps) {
        check_refused(std::string("./") + s.name + " 64", s.name, reason);
    }
}

TEST_CASE("every step binary runs end to end at a small odd size and passes", "[gpu][binaries]") {
    for (const sgemm::Step& s : kAllSteps) {
        const auto r = run_command(std::string("./") + s.name + " 67 35 131 --warmup 1 --reps 3");
        INFO(s.name << " output:\n" << r.output);
        CHECK(r.status == 0);
        CHECK_THAT(r.output, Catch::Contains("verify     PASS vs cuBLAS (beta = 0, C poisoned"));
        CHECK_THAT(r.output, Catch::Contains("registers/thread"));
        CHECK_THAT(r.output, Catch::Contains("warps/SM"));

        const auto rb = run_command(std::string("./") + s.name +
                                    " 33 129 7 --alpha -0.5 --beta 2 --reps 2 --csv");
        INFO(s.name << " --csv output:\n" << rb.output);
        CHECK(rb.status == 0);
        const auto lines = lines_of(rb.output);
        REQUIRE(lines.size() == 1);
        const std::string header = sgemm::csv_header();
        CHECK(std::count(lines[0].begin(), lines[0].end(), ',') ==
              std::count(header.begin(), header.end(), ','));
        CHECK_THAT(lines[0], Catch::StartsWith(std::string(s.name) + "," + s.title + ",33,129,7,"));
        CHECK_THAT(lines[0], Catch::Contains(",pass,"));
    }
}

TEST_CASE("a forced GPU class says which class and which configuration ran, and why",
          "[gpu][binaries]") {
    const auto r = run_command("SGEMM_GPU_CLASS=sm_75 ./step10 67 35 131 --warmup 1 --reps 2");
    INFO("output:\n" << r.output);
    CHECK(r.status == 0);
    CHECK_THAT(r.output, Catch::Contains("GPU class  forced to sm_75 by SGEMM_GPU_CLASS"));
    CHECK_THAT(r.output, Catch::Contains("config     128x256x16, 2 stages, unroll 16, 49408 B shared memory"));
    CHECK_THAT(r.output, Catch::Contains("the GPU: fits sm_75 class (forced)"));
    CHECK_THAT(r.output, Catch::Contains("passed over: 128x256x32, 2 stages, unroll 16 needs 98560 B"));
    CHECK_THAT(r.output, Catch::Contains("verify     PASS"));
    // a shape with enough tiles of C for the class's own configuration, whole
    const auto csv = run_command("SGEMM_GPU_CLASS=sm_86 ./step10 2048 --warmup 0 --reps 1 --csv");
    INFO("csv output:\n" << csv.output);
    CHECK_THAT(csv.output, Catch::Contains(",128x256x32; 2 stages; unroll 16; 98560 B shared memory,sm_86,"));
}

TEST_CASE("a size that does not fit in GPU memory is refused in one line before anything is allocated",
          "[gpu][binaries]") {
    check_refused("./step01 200000 200000 200000", "step01", "200000 x 200000 x 200000 needs");
}
