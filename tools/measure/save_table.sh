#!/bin/sh
# make precision, make cutlass: runs a measuring program twice, once for the table it prints and
# once with --csv, each output headed by the GPU's provenance line, as DIR/NAME_<gpu>.txt and
# DIR/NAME_<gpu>.csv (tools/pages reads the CSV into the pages and plots; the table is the record
# of the run). The program is tools/measure/<its binary's name>.cu.
# usage: tools/measure/save_table.sh NAME BINARY DIR     (NAME: precision, cutlass)
set -eu
name=${1:?usage: tools/measure/save_table.sh NAME BINARY DIR}
bin=${2:?usage: tools/measure/save_table.sh NAME BINARY DIR}
dir=${3:?usage: tools/measure/save_table.sh NAME BINARY DIR}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
cd "$(dirname "$0")/../.."
mkdir -p "$dir"
. tools/measure/gpu_meta.sh  # $slug, header
what="make $name (tools/measure/$(basename "$bin").cu)"
{ header "$what"; "$bin"; } > "$dir/${name}_$slug.txt"
{ header "$what, as CSV"; "$bin" --csv; } > "$dir/${name}_$slug.csv"
cat "$dir/${name}_$slug.txt"
echo "wrote $dir/${name}_$slug.txt and $dir/${name}_$slug.csv"
