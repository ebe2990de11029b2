#!/bin/sh
# make precision: runs tools/measure/precision.cu and keeps its table and its CSV, headed by the
# GPU's provenance line, as docs/results/precision_<gpu>.txt and .csv (tools/pages reads the CSV
# for docs/precision.md and the plot images/precision_<gpu>.png).
# usage: tools/measure/save_precision.sh BINARY DIR
set -eu
bin=${1:?usage: tools/measure/save_precision.sh BINARY DIR}
dir=${2:?usage: tools/measure/save_precision.sh BINARY DIR}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
cd "$(dirname "$0")/../.."
mkdir -p "$dir"
. tools/measure/gpu_meta.sh  # $slug, header
{ header "make precision (tools/measure/precision.cu)"; "$bin"; } > "$dir/precision_$slug.txt"
{ header "make precision (tools/measure/precision.cu), as CSV"; "$bin" --csv; } > "$dir/precision_$slug.csv"
cat "$dir/precision_$slug.txt"
echo "wrote $dir/precision_$slug.txt and $dir/precision_$slug.csv"
