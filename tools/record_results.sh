#!/bin/sh
# Measures every step binary at each shape (each run also times cuBLAS on the same inputs)
# and writes DIR/<gpu>.csv: one row per step and shape, with the date, commit and driver
# beside the numbers the binary reports. A shape is SIZE (M = N = K) or MxNxK. By default:
# 1024, 2048, 4096 and 8192 cubed, 4095^3 (where every tile is an edge tile: what the edges
# cost) and one non-square shape. Shapes of more than 2 x 4096^3 multiply-adds run 1 warm-up
# and 5 timed launches instead of 3 and 20, so the naive step at 8192 takes seconds, not
# a minute. The README tables are made from these files by tools/results_table.py.
# usage: tools/record_results.sh DIR [SHAPE...]
set -eu
dir=${1:?usage: tools/record_results.sh DIR [SHAPE...]}
shift
shapes=${*:-1024 2048 4096 8192 4095 8192x1024x4096}
cd "$(dirname "$0")/.."
mkdir -p "$dir"
. tools/gpu_meta.sh
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
out="$dir/$slug.csv"
tmp="$out.tmp"
echo "date,commit,driver,$(./step01 --csv-header)" > "$tmp"
bins=$(ls | grep -E '^step[0-9][0-9]$' | sort)
total=$(( $(echo $bins | wc -w) * $(echo $shapes | wc -w) ))
i=0
for bin in $bins; do
    for shape in $shapes; do
        i=$((i + 1))
        dims=$(echo "$shape" | tr 'x' ' ')
        set -- $dims
        if [ $# -eq 1 ]; then set -- "$1" "$1" "$1"; fi
        reps=""
        if [ $(( $1 * $2 / 1024 * $3 / 1024 )) -gt $(( 2 * 4096 * 4096 / 1024 * 4096 / 1024 )) ]; then
            reps="--warmup 1 --reps 5"
        fi
        echo "[$i/$total] ./$bin $* --csv $reps" >&2
        row=$(./"$bin" "$@" --csv $reps)
        echo "$date,$commit,$driver,$row" >> "$tmp"
    done
done
mv "$tmp" "$out"
echo "wrote $out" >&2
# a readable summary: step, GFLOP/s, cuBLAS GFLOP/s, % of cuBLAS, registers, verified
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
         { printf "%-8s %-14s %15s %10s GFLOP/s  cuBLAS %10s  %6s%% of cuBLAS  %3s regs  %s\n",
                  $col["step"], $col["title"], $col["M"] "x" $col["N"] "x" $col["K"], $col["gflops"], $col["cublas_gflops"],
                  $col["pct_of_cublas"], $col["registers"], $col["verified"] }' "$out"
