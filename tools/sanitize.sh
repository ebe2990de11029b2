#!/bin/sh
# make sanitize: every step binary under compute-sanitizer's memcheck, racecheck, synccheck
# and initcheck, at a small odd shape, once with beta = 0 and once with beta != 0.
# The runs skip cuBLAS (--no-cublas): instrumenting its large module costs a minute a run,
# and the tests already check the results; here only memory safety and races count.
# Exits 1 if any tool reports anything.
# usage: tools/sanitize.sh step01 step02 ...
set -u
if ! command -v compute-sanitizer >/dev/null 2>&1; then
    echo "make sanitize needs compute-sanitizer (part of the CUDA Toolkit) on the PATH"
    exit 2
fi
shape="131 67 97"
failed=0
runs=0
for step in "$@"; do
    for tool in memcheck racecheck synccheck initcheck; do
        for beta in 0 0.5; do
            runs=$((runs + 1))
            log=$(compute-sanitizer --tool "$tool" --error-exitcode 99 \
                  "./$step" $shape --beta "$beta" --no-cublas --warmup 0 --reps 2 2>&1)
            rc=$?
            summary=$(printf '%s\n' "$log" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tail -n 1)
            if [ "$rc" -eq 0 ]; then
                printf 'PASS  %-7s %-9s beta=%-4s %s\n' "$step" "$tool" "$beta" "$summary"
            else
                failed=$((failed + 1))
                printf 'FAIL  %-7s %-9s beta=%-4s exit %s\n' "$step" "$tool" "$beta" "$rc"
                printf '%s\n' "$log" | sed 's/^/      /' | head -n 60
            fi
        done
    done
done
echo "sanitize: $((runs - failed)) passed, $failed failed (shape $shape)"
[ "$failed" -eq 0 ]
