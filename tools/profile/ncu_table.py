#!/usr/bin/env python3
"""Prints the output of tools/profile/ncu.sh (read from standard input) as a small table with a
plain name for each metric, grouped: time, memory, shared memory, the SM, and the warp
stall reasons (cycles a warp waited per instruction issued, for each reason).

usage: sh tools/profile/ncu.sh 05 4096 | python3 tools/profile/ncu_table.py
       python3 tools/profile/ncu_table.py --columns < ncu-output   (several kernels, a column each)
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pages"))  # results_table.py
from results_table import parse_ncu  # noqa: E402  one reader of ncu's lines for all the tools

NAMES = [
    ("time", [("gpu__time_duration.sum", "kernel duration (ncu locks clocks to base)")]),
    ("global and device memory", [
        ("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", "sectors per global-load request"),
        ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global-load requests"),
        ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global-load sectors (32 bytes)"),
        ("smsp__inst_executed_op_global_ld.sum", "global-load instructions"),
        ("dram__bytes_read.sum", "DRAM bytes read"),
        ("dram__bytes_write.sum", "DRAM bytes written"),
        ("lts__t_sectors_srcunit_tex_op_read.sum", "L2 sectors read by the SMs"),
        ("lts__throughput.avg.pct_of_peak_sustained_elapsed", "L2 busy (% of peak)"),
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
        ("smsp__inst_executed.sum", "warp instructions issued"),
        ("smsp__inst_executed_pipe_fma.sum", "of them on the FMA pipe"),
        ("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "FFMA, thread instructions (M N K)"),
        ("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "FMA pipe busy"),
        ("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", "tensor pipe busy"),
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
            ("no_instruction", "no instruction fetched (instruction cache)"),
            ("lg_throttle", "global-memory queue full (LG throttle)"),
        ]]),
]


KERNEL = re.compile(r"^\s+(\S.*?)\s+\(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)")


def column_name(kernel):
    """A short name for a kernel ncu names in full: step 10's with its stages and unroll depth
    (template arguments 9 and 10), step 09's with its block and warp tiles, cuBLAS's with its tile."""
    m = re.match(r"(?:void )?(?:step10::)?sgemm_double_buffer<([^>]*)>", kernel)
    if m:
        a = [x.strip() for x in m.group(1).split(",")]
        return f"step 10, {a[8]} stages, unroll {a[9]}"
    m = re.match(r"(?:void )?(?:step09::)?sgemm_warptiling<([^>]*)>", kernel)
    if m:
        a = [x.strip() for x in m.group(1).split(",")]
        return f"{a[0]}x{a[1]}, warp {a[3]}x{a[4]}"
    m = re.search(r"tilesize(\d+x\d+x\d+)", kernel)
    return f"cuBLAS {m.group(1)}" if m else kernel[:40]


def columns(lines):
    """Every kernel in ncu's output as a column, the metrics of NAMES as rows."""
    kernels, current = [], None
    for line in lines:
        m = KERNEL.match(line)
        if m:
            current = {}
            kernels.append((column_name(m.group(1)), current))
        elif current is not None:
            current.update(parse_ncu([line]))
    if not kernels:
        print("ncu_table: no kernels in the input")
        return 1
    width = max(len(label) for _, group in NAMES for _, label in group)
    cw = max(19, max(len(name) for name, _ in kernels) + 2)
    print(f"{'':<{width + 2}}" + "".join(f"{name:>{cw}}" for name, _ in kernels))
    for title, group in NAMES:
        rows = [(metric, label) for metric, label in group if any(metric in k for _, k in kernels)]
        if not rows:
            continue
        print(f"\n{title}")
        for metric, label in rows:
            cells = "".join(f"{(k[metric][1] + ' ' + k[metric][0]).strip() if metric in k else '-':>{cw}}"
                            for _, k in kernels)
            print(f"  {label:<{width}}{cells}")
    return 0


def main():
    lines = sys.stdin.read().split("\n")
    if "--columns" in sys.argv[1:]:
        return columns(lines)
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
