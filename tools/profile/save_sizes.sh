#!/bin/sh
# Saves in DIR the profiles that compare sizes within one run, each file headed by where and when
# it was made: steps 01 and 02 at 4096^3, 4095^3 and 4064^3 (make stride: stride_<gpu>.txt), and
# steps 04 and 05 under make ncu at 4096^3 and 4095^3 (ncu_stepNN_SIZE_<gpu>.txt), what step 05's
# lesson says the edge tiles cost. Needs ./step01, ./step02, ./step04 and ./step05 built.
# usage: tools/profile/save_sizes.sh DIR   (tools/measure/save_reports.sh and gpu_check.sh call it)
set -eu
dir=${1:?usage: tools/profile/save_sizes.sh DIR}
cd "$(dirname "$0")/../.."
mkdir -p "$dir"
. tools/measure/gpu_meta.sh  # $slug, header
ncu_version=$(ncu --version | tail -n 1)
{ header "make stride (tools/profile/stride.sh, $ncu_version); ncu locks the clocks to base while it profiles"
  sh tools/profile/stride.sh; } > "$dir/stride_$slug.txt"
echo "wrote $dir/stride_$slug.txt"
for n in 04 05; do
    for size in 4096 4095; do
        { header "make ncu STEP=$n SIZE=$size ($ncu_version); ncu locks the clocks to base while it profiles"
          sh tools/profile/ncu.sh "$n" "$size" 2>&1 | grep -v '^==PROF==' | sed -n '/Metric Name/,$p' | grep -v -- '^ *---'; } \
            > "$dir/ncu_step${n}_${size}_$slug.txt"
        echo "wrote $dir/ncu_step${n}_${size}_$slug.txt"
    done
done
