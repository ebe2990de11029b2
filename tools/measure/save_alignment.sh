#!/bin/sh
# make alignment: runs tools/measure/alignment.cu and keeps its table, headed by the GPU's
# provenance line, as DIR/alignment_<gpu>.txt (docs/alignment.md reads it).
# usage: tools/measure/save_alignment.sh BINARY DIR
set -eu
bin=${1:?usage: tools/measure/save_alignment.sh BINARY DIR}
dir=${2:?usage: tools/measure/save_alignment.sh BINARY DIR}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
cd "$(dirname "$0")/../.."
mkdir -p "$dir"
. tools/measure/gpu_meta.sh  # $slug, header
{ header "make alignment (tools/measure/alignment.cu)"; "$bin"; } > "$dir/alignment_$slug.txt"
cat "$dir/alignment_$slug.txt"
echo "wrote $dir/alignment_$slug.txt"
