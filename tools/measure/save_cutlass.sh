#!/bin/sh
# make cutlass: runs tools/measure/cutlass_compare.cu and keeps its table and its CSV, headed by
# the GPU's provenance line, as docs/results/cutlass_<gpu>.txt and .csv (the lessons of steps 11
# and 12 quote them through tools/pages/results_table.py).
# usage: tools/measure/save_cutlass.sh BINARY DIR
set -eu
bin=${1:?usage: tools/measure/save_cutlass.sh BINARY DIR}
dir=${2:?usage: tools/measure/save_cutlass.sh BINARY DIR}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
cd "$(dirname "$0")/../.."
mkdir -p "$dir"
. tools/measure/gpu_meta.sh  # $slug, header
{ header "make cutlass (tools/measure/cutlass_compare.cu, CUTLASS from nvidia-cutlass on PyPI)"; "$bin"; } > "$dir/cutlass_$slug.txt"
{ header "make cutlass (tools/measure/cutlass_compare.cu, CUTLASS from nvidia-cutlass on PyPI), as CSV"; "$bin" --csv; } > "$dir/cutlass_$slug.csv"
cat "$dir/cutlass_$slug.txt"
echo "wrote $dir/cutlass_$slug.txt and $dir/cutlass_$slug.csv"
