#!/bin/sh
# make stride: what the row stride costs steps 01 and 02. Nsight Compute's
# cache counters for each step's kernel at 4096^3 (rows 16 KiB apart, a power of two), 4095^3
# (16,380 bytes: every block an edge block in K) and 4064^3 (16,256 bytes: full tiles, not a
# power of two): the global-load sectors asked for, how many hit in L1, what L1 asked of the L2
# and how many of those hit there, device-memory bytes, the wavefronts L1's data stage spent
# on reads (global and shared together; these two steps use no shared memory, so they are the
# global loads'), and the cycles warps waited on memory.
# Each run's lines open with "== stepNN SIZE"; step 01's lesson reads its figures from
# docs/results/stride_<gpu>.txt (tools/pages/results_table.py: st()).
# usage: make stride
set -eu
metrics=gpu__time_duration.sum
metrics=$metrics,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
metrics=$metrics,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct
metrics=$metrics,lts__t_sectors_srcunit_tex_op_read.sum
metrics=$metrics,lts__t_sector_op_read_hit_rate.pct
metrics=$metrics,dram__bytes_read.sum
metrics=$metrics,l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum
metrics=$metrics,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
for step in 01 02; do
    for size in 4096 4095 4064; do
        echo "== step$step $size"
        ncu --kernel-name regex:sgemm_ --launch-count 1 --metrics "$metrics" \
            "./step$step" "$size" --warmup 0 --reps 1 --no-cublas 2>&1 |
            grep -v '^==PROF==' | sed -n '/Metric Name/,$p' | grep -v -e '^ *---' -e 'Metric Name'
    done
done
