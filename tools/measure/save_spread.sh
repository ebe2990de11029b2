#!/bin/sh
# make spread: how far a step's GFLOP/s moves from one run to the next, so that a lesson can
# state its gain beside the spread. Runs steps 05-10 at 4096^3, and steps 07-09 at 1024^3,
# ROUNDS times, round by round (05, 06, .., 10, 07, 08, 09, then the next round), each run
# its own process with the harness's own timing (median of 20 launches after 3 warm-up, cuBLAS
# in the same process). Writes DIR/spread_<gpu>.txt: the two header lines, then
# the harness's CSV lines (./stepNN --csv) with the round in front.
# usage: tools/measure/save_spread.sh DIR [ROUNDS]   (default 7 rounds)
set -eu
dir=${1:?usage: tools/measure/save_spread.sh DIR [ROUNDS]}
rounds=${2:-7}
cd "$(dirname "$0")/../.."
mkdir -p "$dir"
. tools/measure/gpu_meta.sh  # $slug, header
out=$dir/spread_$slug.txt
{
    header "make spread (tools/measure/save_spread.sh): $rounds rounds, each run its own process"
    echo "round,$(./step05 --csv-header)"
    r=1
    while [ "$r" -le "$rounds" ]; do
        for run in "05 4096" "06 4096" "07 4096" "08 4096" "09 4096" "10 4096" \
                   "07 1024" "08 1024" "09 1024"; do
            set -- $run
            echo "$r,$(./step$1 "$2" --csv)"
        done
        r=$((r + 1))
    done
} > "$out"
echo "wrote $out ($rounds rounds)"
