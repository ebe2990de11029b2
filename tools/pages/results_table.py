#!/usr/bin/env python3
"""Regenerate the measured-results tables in the Markdown pages from docs/results/*.csv.

A table lives between two markers, and everything between them is replaced:

    <!-- results: overview -->     every step of Part I (CUDA cores, arithmetic FP32), for the
                                     pages (docs/speed.md): against cuBLAS FP32 and the step before
    <!-- results: overview part2 --> every step of Part II (tensor cores: the CSV's arithmetic
                                     TF32, 3xTF32): its arithmetic, cuBLAS FP32 and cuBLAS TF32
                                     (both timed in every run) and its % of each
    <!-- results: step 02 -->      one step beside the one before it (a Part II step: beside the
                                     last CUDA-core step and the Part II steps before it, with
                                     both baselines)
    <!-- results: report step02 --> the full report of `./step02 4096`, as a code block
    <!-- results: ncu step02 -->    that step's Nsight Compute metrics, as a code block
    <!-- results: profile step02 --> the same metrics under plain names, as make ncu prints them
    <!-- results: regs step02 -->   that step's line of the compiler's register report
    <!-- results: edge step06 -->   the step at 4096^3 and 4095^3: what the edge tiles cost
    <!-- results: sizes [1024 8192x1024x4096 ...] -->  every Part I step at those shapes (default:
                                     every measured shape but 4095^3): GFLOP/s, % of cuBLAS;
                                     'sizes part2 [...]': the Part II steps, % of both baselines
    <!-- results: ncu-compare step06 step07 -->  two steps' Nsight Compute metrics side by side
    <!-- results: tune sm_90 64.256.32.8.8 ... -->  rows of `make tune STEP=08`'s table, named
                                     by their tiles <BM, BN, BK, TM, TN>, in the table's order
    <!-- results: tiles step05 -->  that step's lines of `make tiles` (other tile sizes)
    <!-- results: sass step06 -->   its load/store instructions by width in the SASS
    <!-- results: exercises -->     what the exercises print under --check (exercise_demo.sh)
    <!-- results: splitk -->        step 10 with K cut into slices (make splitk), as a code block
    <!-- results: variants step10 --> step 10's one-patch variants (make variants), as a code block
    <!-- results: ladder step10 -->  step 10's kernels and cuBLAS's under Nsight Compute (make ladder)
    <!-- results: diff step02 -->   what changed in kernel.cuh from the step before, comments
                                     left out, as a diff block (make diff STEP=02 without colour)
    <!-- results: gpus-side step10 -->  that step and cuBLAS at every sweep shape on every GPU
                                     with a results set, side by side
    <!-- results: thin -->          step 10 at thin shapes, every configuration and split (make thin)
    <!-- results: alignment -->     steps 10-12 at sizes not multiples of 4: 4-byte copies against
                                     packing (make alignment), as a code block
    <!-- results: cold -->          every Part I step and cuBLAS at the shapes of <gpu>_cold_l2.csv
                                     (make bench COLD=1), warm L2 (the main sweep) beside cold
    <!-- results: gpus -->          every GPU with a results set in docs/results (<gpu>.csv and
                                     .meta.json from make bench): where each was measured, step 10
                                     and cuBLAS FP32 at 4096^3, and where measured cuBLAS TF32 and
                                     each Part II step with its % of both baselines
    <!-- results: classes [08 09 10] -->  those steps on this GPU as itself and as each smaller
                                     GPU class (<gpu>_as_sm_XX.csv, make bench CLASS=sm_XX):
                                     the configuration chosen, blocks/SM, GFLOP/s (% of cuBLAS)
    <!-- results: runs step02 -->   the results files one step's pages quote, for its lab notes
    <!-- results: usage step01 -->  what ./step01 --help prints, from usage() in common/run/args.cpp
    <!-- results: provenance -->    every file of docs/results: what it holds, the GPU, driver, CUDA
                                     release, date and commit (the one place provenance is shown;
                                     docs/results/README.md)
    ...
    <!-- /results -->

A figure in prose is tied to its source by an inline marker, filled the same way:

    the step runs at <!--v:gf(5)-->36,264<!--/v--> GFLOP/s, <!--v:gf(5)/gf(4)|.2f-->1.61<!--/v-->x step 04

A figure worked out rather than measured (a count of bytes, a tile's share of a grid) is an
inline marker too, with the arithmetic as its expression: <!--v:4096*4096*4-->67,108,864<!--/v-->.
tools/pages/check_figures.py fails on a measured figure in a page that is not generated.

The marker holds an expression (no spaces needed, so it costs one word of a lesson's budget;
min, max, abs, round, sum and len may be used) and, after '|' ('\\|' inside a table row, where a
bare '|' would split the cell), a Python format spec (default ',.0f' for whole numbers and from 100 up, else '.2f'),
which may start with 万 or 亿 for a Chinese page's count: the value over 10^4 or 10^8, then the unit
('|亿.2f' writes 152,000,000 as "1.52 亿"; '|万' as "15,200 万"). Steps are
numbers, shapes a size (4096 = 4096^3, the default) or 'MxNxK' in quotes. The functions:

    gf(s, shape)  GFLOP/s         ms(s, shape)  median time (ms)    cb(s, shape)  cuBLAS GFLOP/s
    pc(s, shape)  % of cuBLAS     pk(s, shape)  % of FP32 peak      cbms(s, shape)  cuBLAS's median (ms)
    col(s, shape, 'column')  any CSV column
        (all from docs/results/<gpu>.csv, the make bench run; a last argument names another set:
        gf(10, 4096, 'h200') another GPU's, gf(5, 2048, 'cold_l2') or gf(9, 4096, 'as_sm_75') another
        run of this GPU's)
    ncu(s, 'metric', size)     a value of ncu_stepNN_<gpu>.txt (any unique part of the metric name;
                               with a size: ncu_stepNN_SIZE_<gpu>.txt, a profile at size^3 from
                               one run with the other sizes it is compared with; s a name such as
                               'cutlass_3xtf32_128x128x32': ncu_NAME_<gpu>.txt, from make cutlass)
    ipm(s, n)                  warp instructions per mma.sync at 4096^3 from that file (n products per
                               multiply-add: 3 for 3xTF32)
    ncums(s, size)             the kernel's duration in such a file, in ms (ncu prints us or ms)
    st(s, size, 'metric')      a value of stride_<gpu>.txt (make stride): step s at size^3
    al(s, shape, col)          a value of alignment_<gpu>.txt (make alignment): 'pc' (default), 'us',
                               '4byte_pc', '4byte_us', 'S', 'copy_us', 'step09_pc', 'cublas_gf'
    ct('method', size, col)    a value of cutlass_<gpu>.csv (make cutlass: steps 11 and 12 beside
                               CUTLASS's mma.sync GEMMs and both cuBLAS modes in one process, at size^3):
                               method 'step12', 'cutlass_3xtf32_128x128x32', ...; col 'gflops' (default),
                               'x_cublas_fp32', 'x_cublas_tf32', 'max', 'fro', 'median_ms'
    pw('method', col)          a value of power_<gpu>.csv (make power: the same methods run back to back
                               at 8192^3 for seconds): col 'gflops' (default), 'sm_mhz', 'power_w',
                               'capped_pct' (% of the samples under the power cap), 'gflops_per_w'
    tcv(shape, 'label', col)   a row of tc_variants_<gpu>.txt (make tc-variants) by its label, '.' for
                               each space ('s12.128x256x32.w64x64.3st.acc', 'cuBLAS.FP32'); col: 'ms',
                               'gflops' (default), 'x' (x cuBLAS FP32), 'max', 'fro'
    rx('name', r'pattern', g)  any number a results file prints: group g (default 1) of the first
                               match of the regular expression in docs/results/<name>_<gpu>.txt
                               (or <name>.txt, or the file <name>), e.g. rx('report_step10', r'...')
    tl(s, '64.64.16.16', col)  a row of tiles_<gpu>.txt by its tiles ('+scalar' etc. for a named
                               variant); col: 'GFLOP/s' (default), '%cuBLAS', 'regs', 'blk/SM', ...
    sass(s, 'LDS.128', k)      an instruction count of sass_stepNN_<arch>.txt (kernel k, default 0)
    regs(s)                    registers per thread in regs_<arch>.txt
    peak('dram', col)          a row of peak_<gpu>.txt ('measured' or 'paper')
    tu('64.256.32.8.8', col, arch)  a row of tune_<arch>.txt (make tune STEP=08; arch default sm_90,
                               or 'sm_90_as_sm_75') by its tiles; col: 'threads', 'regs', 'local', 'blk',
                               'warps', 'glob', 'shared', 'gf4096', 'pc4096', 'gf1024', 'pc1024'
    sk('1024x1024x8192', S, col)  a row of splitk_<gpu>.txt (make splitk) by shape and slices S;
                               col: 'blocks', 'time' (us), 'gflops', 'pc', 'model' (us), 'sum' (us), 'work' (MB)
    skerr(chosen)              the largest |model - time| / time of splitk_<gpu>.txt in %, over every
                               row (chosen=0) or over the launcher's choices only (chosen=1)
    ld(c, 'row')               a value of ladder_step10_<gpu>.txt (make ladder): column c (0 = cuBLAS,
                               then the step 10 kernels in the file's order), row by any unique part
                               of its label ('issue slots', 'dispatch', ...)
    wt(c, 'row')               a value of warp_tile_<gpu>.txt (make warp-tile): column c (0 = 64 x 256
                               with step 08's flat warp, 1 = 64 x 256 with a 32 x 64 warp tile, 2 = 128 x 128
                               flat, 3 = 128 x 128 with step 09's 64 x 32), row by any unique part of its label
    sp(s, shape, stat, col)    over the rounds of spread_<gpu>.txt (make spread): stat 'min', 'max',
                               'median' (default), 'n' or 'range' (max / min - 1, %) of col 'gflops'
                               (default) or 'pc' (% of cuBLAS in the same run)
    vr('variant', col, n)      a row of variants_step10_<gpu>.txt (make variants) by its name; col:
                               'regs', 'local', 'gf4096', 'pc4096', 'gf8192', 'pc8192'; n: which of
                               rows of that name (the shipped kernel runs first, n=0, and last, n=1)

So regenerating docs/results rewrites the figure, and --check fails while a page quotes a
value its file no longer holds. Prose typed by hand beside a listing cannot drift from it.

Lessons and lab notes. A step's lesson (steps/NN_name/README*.md) is read in one sitting; its
lab notes (steps/NN_name/lab*.md) hold the dumps and the run history. Once a step has lab notes,
the source line under a table in its lesson names the GPU and the date and links the lab notes
and the results file, with no commit id (a student cannot use one), and a listing in the lesson
loses the commit from its header; the lab notes keep the full source line with the commit.

Pages named *.zh-CN.md get Chinese headings; the numbers are the same. With --check
nothing is written, and the exit status is 1 if any page is out of date (make test
runs this, so a table typed by hand or left stale fails, and so does a diff block once
either kernel.cuh changes).

usage: tools/pages/results_table.py [--check] [PAGE ...]   (default: every page)
"""
import csv
import json
import os
import re
import statistics
import sys
from pathlib import Path

from kernel_diff import diff_lines  # the diff make diff prints

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "docs" / "results"
PRIMARY = "h100-80gb-hbm3"  # the GPU whose numbers the pages show
PRIMARY_ARCH = "sm_90"      # its architecture, for the compiler's register report
SIZE = 4096

MARKER = re.compile(r"(<!-- results: (?P<kind>[^>]*?) -->\n)(?P<body>.*?)(<!-- /results -->)", re.S)

TEXT = {
    "en": {
        "sep": ", ", "comma": ", ", "stop": ".",  # a list's separator, a clause's comma, a sentence's end
        "none": "_Not measured yet: run `make results` on a GPU (see the README)._",
        "overview_head": "| step | idea | GFLOP/s | cuBLAS GFLOP/s (same run) | % of cuBLAS | % of FP32 peak | speed-up over previous step | registers/thread |",
        "step_head": "| step | GFLOP/s | time (ms) | % of cuBLAS | % of FP32 peak | speed-up | registers/thread | resident warps/SM |",
        "source": "Measured on {gpu} ({sms} SMs, {clock} MHz peak clock): M = N = K = {size}, median of {reps} timed runs "
                  "after {warmup} warm-up. cuBLAS is `cublasSgemm` in FP32 (TF32 off), timed in the same run on the same "
                  "inputs. Source: [`docs/results/{file}`]({rel}); when, where and how: [provenance]({prov}).",
        "source_lesson": "Measured on {gpu}: M = N = K = {size}, median of {reps} timed runs; cuBLAS "
                         "(`cublasSgemm`, FP32, TF32 off) timed in the same run. Source: [`docs/results/{file}`]({rel}); "
                         "the runs: [lab notes]({lab}).",
        "edge_source_lesson": "Same runs as above. Source: [`docs/results/{file}`]({rel}); the runs: [lab notes]({lab}).",
        "sizes_source_lesson": "Each cell: GFLOP/s and, in parentheses, % of cuBLAS timed in the same run. Measured on {gpu}. "
                               "Source: [`docs/results/{file}`]({rel}); the runs: [lab notes]({lab}).",
        "file_lesson": "From [`docs/results/{name}`]({rel}); the runs: [lab notes]({lab}).",
        "runs_head": "| results file | what it holds | GPU |",
        "runs_foot": "When, where and with which driver, CUDA release and commit each file was made: [provenance]({prov}).",
        "prov_head": "| results file | what it holds | GPU | driver | CUDA | date | commit |",
        "prov_nogpu": "no GPU (compiler only)",
        "runs_csv": "`make bench`: GFLOP/s and times at every shape",
        "runs_what": {"report": "`./stepNN 4096`'s full report", "ncu": "`make ncu` metrics at 4096³",
                      "regs": "`make regs`: registers, spills, shared memory", "tiles": "`make tiles`: other tile sizes",
                      "sass": "load/store instructions in the SASS", "peak": "`make peak`: measured ceilings",
                      "ladder": "`make ladder`: step 10 and cuBLAS under Nsight Compute",
                      "variants": "`make variants`: one-patch variants of step 10",
                      "splitk": "`make splitk`: K cut into slices",
                      "stride": "`make stride`: cache counters at 4096³, 4095³ and 4064³",
                      "ncu_size": "`make ncu` metrics at SIZE³, one run with the sizes beside it"},
        "first": "first step",
        "file": "Produced on the GPU by `tools/validate/gpu_check.sh`: ",
        "prov_link": "; when, where and how: [provenance]({prov})",
        "edge_head": "| M = N = K | step GFLOP/s | step: time per FLOP vs 4096³ | cuBLAS GFLOP/s | cuBLAS: time per FLOP vs 4096³ |",
        "edge_source": "Same runs as the table above. Source: [`docs/results/{file}`]({rel}); when, where and how: [provenance]({prov}).",
        "gpus_head": "| GPU | compute capability | SMs | cuBLAS FP32 GFLOP/s at 4096³ | last CUDA-core step at 4096³: GFLOP/s (% of cuBLAS FP32) |",
        "classes_head": "| step | run as | configuration chosen | blocks/SM |",
        "classes_own": "{gpu} itself",
        "classes_as": "{c} class (forced)",
        "classes_shipped": "one configuration",
        "classes_source": "Each cell: GFLOP/s (% of cuBLAS in the same run) at M × N × K, all measured on {gpu}. "
                          "A \"class (forced)\" row is the H100 "
                          "running the configuration that class gets, held to the blocks per SM that class "
                          "allows (`SGEMM_GPU_CLASS`): it is not a measurement of such a GPU. Sources: {files}; "
                          "when, where and how: [provenance]({prov}).",
        "sizes_head": "| step |",
        "sizes_cell": "GFLOP/s (% of cuBLAS) at M × N × K:",
        "sizes_source": "Each cell: the step's GFLOP/s and, in parentheses, its percentage of cuBLAS timed in the same run "
                        "(median of {reps} runs; shapes above 2 × 4096³ multiply-adds: median of 5). Measured on {gpu}. "
                        "Source: [`docs/results/{file}`]({rel}); when, where and how: [provenance]({prov}).",
        # Part II (tensor cores): two baselines, both timed in every run
        "overview2_head": "| step | idea | arithmetic | GFLOP/s | cuBLAS FP32 GFLOP/s | % of cuBLAS FP32 | cuBLAS TF32 GFLOP/s | % of cuBLAS TF32 | registers/thread |",
        "step2_head": "| step | arithmetic | GFLOP/s | time (ms) | % of cuBLAS FP32 | % of cuBLAS TF32 | registers/thread | resident warps/SM |",
        "baselines": "Two baselines, both timed in the same run on the same inputs: cuBLAS FP32 is `cublasSgemm` with TF32 "
                     "off (FP32's accuracy), cuBLAS TF32 is `cublasGemmEx` with `CUBLAS_COMPUTE_32F_FAST_TF32` (inputs "
                     "rounded to TF32 on the tensor cores).",
        "source2": "Measured on {gpu} ({sms} SMs, {clock} MHz peak clock): M = N = K = {size}, median of {reps} timed runs "
                   "after {warmup} warm-up. {baselines} Source: [`docs/results/{file}`]({rel}); when, where and how: "
                   "[provenance]({prov}).",
        "source2_lesson": "Measured on {gpu}: M = N = K = {size}, median of {reps} timed runs. {baselines} "
                          "Source: [`docs/results/{file}`]({rel}); the runs: [lab notes]({lab}).",
        "sizes2_cell": "GFLOP/s (% of cuBLAS FP32 / % of cuBLAS TF32) at M × N × K:",
        "sizes2_source": "Each cell: the step's GFLOP/s and, in parentheses, its percentage of cuBLAS FP32 and of cuBLAS "
                         "TF32 (median of {reps} runs; shapes above 2 × 4096³ multiply-adds: median of 5). {baselines} "
                         "The cuBLAS rows: the median over every step's run at that shape. Measured on {gpu}. "
                         "Source: [`docs/results/{file}`]({rel}); when, where and how: [provenance]({prov}).",
        "sizes2_source_lesson": "Each cell: GFLOP/s and, in parentheses, % of cuBLAS FP32 / % of cuBLAS TF32, both timed in "
                                "the same run. Measured on {gpu}. Source: [`docs/results/{file}`]({rel}); the runs: "
                                "[lab notes]({lab}).",
        "cublas_fp32": "cuBLAS FP32", "cublas_tf32": "cuBLAS TF32",
    },
    "zh": {
        "sep": "、", "comma": "，", "stop": "。",  # 顿号 between the items of a list
        "none": "_尚未测量：请在有 GPU 的机器上运行 `make results`（见 README）。_",
        "overview_head": "| 步骤 | 思路 | GFLOP/s | cuBLAS GFLOP/s（同一次运行） | 占 cuBLAS 的百分比 | 占 FP32 峰值的百分比 | 相对上一步的加速比 | 每线程寄存器数 |",
        "step_head": "| 步骤 | GFLOP/s | 时间 (ms) | 占 cuBLAS 的百分比 | 占 FP32 峰值的百分比 | 加速比 | 每线程寄存器数 | 每个 SM 的常驻 warp 数 |",
        "source": "测量于 {gpu}（{sms} 个 SM，峰值时钟 {clock} MHz）：M = N = K = {size}，{warmup} 次预热后 {reps} 次计时运行的中位数。"
                  "cuBLAS 为 FP32 的 `cublasSgemm`（关闭 TF32），在同一次运行中用同样的输入计时。"
                  "数据来源：[`docs/results/{file}`]({rel})；测量时间、环境和提交见[数据出处]({prov})。",
        "source_lesson": "测量于 {gpu}：M = N = K = {size}，{reps} 次计时运行的中位数；cuBLAS"
                         "（`cublasSgemm`，FP32，关闭 TF32）在同一次运行中计时。数据来源：[`docs/results/{file}`]({rel})；"
                         "各次运行见[实验记录]({lab})。",
        "edge_source_lesson": "与上表同一批运行。数据来源：[`docs/results/{file}`]({rel})；各次运行见[实验记录]({lab})。",
        "sizes_source_lesson": "每格为 GFLOP/s，括号内为占同一次运行中 cuBLAS 的百分比。测量于 {gpu}。"
                               "数据来源：[`docs/results/{file}`]({rel})；各次运行见[实验记录]({lab})。",
        "file_lesson": "数据来源：[`docs/results/{name}`]({rel})；各次运行见[实验记录]({lab})。",
        "runs_head": "| 结果文件 | 内容 | GPU |",
        "runs_foot": "每个文件的测量时间、地点、驱动、CUDA 版本和提交见[数据出处]({prov})。",
        "prov_head": "| 结果文件 | 内容 | GPU | 驱动 | CUDA | 日期 | 提交 |",
        "prov_nogpu": "无 GPU（仅编译器）",
        "runs_csv": "`make bench`：各形状的 GFLOP/s 和时间",
        "runs_what": {"report": "`./stepNN 4096` 的完整报告", "ncu": "4096³ 的 `make ncu` 指标",
                      "regs": "`make regs`：寄存器、溢出、共享内存", "tiles": "`make tiles`：其他分块尺寸",
                      "sass": "SASS 中的访存指令", "peak": "`make peak`：实测上限",
                      "ladder": "`make ladder`：第 10 步与 cuBLAS 的 Nsight Compute 指标",
                      "variants": "`make variants`：第 10 步的单补丁变体",
                      "splitk": "`make splitk`：把 K 拆成几个切片",
                      "stride": "`make stride`：4096³、4095³ 和 4064³ 下的缓存计数器",
                      "ncu_size": "SIZE³ 下的 `make ncu` 指标，与旁边几个尺寸同一次运行"},
        "first": "第一步",
        "file": "由 `tools/validate/gpu_check.sh` 在 GPU 上生成：",
        "prov_link": "；测量时间、环境和提交见[数据出处]({prov})",
        "edge_head": "| M = N = K | 本步 GFLOP/s | 本步：每 FLOP 时间相对 4096³ | cuBLAS GFLOP/s | cuBLAS：每 FLOP 时间相对 4096³ |",
        "edge_source": "与上表同一批运行。数据来源：[`docs/results/{file}`]({rel})；测量时间、环境和提交见[数据出处]({prov})。",
        "gpus_head": "| GPU | 计算能力 | SM 数 | cuBLAS FP32 在 4096³ 的 GFLOP/s | CUDA 核心的最后一步在 4096³：GFLOP/s（占 cuBLAS FP32 的百分比） |",
        "classes_head": "| 步骤 | 按哪类 GPU 运行 | 选中的配置 | 每个 SM 的块数 |",
        "classes_own": "{gpu}（按本机配置）",
        "classes_as": "{c} 类（强制）",
        "classes_shipped": "唯一配置",
        "classes_source": "每格：在 M × N × K 下的 GFLOP/s（括号内为同一次运行中占 cuBLAS 的百分比），全部在 {gpu} 上测得。"
                          "标着“类（强制）”的行，是 H100 按这一类 GPU 会选中的配置运行，"
                          "每个 SM 的线程块数也限制在这一类别允许的数目（`SGEMM_GPU_CLASS`）：不是在那种 GPU 上测得的。来源：{files}；"
                          "测量时间、环境和提交见[数据出处]({prov})。",
        "sizes_head": "| 步骤 |",
        "sizes_cell": "各形状 M × N × K 下的 GFLOP/s（占 cuBLAS 的百分比）：",
        "sizes_source": "每格为本步的 GFLOP/s，括号内为它占同一次运行中 cuBLAS 的百分比"
                        "（{reps} 次运行的中位数；超过 2 × 4096³ 次乘加的形状取 5 次的中位数）。测量于 {gpu}。"
                        "数据来源：[`docs/results/{file}`]({rel})；测量时间、环境和提交见[数据出处]({prov})。",
        "overview2_head": "| 步骤 | 思路 | 运算方式 | GFLOP/s | cuBLAS FP32 GFLOP/s | 占 cuBLAS FP32 的百分比 | cuBLAS TF32 GFLOP/s | 占 cuBLAS TF32 的百分比 | 每线程寄存器数 |",
        "step2_head": "| 步骤 | 运算方式 | GFLOP/s | 时间 (ms) | 占 cuBLAS FP32 的百分比 | 占 cuBLAS TF32 的百分比 | 每线程寄存器数 | 每个 SM 的常驻 warp 数 |",
        "baselines": "两个基线都在同一次运行中用同样的输入计时：cuBLAS FP32 是关闭 TF32 的 `cublasSgemm`（FP32 的精度），"
                     "cuBLAS TF32 是用 `CUBLAS_COMPUTE_32F_FAST_TF32` 的 `cublasGemmEx`（输入舍入成 TF32，在张量核心上算）。",
        "source2": "测量于 {gpu}（{sms} 个 SM，峰值时钟 {clock} MHz）：M = N = K = {size}，{warmup} 次预热后 {reps} 次计时运行的中位数。"
                   "{baselines}数据来源：[`docs/results/{file}`]({rel})；测量时间、环境和提交见[数据出处]({prov})。",
        "source2_lesson": "测量于 {gpu}：M = N = K = {size}，{reps} 次计时运行的中位数。{baselines}"
                          "数据来源：[`docs/results/{file}`]({rel})；各次运行见[实验记录]({lab})。",
        "sizes2_cell": "各形状 M × N × K 下的 GFLOP/s（占 cuBLAS FP32 的百分比 / 占 cuBLAS TF32 的百分比）：",
        "sizes2_source": "每格为本步的 GFLOP/s，括号内为它占 cuBLAS FP32 和 cuBLAS TF32 的百分比"
                         "（{reps} 次运行的中位数；超过 2 × 4096³ 次乘加的形状取 5 次的中位数）。{baselines}"
                         "cuBLAS 两行取该形状下各步骤那次运行的中位数。测量于 {gpu}。"
                         "数据来源：[`docs/results/{file}`]({rel})；测量时间、环境和提交见[数据出处]({prov})。",
        "sizes2_source_lesson": "每格为 GFLOP/s，括号内为占同一次运行中 cuBLAS FP32 / cuBLAS TF32 的百分比。测量于 {gpu}。"
                                "数据来源：[`docs/results/{file}`]({rel})；各次运行见[实验记录]({lab})。",
        "cublas_fp32": "cuBLAS FP32", "cublas_tf32": "cuBLAS TF32",
    },
}


def load(name, size=SIZE):
    """The rows of docs/results/<name>.csv at size^3 (all rows if size is None), by step."""
    path = RESULTS / f"{name}.csv"
    if not path.exists():
        return None, path
    with path.open(newline="") as f:
        rows = [r for r in csv.DictReader(f)
                if size is None or int(r["M"]) == int(r["N"]) == int(r["K"]) == size]
    rows.sort(key=lambda r: (r["step"], -int(r["M"])))
    return rows, path


def fmt(x, digits=0):
    return f"{float(x):,.{digits}f}"


def link_from(page, path):
    """The relative link from Markdown page `page` to file `path`."""
    return Path(os.path.relpath(path, page.parent)).as_posix()


def provenance_page(page):
    """The link from `page` to the one table that says where, when and how every results file
    was made (docs/results/README.md, or its Chinese twin from a Chinese page)."""
    name = "README.zh-CN.md" if page.name.endswith(".zh-CN.md") else "README.md"
    return link_from(page, RESULTS / name)


def prov_link(page, lang):
    """"; when, where and how: [provenance](...)", the clause a generated source line ends with."""
    return TEXT[lang]["prov_link"].format(prov=provenance_page(page))


def lab_page(page):
    """The lab notes of the step whose lesson `page` is, if it has them (else None): a lesson
    with lab notes shows no commit id; its generated blocks link the lab notes instead."""
    if page.parent.parent != ROOT / "steps" or not page.name.startswith("README"):
        return None
    lab = page.with_name("lab.zh-CN.md" if page.name.endswith(".zh-CN.md") else "lab.md")
    return lab if lab.exists() else None


def part2(r):
    """Whether row `r` is a Part II step (tensor cores): its arithmetic, the CSV's `arithmetic`
    column, is not plain FP32 (TF32, 3xTF32). A set from before that column is all Part I, the
    CUDA-core ladder. Part I's tables race cuBLAS FP32 alone; Part II's show both baselines."""
    return r.get("arithmetic", "FP32") not in ("", "FP32")


def split_parts(words):
    """The words of a marker's kind after its name, less 'part2', and whether 'part2' was one."""
    return [w for w in words if w != "part2"], "part2" in words


def source_line(rows, path, page, lang, second=False):
    r = rows[0]
    rel = link_from(page, path)
    t = TEXT[lang]
    if lab_page(page):
        return t["source2_lesson" if second else "source_lesson"].format(
            gpu=r["gpu"], size=SIZE, reps=r["reps"], file=path.name, rel=rel, lab=lab_page(page).name,
            baselines=t["baselines"])
    return t["source2" if second else "source"].format(
        gpu=r["gpu"], sms=r["sms"], clock=r["clock_mhz"], size=SIZE, reps=r["reps"], warmup=r["warmup"],
        file=path.name, rel=rel, prov=provenance_page(page), baselines=t["baselines"])


def pct_of_cublas(r):
    return fmt(100.0 * float(r["gflops"]) / float(r["cublas_gflops"]), 1)


def pct_of_tf32(r):
    return fmt(100.0 * float(r["gflops"]) / float(r["cublas_tf32_gflops"]), 1)


def pct_of_peak(r):
    return fmt(100.0 * float(r["gflops"]) / float(r["peak_gflops"]), 1)


def speedup(rows, i, lang):
    if i == 0:
        return TEXT[lang]["first"]
    return f"{float(rows[i]['gflops']) / float(rows[i - 1]['gflops']):.2f}x"


def overview(rows, lang):
    """Part I, the CUDA-core ladder: each step against cuBLAS FP32 and the step before it."""
    rows = [r for r in rows if not part2(r)]
    lines = [TEXT[lang]["overview_head"], "|:--|:--|--:|--:|--:|--:|--:|--:|"]
    for i, r in enumerate(rows):
        lines.append(f"| {r['step'][4:]} | {r['title']} | {fmt(r['gflops'])} | {fmt(r['cublas_gflops'])} | "
                     f"{pct_of_cublas(r)} | {pct_of_peak(r)} | {speedup(rows, i, lang)} | {r['registers']} |")
    return lines


def overview2(rows, lang):
    """Part II, the tensor cores: each step's arithmetic and its share of both baselines. No
    speed-up over the step before: steps of different arithmetic are not one ladder."""
    rows = [r for r in rows if part2(r)]
    if not rows:
        return None
    lines = [TEXT[lang]["overview2_head"], "|:--|:--|:--|--:|--:|--:|--:|--:|--:|"]
    for r in rows:
        lines.append(f"| {r['step'][4:]} | {r['title']} | {r['arithmetic']} | {fmt(r['gflops'])} | "
                     f"{fmt(r['cublas_gflops'])} | {pct_of_cublas(r)} | {fmt(r['cublas_tf32_gflops'])} | "
                     f"{pct_of_tf32(r)} | {r['registers']} |")
    return lines


def step_table(rows, number, lang):
    """A Part I step beside the one before it; a Part II step beside the last CUDA-core step
    (the FFMA kernel it is raced against) and the Part II steps before it, with both baselines."""
    idx = [i for i, r in enumerate(rows) if r["step"] == f"step{number}"]
    if not idx:
        return None
    i = idx[0]
    if part2(rows[i]):
        ffma = [j for j, r in enumerate(rows) if not part2(r)]
        lines = [TEXT[lang]["step2_head"], "|:--|:--|--:|--:|--:|--:|--:|--:|"]
        for j in ffma[-1:] + [j for j in range(i + 1) if part2(rows[j])]:
            r = rows[j]
            name = f"{r['step'][4:]} {r['title']}"
            name = f"**{name}**" if j == i else name
            lines.append(f"| {name} | {r.get('arithmetic', 'FP32')} | {fmt(r['gflops'])} | {float(r['median_ms']):.3f} | "
                         f"{pct_of_cublas(r)} | {pct_of_tf32(r)} | {r['registers']} | {r['warps_per_sm']} |")
        return lines
    lines = [TEXT[lang]["step_head"], "|:--|--:|--:|--:|--:|--:|--:|--:|"]
    for j in ([i - 1] if i > 0 else []) + [i]:
        r = rows[j]
        name = f"{r['step'][4:]} {r['title']}"
        name = f"**{name}**" if j == i else name
        lines.append(f"| {name} | {fmt(r['gflops'])} | {float(r['median_ms']):.3f} | {pct_of_cublas(r)} | "
                     f"{pct_of_peak(r)} | {speedup(rows, j, lang)} | {r['registers']} | {r['warps_per_sm']} |")
    return lines


def edge_table(number, page, lang):
    """The step and cuBLAS at 4096^3 and 4095^3: every tile of 4095^3 is an edge tile in K."""
    rows, path = load(PRIMARY, None)
    rows = [r for r in rows or [] if r["step"] == f"step{number}" and int(r["M"]) == int(r["N"]) == int(r["K"])
            and int(r["M"]) in (SIZE, SIZE - 1)]
    full = [r for r in rows if int(r["M"]) == SIZE]
    if not full or len(rows) < 2:
        return None

    def per_flop(r, ms):
        return float(r[ms]) / (2.0 * int(r["M"]) * int(r["N"]) * int(r["K"]))

    def change(r, ms):
        if r is full[0]:
            return "–"
        return f"{100.0 * (per_flop(r, ms) / per_flop(full[0], ms) - 1.0):+.1f}%"

    lines = [TEXT[lang]["edge_head"], "|--:|--:|--:|--:|--:|"]
    for r in rows:
        lines.append(f"| {r['M']} | {fmt(r['gflops'])} | {change(r, 'median_ms')} | {fmt(r['cublas_gflops'])} | "
                     f"{change(r, 'cublas_median_ms')} |")
    key = "edge_source_lesson" if lab_page(page) else "edge_source"
    lines += ["", TEXT[lang][key].format(file=path.name, rel=link_from(page, path),
                                         lab=getattr(lab_page(page), "name", ""), prov=provenance_page(page))]
    return lines


def sizes_table(page, lang, wanted=()):
    """Every step (and cuBLAS) at the shapes `wanted` ("1024", "8192x1024x4096"), or at every
    shape measured but 4095^3: square sizes in order, then the rest. The CUDA-core ladder (Part
    I) against cuBLAS FP32; with 'part2' among the words, the tensor-core steps (Part II) instead,
    each cell with its share of both baselines, and a row for each baseline."""
    wanted, second = split_parts(wanted)
    rows, path = load(PRIMARY, None)
    if not rows:
        return None
    shape = lambda r: (int(r["M"]), int(r["N"]), int(r["K"]))
    if wanted:
        shapes = [tuple(int(x) for x in w.split("x")) * (3 if "x" not in w else 1) for w in wanted]
    else:
        shapes = sorted({shape(r) for r in rows if shape(r) != (SIZE - 1,) * 3},
                        key=lambda s: (s[0] != s[1] or s[1] != s[2], s))
    cells = {(r["step"], shape(r)): r for r in rows}
    steps = sorted({r["step"] for r in rows if part2(r) == second})
    if not steps:
        return None
    t = TEXT[lang]
    lines = [t["sizes2_cell" if second else "sizes_cell"], "",
             t["sizes_head"] + "".join(f" {m} × {n} × {k} |" for m, n, k in shapes),
             "|:--|" + "--:|" * len(shapes)]
    for step in steps:
        line = f"| {step[4:]} {cells[(step, shapes[0])]['title'] if (step, shapes[0]) in cells else ''} |"
        for sh in shapes:
            r = cells.get((step, sh))
            if not r:
                line += " – |"
            elif second:
                line += f" {fmt(r['gflops'])} ({pct_of_cublas(r)} / {pct_of_tf32(r)}) |"
            else:
                line += f" {fmt(r['gflops'])} ({pct_of_cublas(r)}) |"
        lines.append(line)
    # cuBLAS: its median over every step's run at each shape (each step's run times it again)
    everyone = sorted({r["step"] for r in rows})
    for label, column in ([(t["cublas_fp32"], "cublas_gflops"), (t["cublas_tf32"], "cublas_tf32_gflops")]
                          if second else [("cuBLAS", "cublas_gflops")]):
        line = f"| {label} |"
        for sh in shapes:
            vals = sorted(float(cells[(st, sh)][column]) for st in everyone
                          if (st, sh) in cells and cells[(st, sh)].get(column) not in (None, ""))
            line += f" {fmt(vals[len(vals) // 2])} |" if vals else " – |"
        lines.append(line)
    r = cells.get((steps[-1], (SIZE,) * 3), rows[0])
    key = ("sizes2" if second else "sizes") + ("_source_lesson" if lab_page(page) else "_source")
    lines += ["", t[key].format(reps=r["reps"], gpu=r["gpu"], file=path.name, rel=link_from(page, path),
                                lab=getattr(lab_page(page), "name", ""), prov=provenance_page(page),
                                baselines=t["baselines"])]
    return lines


def gpu_result_sets():
    """The .meta.json of every GPU's own results set (make bench), leaving out the runs as a
    smaller GPU class (<gpu>_as_sm_XX) and with a cold L2 (<gpu>_cold_l2)."""
    return [p for p in sorted(RESULTS.glob("*.meta.json")) if "_as_sm_" not in p.name and "_cold_l2" not in p.name]


def cold_table(page, lang):
    """Every step and cuBLAS at the shapes of <gpu>_cold_l2.csv (make bench COLD=1) with a warm
    L2 cache (the main sweep, <gpu>.csv) and a cold one: GFLOP/s and % of cuBLAS in each. Part I
    only, the CUDA-core ladder the page measures against cuBLAS FP32: a tensor-core step in the
    cold set is left out."""
    cold, cold_path = load(PRIMARY + "_cold_l2", None)
    warm, warm_path = load(PRIMARY, None)
    if not cold or not warm:
        return None
    key = lambda r: (r["step"], int(r["M"]), int(r["N"]), int(r["K"]))
    warm_by = {key(r): r for r in warm}
    zh = lang == "zh"
    lines = ["| 步骤 | 形状 | 热 L2：GFLOP/s（cuBLAS 的 %） | 冷 L2：GFLOP/s（cuBLAS 的 %） | cuBLAS 热 → 冷 GFLOP/s |" if zh else
             "| step | shape | warm L2: GFLOP/s (% of cuBLAS) | cold L2: GFLOP/s (% of cuBLAS) | cuBLAS warm → cold GFLOP/s |",
             "|:--|:--|--:|--:|--:|"]
    for r in sorted(cold, key=lambda r: (r["step"], int(r["M"]) * int(r["N"]) * int(r["K"]))):
        w = warm_by.get(key(r))
        if not w or part2(w) or part2(r):  # the L2 question is asked of the CUDA-core ladder only
            continue
        lines.append(f"| {r['step'][4:]} | {r['M']}³ | {fmt(w['gflops'])} ({pct_of_cublas(w)}) | "
                     f"{fmt(r['gflops'])} ({pct_of_cublas(r)}) | {fmt(w['cublas_gflops'])} → {fmt(r['cublas_gflops'])} |"
                     if r["M"] == r["N"] == r["K"] else
                     f"| {r['step'][4:]} | {r['M']} × {r['N']} × {r['K']} | {fmt(w['gflops'])} ({pct_of_cublas(w)}) | "
                     f"{fmt(r['gflops'])} ({pct_of_cublas(r)}) | {fmt(w['cublas_gflops'])} → {fmt(r['cublas_gflops'])} |")
    c = cold[0]
    src = (f"均测量于 {c['gpu']}。冷：[`docs/results/{cold_path.name}`]({link_from(page, cold_path)})；"
           f"热：[`docs/results/{warm_path.name}`]({link_from(page, warm_path)})"
           + prov_link(page, lang) + "。" if zh else
           f"Both measured on {c['gpu']}. Cold: [`docs/results/{cold_path.name}`]({link_from(page, cold_path)}); "
           f"warm: [`docs/results/{warm_path.name}`]({link_from(page, warm_path)})"
           + prov_link(page, lang) + ".")
    return lines + ["", src]


def gpus_table(page, lang):
    """One row per GPU that has a results set: docs/results/<slug>.csv with its .meta.json
    (the files make bench writes; a contributed GPU adds a row by adding its two files). The
    last CUDA-core step against cuBLAS FP32; then, where any set has them, cuBLAS TF32 and each
    tensor-core step against both baselines ('–' for a set measured before them)."""
    t = TEXT[lang]
    zh = lang == "zh"
    sets = []
    for meta_path in gpu_result_sets():
        rows, path = load(meta_path.name[:-len(".meta.json")])
        if rows:
            sets.append((json.loads(meta_path.read_text(encoding="utf-8")), rows, path))
    second = sorted({(r["step"], r["arithmetic"]) for _, rows, _ in sets for r in rows if part2(r)})
    head, align = t["gpus_head"], "|:--|--:|--:|--:|--:|"
    if second:
        head += (" cuBLAS TF32 在 4096³ 的 GFLOP/s |" if zh else " cuBLAS TF32 GFLOP/s at 4096³ |")
        for step, arithmetic in second:
            head += (f" 第 {step[4:]} 步（{arithmetic}）在 4096³：GFLOP/s（占 cuBLAS FP32 / TF32 的百分比） |" if zh else
                     f" step {step[4:]} ({arithmetic}) at 4096³: GFLOP/s (% of cuBLAS FP32 / TF32) |")
        align += "--:|" * (1 + len(second))
    lines = [head + (" 结果文件 |" if zh else " results |"), align + ":--|"]
    for meta, rows, path in sets:
        last = max((r for r in rows if not part2(r)), key=lambda r: r["step"])
        line = (f"| {meta['gpu']} | {meta['compute_capability']} | {meta['sms']} | "
                f"{fmt(last['cublas_gflops'])} | {fmt(last['gflops'])} ({pct_of_cublas(last)}) |")
        if second:
            tf32 = sorted(float(r["cublas_tf32_gflops"]) for r in rows if r.get("cublas_tf32_gflops"))
            line += f" {fmt(tf32[len(tf32) // 2])} |" if tf32 else " – |"
            by_step = {r["step"]: r for r in rows}
            for step, _ in second:
                r = by_step.get(step)
                line += f" {fmt(r['gflops'])} ({pct_of_cublas(r)} / {pct_of_tf32(r)}) |" if r else " – |"
        lines.append(line + f" [`{path.name}`]({link_from(page, path)}) |")
    return lines + ["", TEXT[lang]["runs_foot"].format(prov=provenance_page(page))]


def gpus_side_table(page, lang, step="step10"):
    """`step` and cuBLAS at every shape of the sweep, on every GPU with a results set, side by
    side: GFLOP/s and % of cuBLAS from each GPU's own run."""
    sets = []
    for meta_path in gpu_result_sets():
        rows, path = load(meta_path.name[:-len(".meta.json")], None)
        if rows:
            sets.append((json.loads(meta_path.read_text(encoding="utf-8")), rows, path))
    if len(sets) < 2:
        return None
    shape = lambda r: (int(r["M"]), int(r["N"]), int(r["K"]))
    cells = [{shape(r): r for r in rows if r["step"] == step} for _, rows, _ in sets]
    shapes = sorted(set().union(*cells), key=lambda sh: (sh[0] != sh[1] or sh[1] != sh[2], sh))
    zh = lang == "zh"
    head = "| 形状 |" if zh else "| shape |"
    for meta, _, _ in sets:
        head += (f" {meta['gpu']}：第 {step[4:]} 步 GFLOP/s（cuBLAS 的 %） | {meta['gpu']}：cuBLAS |" if zh else
                 f" {meta['gpu']}: step {step[4:]} GFLOP/s (% of cuBLAS) | {meta['gpu']}: cuBLAS |")
    lines = [head, "|:--|" + "--:|--:|" * len(sets)]
    for sh in shapes:
        line = f"| {sh[0]}³ |" if sh[0] == sh[1] == sh[2] else f"| {sh[0]} × {sh[1]} × {sh[2]} |"
        for c in cells:
            r = c.get(sh)
            line += f" {fmt(r['gflops'])} ({pct_of_cublas(r)}) | {fmt(r['cublas_gflops'])} |" if r else " – | – |"
        lines.append(line)
    src = ("；".join(f"{m['gpu']}：[`{p.name}`]({link_from(page, p)})" for m, _, p in sets) if zh else
           "; ".join(f"{m['gpu']}: [`{p.name}`]({link_from(page, p)})" for m, _, p in sets))
    return lines + ["", src + prov_link(page, lang) + TEXT[lang]["stop"]]


CLASS_SHAPES = [(2048,) * 3, (4096,) * 3, (8192,) * 3, (4095,) * 3, (8192, 1024, 4096)]


def classes_table(page, lang, steps=()):
    """Steps 08-10 (or `steps`) on the primary GPU as itself and as each GPU class it was run
    as (docs/results/<gpu>_as_<class>.csv): the configuration, blocks per SM and speed."""
    own, own_path = load(PRIMARY, None)
    if not own:
        return None
    sets = [("", own, own_path)]
    for path in sorted(RESULTS.glob(f"{PRIMARY}_as_sm_*.csv"), key=lambda p: -int(p.stem.rsplit("_", 1)[1])):
        with path.open(newline="") as f:
            sets.append((path.stem.rsplit("_as_", 1)[1], list(csv.DictReader(f)), path))
    steps = ["step" + s for s in (steps or ("08", "09", "10"))]
    shape = lambda r: (int(r["M"]), int(r["N"]), int(r["K"]))
    t = TEXT[lang]
    lines = [t["classes_head"] + "".join(f" {' × '.join(map(str, sh))} |" for sh in CLASS_SHAPES),
             "|:--|:--|:--|--:|" + "--:|" * len(CLASS_SHAPES)]
    for step in steps:
        for klass, rows, path in sets:
            cells = {shape(r): r for r in rows if r["step"] == step}
            r0 = cells.get((SIZE,) * 3)
            if not r0:
                continue
            config = r0.get("config", "").replace(";", ",") or t["classes_shipped"]
            who = t["classes_own"].format(gpu=r0["gpu"]) if not klass else t["classes_as"].format(c=klass)
            line = f"| {step[4:]} | {who} | {config} | {r0['blocks_per_sm']} |"
            for sh in CLASS_SHAPES:
                r = cells.get(sh)
                line += f" {fmt(r['gflops'])} ({pct_of_cublas(r)}) |" if r else " – |"
            lines.append(line)
    r = own[0]
    files = t["sep"].join(f"[`{p.name}`]({link_from(page, p)})" for _, _, p in sets)
    lines += ["", t["classes_source"].format(gpu=r["gpu"], files=files, prov=provenance_page(page))]
    return lines


def parse_ncu(lines):
    """{metric: (unit, value)} from Nsight Compute's lines "  name  [unit]  value"; other lines
    are skipped. tools/profile/ncu_table.py and tools/pages/plots.py read ncu's output with it too."""
    metrics = {}
    for line in lines:
        parts = line.split()
        if len(parts) >= 2 and "__" in parts[0]:
            metrics[parts[0]] = (" ".join(parts[1:-1]), parts[-1])
    return metrics


def ncu_metrics(step, gpu=PRIMARY):
    """parse_ncu() of docs/results/ncu_<step>_<gpu>.txt (None if missing), and the file."""
    path = RESULTS / f"ncu_{step}_{gpu}.txt"
    if not path.exists():
        return None, path
    return parse_ncu(path.read_text(encoding="utf-8").split("\n")), path


def ncu_compare(a, b, page, lang):
    """The metrics both steps' ncu files have, side by side, with the files underneath."""
    (ma, pa), (mb, pb) = ncu_metrics(a), ncu_metrics(b)
    if not ma or not mb:
        return None
    head = "| metric |" if lang == "en" else "| 指标 |"
    lines = [f"{head} {a} | {b} |", "|:--|--:|--:|"]
    cell = lambda m: f"{m[1]} {m[0]}".strip()  # value and unit: ncu picks the unit per value
    for name in ma:
        if name in mb:
            lines.append(f"| `{name}` | {cell(ma[name])} | {cell(mb[name])} |")
    lines += ["", TEXT[lang]["file"] + f"[`docs/results/{pa.name}`]({link_from(page, pa)}){TEXT[lang]['sep']}"
              f"[`docs/results/{pb.name}`]({link_from(page, pb)})" + prov_link(page, lang)
              + TEXT[lang]["stop"]]  # a sentence, as the source lines under the tables
    return lines


def fenced(body, path, page, lang):
    """`body` as a text block, with the results file it comes from linked underneath (in a
    lesson with lab notes: the lab notes linked). The file's stamp line (GPU, driver, CUDA, date,
    commit) stays in the file and in the provenance table, not in the page."""
    body = "\n".join(ln for ln in body.split("\n") if not HEADER.match(ln))
    if lab_page(page):
        return (f"```text\n{body}\n```\n\n" + TEXT[lang]["file_lesson"].format(
            name=path.name, rel=link_from(page, path), lab=lab_page(page).name) + "\n")
    return (f"```text\n{body}\n```\n\n"
            f"{TEXT[lang]['file']}[`docs/results/{path.name}`]({link_from(page, path)})"
            + prov_link(page, lang) + TEXT[lang]["stop"] + "\n")


def tune_rows(arch, wanted, page, lang):
    """The header of docs/results/tune_<arch>.txt and the rows of the tile sizes `wanted`."""
    path = RESULTS / f"tune_{arch}.txt"
    if not path.exists():
        return None
    names = {"<" + ", ".join(w.split(".")) + ">" for w in wanted}
    lines = path.read_text(encoding="utf-8").rstrip("\n").split("\n")
    keep = [TUNE_HEADER.sub(r"# make tune STEP=08 on \g<gpu> (\g<arch>)", ln) for ln in lines if ln.startswith(("#", "tiles "))]
    rows = [ln for ln in lines if ln.startswith("<") and ln[:ln.index(">") + 1] in names]
    if len(rows) != len(names):
        raise SystemExit(f"{page}: tune rows not found in {path.name}: {sorted(names)}")
    body = "\n".join(keep + rows)
    return fenced(body, path, page, lang)


def embedded(kind, page, lang):
    """A report or ncu log from docs/results, fenced, with its source underneath."""
    what, step = (kind.split() + [""])[:2]
    if what == "exercises":  # what the exercises print under --check (tools/exercises/exercise_demo.sh)
        path = RESULTS / f"exercises_{PRIMARY}.txt"
    elif what == "splitk":  # step 10 with K cut into slices (make splitk)
        path = RESULTS / f"splitk_{PRIMARY}.txt"
    elif what == "thin":  # step 10 at thin shapes, every configuration and split (make thin)
        path = RESULTS / f"thin_{PRIMARY}.txt"
    elif what == "alignment":  # steps 10-12 at unaligned sizes: 4-byte copies against packing (make alignment)
        path = RESULTS / f"alignment_{PRIMARY}.txt"
    elif what in ("regs", "tiles"):  # one file for all steps: keep the header and this step's lines
        path = RESULTS / (f"regs_{PRIMARY_ARCH}.txt" if what == "regs" else f"tiles_{PRIMARY}.txt")
    elif what == "sass":
        path = RESULTS / f"sass_{step}_{PRIMARY_ARCH}.txt"
    else:
        path = RESULTS / f"{what}_{step}_{PRIMARY}.txt"
    if not path.exists():
        return TEXT[lang]["none"] + "\n"
    lines = path.read_text(encoding="utf-8").rstrip("\n").split("\n")
    if what == "report":  # the file's title line, "# ./step02 4096", is the "$ ./step02 4096" below it again
        lines = [ln for ln in lines if not ln.startswith("# ./")]
    if what in ("regs", "tiles"):
        lines = [ln for ln in lines if ln.startswith(("#", "step ", step + " "))]
    body = "\n".join(lines)
    return fenced(body, path, page, lang)


HEADER = re.compile(r"^# (?P<gpu>[^,\n]+), driver (?P<driver>[^,\n]+), CUDA (?P<cuda>[^,\n]+), (?:[^,\n]+, )*?(?P<date>[0-9]{4}-[0-9-]+), commit (?P<commit>[0-9a-f]+(?:-dirty)?)", re.M)
TUNE_HEADER = re.compile(r"^# make tune STEP=08 on (?P<gpu>.+?) \((?P<arch>sm_\d+)\), (?P<date>[0-9-]+), commit (?P<commit>[0-9a-f]+)", re.M)


# What a results file holds, in Chinese, for the provenance table of the Chinese page: its first line
# is English (the tool that wrote it says what it is), so the phrases the tools write are put into
# Chinese here, in order; names, commands, paths and numbers stay as they are. A line that no
# phrase covers is shown in English, as on the English page.
PROV_ZH = [
    (r"^(make ab STEP=(\d+)): step \d+'s kernel\.cuh \(after\) against the one of ([0-9a-f]+) \(before\), in turns, "
     r"each beside cuBLAS FP32 in its own run \((\S+)\)$",
     r"\1：第 \2 步的 kernel.cuh（改动后）与 \3 的版本（改动前）轮流计时，每次都在单独的运行里与 cuBLAS FP32 并排（\4）"),
    (r": the configuration each step runs on each architecture \(\* = chosen\)$", "：每一步在每种架构上的配置（* 为选中的配置）"),
    (r", as CSV for (\S+)\)?$", r"，CSV 格式，供 \1 使用"),
    (r", as CSV$", "，CSV 格式"),
    (r": the exercises under --check$", "：在 --check 下运行各练习"),
    (r": Nsight Compute \(Version ([\d.]+) \(build \d+\) \(public-release\)\) at 4096\^3",
     r"：4096³ 下的 Nsight Compute \1 指标"),
    (r": ncu of (\S+) at 4096\^3", r"：\1 在 4096³ 下的指标"),
    (r" on the kernel of ([0-9a-f]+) \(A padded to BK \+ 4 floats: make ab's before\), ",
     r"，剖析 \1 的核函数（A 每行填充到 BK + 4 个 float，即 make ab 的改动前版本），"),
    (r"Version ([\d.]+) \(build \d+\) \(public-release\)", r"Nsight Compute \1"),
    (r"[;,] ncu locks the clocks to base while it profiles$", "；ncu 剖析时把时钟锁在基础时钟"),
    (r": steps 01 and 02 in Numba, range loop against while loop, 2048\^3, median of 10$",
     "：用 Numba 写的第 01、02 步，range 循环对 while 循环，2048³，10 次的中位数"),
    (r"nvidia-smi every 50 ms", "nvidia-smi 每 50 ms 采样一次"),
    (r" \(ptxas --resource-usage, (sm_\d+)\)$", r"：ptxas --resource-usage 对 \1 的报告"),
    (r"^memory instructions in the SASS of (\S+), by kernel \(cuobjdump -sass\)$",
     r"\1 的 SASS 中的访存指令，按核函数列出（cuobjdump -sass）"),
    (r": 7 rounds, each run its own process$", "：7 轮，每次运行都是单独的进程"),
    (r": the steps built for sm_75, run with (\S+)$", r"：为 sm_75 编译的各步，用 \1 运行"),
    (r": step 10 at thin shapes, every configuration this GPU admits, K cut into S slices$",
     "：第 10 步在瘦高与矮胖的形状下，试遍这块 GPU 容许的每种配置，K 拆成 S 个切片"),
    (r", the patches in (\S+)\)$", r"，补丁在 \1 里)"),
    (r" on (NVIDIA .+?) \((sm_\d+)\), ([\d-]+), commit (\w+)$", r"，在 \1（\2）上，\3，提交 \4"),
    (r" \(([^()]*)\)", r"（\1）"),  # the parentheses of a Chinese sentence, once nothing is nested in them
    (r"（([^（）]*)\)$", r"（\1）"),
    (r", ", "，"), (r": ", "："),  # and its commas and colons, in a line put into Chinese
]
PROV_WIDTH = 90  # an English description longer than this is cut at a space


def describe(first, lang):
    """The provenance table's "what it holds" for a results file whose first line is `first`: the
    command in inline code (`make tc-variants`, `make regs ARCH=all`); on the Chinese page the
    line put into Chinese by PROV_ZH where its phrases cover it, else cut to PROV_WIDTH as in English."""
    what = first
    if lang == "zh":
        for english, chinese in PROV_ZH:
            if english in (", ", ": ") and not re.search(r"[\u4e00-\u9fff]", what):
                break  # a line no phrase covered stays English, its punctuation too
            what = re.sub(english, chinese, what)
    if not re.search(r"[\u4e00-\u9fff]", what) and len(what) > PROV_WIDTH:
        what = what[:what.rfind(" ", 0, PROV_WIDTH)] + " …"
    return re.sub(r"^(make [\w-]+(?: STEP=\d+)?(?: SIZE=\d+)?(?: ARCH=\w+)?)", r"`\1`", what)


def provenance_rows(lang):
    """One row per file of docs/results/: what it holds, and the GPU, driver, CUDA release, date
    and commit it was made with (a make bench CSV: from its .meta.json; a text file: from its
    stamp line, the second line gpu_meta.sh writes)."""
    t = TEXT[lang]
    rows = []
    for f in sorted(RESULTS.iterdir()):
        if f.suffix not in (".csv", ".txt", ".ipynb") or f.name.startswith("README"):
            continue
        meta_path = f.with_name(f.stem + ".meta.json")
        if f.suffix == ".csv" and meta_path.exists():
            m = json.loads(meta_path.read_text(encoding="utf-8"))
            comma = TEXT[lang]["comma"]
            what = "`make bench`" + (f"{comma}`SGEMM_GPU_CLASS={m['gpu_class']}`" if m.get("gpu_class") else "") + \
                   (f"{comma}`COLD=1`" if m.get("l2") == "cold" else "")
            date, commit = m["date"][:10], m["commit"]
            for r in m.get("remeasured", []):  # steps measured again later (tools/measure/merge_bench.py)
                date += f"; {', '.join(r['steps'])}: {r['date'][:10]}"
                commit += f"; {', '.join(r['steps'])}: {r['commit']}"
            rows.append((f, what, m["gpu"], m["driver"], f"{m['cuda_runtime']}, {m['cublas']}", date, commit))
            continue
        text = f.read_text(encoding="utf-8")
        if f.suffix == ".ipynb":
            cell = "".join(json.loads(text)["cells"][0]["source"])
            m = re.search(r"on an? (?P<gpu>NVIDIA [^*,]+?)\*\*.*?driver (?P<driver>[^,]+), CUDA (?P<cuda>[^,]+), "
                          r"(?P<date>[0-9-]{10})[^,]*, commit (?P<commit>[0-9a-f]+)", cell, re.S)
            what = "`tools/validate/run_notebook.py`"
        else:
            what = describe(text.split("\n", 1)[0].lstrip("# ").strip().rstrip(",;"), lang)
            m = HEADER.search(text)
            if not m and (tm := TUNE_HEADER.search(text)):
                rows.append((f, what, tm["gpu"], "–", "–", tm["date"], tm["commit"]))
                continue
        if m:
            rows.append((f, what, m["gpu"], m["driver"], m["cuda"], m["date"], m["commit"]))
        else:
            rows.append((f, what, t["prov_nogpu"], "–", "–", "–", "–"))
    return rows


def provenance_table(page, lang):
    """`provenance`: the one table of where, when and how each results file was made."""
    lines = [TEXT[lang]["prov_head"], "|:--|:--|:--|:--|:--|:--|:--|"]
    for f, what, gpu, driver, cuda, date, commit in provenance_rows(lang):
        what = what.replace("|", "\\|")
        commit = f"`{commit}`" if commit != "–" else commit
        lines.append(f"| [`{f.name}`]({link_from(page, f)}) | {what} | {gpu} | {driver} | {cuda} | {date} | {commit} |")
    return lines


def runs_table(kind, page, lang):
    """`runs stepNN`: the run history of one step for its lab notes, one row per results file
    that holds the step: what it is, where, when and at which commit it was measured."""
    step = kind.split()[1]
    t = TEXT[lang]
    lines = [t["runs_head"], "|:--|:--|:--|"]
    rows, path = load(PRIMARY, None)
    for gpu in sorted({r["gpu"] for r in rows or [] if r["step"] == step}):
        lines.append(f"| [`{path.name}`]({link_from(page, path)}) | {t['runs_csv']} | {gpu} |")
    files = [("report", RESULTS / f"report_{step}_{PRIMARY}.txt"), ("ncu", RESULTS / f"ncu_{step}_{PRIMARY}.txt"),
             ("regs", RESULTS / f"regs_{PRIMARY_ARCH}.txt"), ("sass", RESULTS / f"sass_{step}_{PRIMARY_ARCH}.txt"),
             ("tiles", RESULTS / f"tiles_{PRIMARY}.txt"), ("ladder", RESULTS / f"ladder_{step}_{PRIMARY}.txt"),
             ("variants", RESULTS / f"variants_{step}_{PRIMARY}.txt"), ("splitk", RESULTS / f"splitk_{PRIMARY}.txt"),
             ("stride", RESULTS / f"stride_{PRIMARY}.txt")]
    files += [("ncu_size", f) for f in sorted(RESULTS.glob(f"ncu_{step}_[0-9]*_{PRIMARY}.txt"))]
    for what, f in files:
        if not f.exists() or (what == "splitk" and step != "step10"):  # make splitk times step 10 only
            continue
        text = f.read_text(encoding="utf-8")
        if what == "tiles" and not re.search(rf"^{step} ", text, re.M):
            continue
        if what == "stride" and not re.search(rf"^== {step} ", text, re.M):
            continue
        m = HEADER.search(text)
        if m:
            size = f.name.split("_")[2] if what == "ncu_size" else ""
            lines.append(f"| [`{f.name}`]({link_from(page, f)}) | {t['runs_what'][what].replace('stepNN', step).replace('SIZE', size)} | {m['gpu']} |")
    return lines + ["", t["runs_foot"].format(prov=provenance_page(page))]


# Inline figures: <!--v:EXPR|FORMAT-->value<!--/v--> (see the docstring).
INLINE = re.compile(r"<!--v:(?P<expr>.*?)-->(?P<value>.*?)<!--/v-->")


def _shape(shape):
    return (int(shape),) * 3 if str(shape).isdigit() else tuple(int(x) for x in str(shape).split("x"))


def _csv_set(run):
    """The results set `run` names: "" (the primary GPU's make bench), another GPU's slug
    ("h200"), or a run of the primary GPU ("cold_l2", "as_sm_75")."""
    if not run:
        return PRIMARY
    return run if (RESULTS / f"{run}.csv").exists() else f"{PRIMARY}_{run}"


def _csv_row(step, shape=SIZE, run=""):
    rows, path = load(_csv_set(run), None)
    want = (f"step{int(step):02d}", _shape(shape))
    for r in rows or []:
        if (r["step"], (int(r["M"]), int(r["N"]), int(r["K"]))) == want:
            return r
    raise LookupError(f"no row {want} in {path.name}")


def _number(text):
    return float(str(text).replace(",", "").rstrip("%"))


def _ncu_file(step, size=None):
    """parse_ncu() of ncu_stepNN_<gpu>.txt (step a number), or of ncu_NAME_<gpu>.txt (step a name:
    CUTLASS's kernels, 'cutlass_tf32_256x128x32', from make cutlass); with a size, the profile at
    size^3 (ncu_stepNN_SIZE_<gpu>.txt). And the file."""
    name = step if isinstance(step, str) else f"step{int(step):02d}"
    return ncu_metrics(name + ("" if size is None else f"_{int(size)}"))


def _ncu(step, metric, size=None):
    """A metric of the step's (or kernel's) ncu file, by any unique part of its name."""
    metrics, path = _ncu_file(step, size)
    if metrics is None:
        raise LookupError(f"no {path.name}")
    found = [k for k in metrics or {} if metric in k]
    if len(found) != 1:
        raise LookupError(f"'{metric}' names {len(found)} metrics of {path.name}")
    return _number(metrics[found[0]][1])


def _ncu_ms(step, size=None):
    """The kernel's duration under Nsight Compute in ms, whatever unit ncu printed it in."""
    metrics, path = _ncu_file(step, size)
    if metrics is None or "gpu__time_duration.sum" not in metrics:
        raise LookupError(f"no gpu__time_duration.sum in {path.name}")
    unit, value = metrics["gpu__time_duration.sum"]
    scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0, "s": 1e3, "second": 1e3}
    return _number(value) * scale[unit]


def _tiles(step, tiles, col="GFLOP/s"):
    path = RESULTS / f"tiles_{PRIMARY}.txt"
    lines = path.read_text(encoding="utf-8").split("\n")
    head = next(ln for ln in lines if ln.startswith("step "))
    cols = head.split()
    numbers, _, variant = tiles.partition("+")
    want = f"<{', '.join(numbers.split('.'))}>" + (f" {variant}" if variant else "")
    for ln in lines:
        if not ln.startswith(f"step{int(step):02d} "):
            continue
        name, rest = ln[8:].split(">", 1)
        tail = rest.split()
        label = (name.strip() + ">" + " " + " ".join(x for x in tail if not x.replace(".", "").isdigit() and x not in ("*", "pass", "FAIL"))).strip()
        if label == want:
            values = [x for x in tail if x.replace(".", "").isdigit() or x in ("pass", "FAIL")]
            return _number(values[cols.index(col) - 2])
    raise LookupError(f"no step{int(step):02d} {want} in {path.name}")


def _sass(step, instr, kernel=0):
    path = RESULTS / f"sass_step{int(step):02d}_{PRIMARY_ARCH}.txt"
    blocks = re.split(r"^(?=\S+::)", "\n".join(ln for ln in path.read_text(encoding="utf-8").split("\n")
                                                if not ln.startswith("#")), flags=re.M)
    blocks = [b for b in blocks if b.strip()]
    for ln in blocks[kernel].split("\n")[1:]:
        parts = ln.split()
        if parts and parts[0] == instr:
            return float(parts[1])
    return 0.0


def _regs(step):
    path = RESULTS / f"regs_{PRIMARY_ARCH}.txt"
    for ln in path.read_text(encoding="utf-8").split("\n"):
        if ln.startswith(f"step{int(step):02d} "):
            return float(ln.split()[-5])
    raise LookupError(f"no step{int(step):02d} in {path.name}")


def _precision(method, K, col="max", gpu=None):
    """A figure of docs/results/precision_<gpu>.csv (make precision, M = N = 2048): method
    step10, step11, step12, cublas_fp32 or cublas_tf32 at depth K; col max (max |C - C64| /
    (|A||B|)), fro (relative Frobenius error), gflops or median_ms."""
    path = RESULTS / f"precision_{gpu or PRIMARY}.csv"
    lines = [ln for ln in path.read_text(encoding="utf-8").split("\n") if ln and not ln.startswith("#")]
    cols = lines[0].split(",")
    for ln in lines[1:]:
        r = dict(zip(cols, ln.split(",")))
        if r["method"] == method and int(r["K"]) == int(K):
            return float(r[col])
    raise LookupError(f"no {method} at K = {K} in {path.name}")


def _csv_figure(path, col, **key):
    """A value of a results CSV whose lines start after its '#' header lines: the `col` of the
    row whose columns equal `key` (numbers compared as numbers)."""
    lines = [ln for ln in path.read_text(encoding="utf-8").split("\n") if ln and not ln.startswith("#")]
    cols = lines[0].split(",")
    for ln in lines[1:]:
        r = dict(zip(cols, ln.split(",")))
        if all(r[k] == str(v) for k, v in key.items()):
            return float(r[col])
    raise LookupError(f"no {key} in {path.name}")


def _cutlass(method, size=SIZE, col="gflops", gpu=None):
    """A figure of docs/results/cutlass_<gpu>.csv (make cutlass: steps 11 and 12 beside CUTLASS's
    mma.sync GEMMs and both cuBLAS modes, one process, at size^3): method cublas_fp32, cublas_tf32,
    step11, step12, cutlass_tf32_256x128x32, cutlass_tf32_128x256x32 or cutlass_3xtf32_128x128x32;
    col gflops, median_ms, x_cublas_fp32, x_cublas_tf32, max or fro."""
    return _csv_figure(RESULTS / f"cutlass_{gpu or PRIMARY}.csv", col, method=method, M=int(size))


def _power(method, col="gflops", gpu=None):
    """A figure of docs/results/power_<gpu>.csv (make power: steps 11 and 12, CUTLASS's kernels and
    cuBLAS run back to back at 8192^3 while nvidia-smi reads the SM clock and the power draw)."""
    return _csv_figure(RESULTS / f"power_{gpu or PRIMARY}.csv", col, method=method)


def _peak(name, col="measured"):
    path = RESULTS / f"peak_{PRIMARY}.txt"
    lines = path.read_text(encoding="utf-8").split("\n")
    cols = next(ln for ln in lines if ln.startswith("ceiling")).split()
    for ln in lines:
        if ln.split()[:1] == [name]:
            return _number(ln.split()[cols.index(col)])
    raise LookupError(f"no '{name}' in {path.name}")


TUNE_COLS = ["threads", "regs", "local", "blk", "warps", "glob", "shared", "gf4096", "pc4096", "gf1024", "pc1024"]
SPLITK_COLS = ["blocks", "time", "gflops", "pc", "model", "sum", "work"]


def _tune(tiles, col="gf4096", arch=PRIMARY_ARCH):
    path = RESULTS / f"tune_{arch}.txt"
    want = "<" + ", ".join(tiles.split(".")) + ">"
    for ln in path.read_text(encoding="utf-8").split("\n"):
        if ln.startswith(want + " "):
            return _number(ln[len(want):].split()[TUNE_COLS.index(col)])
    raise LookupError(f"no {want} in {path.name}")


def _splitk_rows():
    path = RESULTS / f"splitk_{PRIMARY}.txt"
    return [ln.split() for ln in path.read_text(encoding="utf-8").split("\n") if ln[:1].isdigit()], path


def _splitk(shape, slices, col="time"):
    rows, path = _splitk_rows()
    for r in rows:
        if r[0] == shape and int(r[1]) == int(slices):
            return _number(r[2 + SPLITK_COLS.index(col)])
    raise LookupError(f"no {shape} S={slices} in {path.name}")


def _splitk_error(chosen=0):
    rows, _ = _splitk_rows()
    return max(100.0 * abs(_number(r[6]) / _number(r[3]) - 1.0) for r in rows if not chosen or r[-1] == "*")


def _ladder(column, row, name="ladder_step10"):
    path = RESULTS / f"{name}_{PRIMARY}.txt"
    lines = [ln for ln in path.read_text(encoding="utf-8").split("\n") if ln.startswith("  ") and row in ln]
    if len(lines) != 1:
        raise LookupError(f"'{row}' names {len(lines)} rows of {path.name}")
    cells = re.split(r"\s{2,}", lines[0].strip())[1:]
    return _number(cells[int(column)].split()[0])


VARIANT_COLS = ["regs", "local", "gf4096", "pc4096", "gf8192", "pc8192"]


def _variant(name, col="gf4096", n=0):
    path = RESULTS / f"variants_step10_{PRIMARY}.txt"
    rows = [ln.split() for ln in path.read_text(encoding="utf-8").split("\n") if ln.split()[:1] == [name]]
    if len(rows) <= n:
        raise LookupError(f"no row {n} named '{name}' in {path.name}")
    return _number(rows[n][1 + VARIANT_COLS.index(col)])


ALIGNMENT_COLS = {"S": 2, "4byte_us": 3, "4byte_pc": 4, "us": 5, "pc": 6, "copy_us": -4, "step09_pc": -3,
                  "cublas_gf": -2}


def _alignment(step, shape, col="pc"):
    """A value of alignment_<gpu>.txt (make alignment): step `step` at `shape` (a size, or
    'MxNxK'); col: 'pc' (% of cuBLAS as the launcher runs it), 'us', '4byte_pc', '4byte_us'
    (with 4-byte copies), 'S', 'copy_us' (the packing copy alone), 'step09_pc', 'cublas_gf'."""
    path = RESULTS / f"alignment_{PRIMARY}.txt"
    want = "x".join(map(str, _shape(shape)))
    for ln in path.read_text(encoding="utf-8").split("\n"):
        tok = ln.split()
        if len(tok) >= 11 and tok[0] == want and tok[1] == f"step{step:02d}":
            return _number(tok[ALIGNMENT_COLS[col]])
    raise LookupError(f"no row for step {step} at {want} in {path.name}")


def _spread(step, shape=SIZE, stat="median", col="gflops"):
    """A statistic over the rounds of spread_<gpu>.txt (make spread): step `step` at `shape`;
    stat: 'min', 'median', 'max', 'n' (how many runs) or 'range' (max / min - 1, in %); col:
    'gflops' (default) or 'pc' (% of cuBLAS in the same run)."""
    path = RESULTS / f"spread_{PRIMARY}.txt"
    lines = [ln for ln in path.read_text(encoding="utf-8").split("\n") if ln and not ln.startswith("#")]
    want = (f"step{int(step):02d}", _shape(shape))
    values = [100.0 * _number(r["gflops"]) / _number(r["cublas_gflops"]) if col == "pc" else _number(r[col])
              for r in csv.DictReader(lines)
              if (r["step"], (int(r["M"]), int(r["N"]), int(r["K"]))) == want]
    if not values:
        raise LookupError(f"no rows {want} in {path.name}")
    return {"min": min(values), "max": max(values), "median": statistics.median(values), "n": len(values),
            "range": 100.0 * (max(values) / min(values) - 1)}[stat]


def _stride(step, size, metric):
    """A metric of stride_<gpu>.txt (make stride): step `step` at size^3, by any unique part of its name."""
    path = RESULTS / f"stride_{PRIMARY}.txt"
    runs = re.split(r"^== ", path.read_text(encoding="utf-8"), flags=re.M)
    run = next((r for r in runs if r.split("\n", 1)[0].split() == [f"step{int(step):02d}", str(int(size))]), None)
    if run is None:
        raise LookupError(f"no run step{int(step):02d} {size} in {path.name}")
    metrics = parse_ncu(run.split("\n"))
    found = [k for k in metrics if metric in k]
    if len(found) != 1:
        raise LookupError(f"'{metric}' names {len(found)} metrics of {path.name}")
    return _number(metrics[found[0]][1])


def _match(name, pattern, group=1):
    """A number any results file prints, found by a regular expression: the first match of
    `pattern` in docs/results/<name> (<name>_<gpu>.txt or <name>.txt if no such file), its
    group `group`. For figures no other function reads (a line of a report, a log)."""
    for f in (RESULTS / f"{name}_{PRIMARY}.txt", RESULTS / f"{name}.txt", RESULTS / name):
        if f.is_file():
            m = re.search(pattern, f.read_text(encoding="utf-8"), re.M)
            if not m:
                raise LookupError(f"'{pattern}' is not in {f.name}")
            return _number(m.group(group))
    raise LookupError(f"no results file {name}")


TC_VARIANT_COLS = {"ms": 0, "gflops": 2, "x": 4, "max": 6, "fro": 8}


def _tc_variant(shape, label, col="gflops"):
    """A value of tc_variants_<gpu>.txt (make tc-variants): the row of section `shape` (a size, or
    'MxNxK') whose label is `label` with '.' for each space ('s12.128x256x32.w64x64.3st.acc',
    'cuBLAS.FP32'); col: 'ms', 'gflops' (default), 'x' (x cuBLAS FP32), 'max', 'fro'. The same
    number rx() finds by a pattern, in a marker of a few words (the lesson budget counts them)."""
    path = RESULTS / f"tc_variants_{PRIMARY}.txt"
    want, name = "x".join(map(str, _shape(shape))), label.split(".")
    sections = re.split(r"^== ", path.read_text(encoding="utf-8"), flags=re.M)
    section = next((s for s in sections if s.split("\n", 1)[0].strip() == want), None)
    if section is None:
        raise LookupError(f"no section {want} in {path.name}")
    for ln in section.split("\n")[1:]:
        tok = ln.split()
        if tok[:len(name)] == name and len(tok) == len(name) + 9 and tok[len(name) + 1] == "ms":
            return _number(tok[len(name) + TC_VARIANT_COLS[col]].rstrip("x"))
    raise LookupError(f"no row '{label}' in section {want} of {path.name}")


FIGURES = {
    "gf": lambda s, shape=SIZE, run="": _number(_csv_row(s, shape, run)["gflops"]),
    "ms": lambda s, shape=SIZE, run="": _number(_csv_row(s, shape, run)["median_ms"]),
    "cb": lambda s, shape=SIZE, run="": _number(_csv_row(s, shape, run)["cublas_gflops"]),
    "cbms": lambda s, shape=SIZE, run="": _number(_csv_row(s, shape, run)["cublas_median_ms"]),
    "pc": lambda s, shape=SIZE, run="": 100.0 * _number(_csv_row(s, shape, run)["gflops"]) / _number(_csv_row(s, shape, run)["cublas_gflops"]),
    "pk": lambda s, shape=SIZE, run="": 100.0 * _number(_csv_row(s, shape, run)["gflops"]) / _number(_csv_row(s, shape, run)["peak_gflops"]),
    "col": lambda s, shape, name, run="": _number(_csv_row(s, shape, run)[name]),
    "tf": lambda s, shape=SIZE, run="": _number(_csv_row(s, shape, run)["cublas_tf32_gflops"]),
    "ptf": lambda s, shape=SIZE, run="": 100.0 * _number(_csv_row(s, shape, run)["gflops"]) / _number(_csv_row(s, shape, run)["cublas_tf32_gflops"]),
    "pr": _precision, "ct": _cutlass, "pw": _power,
    "ncu": _ncu, "ncums": _ncu_ms, "tl": _tiles, "sass": _sass, "regs": _regs, "peak": _peak,
    # warp instructions per mma at 4096^3 (2^26 mma.sync m16n8k8 per product; n products per FMA)
    "ipm": lambda s, n=1: _ncu(s, "smsp__inst_executed.sum") / (n * 2**26),
    "tu": _tune, "sk": _splitk, "skerr": _splitk_error, "ld": _ladder, "vr": _variant,
    "st": _stride, "rx": _match, "al": _alignment, "sp": _spread,
    "tcv": _tc_variant,
    "wt": lambda column, row: _ladder(column, row, "warp_tile"),
}


# A format that starts with 万 or 亿 divides the count by 10^4 or 10^8 and writes the unit after it
# (<!--v:EXPR|亿.2f--> -> "1.52 亿"): the Chinese pages count large numbers so, not in 百万 or
# × 10⁹ (check_docs.py fails on those).
CHINESE_UNITS = {"万": 1e4, "亿": 1e8}
ARITHMETIC = {"min": min, "max": max, "abs": abs, "round": round, "sum": sum, "len": len}  # for ranges and spreads


def figure(expr, page):
    """The text of one inline figure: EXPR|FORMAT evaluated against docs/results. In a table
    row the '|' is written '\\|' (GitHub's tables split cells at every bare '|', comments too)."""
    expr, _, spec = expr.replace("\\|", "|").partition("|")
    try:
        value = eval(expr, {"__builtins__": dict(ARITHMETIC)}, dict(FIGURES))  # the pages are the project's own
    except Exception as e:  # a name, a row or a metric that is not there: say which page
        raise SystemExit(f"{page.relative_to(ROOT)}: inline figure '{expr}': {e}")
    if spec[:1] in CHINESE_UNITS:  # a count in 万 or 亿, as Chinese readers count: 1.52 亿, 6,296 万
        unit, spec = spec[0], spec[1:]
        return format(value / CHINESE_UNITS[unit], spec or ",.0f") + " " + unit
    return format(value, spec or (",.0f" if abs(value) >= 100 or value == int(value) else ".2f"))


def fill_inline(text, page):
    return INLINE.sub(lambda m: f"<!--v:{m['expr']}-->{figure(m['expr'], page)}<!--/v-->", text)


def usage_text(program):
    """What `./PROGRAM --help` prints: the string literals of usage() in common/run/args.cpp, read
    from the source so that the listing in docs/running.md cannot drift from the program."""
    source = (ROOT / "common" / "run" / "args.cpp").read_text(encoding="utf-8")
    body = re.search(r"std::string usage\(const std::string& program\) \{\s*return (.*?);\n\}", source, re.S)
    if not body:
        raise SystemExit("common/run/args.cpp: usage() is not 'return \"usage: \" + program + \"...\" ...;'")
    text = ""
    for token in re.finditer(r'"((?:[^"\\]|\\.)*)"|\bprogram\b', body.group(1)):
        text += program if token.group(0) == "program" else bytes(token.group(1), "utf-8").decode("unicode_escape")
    return text


def kernel_diff(kind, page):
    """`diff stepNN`: kernel.cuh from step NN-1 to step NN, comments left out, as a diff block."""
    step = kind.split()[1]
    if not re.fullmatch(r"step\d\d", step):
        raise SystemExit(f"{page}: a diff marker names one step, as in 'diff step02', not '{kind}'")
    try:
        lines = diff_lines(int(step[4:]))
    except LookupError as e:
        raise SystemExit(f"{page}: {e}")
    return "```diff\n" + "\n".join(lines) + "\n```\n"


def render(kind, page):
    lang = "zh" if page.name.endswith(".zh-CN.md") else "en"
    if kind.split()[0] == "diff":
        return kernel_diff(kind, page)
    if kind.split()[0] == "usage":
        return "```text\n" + usage_text(kind.split()[1]) + "```\n"
    if kind.split()[0] == "runs":
        return "\n".join(runs_table(kind, page, lang)) + "\n"
    if kind.split()[0] in ("report", "ncu", "profile", "regs", "tiles", "sass", "exercises", "splitk", "thin", "alignment", "variants",
                           "ladder"):
        return embedded(kind, page, lang)
    if kind.startswith("tune "):
        out = tune_rows(kind.split()[1], kind.split()[2:], page, lang)
        return out if out else TEXT[lang]["none"] + "\n"
    if kind.startswith("ncu-compare "):
        table = ncu_compare(*kind.split()[1:3], page, lang)
        return "\n".join(table) + "\n" if table else TEXT[lang]["none"] + "\n"
    if kind.split()[0] == "gpus-side":
        table = gpus_side_table(page, lang, *kind.split()[1:2])
        return "\n".join(table) + "\n" if table else TEXT[lang]["none"] + "\n"
    if kind.split()[0] == "gpus":
        return "\n".join(gpus_table(page, lang)) + "\n"
    if kind == "provenance":
        return "\n".join(provenance_table(page, lang)) + "\n"
    if kind.split()[0] == "classes":
        table = classes_table(page, lang, kind.split()[1:])
        return "\n".join(table) + "\n" if table else TEXT[lang]["none"] + "\n"
    if kind.split()[0] == "cold":
        table = cold_table(page, lang)
        return "\n".join(table) + "\n" if table else TEXT[lang]["none"] + "\n"
    if kind.split()[0] == "sizes":
        table = sizes_table(page, lang, kind.split()[1:])
        return "\n".join(table) + "\n" if table else TEXT[lang]["none"] + "\n"
    if kind.startswith("edge "):
        table = edge_table(kind.split()[1][4:], page, lang)
        return "\n".join(table) + "\n" if table else TEXT[lang]["none"] + "\n"
    rows, path = load(PRIMARY)
    table, second = None, False
    if rows:
        if kind == "overview":
            table = overview(rows, lang)
        elif kind == "overview part2":
            table, second = overview2(rows, lang), True
        elif kind.startswith("step "):
            table = step_table(rows, kind.split()[1], lang)
            second = any(part2(r) for r in rows if r["step"] == f"step{kind.split()[1]}")
        else:
            raise SystemExit(f"{page}: unknown results marker '{kind}'")
    if not table:
        return TEXT[lang]["none"] + "\n"
    return "\n".join(table) + "\n\n" + source_line(rows, path, page, lang, second) + "\n"


def pages():
    """Every Markdown page of the project (tools/pages/check_docs.py checks the same ones)."""
    for pattern in ("*.md", "steps/*/*.md", "docs/*.md", "docs/answers/*.md", "docs/results/*.md", "common/*.md",
                    "tools/*.md", "tools/*/*.md", "python/*.md"):
        yield from sorted(ROOT.glob(pattern))


def main():
    check = "--check" in sys.argv[1:]
    chosen = [Path(a).resolve() for a in sys.argv[1:] if a != "--check"]
    stale = []
    for page in chosen or pages():
        text = page.read_text(encoding="utf-8")
        new = MARKER.sub(lambda m: m.group(1) + render(m.group("kind").strip(), page) + m.group(4), text)
        new = fill_inline(new, page)
        if new != text:
            stale.append(page.relative_to(ROOT))
            if not check:
                page.write_text(new, encoding="utf-8")
    if check:
        if stale:
            print("results tables out of date (run: python3 tools/pages/results_table.py):",
                  " ".join(map(str, stale)))
            return 1
        print("results tables match docs/results/")
    else:
        for p in stale:
            print(f"updated {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
