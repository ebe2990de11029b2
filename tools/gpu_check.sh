#!/bin/sh
# The whole GPU validation in one go: build for the GPU found, `make test` with the GPU
# tests, `make regs`, the 4096^3 benchmark of every step against cuBLAS, each step's
# full report and Nsight Compute metrics, and `make sanitize`. Each stage's log and a
# short summary go to OUTDIR. Everything under OUTDIR/results/ (the benchmark CSV, the
# reports, the ncu metrics) belongs in docs/results/: the READMEs' tables and listings
# are generated from those files by tools/results_table.py.
# Exits non-zero if any stage failed.
# usage: tools/gpu_check.sh OUTDIR        (or: make gpu-check OUT=OUTDIR)
set -u
out=${1:?usage: tools/gpu_check.sh OUTDIR}
cd "$(dirname "$0")/.."
mkdir -p "$out"
summary=$out/summary.txt
failed=0

. tools/gpu_meta.sh
{
    echo "GPU check  $(date -u +%Y-%m-%dT%H:%M:%SZ)  commit $commit"
    nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,memory.total --format=csv,noheader 2>&1
    nvcc --version | tail -n 2 | head -n 1
} > "$summary"

stage() {  # stage NAME COMMAND...: runs COMMAND with its output in OUTDIR/NAME.log
    name=$1
    shift
    start=$(date +%s)
    if "$@" > "$out/$name.log" 2>&1; then verdict=PASS; else verdict=FAIL; failed=1; fi
    echo "$verdict  $name ($(( $(date +%s) - start )) s): $*" | tee -a "$summary"
}

stage build make -j "$(nproc)" all build/"$(sh tools/detect_arch.sh)"/run_tests
stage test make test
stage regs make regs
stage bench sh tools/record_results.sh "$out/results"
stage reports sh tools/save_reports.sh "$out/results"
stage sanitize make sanitize

{
    echo
    echo "== test";     tail -n 3 "$out/test.log"
    echo "== regs";     cat "$out/regs.log"
    echo "== sanitize"; tail -n 1 "$out/sanitize.log"
    echo "== bench";    grep -v '^running' "$out/bench.log"
    echo "== reports";  cat "$out/reports.log"
} >> "$summary"
cat "$summary"
exit $failed
