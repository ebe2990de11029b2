#!/bin/sh
# make ncu STEP=NN [SIZE=S]: Nsight Compute on the first launch of step NN's kernel,
# with a short list of named metrics (global-load sectors per request, DRAM bytes,
# achieved occupancy, FMA pipe use, issue-slot use, load instructions, shared-memory
# wavefronts and bank conflicts, the warp instructions issued (all, on the FMA pipe) and the
# FFMAs, the main warp stall reasons, duration). Prints ncu's own
# lines; `make ncu` then prints them as a small table (tools/profile/ncu_table.py).
# usage: tools/profile/ncu.sh NN [SIZE]
set -eu
step=step${1:?usage: tools/profile/ncu.sh NN [SIZE]}
size=${2:-4096}
. "$(dirname "$0")/ncu_metrics.sh"  # $metrics
echo "ncu: ./$step $size, first launch of its kernel"
ncu --kernel-name regex:sgemm_ --launch-count 1 --metrics "$metrics" \
    "./$step" "$size" --warmup 0 --reps 1 --no-cublas
