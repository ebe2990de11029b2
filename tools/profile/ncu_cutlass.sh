#!/bin/sh
# make cutlass: Nsight Compute's counters of CUTLASS's kernels at 4096^3 (make ncu's metric list,
# tools/profile/ncu_metrics.sh), each the second launch of `cutlass_compare run METHOD 4096`, as
# DIR/ncu_<method>_<gpu>.txt in the form of make ncu's ncu_stepNN_<gpu>.txt, so that the pages set
# them beside steps 11 and 12 (instructions per mma, issue slots, the tensor pipe).
# usage: tools/profile/ncu_cutlass.sh BINARY DIR
set -eu
bin=${1:?usage: tools/profile/ncu_cutlass.sh BINARY DIR}
dir=${2:?usage: tools/profile/ncu_cutlass.sh BINARY DIR}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
cd "$(dirname "$0")/../.."
mkdir -p "$dir"
. tools/measure/gpu_meta.sh       # $slug, header
. tools/profile/ncu_metrics.sh    # $metrics
for m in cutlass_tf32_256x128x32 cutlass_tf32_128x256x32 cutlass_3xtf32_128x128x32; do
    out=$dir/ncu_${m}_$slug.txt
    # CUTLASS's kernel is the template cutlass::Kernel<...>: its plain function name is "Kernel",
    # so the filter reads the demangled name
    ncu --kernel-name-base demangled --kernel-name regex:cutlass::Kernel --launch-skip 1 --launch-count 1 \
        --metrics "$metrics" "$bin" run "$m" 4096 > "$out.log" 2>&1 || true
    if ! grep -q 'Metric Name' "$out.log"; then
        echo "ncu_cutlass.sh: Nsight Compute gave no metrics for $m; its last lines:"; tail -n 5 "$out.log"; exit 1
    fi
    { header "make cutlass: ncu of $m at 4096^3 ($(ncu --version | tail -n 1)); ncu locks the clocks to base while it profiles"
      grep -v '^==PROF==' "$out.log" | sed -n '/Metric Name/,$p' | grep -v -- '^ *---'; } > "$out"
    rm -f "$out.log"
    echo "wrote $out"
done
