#!/bin/sh
# The T4 path on a bigger GPU: every step and the Python library built for sm_75 (nvcc's
# -arch=sm_75 keeps compute_75 PTX beside the sm_75 code, and the driver compiles that PTX for
# the GPU at hand), run with SGEMM_GPU_CLASS=sm_75:40, the limits of a T4 (64 KB of shared
# memory per SM and per block, 40 SMs), so that each step chooses its configuration as a T4
# would. Runs `--check` of every step (every awkward shape), one line of figures per step at
# 2048^3 (the notebook's size), step 10's full report, and python/tests against the sm_75
# library. The figures are this GPU's running T4 code, not a T4's. Relinks ./stepNN for the
# detected architecture at the end. Writes DIR/t4_path_<gpu>.txt; exits non-zero if a check or
# a test failed.
# usage: tools/validate/as_t4.sh DIR
set -u
dir=${1:?usage: tools/validate/as_t4.sh DIR}
cd "$(dirname "$0")/../.."
mkdir -p "$dir"
. tools/measure/gpu_meta.sh
file=$dir/t4_path_$slug.txt
class=sm_75:40
jobs=$(nproc)
ids=$(ls -d steps/[0-9][0-9]_* | sed 's|steps/\([0-9]*\)_.*|\1|')  # 01 ... 10
bins=$(for s in $ids; do echo "step$s"; done)
status=0

make -j "$jobs" ARCH=sm_75 $bins python || exit 1
{
    header "tools/validate/as_t4.sh: the steps built for sm_75, run with SGEMM_GPU_CLASS=$class"
    echo "# built: make ARCH=sm_75 (sm_75 code + compute_75 PTX; the driver compiles the PTX for this GPU)"
    echo "# figures: this GPU running T4 code with a T4's limits, not a T4's figures"
    echo
    echo "## --check of every step (every awkward shape, alpha and beta)"
    for s in $ids; do
        out=$(SGEMM_GPU_CLASS=$class ./step$s --check 2>&1); rc=$?
        if grep -q "kMinArch = 80" steps/${s}_*/kernel.cuh; then
            # steps 11 and 12 need TF32 tensor cores: on a T4 each must refuse in one line, exit 2
            echo "step$s: exit $rc, $out"
            [ "$rc" = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ] || status=1
            continue
        fi
        echo "step$s: exit $rc, $(echo "$out" | grep -E '^(PASS|FAIL)' | tail -n 1)"
        [ "$rc" = 0 ] || { status=1; echo "$out" | tail -n 20; }
    done
    echo
    echo "## One line each at 2048^3, as the notebook runs them"
    ./step01 --csv-header
    for s in $ids; do
        grep -q "kMinArch = 80" steps/${s}_*/kernel.cuh && continue  # refused above, in one line
        SGEMM_GPU_CLASS=$class ./step$s 2048 --csv --reps 10 || status=1
    done
    echo
    echo "## Step 10's report at 2048^3"
    SGEMM_GPU_CLASS=$class ./step10 2048 || status=1
    echo
    echo "## python/tests against build/sm_75/libsgemm_steps.so"
    out=$(SGEMM_GPU_CLASS=$class SGEMM_STEPS_LIB=$PWD/build/sm_75/libsgemm_steps.so \
        python3 -m pytest -q -rs python/tests 2>&1); rc=$?
    echo "$out" | tail -n 8
    [ "$rc" = 0 ] || status=1
} > "$file" 2>&1
cat "$file"
make -j "$jobs" $bins > /dev/null || status=1
exit $status
