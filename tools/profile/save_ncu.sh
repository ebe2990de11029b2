#!/bin/sh
# Saves in DIR each named step's Nsight Compute metrics at 4096^3 (make ncu: ncu_stepNN_<gpu>.txt)
# and the same as make ncu's table (profile_stepNN_<gpu>.txt), each headed by where and when it
# was made. tools/measure/save_reports.sh calls it for every step; alone it re-profiles a few.
# usage: tools/profile/save_ncu.sh DIR NN ...
set -eu
dir=${1:?usage: tools/profile/save_ncu.sh DIR NN ...}
shift
cd "$(dirname "$0")/../.."
mkdir -p "$dir"
. tools/measure/gpu_meta.sh  # $slug, header
for n in "$@"; do
    ncu_out=$dir/ncu_step${n}_$slug.txt
    { header "make ncu STEP=$n SIZE=4096 ($(ncu --version | tail -n 1)); ncu locks the clocks to base while it profiles"
      sh tools/profile/ncu.sh "$n" 4096 2>&1 | grep -v '^==PROF==' | sed -n '/Metric Name/,$p' | grep -v -- '^ *---'; } > "$ncu_out"
    echo "wrote $ncu_out"
    { head -n 2 "$ncu_out"; echo "# the same metrics as make ncu prints them (tools/profile/ncu_table.py)"
      python3 tools/profile/ncu_table.py < "$ncu_out"; } > "$dir/profile_step${n}_$slug.txt"
    echo "wrote $dir/profile_step${n}_$slug.txt"
done
