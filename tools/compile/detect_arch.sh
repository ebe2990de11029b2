#!/bin/sh
# Prints the nvcc target for this machine's first GPU (sm_90 for compute capability 9.0),
# or sm_90 when no GPU answers, so that a machine without one still builds for the H100.
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
case "$cc" in
    '' | *[!0-9]*) echo sm_90 ;;
    *) echo "sm_$cc" ;;
esac
