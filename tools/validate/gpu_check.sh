#!/bin/sh
# The whole GPU validation in one go: build for the GPU found, `make test` with the GPU
# tests, `make regs`, `make bench` (every step against cuBLAS over a sweep of sizes), each
# step's full report and Nsight Compute metrics, `make peak`, `make tiles`, `make alignment`
# (steps 10-12 at sizes that are not multiples of 4: 4-byte copies against packing), `make
# spread` (steps 05-10 run seven times each, the spread their lessons state gains with), and
# `make sanitize`; what the classroom exercises print (tools/exercises/exercise_demo.sh); the
# course notebook run top to bottom (tools/validate/run_notebook.py, which needs nbclient and
# ipykernel) and its Numba loops timed (tools/measure/numba_loops.py); steps 11 and 12 beside
# CUTLASS's mma.sync GEMMs (make cutlass, stage cutlass); and the T4 path: the
# steps built for sm_75 and run with a T4's limits forced
# (tools/validate/as_t4.sh); steps 01, 02, 04 and 05 profiled at several sizes in one run
# (tools/profile/save_sizes.sh). Each stage's log and a short summary go to OUTDIR. Everything
# under OUTDIR/results/ (the benchmark CSV, the reports, the ncu metrics, the executed
# notebook, the T4 path's record) belongs in docs/results/: the READMEs' tables and listings
# are generated from those files by tools/pages/results_table.py.
# With TUNE=1 it first runs `make tune STEP=08`, before step 08 is built, and leaves the new
# tuned header and search table in OUTDIR/tuned/ and OUTDIR/results/ as well.
# With TUNE_CLASSES="sm_75 ..." it first runs `make tune STEP=08 CLASS=..` for each smaller GPU
# class (the header's entries for them, and tune_<arch>_as_<class>.txt).
# Every smaller GPU class (sm_86: 99 KB per block; sm_75: 64 KB per block and per SM) is also
# run on this GPU: `--check` of steps 08-10 (stage classes) and their benchmark (stage
# classes-bench, into results/<gpu>_as_<class>.csv); `make test` and `make sanitize` cover
# them as well.
# ONLY="test bench" runs the build and just the stages named (a call to a GPU machine that
# is limited in time can do the validation in two halves).
# Exits non-zero if any stage failed.
# usage: [TUNE=1] [ONLY="stage ..."] tools/validate/gpu_check.sh OUTDIR   (or: make gpu-check OUT=OUTDIR [TUNE=1])
set -u
out=${1:?usage: tools/validate/gpu_check.sh OUTDIR}
cd "$(dirname "$0")/../.."
mkdir -p "$out"
summary=$out/summary.txt
failed=0

. tools/measure/gpu_meta.sh
{
    echo "GPU check  $(date -u +%Y-%m-%dT%H:%M:%SZ)  commit $commit"
    nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,memory.total --format=csv,noheader 2>&1
    nvcc --version | tail -n 2 | head -n 1
} > "$summary"

stage() {  # stage NAME COMMAND...: runs COMMAND with its output in OUTDIR/NAME.log
    name=$1
    shift
    case " build ${ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
    start=$(date +%s)
    if "$@" > "$out/$name.log" 2>&1; then verdict=PASS; else verdict=FAIL; failed=1; fi
    echo "$verdict  $name ($(( $(date +%s) - start )) s): $*" | tee -a "$summary"
}

arch=$(sh tools/compile/detect_arch.sh)
if [ "${TUNE:-0}" = 1 ]; then
    stage tune-build make -j "$(nproc)" build/"$arch"/libsgemm_common.a
    stage tune python3 tools/measure/tune.py --arch "$arch"
    mkdir -p "$out/tuned" "$out/results"
    cp "steps/08_autotuning/tuned/$arch.cuh" "$out/tuned/" && cp "docs/results/tune_$arch.txt" "$out/results/"
fi
for c in ${TUNE_CLASSES:-}; do
    stage tune-build make -j "$(nproc)" build/"$arch"/libsgemm_common.a
    stage "tune-$c" python3 tools/measure/tune.py --arch "$arch" --gpu-class "$c"
    mkdir -p "$out/tuned" "$out/results"
    cp "steps/08_autotuning/tuned/$arch.cuh" "$out/tuned/" && cp "docs/results/tune_${arch}_as_$c.txt" "$out/results/"
done
stage build make -j "$(nproc)" all build/"$arch"/run_tests build/"$arch"/precision build/"$arch"/alignment
stage test make test
stage exercises sh tools/exercises/exercise_demo.sh "$out/results"
stage notebook python3 tools/validate/run_notebook.py "$out/results/notebook_$slug.ipynb"
stage t4 sh tools/validate/as_t4.sh "$out/results"
stage numba python3 tools/measure/numba_loops.py "$out/results"
stage sizes sh tools/profile/save_sizes.sh "$out/results"
stage classes sh -c 'for c in sm_86 sm_75; do for s in 08 09 10 11 12; do
    echo "== SGEMM_GPU_CLASS=$c ./step$s --check"; SGEMM_GPU_CLASS=$c ./step$s --check; rc=$?
    # a step that needs TF32 tensor cores (kMinArch = 80: 11, 12) must refuse sm_75 in one line, exit 2
    if [ $c = sm_75 ] && grep -q "kMinArch = 80" steps/${s}_*/kernel.cuh; then want=2; else want=0; fi
    [ $rc = $want ] || { echo "exit status $rc, expected $want"; exit 1; }; done; done'
stage precision sh tools/measure/save_table.sh precision build/"$arch"/precision "$out/results"
# steps 11 and 12 beside CUTLASS's mma.sync GEMMs: its headers come from PyPI into build/cutlass
# (a GPU machine without the network needs build/cutlass copied in with the tree)
stage cutlass sh -c 'make build/"$1"/cutlass_compare && sh tools/measure/save_table.sh cutlass build/"$1"/cutlass_compare "$0" \
    && sh tools/profile/ncu_cutlass.sh build/"$1"/cutlass_compare "$0"' \
    "$out/results" "$arch"
stage alignment sh tools/measure/save_alignment.sh build/"$arch"/alignment "$out/results"
stage spread sh tools/measure/save_spread.sh "$out/results"
stage regs make regs
stage bench python3 tools/measure/bench.py "$out/results"
# steps 08-10, the steps whose configuration the class changes (11 and 12 refuse sm_75; their
# --check as sm_86 runs in stage classes)
stage classes-bench sh -c 'for c in sm_86 sm_75; do python3 tools/measure/bench.py "$0" --gpu-class $c --steps 08 09 10 \
    --shapes 512 1024 2048 4096 8192 4095 8192x1024x4096 1024x1024x8192 || exit 1; done' "$out/results"
stage reports sh tools/measure/save_reports.sh "$out/results"
stage sanitize make sanitize

{
    echo
    show() {  # show NAME COMMAND: the stage's summary, if it ran
        if [ -f "$out/$1.log" ]; then echo "== $1"; shift; "$@"; fi
    }
    show tune tail -n 1 "$out/tune.log"
    for c in ${TUNE_CLASSES:-}; do show "tune-$c" tail -n 1 "$out/tune-$c.log"; done
    show test tail -n 3 "$out/test.log"
    show exercises grep -E '^step[0-9]+ ' "$out/exercises.log"
    show notebook tail -n 1 "$out/notebook.log"
    show numba tail -n 5 "$out/numba.log"
    show t4 grep -E '^(step[0-9]+: exit|[0-9]+ passed|=+ .*(passed|failed))' "$out/t4.log"
    show cutlass sed -n '/^[0-9]* x /,$p' "$out/cutlass.log"
    show classes grep -E "^(==|GPU  |PASS|FAIL|step1[12]: error|exit status)" "$out/classes.log"
    show precision tail -n 48 "$out/precision.log"
    show alignment tail -n 40 "$out/alignment.log"
    show regs cat "$out/regs.log"
    show sanitize tail -n 1 "$out/sanitize.log"
    show sizes cat "$out/sizes.log"
    show reports cat "$out/results/peak_$slug.txt"
    show bench tail -n 1 "$out/bench.log"
    show classes-bench grep -E '^wrote' "$out/classes-bench.log"
    show reports cat "$out/reports.log"
} >> "$summary"
cat "$summary"
exit $failed
