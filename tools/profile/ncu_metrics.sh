# Sourced by tools/profile/ncu.sh and warp_tile.sh (not run): sets $metrics, the list of
# Nsight Compute metrics `make ncu` collects and tools/profile/ncu_table.py names.
metrics=gpu__time_duration.sum
metrics=$metrics,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio
metrics=$metrics,dram__bytes_read.sum,dram__bytes_write.sum
# what L2 serves the SMs' loads and copies, and how busy it is (steps 11 and 12: padding against swizzle)
metrics=$metrics,lts__t_sectors_srcunit_tex_op_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed
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
# the tensor pipe's busy share: steps 11 and 12 and CUTLASS's kernels (0 for the FFMA steps)
metrics=$metrics,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
for stall in long_scoreboard short_scoreboard mio_throttle barrier math_pipe_throttle \
             not_selected wait dispatch_stall lg_throttle no_instruction; do
    metrics=$metrics,smsp__average_warps_issue_stalled_${stall}_per_issue_active.ratio
done
