#!/usr/bin/env python3
"""Prints the output of tools/ncu.sh (read from standard input) as a small table with a
plain name for each metric, grouped: time, memory, shared memory, the SM, and the warp
stall reasons (cycles a warp waited per instruction issued, for each reason).

usage: sh tools/ncu.sh 05 4096 | python3 tools/ncu_table.py
"""
import sys

from results_table import parse_ncu  # one reader of ncu's lines for all the tools

NAMES = [
    ("time", [("gpu__time_duration.sum", "kernel duration (ncu locks clocks to base)")]),
    ("global and device memory", [
        ("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", "sectors per global-load request"),
        ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global-load requests"),
        ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global-load sectors (32 bytes)"),
        ("smsp__inst_executed_op_global_ld.sum", "global-load instructions"),
        ("dram__bytes_read.sum", "DRAM bytes read"),
        ("dram__bytes_write.sum", "DRAM bytes written"),
    ]),
    ("shared memory", [
        ("smsp__inst_executed_op_shared_ld.sum", "shared-load instructions"),
        ("smsp__inst_executed_op_shared_st.sum", "shared-store instructions"),
        ("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "shared-memory wavefronts"),
        ("l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed", "shared-memory pipe busy"),
        ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "bank conflicts, loads"),
        ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "bank conflicts, stores"),
    ]),
    ("the SM", [
        ("sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy (active warps / 64)"),
        ("smsp__issue_active.avg.pct_of_peak_sustained_active", "issue slots used"),
        ("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "FMA pipe busy"),
    ]),
    ("warp stalls, cycles per issued instruction", [
        (f"smsp__average_warps_issue_stalled_{r}_per_issue_active.ratio", label) for r, label in [
            ("long_scoreboard", "waiting for global memory (long scoreboard)"),
            ("short_scoreboard", "waiting for shared memory (short scoreboard)"),
            ("mio_throttle", "memory-instruction queue full (MIO throttle)"),
            ("barrier", "at __syncthreads (barrier)"),
            ("math_pipe_throttle", "math pipe busy (math pipe throttle)"),
            ("not_selected", "ready, another warp issued (not selected)"),
            ("wait", "fixed latency (wait)"),
            ("dispatch_stall", "dispatch stall"),
            ("lg_throttle", "global-memory queue full (LG throttle)"),
        ]]),
]


def main():
    lines = sys.stdin.read().split("\n")
    values = {name: f"{value} {unit}".strip() for name, (unit, value) in parse_ncu(lines).items()}
    passthrough = [ln.rstrip() for ln in lines if ln.startswith(("ncu:", "==ERROR", "==WARNING"))]
    for line in passthrough:
        print(line)
    if not values:
        print("ncu_table: no metrics in the input (is ncu on the PATH, and may it read the counters?)")
        return 1
    width = max(len(label) for _, group in NAMES for _, label in group)
    for title, group in NAMES:
        print(f"\n{title}")
        for metric, label in group:
            if metric in values:
                print(f"  {label:<{width}}  {values[metric]:>18}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
