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
metrics=gpu__time_duration.sum
metrics=$metrics,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio
metrics=$metrics,dram__bytes_read.sum,dram__bytes_write.sum
metrics=$metrics,sm__warps_active.avg.pct_of_peak_sustained_active
metrics=$metrics,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
metrics=$metrics,smsp__inst_executed_op_global_ld.sum
metrics=$metrics,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
metrics=$metrics,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
metrics=$metrics,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed
metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics=$metrics,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
metrics=$metrics,smsp__inst_executed_pipe_fma.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
for stall in long_scoreboard short_scoreboard mio_throttle barrier math_pipe_throttle \
             not_selected wait dispatch_stall lg_throttle no_instruction; do
    metrics=$metrics,smsp__average_warps_issue_stalled_${stall}_per_issue_active.ratio
done
echo "ncu: ./$step $size, first launch of its kernel"
ncu --kernel-name regex:sgemm_ --launch-count 1 --metrics "$metrics" \
    "./$step" "$size" --warmup 0 --reps 1 --no-cublas
