#!/bin/sh
# make ladder: Nsight Compute's counters for step 10's rungs against cuBLAS, all in one process
# at 4096^3 (`tile_sweep ladder`: one launch each): cuBLAS's kernel, step 10's tile with
# 3 stages (what the H100 ran before), with the shipped 2 stages, and those 2 stages unrolled
# 32 and 8 steps instead of 16. Step 10's README reads its "Against cuBLAS" and "How far to
# unroll" figures from what this prints (docs/results/ladder_step10_<gpu>.txt).
# usage: tools/profile/ladder.sh ARCH
set -eu
arch=${1:?usage: tools/profile/ladder.sh ARCH}
metrics=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__inst_executed_pipe_fma.sum
metrics=$metrics,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
metrics=$metrics,smsp__issue_active.avg.pct_of_peak_sustained_active
metrics=$metrics,smsp__inst_executed_op_shared_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
for stall in long_scoreboard short_scoreboard mio_throttle barrier math_pipe_throttle \
             not_selected wait dispatch_stall no_instruction; do
    metrics=$metrics,smsp__average_warps_issue_stalled_${stall}_per_issue_active.ratio
done
ncu --kernel-name regex:'sgemm_double_buffer|gemm' --metrics "$metrics" \
    "build/$arch/tile_sweep" ladder 2>&1 | grep -v '^==PROF==' | python3 tools/profile/ncu_table.py --columns
