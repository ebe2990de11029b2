#!/bin/sh
# make tc-variants: runs tools/measure/tc_variants.cu and keeps its output, headed by the GPU's
# provenance line, as DIR/tc_variants_<gpu>.txt; then Nsight Compute's counters of five of its
# variants at 4096^3 (the tensor pipe, the ALU and LSU pipes, instructions, the stall reasons) as
# DIR/tc_ncu_<gpu>.txt. Steps 11 and 12's lab notes read both.
# usage: tools/measure/save_tc_variants.sh BINARY DIR
set -eu
bin=${1:?usage: tools/measure/save_tc_variants.sh BINARY DIR}
dir=${2:?usage: tools/measure/save_tc_variants.sh BINARY DIR}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
cd "$(dirname "$0")/../.."
mkdir -p "$dir"
. tools/measure/gpu_meta.sh  # $slug, header
{ header "make tc-variants (tools/measure/tc_variants.cu)"; "$bin"; } > "$dir/tc_variants_$slug.txt"
cat "$dir/tc_variants_$slug.txt"
metrics="sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed.sum,gpu__time_duration.sum,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio,smsp__average_warp_latency_issue_stalled_selected.ratio,smsp__average_warp_latency_issue_stalled_not_selected.ratio,smsp__average_warp_latency_issue_stalled_dispatch_stall.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio"
{ header "make tc-variants: Nsight Compute ($(ncu --version | tail -n 1)) at 4096^3; ncu locks the clocks to base while it profiles"
  for i in 0 1 2 10 11 13; do
      ncu --kernel-name regex:gemm_tc --launch-skip 1 --launch-count 1 --metrics "$metrics" "$bin" run "$i" 2>&1 |
          grep -E "^ran |^ +(sm|l1|smsp|gpu)__" | sed -E 's/ +/ /g'
  done; } > "$dir/tc_ncu_$slug.txt"
cat "$dir/tc_ncu_$slug.txt"
echo "wrote $dir/tc_variants_$slug.txt and $dir/tc_ncu_$slug.txt"
