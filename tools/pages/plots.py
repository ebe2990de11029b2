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
                              powers of two (4095^3, tall, wide, short-K, long-K);
  images/08_autotuning_tune_<arch>.png
                              step 08's tile search on that GPU (docs/results/tune_<arch>.txt
                              from make tune STEP=08): every candidate's GFLOP/s against its
                              registers per thread, coloured by its blocks per SM, at each
                              size searched; the winners and the rejected candidates marked.

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
    out = ROOT / "images" / f"08_autotuning_tune_{arch}.png"
    fig.savefig(out)
    plt.close(fig)
    print(f"wrote {out.relative_to(ROOT)}")


def main():
    # the GPU named, or every GPU with a results set (docs/results/<slug>.meta.json from make bench)
    slugs = [sys.argv[1]] if len(sys.argv) > 1 else sorted(
        p.name[:-len(".meta.json")] for p in gpu_result_sets())
    for slug in slugs:
        rows = load_rows(slug)
        benchmark(rows, slug)
        shapes(rows, slug)
        peak = load_peak(slug)
        if peak:
            roofline(rows, slug, peak)
        else:
            print(f"roofline: docs/results/peak_{slug}.csv is missing; run make peak on that GPU (tools/validate/gpu_check.sh does)")
    # step 08's search on each architecture whose GPU is drawn (not the searches for a forced class)
    for path in sorted(RESULTS.glob("tune_sm_*.txt")):
        if "_as_" not in path.name and gpu_slug(load_tune(path)[0]) in slugs:
            tune_landscape(path)
    return subprocess.run([sys.executable, str(ROOT / "tools" / "pages" / "results_table.py")]).returncode


if __name__ == "__main__":
    sys.exit(main())
