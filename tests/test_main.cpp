// The test runner: Catch2 v2 with two additions.
//  - Without a CUDA device the tests tagged [gpu] are left out, and one line says so.
//  - The last line is a plain "tests: N passed, N failed, N skipped" summary.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

#include "gpu/gpu.h"  // no_device_reason
#include "test_support.h"

namespace {

bool g_have_gpu = false;
int g_passed = 0;
int g_failed = 0;

struct CountingListener : Catch::TestEventListenerBase {
    using TestEventListenerBase::TestEventListenerBase;
    void testCaseEnded(const Catch::TestCaseStats& stats) override {
        (stats.totals.assertions.failed > 0 ? g_failed : g_passed) += 1;
    }
};

bool is_gpu_test(const Catch::TestCase& test) {
    return std::find(test.tags.begin(), test.tags.end(), "gpu") != test.tags.end();
}

}  // namespace

CATCH_REGISTER_LISTENER(CountingListener)

namespace sgemm_tests {

bool have_gpu() { return g_have_gpu; }

CommandResult run_command(const std::string& command) {
    const std::string full = "cd '" SGEMM_ROOT "' && " + command + " 2>&1";
    CommandResult result;
    FILE* pipe = popen(full.c_str(), "r");
    if (pipe == nullptr) return result;
    std::array<char, 4096> buffer{};
    size_t n = 0;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), n);
    const int raw = pclose(pipe);
    result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return result;
}

}  // namespace sgemm_tests

int main(int argc, char** argv) {
    Catch::Session session;
    if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;

    g_have_gpu = sgemm::no_device_reason().empty();
    int skipped = 0;
    if (!g_have_gpu) {
        for (const Catch::TestCase& test : Catch::getAllTestCasesSorted(session.config())) {
            skipped += is_gpu_test(test) ? 1 : 0;
        }
        // AND "~[gpu]" onto every filter given on the command line (or make it the only one)
        auto& specs = session.configData().testsOrTags;
        if (specs.empty()) specs.push_back("~[gpu]");
        for (std::string& spec : specs) {
            if (spec != "~[gpu]") spec += "~[gpu]";
        }
        session.useConfigData(session.configData());
        std::printf("GPU tests skipped (%s): %d test cases tagged [gpu] not run, host tests run\n",
                    sgemm::no_device_reason().c_str(), skipped);
    }
    const int failed = session.run();
    std::printf("tests: %d passed, %d failed, %d skipped\n", g_passed, g_failed, skipped);
    return failed == 0 ? 0 : 1;
}
