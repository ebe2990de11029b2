// Host tests: the step binaries' command line (common/run/args.h).
#include <catch2/catch.hpp>

#include <climits>
#include <string>
#include <vector>

#include "run/args.h"

using sgemm::Options;
using sgemm::parse_args;
using sgemm::UsageError;

namespace {
Options parse(std::vector<std::string> args) { return parse_args(args); }
}  // namespace

TEST_CASE("no arguments give the documented defaults", "[args]") {
    const Options o = parse({});
    CHECK(o.M == 4096);
    CHECK(o.N == 4096);
    CHECK(o.K == 4096);
    CHECK(o.alpha == 1.0f);
    CHECK(o.beta == 0.0f);
    CHECK(o.warmup == 3);
    CHECK(o.reps == 20);
    CHECK(o.verify);
    CHECK_FALSE(o.csv);
}

TEST_CASE("one size is a cube, three sizes are M N K", "[args]") {
    const Options cube = parse({"129"});
    CHECK((cube.M == 129 && cube.N == 129 && cube.K == 129));
    const Options mnk = parse({"7", "13", "5"});
    CHECK((mnk.M == 7 && mnk.N == 13 && mnk.K == 5));
    const Options largest = parse({"1", "1", std::to_string(INT_MAX)});
    CHECK(largest.K == INT_MAX);
}

TEST_CASE("every flag is read, with a separate value or after '='", "[args]") {
    const Options o = parse({"--warmup", "0", "--reps=7", "--seed", "18446744073709551615",
                             "--alpha", "-0.5", "--beta=2.25", "--no-verify", "--csv", "31", "33",
                             "17"});
    CHECK(o.warmup == 0);
    CHECK(o.reps == 7);
    CHECK(o.seed == 18446744073709551615ull);
    CHECK(o.alpha == -0.5f);
    CHECK(o.beta == 2.25f);
    CHECK_FALSE(o.verify);
    CHECK(o.csv);
    CHECK((o.M == 31 && o.N == 33 && o.K == 17));
    CHECK(parse({"--help"}).help);
    CHECK(parse({"-h"}).help);
    CHECK(parse({"--csv-header"}).csv_header);
    CHECK(parse({"--check"}).check);
    CHECK(parse({"--cold-l2"}).cold_l2);
    CHECK_FALSE(o.cold_l2);
    CHECK_FALSE(o.check);
    const Options no_blas = parse({"--no-cublas"});
    CHECK_FALSE(no_blas.cublas);
    CHECK_FALSE(no_blas.verify);  // nothing to compare with
}

TEST_CASE("bad input is rejected with a message that says what is wrong", "[args]") {
    struct Case {
        std::vector<std::string> args;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{"abc"}, "SIZE: 'abc' is not a whole number"},
        {{"4096x"}, "'4096x' is not a whole number"},
        {{"1e3"}, "'1e3' is not a whole number"},
        {{""}, "'' is not a whole number"},
        {{"0"}, "SIZE must be at least 1, got 0"},
        {{"-5"}, "SIZE must be at least 1, got -5"},
        {{"7", "0", "5"}, "N must be at least 1, got 0"},
        {{"7", "13", "-1"}, "K must be at least 1, got -1"},
        {{"64", "64"}, "expected SIZE or M N K, got 2 sizes"},
        {{"1", "2", "3", "4"}, "expected SIZE or M N K, got 4 sizes"},
        {{"--bogus"}, "unknown option --bogus"},
        {{"-x"}, "unknown option -x"},
        {{"--reps"}, "--reps needs a value"},
        {{"--reps", "0"}, "--reps must be between 1 and"},
        {{"--warmup", "-1"}, "--warmup must not be negative, got -1"},
        {{"--alpha", "x"}, "--alpha: 'x' is not a number"},
        {{"--alpha", "1.5z"}, "--alpha: '1.5z' is not a number"},
        {{"--beta", "inf"}, "--beta must be a finite number, got inf"},
        {{"--beta", "nan"}, "--beta must be a finite number, got nan"},
        {{"--seed", "-3"}, "--seed must not be negative"},
        {{"--csv=yes"}, "--csv takes no value"},
        {{"--no-cublas=1"}, "--no-cublas takes no value"},
        {{"--cold-l2=1"}, "--cold-l2 takes no value"},
        {{"--check=1"}, "--check takes no value"},
        {{"--check", "64"}, "--check runs its own shapes and takes no SIZE or M N K"},
        {{"7", "13", "5", "--check"}, "--check runs its own shapes"},
        {{"99999999999999999999999"}, "is too large to count"},
        {{"5000000000", "1", "1"}, "M = 5000000000 is larger than 2147483647"},
        {{"1", "1", "2147483648"}, "K = 2147483648 is larger than 2147483647"},
        {{"4294967296"}, "more bytes than a 64-bit count can hold"},
        {{"2147483647"}, "more bytes than a 64-bit count can hold"},
    };
    for (const Case& c : cases) {
        std::string joined;
        for (const auto& a : c.args) joined += "[" + a + "] ";
        INFO("arguments: " << joined);
        CHECK_THROWS_WITH(parse(c.args), Catch::Contains(c.message));
        CHECK_THROWS_AS(parse(c.args), UsageError);
    }
}

TEST_CASE("device memory needed counts A, B and three copies of C, and detects overflow",
          "[args]") {
    // 4096^3: A, B and three C's of 4096 x 4096 floats each = 5 x 64 MiB
    CHECK(sgemm::device_bytes_needed(4096, 4096, 4096).value() == 5ull * 4096 * 4096 * 4);
    CHECK(sgemm::device_bytes_needed(7, 13, 5).value() == 4ull * (7 * 5 + 5 * 13 + 3 * 7 * 13));
    CHECK_FALSE(sgemm::device_bytes_needed(1ull << 32, 1ull << 32, 1).has_value());
    CHECK_FALSE(sgemm::device_bytes_needed(1, 1ull << 62, 1ull << 2).has_value());
}

TEST_CASE("the usage names every flag", "[args]") {
    const std::string text = sgemm::usage("step07");
    CHECK_THAT(text, Catch::StartsWith("usage: step07 [SIZE | M N K]"));
    for (const char* flag : {"--warmup", "--reps", "--seed", "--alpha", "--beta", "--no-verify",
                             "--no-cublas", "--cold-l2", "--csv", "--csv-header", "--check", "--help"}) {
        CHECK_THAT(text, Catch::Contains(flag));
    }
}
