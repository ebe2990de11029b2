#!/bin/sh
# make warp-tile: step 09's control experiment under Nsight Compute. `tile_sweep warps` launches
# step 09's kernel once at 4096^3 with each block tile (64 x 256, 128 x 128) and each warp shape
# (step 08's flat row of threads: 8 x 256 or 16 x 128; step 09's compact tile: 32 x 64 or
# 64 x 32), all with 8 x 8 per thread and step 09's cap of two blocks per SM; this prints make
# ncu's metrics for the four, a column each. Step 09's README reads its "Where the gain comes
# from" figures from what this prints (docs/results/warp_tile_<gpu>.txt).
# usage: tools/profile/warp_tile.sh ARCH
set -eu
arch=${1:?usage: tools/profile/warp_tile.sh ARCH}
. "$(dirname "$0")/ncu_metrics.sh"  # $metrics
ncu --kernel-name regex:sgemm_warptiling --metrics "$metrics" "build/$arch/tile_sweep" warps 2>&1 |
    grep -v '^==PROF==' | python3 "$(dirname "$0")/ncu_table.py" --columns
