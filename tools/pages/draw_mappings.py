#!/usr/bin/env python3
"""Draw the thread-to-element pictures of steps 01 and 02 as SVG (images/*.svg).

Each picture shows the classic GEMM layout (B on top, A on the left, C at the bottom
right), one 32 x 32 block tile of C, which elements warp 0 computes, and what warp 0
reads from A and B at one step k of the dot product, with the 128-byte memory lines
those reads fall into. Run it after changing it; the SVGs are committed.

usage: tools/pages/draw_mappings.py
"""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CELL = 9           # pixels per matrix element
T = 32             # block tile: 32 x 32 elements of C
KS = 20            # columns of A / rows of B drawn
K_STEP = 6         # the k whose reads are shown
WARP = "#d1495b"   # warp 0
READ_A = "#2e86ab"
READ_B = "#3c9d5d"
GRID = "#c9ced6"
TEXT = "#222222"


def rect(x, y, w, h, fill, stroke=GRID, sw=0.6, extra=""):
    return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" stroke="{stroke}" stroke-width="{sw}" {extra}/>'


def text(x, y, s, size=13, anchor="start", weight="normal", fill=TEXT):
    return (f'<text x="{x}" y="{y}" font-family="DejaVu Sans, Arial, sans-serif" font-size="{size}" '
            f'text-anchor="{anchor}" font-weight="{weight}" fill="{fill}">{s}</text>')


def matrix(x0, y0, rows, cols, color_of, label):
    out = [text(x0, y0 - 8, label, 14, weight="bold")]
    for r in range(rows):
        for c in range(cols):
            out.append(rect(x0 + c * CELL, y0 + r * CELL, CELL, CELL, color_of(r, c)))
    out.append(rect(x0, y0, cols * CELL, rows * CELL, "none", "#555555", 1.2))
    return out


def memory_lines(x0, y0, title, lines, total_label, color):
    """Memory as 128-byte lines of four 32-byte sectors; `lines` lists (label, touched float indices).
    A sector any thread touches is fetched whole, so it gets a thick outline."""
    out = [text(x0, y0 - 8, title, 13)]
    w = 3.2
    x = x0
    for label, touched in lines:
        if label == "...":
            out.append(text(x + 12, y0 + 11, "...", 14, "middle"))
            x += 28
            continue
        for i in range(32):
            out.append(rect(x + i * w, y0, w, 14, color if i in touched else "#ffffff", "#dde1e6", 0.3))
        for sector in range(4):
            fetched = any(8 * sector <= i < 8 * sector + 8 for i in touched)
            out.append(rect(x + sector * 8 * w, y0, 8 * w, 14, "none", "#111111" if fetched else "#9aa0a6",
                            1.8 if fetched else 0.6))
        out.append(text(x + 16 * w, y0 + 28, label, 10, "middle"))
        x += 32 * w + 10
    out.append(text(x0, y0 + 48, total_label, 12, weight="bold"))
    return out


def picture(step, coalesced):
    # thread t of warp 0 (t = 0..31) computes element (row, col) of the tile
    if coalesced:
        warp = {(0, t) for t in range(T)}
        a_cells = {(0, K_STEP)}
        b_cells = {(K_STEP, t) for t in range(T)}
        title = "Step 02, coalescing: row = t / 32, col = t % 32"
        a_note = "A: all 32 threads read the same float (broadcast)"
        b_note = "B: 32 neighbouring floats, one 128-byte line"
        a_mem = [("row 0 of A", {K_STEP})]
        b_mem = [(f"row k = {K_STEP} of B", set(range(32)))]
        a_lines = "1 sector for the whole warp"
        b_lines = "4 sectors (1 line) for the whole warp, every byte used"
    else:
        warp = {(t, 0) for t in range(T)}
        a_cells = {(t, K_STEP) for t in range(T)}
        b_cells = {(K_STEP, 0)}
        title = "Step 01, naive: row = t % 32, col = t / 32"
        a_note = "A: 32 floats from 32 different rows, K floats apart"
        b_note = "B: all 32 threads read the same float (broadcast)"
        a_mem = [("row 0 of A", {K_STEP}), ("row 1", {K_STEP}), ("row 2", {K_STEP}), ("...", None),
                 ("row 31", {K_STEP})]
        b_mem = [(f"row k = {K_STEP} of B", {0})]
        a_lines = "32 sectors, one in each of 32 lines: 4 of every 32 bytes used"
        b_lines = "1 sector for the whole warp"

    left = 40
    top = 70
    a_w = KS * CELL
    b_h = KS * CELL
    bx, by = left + a_w + 30, top + 20          # B (K x N tile)
    ax, ay = left, by + b_h + 40                # A (M x K tile)
    cx, cy = bx, ay                             # C tile
    out = [text(left, 30, title, 17, weight="bold"),
           text(left, 52, "one block = 1024 threads = 32 warps computes a 32 x 32 tile of C; "
                          "warp 0 = threads t = 0..31 is shown", 12)]
    out += matrix(bx, by, KS, T, lambda r, c: READ_B if (r, c) in b_cells else ("#eef1f4" if r == K_STEP else "#ffffff"),
                  f"B (rows k = 0..{KS - 1} of the tile's 32 columns)")
    out += matrix(ax, ay, T, KS, lambda r, c: READ_A if (r, c) in a_cells else ("#eef1f4" if c == K_STEP else "#ffffff"),
                  "A (the tile's 32 rows)")
    out += matrix(cx, cy, T, T, lambda r, c: WARP if (r, c) in warp else "#ffffff", "C tile (32 x 32)")
    # thread numbers along warp 0's elements
    for t in (0, 1, 2, 31):
        r, c = (0, t) if coalesced else (t, 0)
        out.append(text(cx + c * CELL + CELL / 2, cy + r * CELL + CELL - 1.5, str(t), 6.5, "middle", fill="#ffffff"))
    out.append(text(bx - 8, by + K_STEP * CELL + CELL - 1, f"k = {K_STEP}", 11, "end"))
    out.append(text(ax + K_STEP * CELL + CELL / 2, ay + T * CELL + 14, f"k = {K_STEP}", 11, "middle"))

    nx = cx + T * CELL + 50
    legend = [(WARP, "elements warp 0 computes"), (READ_A, "what warp 0 reads from A at this k"),
              (READ_B, "what warp 0 reads from B at this k"),
              ("#eef1f4", "the column of A and row of B that step k uses")]
    for i, (color, label) in enumerate(legend):
        out.append(rect(nx, top + 20 + i * 22, 14, 14, color, "#555555", 0.8))
        out.append(text(nx + 22, top + 32 + i * 22, label, 12))
    out.append(text(nx, top + 126, a_note, 12))
    out.append(text(nx, top + 146, b_note, 12))
    out.append(text(nx, top + 172, "memory below: boxes are 128-byte lines, split into four 32-byte", 11))
    out.append(text(nx, top + 187, "sectors; a thick outline marks a sector the warp load fetches", 11))
    out += memory_lines(nx, ay + 20, "A in memory (row-major): the lines one warp load touches", a_mem, a_lines, READ_A)
    out += memory_lines(nx, ay + 130, "B in memory (row-major): the lines one warp load touches", b_mem, b_lines, READ_B)
    width = nx + 4 * (32 * 3.2 + 10) + 28 + 20  # four line boxes and the "..." gap
    height = cy + T * CELL + 30
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}">',
           rect(0, 0, f"{width:.0f}", f"{height:.0f}", "#ffffff", "none", 0)] + out + ["</svg>"]
    path = ROOT / "images" / f"{step}_mapping.svg"
    path.write_text("\n".join(svg) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    picture("01_naive", coalesced=False)
    picture("02_coalescing", coalesced=True)
