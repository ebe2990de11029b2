#!/bin/sh
# make ab STEP=NN BEFORE=REV: one lever, measured. Builds step NN twice, with its kernel.cuh of
# now and with the one of git revision REV (the Makefile takes it out of git into build/ab/), and
# times both in turns, each beside cuBLAS FP32 in the same run (the step's own --csv line), in
# ROUNDS rounds at each size, into DIR/ab_stepNN_<gpu>.txt: one line per run, "before" and "after".
# A lab note quotes the lever from that file; timing the two in one sitting, in turns, keeps the
# GPU's clocks and the run-to-run drift out of the difference.
# With LEVER=name the file is ab_stepNN_name_<gpu>.txt, so that a step's levers keep a file each.
# usage: [LEVER=name] tools/measure/ab.sh NN BEFORE_KERNEL LABEL DIR [SIZE ...]   (ROUNDS=3 by default; sizes 4096 8192)
set -eu
n=${1:?usage: tools/measure/ab.sh NN BEFORE_KERNEL LABEL DIR [SIZE ...]}
before=${2:?usage: tools/measure/ab.sh NN BEFORE_KERNEL LABEL DIR [SIZE ...]}
label=${3:?usage: tools/measure/ab.sh NN BEFORE_KERNEL LABEL DIR [SIZE ...]}
dir=${4:?usage: tools/measure/ab.sh NN BEFORE_KERNEL LABEL DIR [SIZE ...]}
shift 4
sizes=${*:-4096 8192}
before=$(cd "$(dirname "$before")" && pwd)/$(basename "$before")
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
cd "$(dirname "$0")/../.."
step_dir=$(ls -d steps/${n}_*)
arch=$(cat build/arch 2>/dev/null || sh tools/compile/detect_arch.sh)
work=build/ab/step$n
rm -rf "$work" && mkdir -p "$work"
cp "$step_dir/main.cu" "$work/main.cu" && cp "$before" "$work/kernel.cuh"
[ -d "$step_dir/tuned" ] && cp -r "$step_dir/tuned" "$work/"  # step 08's tuned tile sizes
make --no-print-directory "step$n" build/"$arch"/libsgemm_common.a > /dev/null
# with the flags of the step's own build (the Makefile's), so that only the kernel differs
nvcc $(make --no-print-directory -s print-nvccflags) -o "$work/before" "$work/main.cu" \
    build/"$arch"/libsgemm_common.a $(make --no-print-directory -s print-ldlibs)
. tools/measure/gpu_meta.sh  # $slug, header
out=$dir/ab_step${n}${LEVER:+_$LEVER}_$slug.txt
fields='{print $12 " GFLOP/s, cuBLAS FP32 " $14 " GFLOP/s, " sprintf("%.3f", $12 / $14) "x"}'
{ header "make ab STEP=$n: step $n's kernel.cuh (after) against the one of $label (before), in turns, each beside cuBLAS FP32 in its own run (tools/measure/ab.sh)"
  for round in $(seq "${ROUNDS:-3}"); do
      for size in $sizes; do
          echo "round $round $size before $("$work/before" $size --csv | tail -n 1 | awk -F, "$fields")"
          echo "round $round $size after $("./step$n" $size --csv | tail -n 1 | awk -F, "$fields")"
      done
  done; } > "$out"
cat "$out"
echo "wrote $out"
