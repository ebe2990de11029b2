// The classroom exercises, run as a student runs them: each step's untouched exercise (the
// skeleton tools/exercises/exercise.py generates) must fail `--check`, and the same file with
// kernel.cuh's code pasted into its TODO blocks must pass. The Makefile builds both into
// SGEMM_EXERCISES for `make test`.
#include <catch2/catch.hpp>

#include <string>

#include "steps_registry.h"
#include "test_support.h"

using sgemm_tests::kAllSteps;
using sgemm_tests::run_command;

namespace {

/// The program built from step `name`'s ("step05") exercise, `kind` "skeleton" or "solution".
std::string exercise_binary(const std::string& name, const char* kind) {
    return std::string(SGEMM_EXERCISES) + "/" + name + "_" + kind;
}

}  // namespace

TEST_CASE("every exercise program has the steps' command line: usage, bad input, exit 2",
          "[exercises]") {
    for (const sgemm::Step& s : kAllSteps) {
        const std::string exe = exercise_binary(s.name, "skeleton");
        const std::string program = std::string(s.name) + "_exercise";
        const auto help = run_command(exe + " --help");
        INFO(exe << " --help:\n" << help.output);
        CHECK(help.status == 0);
        CHECK_THAT(help.output, Catch::StartsWith("usage: " + program) && Catch::Contains("--check"));

        const auto sized = run_command(exe + " --check 64");
        INFO(exe << " --check 64:\n" << sized.output);
        CHECK(sized.status == 2);
        CHECK_THAT(sized.output, Catch::StartsWith(program + ": error: --check runs its own shapes"));
        if (!sgemm_tests::have_gpu()) {
            const auto no_gpu = run_command(exe + " --check");
            INFO(exe << " --check without a GPU:\n" << no_gpu.output);
            CHECK(no_gpu.status == 2);
            CHECK_THAT(no_gpu.output, Catch::StartsWith(program + ": error: no usable CUDA device"));
            CHECK_THAT(no_gpu.output, !Catch::Contains("usage:"));
        }
    }
}

TEST_CASE("every step's untouched exercise fails --check with a hint, and passes with the "
          "reference pasted in",
          "[gpu][exercises]") {
    for (const sgemm::Step& s : kAllSteps) {
        const auto skeleton = run_command(exercise_binary(s.name, "skeleton") + " --check");
        INFO(s.name << " skeleton --check:\n" << skeleton.output);
        CHECK(skeleton.status == 1);
        CHECK_THAT(skeleton.output, Catch::Contains("  FAIL  ") && Catch::Contains("\nFAIL: ") &&
                                        Catch::Contains("\nhint: "));
        CHECK_THAT(skeleton.output, !Catch::Contains("PASS"));

        const auto solution = run_command(exercise_binary(s.name, "solution") + " --check");
        INFO(s.name << " solution --check:\n" << solution.output);
        CHECK(solution.status == 0);
        CHECK_THAT(solution.output, Catch::Contains("\nPASS: all 19 shapes right"));
        CHECK_THAT(solution.output, !Catch::Contains("FAIL") && !Catch::Contains("hint:"));
    }
}

TEST_CASE("make student-copy leaves the answers out, and blanked steps still build their docs",
          "[exercises]") {
    // The copy is of the last commit: only a clean checkout (CI's) can expect it to match.
    if (run_command("test -z \"$(git status --porcelain 2>/dev/null)\" && "
                    "git rev-parse --git-dir").status != 0) {
        WARN("not a clean git checkout: the student copy of the last commit is tested on "
             "clean checkouts (CI) only");
        return;
    }
    REQUIRE(run_command("test -f docs/answers/exercises.md").status == 0);
    const auto r = run_command(
        "dir=$(mktemp -d); copy=$dir/copy; fail() { echo \"$1\"; rm -rf \"$dir\"; exit 1; }; "
        "python3 tools/exercises/exercise.py student-copy \"$copy\" --blank 05 || fail 'student-copy failed'; "
        "test -f \"$copy/steps/05_2d_blocktiling/exercise.cu\" || fail 'no exercise.cu in the copy'; "
        "test ! -e \"$copy/docs/answers\" || fail 'the copy holds docs/answers'; "
        "grep -q 'TODO(exercise 05)' \"$copy/steps/05_2d_blocktiling/kernel.cuh\" || "
        "  fail 'step 05 is not blanked'; "
        "! grep -q 'TODO(exercise' \"$copy/steps/04_1d_blocktiling/kernel.cuh\" || "
        "  fail 'step 04 is blanked'; "
        "(cd \"$copy\" && python3 tools/exercises/exercise.py check && python3 tools/pages/check_docs.py) || "
        "  fail 'the copy fails its own checks'; "
        "rm -rf \"$dir\"");
    INFO(r.output);
    CHECK(r.status == 0);
}
