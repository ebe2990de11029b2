#!/bin/sh
# Saves in DIR what the READMEs show, each file headed by where and when it was made:
# for every step binary the full report of `./stepNN 4096` (report_stepNN_<gpu>.txt), its
# Nsight Compute metrics at 4096^3 (ncu_stepNN_<gpu>.txt, and as make ncu's table in
# profile_stepNN_<gpu>.txt) and the count of its load and
# store instructions by width in the SASS (sass_stepNN_<arch>.txt); the compiler's
# register report of every step kernel (regs_<arch>.txt, from `make regs`); and the tile
# configurations of steps 03-10 measured by `make tiles` (tiles_<gpu>.txt); and the GPU's
# ceilings measured by `make peak` (peak_<gpu>.txt, and peak_<gpu>.csv for tools/pages/plots.py);
# and step 10 with 3 and 2 stages (2 unrolled 32, 16 and 8 steps) beside cuBLAS under ncu (ladder_step10_<gpu>.txt);
# and step 09's kernel with each block tile and warp shape under ncu (warp_tile_<gpu>.txt);
# and step 10 with K split into 1 to 16 slices (splitk_<gpu>.txt); and step 10 beside the variants
# of it that did not pay, one patch each (variants_step10_<gpu>.txt); steps 01 and 02's cache
# counters at three sizes (stride_<gpu>.txt), and steps 04 and 05 under ncu at 4096^3 and 4095^3
# from one run (ncu_stepNN_SIZE_<gpu>.txt).
# usage: tools/measure/save_reports.sh DIR
set -eu
dir=${1:?usage: tools/measure/save_reports.sh DIR}
cd "$(dirname "$0")/../.."
mkdir -p "$dir"
. tools/measure/gpu_meta.sh  # $slug, header
arch=$(sh tools/compile/detect_arch.sh)
for bin in $(ls | grep -E '^step[0-9][0-9]$' | sort); do
    report=$dir/report_${bin}_$slug.txt
    { header "./$bin 4096"; echo "\$ ./$bin 4096"; ./"$bin" 4096; } > "$report"
    echo "wrote $report"
    sh tools/profile/save_ncu.sh "$dir" "${bin#step}"
    { header "memory instructions in the SASS of build/$arch/$bin.o, by kernel (cuobjdump -sass)"
      sh tools/profile/sass_count.sh "build/$arch/$bin.o"; } > "$dir/sass_${bin}_$arch.txt"
    echo "wrote $dir/sass_${bin}_$arch.txt"
done
{ header "make peak (tools/measure/peak.cu)"; "build/$arch/peak"; } > "$dir/peak_$slug.txt"
{ header "make peak (tools/measure/peak.cu), as CSV for tools/pages/plots.py"; "build/$arch/peak" --csv; } > "$dir/peak_$slug.csv"
echo "wrote $dir/peak_$slug.txt and $dir/peak_$slug.csv"
{ header "make tiles (tools/measure/tile_sweep.cu)"; make -s tiles ARCH="$arch"; } > "$dir/tiles_$slug.txt"
echo "wrote $dir/tiles_$slug.txt"
{ header "make ladder (tools/profile/ladder.sh, $(ncu --version | tail -n 1)); ncu locks the clocks to base while it profiles"
  sh tools/profile/ladder.sh "$arch"; } > "$dir/ladder_step10_$slug.txt"
echo "wrote $dir/ladder_step10_$slug.txt"
{ header "make warp-tile (tools/profile/warp_tile.sh, $(ncu --version | tail -n 1)); ncu locks the clocks to base while it profiles"
  sh tools/profile/warp_tile.sh "$arch"; } > "$dir/warp_tile_$slug.txt"
echo "wrote $dir/warp_tile_$slug.txt"
{ header "make splitk (tools/measure/tile_sweep.cu)"; make -s splitk ARCH="$arch"; } > "$dir/splitk_$slug.txt"
echo "wrote $dir/splitk_$slug.txt"
{ header "make variants (tools/measure/variants.py, the patches in tools/measure/variants/)"; make -s variants ARCH="$arch"; } > "$dir/variants_step10_$slug.txt"
echo "wrote $dir/variants_step10_$slug.txt"
sh tools/profile/save_sizes.sh "$dir"
{ header "make regs (ptxas --resource-usage, $arch)"; make -s regs ARCH="$arch"; } > "$dir/regs_$arch.txt"
echo "wrote $dir/regs_$arch.txt"
