#!/usr/bin/env python3
"""make plots: the pictures of the measured results, with matplotlib.

  images/benchmark_<gpu>.png  GFLOP/s against size (square M = N = K), one line per step
                              and one for cuBLAS, from docs/results/<gpu>.csv; where the set has
                              the tensor-core steps (Part II), a second panel with them, step 10
                              and both baselines, cuBLAS FP32 and cuBLAS TF32;
  images/roofline_<gpu>.png   each step at 4096^3 placed by its arithmetic intensity (FLOP
                              per byte of device memory, from the DRAM byte counters in
                              docs/results/ncu_stepNN_<gpu>.txt) and its GFLOP/s, under the
                              ceilings `make peak` measured (docs/results/peak_<gpu>.csv),
                              with the paper ceilings dashed beside them, and the tensor
                              ceiling (mma.sync TF32) where that file has its row;
  images/precision_<gpu>.png  make precision's error against an FP64 product (docs/results/
                              precision_<gpu>.csv): max error against K for steps 10, 11, 12 and
                              cuBLAS FP32 and TF32, and each one's speed against its error at
                              K = 4096;
  images/shapes_<gpu>.png     % of cuBLAS of steps 07-10 at the shapes that are not square
                              powers of two (4095^3, tall, wide, short-K, long-K);
  images/08_autotuning_tune_<arch>.png
                              step 08's tile search on that GPU (docs/results/tune_<arch>.txt
                              from make tune STEP=08): every candidate's GFLOP/s against its
                              registers per thread, coloured by its blocks per SM, at each
                              size searched; the winners and the rejected candidates marked.

  images/steps_<gpu>.png      the course at a glance, for the front page: every step's GFLOP/s at
                              4096^3, Part I and Part II, one bar each, against cuBLAS FP32 and
                              (where the set has it) cuBLAS TF32 timed in the same runs;

Then it regenerates the results tables in the Markdown pages (tools/pages/results_table.py).

usage: tools/pages/plots.py [GPU-SLUG]     (default: the H100's, h100-80gb-hbm3)
"""
import csv
import re
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.patches  # noqa: E402
import matplotlib.ticker  # noqa: E402

from results_table import gpu_result_sets, ncu_metrics  # noqa: E402  (the one reader of ncu's files and result sets)

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "docs" / "results"
SIZE = 4096
UNITS = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12}


def load_rows(slug):
    with (RESULTS / f"{slug}.csv").open(newline="") as f:
        return list(csv.DictReader(f))


def load_peak(slug):
    path = RESULTS / f"peak_{slug}.csv"
    if not path.exists():
        return None
    with path.open(newline="") as f:  # '#' lines: where and when it was measured
        return {r["quantity"]: r for r in csv.DictReader(ln for ln in f if not ln.startswith("#"))}


def dram_bytes(step, slug):
    """Bytes read plus written by the step's kernel at 4096^3, as Nsight Compute counted them."""
    metrics, _ = ncu_metrics(step, slug)
    total = 0.0
    for name in ("dram__bytes_read.sum", "dram__bytes_write.sum"):
        if metrics and name in metrics:
            unit, value = metrics[name]
            total += float(value.replace(",", "")) * UNITS[unit]
    return total or None


def save(fig, name):
    """Writes `fig` to images/NAME and closes it."""
    out = ROOT / "images" / name
    fig.savefig(out)
    plt.close(fig)
    print(f"wrote {out.relative_to(ROOT)}")


def source_note(rows, slug):
    r = rows[0]
    return (f"{r['gpu']}, driver {r['driver']}, CUDA {r['cuda_runtime']}, {r['cublas']}; "
            f"{r['date'][:10]}, commit {r['commit']}; source: docs/results/{slug}.csv")


def is_part2(r):
    """A tensor-core step (Part II): arithmetic TF32 or 3xTF32 in the CSV; a set from before the
    column is all Part I (results_table.part2 decides the tables the same way)."""
    return r.get("arithmetic", "FP32") not in ("", "FP32")


def median_by_size(square, column):
    """{size: median of `column` over every step's run at that size} (each run timed cuBLAS)."""
    out = {}
    for s in sorted({int(r["M"]) for r in square}):
        vals = sorted(float(r[column]) for r in square if int(r["M"]) == s and r.get(column) not in (None, ""))
        if vals:
            out[s] = vals[len(vals) // 2]
    return out


def step_lines(ax, square, steps, colour, marker=lambda step: "o"):
    for step in steps:
        pts = sorted((int(r["M"]), float(r["gflops"])) for r in square if r["step"] == step)
        title = next(r["title"] for r in square if r["step"] == step)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker(step), ms=4, lw=1.6, color=colour(step),
                label=f"{step[4:]} {title}", zorder=3)  # above the baselines, which they may meet


def size_axis(ax, sizes):
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([str(s) for s in sizes])
    ax.set_xlabel("M = N = K")
    ax.grid(True, which="both", alpha=0.3)


def benchmark(rows, slug):
    """Part I (steps 01-10 and cuBLAS FP32) on a log scale, as before; where the set has
    tensor-core steps, a second panel beside it: Part II's steps, the last CUDA-core step, and
    both baselines, cuBLAS FP32 and cuBLAS TF32, on a linear scale (the gap between them is the
    point, and a log scale would flatten it)."""
    square = [r for r in rows if r["M"] == r["N"] == r["K"] and int(r["M"]) & (int(r["M"]) - 1) == 0]
    first = sorted({r["step"] for r in square if not is_part2(r)})
    second = sorted({r["step"] for r in square if is_part2(r)})
    cmap = plt.get_cmap("tab10")
    colour = {step: cmap(i % 10) for i, step in enumerate(first)}
    colour.update({step: ("#d62728", "#8c564b", "#e377c2")[i % 3] for i, step in enumerate(second)})
    sizes = sorted({int(r["M"]) for r in square})
    if second:
        fig, (ax, ax2) = plt.subplots(1, 2, figsize=(16, 7.6), dpi=110)
    else:
        fig, ax = plt.subplots(figsize=(10, 6.2), dpi=110)
    step_lines(ax, square, first, colour.get)
    # cuBLAS: each step's run timed it again; the median over those runs at each size
    blas = median_by_size(square, "cublas_gflops")
    ax.plot(list(blas), list(blas.values()), color="black", lw=2.4, ls="--", marker="s", ms=4,
            label="cuBLAS (FP32, TF32 off)")
    size_axis(ax, sizes)
    ax.set_yscale("log")
    ax.set_ylabel("GFLOP/s (log scale)")
    gpu = rows[0]["gpu"]
    if second:
        ax.set_title(f"Part I, CUDA cores: steps 01-{first[-1][4:]} against cuBLAS FP32")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.11), ncol=4, fontsize=8.5, frameon=False)
        step_lines(ax2, square, first[-1:] + second, colour.get, lambda step: "D" if is_part2(
            next(r for r in square if r["step"] == step)) else "o")
        ax2.plot(list(blas), list(blas.values()), color="black", lw=2.4, ls="--", marker="s", ms=4,
                 label="cuBLAS FP32 (cublasSgemm, TF32 off)")
        tf32 = median_by_size(square, "cublas_tf32_gflops")
        ax2.plot(list(tf32), list(tf32.values()), color="black", lw=2.4, ls=":", marker="^", ms=5,
                 label="cuBLAS TF32 (cublasGemmEx, FAST_TF32)")
        size_axis(ax2, sizes)
        ax2.set_ylim(0, max(tf32.values()) * 1.08)
        ax2.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:,.0f}"))
        ax2.set_ylabel("GFLOP/s")
        ax2.set_title(f"Part II, tensor cores: steps {', '.join(s[4:] for s in second)} against both baselines")
        ax2.legend(loc="upper center", bbox_to_anchor=(0.5, -0.11), ncol=2, fontsize=8.5, frameon=False)
        fig.suptitle(f"SGEMM steps on the {gpu}: speed against size", fontsize=12)
    else:
        ax.set_title(f"SGEMM steps on the {gpu}: speed against size")
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=9, frameon=False)
    fig.text(0.01, 0.01, source_note(rows, slug) + " (median of 20 runs; 8192: of 5)", fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    save(fig, f"benchmark_{slug}.png")


def steps_at_a_glance(rows, slug):
    """One bar per step at 4096^3, on a log scale (step 01 and step 11 are 280x apart), with
    cuBLAS FP32 and cuBLAS TF32 as vertical lines: the median of the cuBLAS runs that every
    step's run timed beside it. The front page's one picture."""
    at = [r for r in rows if int(r["M"]) == int(r["N"]) == int(r["K"]) == SIZE]
    if not at:
        return
    at.sort(key=lambda r: r["step"])
    fig, ax = plt.subplots(figsize=(9.6, 0.42 * len(at) + 2.5), dpi=100)
    ys = range(len(at))[::-1]  # step 01 at the top
    colours = ["#d62728" if is_part2(r) else "#1f77b4" for r in at]
    gflops = [float(r["gflops"]) for r in at]
    ax.barh(list(ys), gflops, color=colours, height=0.7, zorder=2)
    for y, r, g in zip(ys, at, gflops):
        ax.text(g * 1.06, y, f"{g:,.0f}  ({float(r['pct_of_cublas']):.1f}% of cuBLAS FP32)",
                va="center", fontsize=8.5, zorder=3,
                bbox=dict(facecolor="white", edgecolor="none", pad=1.0, alpha=0.9))
    ax.set_yticks(list(ys))
    ax.set_yticklabels([f"{r['step'][4:]} {r['title'].replace('_', ' ')}" for r in at], fontsize=9.5)
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.set_xlabel(f"GFLOP/s at M = N = K = {SIZE} (log scale)")
    fp32 = sorted(float(r["cublas_gflops"]) for r in at)[len(at) // 2]
    lines = [(fp32, "--", f"cuBLAS FP32 {fp32:,.0f}")]
    tf32 = sorted(float(r["cublas_tf32_gflops"]) for r in at if r.get("cublas_tf32_gflops"))
    if tf32:
        lines.append((tf32[len(tf32) // 2], ":", f"cuBLAS TF32 {tf32[len(tf32) // 2]:,.0f}"))
    for x, ls, label in lines:
        ax.axvline(x, color="black", lw=1.6, ls=ls, label=label, zorder=1)
    ax.set_xlim(min(gflops) / 2, max([g for g in gflops] + [x for x, _, _ in lines]) * 12)
    handles = [matplotlib.patches.Patch(color="#1f77b4", label="Part I: FP32 FFMA on CUDA cores")]
    if any(is_part2(r) for r in at):
        handles.append(matplotlib.patches.Patch(color="#d62728", label="Part II: TF32 tensor cores"))
    handles += ax.get_legend_handles_labels()[0]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize=8.5, frameon=False)
    ax.grid(True, axis="x", which="major", alpha=0.3)
    ax.set_title(f"Every step against cuBLAS on the {rows[0]['gpu']}, M = N = K = {SIZE}", fontsize=11)
    fig.text(0.01, 0.01, source_note(rows, slug) + " (median of 20 runs)", fontsize=6.5, color="#555555")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    save(fig, f"steps_{slug}.png")


def shapes(rows, slug):
    """% of cuBLAS of steps 07-10 at the shapes the square sweep does not show: 4095^3, tall,
    wide, short-K and long-K (few tiles of C), one group of bars per shape."""
    others = [r for r in rows if not (r["M"] == r["N"] == r["K"] and int(r["M"]) & (int(r["M"]) - 1) == 0)]
    keys = []
    for r in others:
        k = (int(r["M"]), int(r["N"]), int(r["K"]))
        if k not in keys:
            keys.append(k)
    steps = [s for s in ("step07", "step08", "step09", "step10") if any(r["step"] == s for r in others)]
    if not keys or not steps:
        return
    cell = {(r["step"], (int(r["M"]), int(r["N"]), int(r["K"]))): r for r in others}
    fig, ax = plt.subplots(figsize=(11, 5.6), dpi=110)
    cmap = plt.get_cmap("tab10")
    width = 0.8 / len(steps)
    for i, step in enumerate(steps):
        xs, ys = [], []
        for j, k in enumerate(keys):
            if (step, k) in cell:
                xs.append(j + (i - (len(steps) - 1) / 2) * width)
                ys.append(float(cell[(step, k)]["pct_of_cublas"]))
        title = next(r["title"] for r in others if r["step"] == step)
        ax.bar(xs, ys, width=width * 0.95, color=cmap(6 + i if i < 4 else i), label=f"{step[4:]} {title}")
    ax.axhline(100, color="black", lw=1.2, ls="--", label="cuBLAS (same run)")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([f"{m}\n×{n}\n×{k}" if not m == n == k else f"{m}³" for m, n, k in keys], fontsize=8)
    ax.set_ylabel("% of cuBLAS in the same run")
    ax.set_title(f"Steps 07-10 on the {rows[0]['gpu']}: odd, tall, wide, short-K and long-K shapes")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=9, frameon=False)
    fig.text(0.01, 0.01, source_note(rows, slug), fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    save(fig, f"shapes_{slug}.png")


def peak_value(peak, quantity, col="measured"):
    """A figure of peak_<gpu>.csv, or None where the row is missing or the figure is not a number
    (the tensor rate has no paper figure: make peak writes nan)."""
    try:
        value = float(peak[quantity][col])
    except (KeyError, TypeError, ValueError):
        return None
    return value if value == value else None


def roofline(rows, slug, peak):
    at = [r for r in rows if int(r["M"]) == int(r["N"]) == int(r["K"]) == SIZE]
    points = []
    for r in sorted(at, key=lambda r: r["step"]):
        b = dram_bytes(r["step"], slug)
        if b:
            flop = 2.0 * SIZE ** 3
            points.append((r["step"], r["title"], flop / b, float(r["gflops"]), is_part2(r)))
    if not points:
        print("roofline: no ncu DRAM counters in docs/results; run make ncu / tools/measure/save_reports.sh first")
        return
    fig, ax = plt.subplots(figsize=(11.5, 6.5), dpi=110)
    fp32, dram = float(peak["fp32"]["measured"]), float(peak["dram"]["measured"])
    fp32_paper, dram_paper = float(peak["fp32"]["paper"]), float(peak["dram"]["paper"])
    # the tensor ceiling: mma.sync's TF32 rate, where make peak measured it (no paper figure)
    tensor = peak_value(peak, "mma_tf32")
    lo, hi = 0.5, 4 * max(p[2] for p in points)
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    if tensor:
        ax.plot(xs, [min(tensor, dram * x) for x in xs], color="#d62728", lw=2.2,
                label=f"measured: {tensor:,.0f} GFLOP/s TF32 mma.sync on the tensor cores (make peak)")
        ax.annotate(f"tensor ceiling (TF32): {tensor:,.0f} GFLOP/s", (hi, tensor), xytext=(-6, 5),
                    textcoords="offset points", ha="right", fontsize=9, color="#d62728")
    ax.plot(xs, [min(fp32, dram * x) for x in xs], color="black", lw=2.2,
            label=f"measured: {fp32:,.0f} GFLOP/s FFMA, {dram:,.0f} GB/s DRAM (make peak)")
    if tensor:
        ax.annotate(f"FFMA ceiling (FP32): {fp32:,.0f} GFLOP/s", (hi, fp32), xytext=(-6, 5),
                    textcoords="offset points", ha="right", fontsize=9)
    ax.plot(xs, [min(fp32_paper, dram_paper * x) for x in xs], color="gray", lw=1.2, ls="--",
            label=f"paper: {fp32_paper:,.0f} GFLOP/s, {dram_paper:,.0f} GB/s (from clocks and widths)")
    cmap = plt.get_cmap("tab10")
    tensor_colours = iter(("#d62728", "#8c564b", "#e377c2"))
    for i, (step, title, ai, g, tc) in enumerate(points):
        ax.plot(ai, g, "D" if tc else "o", ms=8, color=next(tensor_colours) if tc else cmap(i % 10),
                label=f"{step[4:]} {title}: {ai:,.0f} FLOP/B, {g:,.0f} GFLOP/s")
        # alternate sides, neighbours overlap less; Part II's labels go left, clear of Part I's
        ax.annotate(step[4:], (ai, g), textcoords="offset points", fontsize=9,
                    xytext=(-18, 6) if tc else (7, 4) if i % 2 else (7, -12))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(100, 2 * max([fp32_paper, tensor or 0] + [p[3] for p in points]))
    ax.set_xlabel("arithmetic intensity (FLOP per byte of device memory, DRAM bytes from Nsight Compute)")
    ax.set_ylabel("GFLOP/s (log scale)")
    ax.set_title(f"Roofline of the steps at M = N = K = {SIZE} on the {rows[0]['gpu']}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8, frameon=False)
    fig.text(0.01, 0.01, source_note(rows, slug) + f",\npeak_{slug}.csv, ncu_stepNN_{slug}.txt",
             fontsize=7, color="#555555")
    fig.tight_layout(rect=(0.01, 0.05, 1, 1))
    save(fig, f"roofline_{slug}.png")


METHODS = [  # make precision's methods, in the order of the legend: (name, label, colour, marker)
    ("step10", "step 10 (FFMA, FP32)", "#17becf", "o"),
    ("step11", "step 11 (TF32 tensor cores)", "#d62728", "D"),
    ("step12", "step 12 (3xTF32 tensor cores)", "#8c564b", "D"),
    ("cublas_fp32", "cuBLAS FP32 (TF32 off)", "black", "s"),
    ("cublas_tf32", "cuBLAS TF32 (FAST_TF32)", "#7f7f7f", "^"),
]


def precision(slug, at_k=SIZE):
    """images/precision_<gpu>.png from docs/results/precision_<gpu>.csv (make precision, M = N =
    2048): left, each method's max |C - C64| / (|A||B|) against K; right, its GFLOP/s against
    that error at K = at_k, one labelled marker per method (faster is up, more accurate is left)."""
    path = RESULTS / f"precision_{slug}.csv"
    if not path.exists():
        print(f"precision: no docs/results/{path.name}; run make precision on that GPU (sm_80 and newer)")
        return
    text = path.read_text(encoding="utf-8").split("\n")
    head = [ln[2:] for ln in text if ln.startswith("# ")]
    rows = list(csv.DictReader(ln for ln in text if ln and not ln.startswith("#")))
    methods = [m for m in METHODS if any(r["method"] == m[0] for r in rows)]
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(15, 6.2), dpi=110, gridspec_kw={"width_ratios": [1.1, 1]})
    for name, label, colour, marker in methods:
        pts = sorted((int(r["K"]), float(r["max"])) for r in rows if r["method"] == name)
        # cuBLAS and the steps can land on the same errors (step 10 sums in cuBLAS FP32's order):
        # the steps wide and pale underneath, cuBLAS thin, dashed and hollow on top, so both show
        if name.startswith("cublas"):
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, ms=7, lw=1.3, ls="--", color=colour,
                    mfc="none", label=label, zorder=3)
        else:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, ms=6, lw=4, alpha=0.75, color=colour,
                    label=label, zorder=2)
    ks = sorted({int(r["K"]) for r in rows})
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(ks)
    ax.set_xticklabels([str(k) for k in ks])
    ax.set_xlabel("K (M = N = 2048)")
    ax.set_ylabel("max |C - C_FP64| / (|A|·|B|)  (log scale)")
    ax.set_title("Error against an FP64 product, by depth K")
    ax.grid(True, which="both", alpha=0.3)
    # in the empty band between the FP32-accurate curves (below 1e-6) and TF32's (above 1e-5)
    ax.legend(loc="center right", bbox_to_anchor=(1.0, 0.4), fontsize=9, frameon=True, framealpha=0.9)
    at = {r["method"]: r for r in rows if int(r["K"]) == at_k}
    # one marker per method; methods that land on the same spot (within 10% in both) share a label
    groups = []
    for name, label, colour, marker in methods:
        if name not in at:
            continue
        err, g = float(at[name]["max"]), float(at[name]["gflops"])
        ax2.plot(err, g, marker, ms=11, color=colour, mec="black", mew=0.6, alpha=0.85)
        near = next((grp for grp in groups if abs(grp[0] / err - 1) < 0.1 and abs(grp[1] / g - 1) < 0.1), None)
        if near:
            near[2].append(f"{label}\n{g:,.0f} GFLOP/s, error {err:.1e}")
        else:
            groups.append([err, g, [f"{label}\n{g:,.0f} GFLOP/s, error {err:.1e}"]])
    top = max((grp[1] for grp in groups), default=1.0)
    low = sorted((grp for grp in groups if grp[1] < 0.5 * top), key=lambda grp: grp[0])
    for grp in groups:
        # the slower ones sit close together near the bottom: their labels go above them, at two
        # heights in turn, so that neighbours' labels do not overlap
        dy = 0 if grp not in low else (30 if low.index(grp) % 2 == 0 else 90)
        ax2.annotate("\n".join(grp[2]), (grp[0], grp[1]), textcoords="offset points", xytext=(10, dy),
                     fontsize=8.5, va="center",
                     arrowprops=dict(arrowstyle="-", color="#888888", lw=0.6) if dy else None)
    ax2.set_xscale("log")
    errs = [float(r["max"]) for r in at.values()]
    if errs:
        ax2.set_xlim(min(errs) / 3, max(errs) * 60)  # room on the right for the labels
        ax2.set_ylim(0, max(float(r["gflops"]) for r in at.values()) * 1.15)
    ax2.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax2.set_xlabel(f"max |C - C_FP64| / (|A|·|B|) at K = {at_k}  (log scale; left is more accurate)")
    ax2.set_ylabel(f"GFLOP/s at 2048 × 2048 × {at_k}")
    ax2.set_title(f"Speed against error at K = {at_k}")
    ax2.grid(True, which="both", alpha=0.3)
    gpu = head[1].split(",")[0] if len(head) > 1 else slug
    fig.suptitle(f"Accuracy and speed of FFMA, TF32 and 3xTF32 on the {gpu} (make precision)", fontsize=12)
    note = (head[1] if len(head) > 1 else "") + f"; source: docs/results/{path.name}"
    fig.text(0.01, 0.01, note, fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.03, 1, 0.96))
    save(fig, f"precision_{slug}.png")


def gpu_slug(name):
    """The results files' name for a GPU, as tools/measure/gpu_meta.sh makes it."""
    slug = re.sub(r"nvidia|geforce", "", name.lower(), count=0)
    return re.sub(r"[^a-z0-9]+", "-", slug).strip("-")


def load_tune(path):
    """docs/results/tune_<arch>.txt: (the GPU's name, the '#' lines, the sizes searched, rows).
    Each row: tiles, regs, blocks (ints or None), {size: GFLOP/s or None}, verdict."""
    head = [ln for ln in path.read_text(encoding="utf-8").split("\n") if ln.startswith("#")]
    gpu = re.match(r"# make tune STEP=08 on (.*) \((sm_\d+)\)", head[0]).group(1)
    lines = path.read_text(encoding="utf-8").split("\n")
    columns = next(ln for ln in lines if ln.startswith("tiles ")).split()
    sizes = [c[3:] for c in columns if c.startswith("GF@")]
    rows = []
    for ln in lines:
        if not ln.startswith("<"):
            continue
        tiles, rest = ln[:ln.index(">") + 1], ln[ln.index(">") + 1:].split()
        value = lambda x: None if x == "-" else float(x)
        gflops = {z: value(rest[7 + 2 * i]) for i, z in enumerate(sizes)}
        rows.append({"tiles": tiles, "regs": value(rest[1]), "blocks": value(rest[3]), "gflops": gflops,
                     "pct": {z: value(rest[8 + 2 * i]) for i, z in enumerate(sizes)},
                     "verdict": " ".join(rest[7 + 2 * len(sizes):])})
    return gpu, head, sizes, rows


def tune_landscape(path):
    """Step 08's search: one panel per size searched, GFLOP/s against registers per thread,
    colour = blocks per SM, a star for that size's winner, crosses for rejected candidates."""
    gpu, head, sizes, rows = load_tune(path)
    arch = path.stem.split("_", 1)[1]
    fig, axes = plt.subplots(1, len(sizes), figsize=(6.2 * len(sizes) + 1.6, 6.4), dpi=110, squeeze=False)
    cmap = plt.get_cmap("tab10")
    blocks = sorted({int(r["blocks"]) for r in rows if r["blocks"] is not None})
    colour = {b: cmap(i % 10) for i, b in enumerate(blocks)}
    rejected = [r for r in rows if r["verdict"].startswith("rejected")]
    reasons = sorted({re.sub(r" \(.*", "", r["verdict"][len("rejected: "):]) for r in rejected})
    marks = dict(zip(reasons, "XPDv^s"))
    for ax, size in zip(axes[0], sizes):
        timed = [r for r in rows if r["gflops"][size] is not None and r["regs"] is not None]
        for r in timed:
            if r["verdict"].startswith("rejected"):
                why = re.sub(r" \(.*", "", r["verdict"][len("rejected: "):])
                ax.scatter(r["regs"], r["gflops"][size], marker=marks[why], s=70, color=colour[int(r["blocks"])],
                           edgecolors="black", linewidths=0.6, zorder=3)
            elif "winner at " + size + "^3" in r["verdict"]:
                continue  # drawn last, on top
            else:
                ax.scatter(r["regs"], r["gflops"][size], marker="o", s=30, color=colour[int(r["blocks"])],
                           alpha=0.8, edgecolors="none", zorder=2)
        for r in timed:
            if "winner at " + size + "^3" in r["verdict"]:
                g = r["gflops"][size]
                ax.scatter(r["regs"], g, marker="*", s=420, color=colour[int(r["blocks"])], edgecolors="black",
                           linewidths=1.2, zorder=4)
                ax.annotate(f"winner {r['tiles']}\n{g:,.0f} GFLOP/s ({r['pct'][size]:.1f}% of cuBLAS),\n"
                            f"{r['regs']:.0f} registers, {r['blocks']:.0f} blocks/SM",
                            (r["regs"], g), xytext=(0.04, 0.08), textcoords="axes fraction", fontsize=8.5,
                            arrowprops=dict(arrowstyle="->", color="black", lw=0.8),
                            bbox=dict(boxstyle="round", fc="white", ec="#999999", alpha=0.9))
        # cuBLAS in the same processes: each candidate's program timed it beside its kernel
        blas = sorted(r["gflops"][size] * 100.0 / r["pct"][size] for r in timed if r["pct"][size])
        if blas:
            ax.axhline(blas[len(blas) // 2], color="black", lw=1.2, ls="--", zorder=1)
            ax.annotate(f"cuBLAS {blas[len(blas) // 2]:,.0f} GFLOP/s (median of its runs beside the candidates)",
                        (0.01, blas[len(blas) // 2]), xycoords=("axes fraction", "data"), xytext=(0, 4),
                        textcoords="offset points", fontsize=8)
        ax.set_title(f"at M = N = K = {size}: {len(timed)} candidates timed")
        ax.set_xlabel("registers per thread (the runtime's count)")
        ax.set_ylabel("GFLOP/s")
        ax.set_ylim(0, max(blas + [r["gflops"][size] for r in timed]) * 1.1)
        ax.set_xlim(0, 272)
        ax.set_xticks(range(0, 257, 32))
        ax.grid(True, alpha=0.3)
    handles = [plt.Line2D([], [], ls="", marker="o", ms=7, color=colour[b], label=f"{b} block{'s' if b > 1 else ''} per SM")
               for b in blocks]
    handles.append(plt.Line2D([], [], ls="", marker="*", ms=15, color="white", markeredgecolor="black",
                              label="the winner at that size"))
    for why in reasons:
        n = sum(1 for r in rejected if r["verdict"][len("rejected: "):].startswith(why))
        handles.append(plt.Line2D([], [], ls="", marker=marks[why], ms=8, color="white", markeredgecolor="black",
                                  label=f"rejected: {why} ({n})"))
    untimed = [r for r in rows if all(v is None for v in r["gflops"].values())]
    if untimed:
        handles.append(plt.Line2D([], [], ls="", label=f"{len(untimed)} rejected without a time: not drawn"))
    fig.legend(handles=handles, loc="center right", fontsize=9, frameon=False, title="colour: blocks per SM")
    fig.suptitle(f"Step 08's tile search on the {gpu} ({arch}): {len(rows)} candidates <BM, BN, BK, TM, TN>",
                 fontsize=12)
    fig.text(0.01, 0.01, head[0][2:] + f"; source: docs/results/{path.name}", fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.03, 1 - 2.0 / fig.get_figwidth(), 0.96))
    save(fig, f"08_autotuning_tune_{arch}.png")


def main():
    # the GPU named, or every GPU with a results set (docs/results/<slug>.meta.json from make bench)
    slugs = [sys.argv[1]] if len(sys.argv) > 1 else sorted(
        p.name[:-len(".meta.json")] for p in gpu_result_sets())
    for slug in slugs:
        rows = load_rows(slug)
        steps_at_a_glance(rows, slug)
        benchmark(rows, slug)
        shapes(rows, slug)
        peak = load_peak(slug)
        if peak:
            roofline(rows, slug, peak)
        else:
            print(f"roofline: docs/results/peak_{slug}.csv is missing; run make peak on that GPU (tools/validate/gpu_check.sh does)")
        if (RESULTS / f"precision_{slug}.csv").exists():
            precision(slug)
    # step 08's search on each architecture whose GPU is drawn (not the searches for a forced class)
    for path in sorted(RESULTS.glob("tune_sm_*.txt")):
        if "_as_" not in path.name and gpu_slug(load_tune(path)[0]) in slugs:
            tune_landscape(path)
    return subprocess.run([sys.executable, str(ROOT / "tools" / "pages" / "results_table.py")]).returncode


if __name__ == "__main__":
    sys.exit(main())
