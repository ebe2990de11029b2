#!/bin/sh
# make sanitize: every step binary under compute-sanitizer's memcheck, racecheck, synccheck
# and initcheck, at a small odd shape, once with beta = 0 and once with beta != 0.
# The runs skip cuBLAS (--no-cublas): instrumenting its large module costs a minute a run,
# and the tests already check the results; here only memory safety and races count.
# With --tests RUN_TESTS it also runs the test binary's step-10 pipeline test under each
# tool: that test takes both of step 10's copy paths (cp.async, and registers as on GPUs
# before sm_80) through 1 to 5 K-tiles, while the step binary takes only the first.
# Steps 08-10, whose configuration depends on the GPU, also run under every tool with each
# smaller GPU class forced (SGEMM_GPU_CLASS=sm_86, sm_75): those configurations too must be
# memory-safe and race-free.
# Exits 1 if any tool reports anything.
# usage: tools/validate/sanitize.sh [--tests RUN_TESTS] step01 step02 ...
set -u
if ! command -v compute-sanitizer >/dev/null 2>&1; then
    echo "make sanitize needs compute-sanitizer (part of the CUDA Toolkit) on the PATH"
    exit 2
fi
shape="131 67 257"  # K = 257: several K-tiles for every step (three for step 03), the last one partial
failed=0
runs=0
tests=""
if [ "${1:-}" = "--tests" ]; then
    tests=$2
    shift 2
fi
# check LABEL TOOL COMMAND...: runs COMMAND under compute-sanitizer's TOOL and prints one
# PASS line with the tool's summary, or FAIL with the start of its log.
check() {
    label=$1 tool=$2
    shift 2
    runs=$((runs + 1))
    log=$(compute-sanitizer --tool "$tool" --error-exitcode 99 "$@" 2>&1)
    rc=$?
    summary=$(printf '%s\n' "$log" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tail -n 1)
    if [ "$rc" -eq 0 ]; then
        printf 'PASS  %-30s %-9s %s\n' "$label" "$tool" "$summary"
    else
        failed=$((failed + 1))
        printf 'FAIL  %-30s %-9s exit %s\n' "$label" "$tool" "$rc"
        printf '%s\n' "$log" | sed 's/^/      /' | head -n 60
    fi
}
for step in "$@"; do
    for tool in memcheck racecheck synccheck initcheck; do
        for beta in 0 0.5; do
            check "$step beta=$beta" "$tool" "./$step" $shape --beta "$beta" --no-cublas --warmup 0 --reps 2
        done
    done
done
for gpu_class in sm_86 sm_75; do
    export SGEMM_GPU_CLASS=$gpu_class
    for step in "$@"; do
        case $step in step08 | step09 | step10) ;; *) continue ;; esac
        for tool in memcheck racecheck synccheck initcheck; do
            for beta in 0 0.5; do
                check "$step as $gpu_class beta=$beta" "$tool" "./$step" $shape \
                    --beta "$beta" --no-cublas --warmup 0 --reps 2
            done
        done
    done
done
unset SGEMM_GPU_CLASS
if [ -n "$tests" ]; then
    for tool in memcheck racecheck synccheck initcheck; do
        check "step 10 pipeline test" "$tool" "$tests" "step 10 is right for 1 to 5 K-tiles*"
    done
fi
echo "sanitize: $((runs - failed)) passed, $failed failed (shape $shape; steps 08-10 also as sm_86 and sm_75; and step 10's pipeline test)"
[ "$failed" -eq 0 ]
