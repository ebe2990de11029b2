#!/bin/sh
# Measures every step binary at each SIZE^3 (default 4096 and 4095: the cost of the edge
# tiles; each run also times cuBLAS on the same inputs) and writes DIR/<gpu>.csv: one row
# per step and size, with the date, commit and driver beside the numbers the binary
# reports. The README tables are made from these files by tools/results_table.py.
# usage: tools/record_results.sh DIR [SIZE...]
set -eu
dir=${1:?usage: tools/record_results.sh DIR [SIZE...]}
shift
sizes=${*:-4096 4095}
cd "$(dirname "$0")/.."
mkdir -p "$dir"
. tools/gpu_meta.sh
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
out="$dir/$slug.csv"
tmp="$out.tmp"
echo "date,commit,driver,$(./step01 --csv-header)" > "$tmp"
for bin in $(ls | grep -E '^step[0-9][0-9]$' | sort); do
    for size in $sizes; do
        echo "running ./$bin $size --csv" >&2
        row=$(./"$bin" "$size" --csv)
        echo "$date,$commit,$driver,$row" >> "$tmp"
    done
done
mv "$tmp" "$out"
echo "wrote $out" >&2
# a readable summary: step, GFLOP/s, cuBLAS GFLOP/s, % of cuBLAS, registers, verified
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
         { printf "%-8s %-14s %5s %10s GFLOP/s  cuBLAS %10s  %6s%% of cuBLAS  %3s regs  %s\n",
                  $col["step"], $col["title"], $col["M"], $col["gflops"], $col["cublas_gflops"],
                  $col["pct_of_cublas"], $col["registers"], $col["verified"] }' "$out"
