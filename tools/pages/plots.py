#!/usr/bin/env python3
"""make plots: the pictures of the measured results, with matplotlib.

  images/benchmark_<gpu>.png  GFLOP/s against size (square M = N = K), one line per step
                              and one for cuBLAS, from docs/results/<gpu>.csv;
  images/roofline_<gpu>.png   each step at 4096^3 placed by its arithmetic intensity (FLOP
                              per byte of device memory, from the DRAM byte counters in
                              docs/results/ncu_stepNN_<gpu>.txt) and its GFLOP/s, under the
                              ceilings `make peak` measured (docs/results/peak_<gpu>.csv),
                              with the paper ceilings dashed beside them;
  images/shapes_<gpu>.png     % of cuBLAS of steps 07-10 at the shapes that are not square
                              powers of two (4095^3, tall, wide, short-K, long-K).

Then it regenerates the results tables in the Markdown pages (tools/pages/results_table.py).

usage: tools/pages/plots.py [GPU-SLUG]     (default: the H100's, h100-80gb-hbm3)
"""
import csv
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from results_table import ncu_metrics  # noqa: E402  (the one reader of ncu's files)

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


def source_note(rows, slug):
    r = rows[0]
    return (f"{r['gpu']}, driver {r['driver']}, CUDA {r['cuda_runtime']}, {r['cublas']}; "
            f"{r['date'][:10]}, commit {r['commit']}; source: docs/results/{slug}.csv")


def benchmark(rows, slug):
    square = [r for r in rows if r["M"] == r["N"] == r["K"] and int(r["M"]) & (int(r["M"]) - 1) == 0]
    steps = sorted({r["step"] for r in square})
    fig, ax = plt.subplots(figsize=(10, 6.2), dpi=110)
    cmap = plt.get_cmap("tab10")
    for i, step in enumerate(steps):
        pts = sorted((int(r["M"]), float(r["gflops"])) for r in square if r["step"] == step)
        title = next(r["title"] for r in square if r["step"] == step)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=4, lw=1.6, color=cmap(i % 10),
                label=f"{step[4:]} {title}")
    # cuBLAS: each step's run timed it again; the median over those runs at each size
    sizes = sorted({int(r["M"]) for r in square})
    blas = []
    for s in sizes:
        vals = sorted(float(r["cublas_gflops"]) for r in square if int(r["M"]) == s)
        blas.append(vals[len(vals) // 2])
    ax.plot(sizes, blas, color="black", lw=2.4, ls="--", marker="s", ms=4, label="cuBLAS (FP32, TF32 off)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(sizes)
    ax.set_xticklabels([str(s) for s in sizes])
    ax.set_xlabel("M = N = K")
    ax.set_ylabel("GFLOP/s (log scale)")
    ax.set_title(f"SGEMM steps on the {rows[0]['gpu']}: speed against size")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=9, frameon=False)
    fig.text(0.01, 0.01, source_note(rows, slug) + " (median of 20 runs; 8192: of 5)", fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    out = ROOT / "images" / f"benchmark_{slug}.png"
    fig.savefig(out)
    plt.close(fig)
    print(f"wrote {out.relative_to(ROOT)}")


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
    out = ROOT / "images" / f"shapes_{slug}.png"
    fig.savefig(out)
    plt.close(fig)
    print(f"wrote {out.relative_to(ROOT)}")


def roofline(rows, slug, peak):
    at = [r for r in rows if int(r["M"]) == int(r["N"]) == int(r["K"]) == SIZE]
    points = []
    for r in sorted(at, key=lambda r: r["step"]):
        b = dram_bytes(r["step"], slug)
        if b:
            flop = 2.0 * SIZE ** 3
            points.append((r["step"], r["title"], flop / b, float(r["gflops"])))
    if not points:
        print("roofline: no ncu DRAM counters in docs/results; run make ncu / tools/measure/save_reports.sh first")
        return
    fig, ax = plt.subplots(figsize=(11.5, 6.5), dpi=110)
    fp32, dram = float(peak["fp32"]["measured"]), float(peak["dram"]["measured"])
    fp32_paper, dram_paper = float(peak["fp32"]["paper"]), float(peak["dram"]["paper"])
    lo, hi = 0.5, 4 * max(p[2] for p in points)
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    ax.plot(xs, [min(fp32, dram * x) for x in xs], color="black", lw=2.2,
            label=f"measured: {fp32:,.0f} GFLOP/s FFMA, {dram:,.0f} GB/s DRAM (make peak)")
    ax.plot(xs, [min(fp32_paper, dram_paper * x) for x in xs], color="gray", lw=1.2, ls="--",
            label=f"paper: {fp32_paper:,.0f} GFLOP/s, {dram_paper:,.0f} GB/s (from clocks and widths)")
    cmap = plt.get_cmap("tab10")
    for i, (step, title, ai, g) in enumerate(points):
        ax.plot(ai, g, "o", ms=8, color=cmap(i % 10), label=f"{step[4:]} {title}: {ai:,.0f} FLOP/B, {g:,.0f} GFLOP/s")
        ax.annotate(step[4:], (ai, g), textcoords="offset points", fontsize=9,
                    xytext=(7, 4) if i % 2 else (7, -12))  # alternate sides: neighbours overlap less
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(100, fp32_paper * 2)
    ax.set_xlabel("arithmetic intensity (FLOP per byte of device memory, DRAM bytes from Nsight Compute)")
    ax.set_ylabel("GFLOP/s (log scale)")
    ax.set_title(f"Roofline of the steps at M = N = K = {SIZE} on the {rows[0]['gpu']}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8, frameon=False)
    fig.text(0.01, 0.01, source_note(rows, slug) + f",\npeak_{slug}.csv, ncu_stepNN_{slug}.txt",
             fontsize=7, color="#555555")
    fig.tight_layout(rect=(0.01, 0.05, 1, 1))
    out = ROOT / "images" / f"roofline_{slug}.png"
    fig.savefig(out)
    plt.close(fig)
    print(f"wrote {out.relative_to(ROOT)}")


def main():
    # the GPU named, or every GPU with a results set (docs/results/<slug>.meta.json from make bench)
    slugs = [sys.argv[1]] if len(sys.argv) > 1 else sorted(
        p.name[:-len(".meta.json")] for p in (ROOT / "docs" / "results").glob("*.meta.json") if "_as_sm_" not in p.name)
    for slug in slugs:
        rows = load_rows(slug)
        benchmark(rows, slug)
        shapes(rows, slug)
        peak = load_peak(slug)
        if peak:
            roofline(rows, slug, peak)
        else:
            print(f"roofline: docs/results/peak_{slug}.csv is missing; run make peak on that GPU (tools/validate/gpu_check.sh does)")
    return subprocess.run([sys.executable, str(ROOT / "tools" / "pages" / "results_table.py")]).returncode


if __name__ == "__main__":
    sys.exit(main())
