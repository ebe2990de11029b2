#!/bin/sh
# What the exercises print on this GPU, for docs/teaching.md: every step's untouched exercise
# and its solution under --check (one line each), then in full `make check-exercise STEP=05`
# on the untouched exercise and on step 01 with a typical mistake (the last term of the dot
# product dropped). Writes DIR/exercises_<gpu>.txt; exits non-zero if an untouched exercise
# passes or a solution fails.
# usage: tools/exercises/exercise_demo.sh DIR   (after make test, which builds the exercises)
set -u
dir=${1:?usage: tools/exercises/exercise_demo.sh DIR}
cd "$(dirname "$0")/../.."
mkdir -p "$dir"
. tools/measure/gpu_meta.sh
arch=$(sh tools/compile/detect_arch.sh)
bins=build/$arch/exercises
file=$dir/exercises_$slug.txt
status=0
{
    header "tools/exercises/exercise_demo.sh: the exercises under --check"
    echo
    echo "## Every step: the untouched exercise, then the exercise with kernel.cuh's code pasted in"
    for skeleton in "$bins"/step[0-9][0-9]_skeleton; do
        n=$(basename "$skeleton" _skeleton)
        out=$("$skeleton" --check 2>&1); rc=$?
        echo "$n untouched: exit $rc, $(echo "$out" | grep -E '^(PASS|FAIL)' | head -n 1)"
        [ "$rc" = 1 ] || status=1
        out=$("$bins/${n}_solution" --check 2>&1); rc=$?
        echo "$n solution:  exit $rc, $(echo "$out" | grep -E '^(PASS|FAIL)' | head -n 1)"
        [ "$rc" = 0 ] || status=1
    done
    echo
    echo "## make check-exercise STEP=05, on the untouched exercise"
    echo "\$ make check-exercise STEP=05"
    make --no-print-directory -s step05_exercise >/dev/null 2>&1
    ./step05_exercise --check; echo "(exit status $?)"
    echo
    echo "## Step 01 with a typical mistake: the dot product loop stops at k < K - 1"
    sed 's/for (int k = 0; k < K; ++k) {/for (int k = 0; k < K - 1; ++k) {/' \
        build/exercises/step01_solution.cu > build/exercises/step01_mistake.cu
    echo "\$ diff build/exercises/step01_solution.cu build/exercises/step01_mistake.cu"
    diff build/exercises/step01_solution.cu build/exercises/step01_mistake.cu
    # built by the Makefile's rule for the exercises' test programs, with their flags
    make --no-print-directory -s "$bins/step01_mistake" >/dev/null
    "$bins/step01_mistake" --check; rc=$?; echo "(exit status $rc)"
    [ "$rc" = 1 ] || status=1
} > "$file" 2>&1
cat "$file"
exit $status
