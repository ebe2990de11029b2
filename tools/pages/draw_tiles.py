#!/usr/bin/env python3
"""Draw the tiling pictures of steps 03 to 10 as SVG (images/*.svg).

Each picture keeps the GEMM layout of tools/pages/draw_mappings.py (B on top, A on the left, C at
the bottom right) where it shows matrices:
  03_shared_memory_problem: the whole problem to scale (M = N = K = 512, step 03's tiles): A, B,
      C, one block's tile of C and the row panel of A and column panel of B it reads, in K-tiles;
  03_shared_memory_tiles: one K-tile pair to scale (BM = BN = 32, BK = 128): the passes in which
      the 1,024 threads copy the A and B tiles, the floats a few threads copy, the K loop with its
      two barriers, and thread 180's element of C with the row of As and column of Bs it reads;
  04_1d_blocktiling_mapping: the 16 warps of the block tile and warp 0's 16 x 32 elements of C,
      one column of TM = 16 per thread, 32 threads side by side; at one k the 32 neighbouring
      values of Bs (one per thread) and the 16 values of As (each shared by the warp);
  05_2d_blocktiling_outer_product: the 8 x 8 tile of C one thread owns, and at one k the
      outer product of 8 values of A and 8 values of B;
  06_vectorized_transpose: one 16-byte load of A stored transposed into As, and the two
      16-byte loads a thread then reads its A fragment with;
  07_bank_conflicts_banks: one warp's store into the transposed As, bank by bank, with
      the exact word addresses, in step 06 and step 07; and the B float4s of 8 threads;
  09_warptiling_tiles: the block tile's 8 warp tiles, one warp's 8 x 4 lanes, and what
      lane 0 owns and reads;
  10_double_buffer_pipeline: a schematic timeline of step 09 against step 10's pipeline with
      the two stages that ship (tile t in stage t % 2);
  filling_the_gpu_waves (docs/filling_the_gpu.md): 1024 x 1024 x 8192 in 128 x 256 tiles on
      132 SMs, whole and with K split 4 and 6 ways: the tiles, the SMs of the first wave, and
      the busy SMs over time (counted, not measured).
Groups of elements are drawn as single rectangles and grids as single paths, so the files
stay small. Run it after changing it; the SVGs are committed.

usage: tools/pages/draw_tiles.py
"""
from pathlib import Path

from draw_mappings import GRID, READ_A, READ_B, ROOT, TEXT, WARP, rect, text  # one style for all pictures

DONE = "#dfe3e8"      # tiles already used
TINT_A = "#cfe4ef"    # light versions of the three colours
TINT_B = "#d3ebda"
TINT_C = "#f6d6db"
K_LINE = "#dfe5ec"    # the column of As / row of Bs that step k uses
EDGE = "#555555"


def path(d, color, sw=1.0, dash=None, arrow=False, fill="none"):
    extra = f' stroke-dasharray="{dash}"' if dash else ""
    if arrow:
        extra += f' marker-end="url(#arrow{color[1:]})"'
    return f'<path d="{d}" fill="{fill}" stroke="{color}" stroke-width="{sw}"{extra}/>'


def arrow(points, color=EDGE, sw=1.4, dash=None):
    """A polyline through `points` with an arrowhead at the last one."""
    d = "M" + " L".join(f"{x:g},{y:g}" for x, y in points)
    return path(d, color, sw, dash, arrow=True)


def grid(x, y, rows, cols, cw, ch, color=GRID, sw=0.5, every_r=1, every_c=1):
    """The inner lines of a rows x cols grid of cw x ch cells, as one path (outline not included)."""
    d = [f"M{x:g},{y + r * ch:g}h{cols * cw:g}" for r in range(every_r, rows, every_r)]
    d += [f"M{x + c * cw:g},{y:g}v{rows * ch:g}" for c in range(every_c, cols, every_c)]
    return path("".join(d), color, sw) if d else ""


def outline(x, y, w, h, color=EDGE, sw=1.2):
    return rect(x, y, w, h, "none", color, sw)


def number(x, y, n, color=EDGE):
    """A small circled step number centred on (x, y)."""
    return (f'<circle cx="{x}" cy="{y}" r="8" fill="{color}"/>' +
            text(x, y + 4, str(n), 11, "middle", "bold", "#ffffff"))


def legend(x, y, items, gap=22):
    """items: (fill or (fill, fill), label); one row each, starting at baseline y + 12."""
    out = []
    for i, (fill, label) in enumerate(items):
        fills = fill if isinstance(fill, tuple) else (fill,)
        w = 14 / len(fills)
        for j, f in enumerate(fills):
            out.append(rect(x + j * w, y + i * gap, w, 14, f, "none", 0))
        out.append(rect(x, y + i * gap, 14, 14, "none", EDGE, 0.8))
        out.append(text(x + 22, y + 12 + i * gap, label, 12))
    return out


def save(name, width, height, body):
    colors = {WARP, READ_A, READ_B, EDGE}
    markers = [f'<marker id="arrow{c[1:]}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" '
               f'markerHeight="8" markerUnits="userSpaceOnUse" orient="auto">'
               f'<path d="M0,0 L10,5 L0,10 z" fill="{c}"/></marker>' for c in sorted(colors)]
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}">',
           "<defs>" + "".join(markers) + "</defs>",
           rect(0, 0, width, height, "#ffffff", "none", 0)] + [b for b in body if b] + ["</svg>"]
    out = ROOT / "images" / f"{name}.svg"
    out.write_text("\n".join(svg) + "\n", encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)} ({out.stat().st_size} bytes)")


def problem():
    """The whole problem to scale: A, B, C, one block's tile of C and the two panels it reads."""
    BM, BN, BK = 32, 32, 128          # step 03's Config
    M = N = K = 512                   # drawn size (the benchmark runs 4096)
    E = 0.5                           # pixels per element
    bi, bj = 3, 5                     # the block shown: blockIdx.y, blockIdx.x
    m0, n0 = bi * BM, bj * BN
    ax = 40
    bx = cx = ax + K * E + 40
    by = 110
    ay = cy = by + K * E + 40
    out = [text(40, 30, "The whole problem: C = A · B, one block per BM × BN tile of C", 17, weight="bold"),
           text(40, 52, f"Drawn to scale for M = N = K = {M} (the benchmark runs 4096) with step 03's "
                        f"BM = BN = {BM}, BK = {BK}:", 12),
           text(40, 68, f"a grid of {N // BN} × {M // BM} blocks; each block reads K / BK = {K // BK} K-tiles "
                        f"of A and of B", 12)]
    # B (K x N): the block's column panel, split into K-tiles
    out.append(text(bx, by - 8, f"B (K × N)", 14, weight="bold"))
    out.append(rect(bx, by, N * E, K * E, "#ffffff", "none", 0))
    out.append(rect(bx + n0 * E, by, BN * E, K * E, TINT_B, "none", 0))
    out.append(rect(bx + n0 * E, by + BK * E, BN * E, BK * E, READ_B, "none", 0))
    out.append(grid(bx + n0 * E, by, K // BK, 1, BN * E, BK * E, EDGE, 1.0))
    out.append(outline(bx + n0 * E, by, BN * E, K * E, EDGE, 1.0))
    out.append(outline(bx, by, N * E, K * E))
    # A (M x K): the block's row panel, split into K-tiles
    out.append(text(ax, ay - 8, "A (M × K)", 14, weight="bold"))
    out.append(rect(ax, ay, K * E, M * E, "#ffffff", "none", 0))
    out.append(rect(ax, ay + m0 * E, K * E, BM * E, TINT_A, "none", 0))
    out.append(rect(ax + BK * E, ay + m0 * E, BK * E, BM * E, READ_A, "none", 0))
    out.append(grid(ax, ay + m0 * E, 1, K // BK, BK * E, BM * E, EDGE, 1.0))
    out.append(outline(ax, ay + m0 * E, K * E, BM * E, EDGE, 1.0))
    out.append(outline(ax, ay, K * E, M * E))
    # C (M x N): the grid of block tiles, the block's tile
    out.append(text(cx + N * E + 8, cy + M * E, "C (M × N)", 14, weight="bold"))
    # the tile lies where the block's panels cross
    out.append(path(f"M{cx + n0 * E},{cy}V{cy + m0 * E}M{cx + (n0 + BN) * E},{cy}V{cy + m0 * E}"
                    f"M{cx},{cy + m0 * E}H{cx + n0 * E}M{cx},{cy + (m0 + BM) * E}H{cx + n0 * E}",
                    EDGE, 0.8, dash="3,3"))
    out.append(grid(cx, cy, M // BM, N // BN, BN * E, BM * E, "#e3e6ea", 0.6))
    out.append(rect(cx + n0 * E, cy + m0 * E, BN * E, BM * E, WARP, "none", 0))
    out.append(outline(cx, cy, N * E, M * E))
    # K-tile labels: along the top of A's panel and the left of B's panel
    for i in range(K // BK):
        out.append(text(ax + (i + 0.5) * BK * E, ay + m0 * E - 6, f"K-tile {i}", 11, "middle"))
        out.append(text(bx + n0 * E - 6, by + (i + 0.5) * BK * E + 4, f"K-tile {i}", 11, "end"))
    for i in range(K // BK + 1):
        out.append(text(ax + i * BK * E, ay + M * E + 14, str(i * BK), 10, "middle", fill="#5f6670"))
        out.append(text(bx + N * E + 6, by + i * BK * E + 4, str(i * BK), 10, fill="#5f6670"))
    out.append(text(ax + K * E / 2, ay + M * E + 30, "k →", 11, "middle", fill="#5f6670"))
    out.append(text(bx + N * E + 6, by + BK * E / 2 + 4, "k ↓", 11, fill="#5f6670"))
    # where the block's tile sits
    out.append(text(cx + N * E + 8, cy + m0 * E + BM * E / 2 + 4, f"rows m0 … m0 + {BM - 1}", 11))
    out.append(text(cx + n0 * E + BN * E / 2, cy + M * E + 14, f"cols n0 … n0 + {BN - 1}", 11, "middle"))
    out.append(text(ax - 6, ay + m0 * E + BM * E / 2 + 4, "m0", 10, "end", fill="#5f6670"))
    # legend in the empty corner above A
    lx, ly = 40, by
    out += legend(lx, ly, [(WARP, f"the block's tile of C: BM × BN = {BM} × {BN}"),
                           (TINT_A, f"the row panel of A it reads: BM × K"),
                           (TINT_B, f"the column panel of B it reads: K × BN"),
                           ((READ_A, READ_B), f"K-tile 1 of each: BM × BK and BK × BN")])
    out.append(text(lx, ly + 4 * 22 + 20, f"The block shown: blockIdx.x = {bj}, blockIdx.y = {bi},", 12))
    out.append(text(lx, ly + 4 * 22 + 37, f"m0 = {bi} · BM = {m0}, n0 = {bj} · BN = {n0}.", 12))
    notes = [f"C's tile = Σ over the K-tiles of",
             f"(A's K-tile) · (B's K-tile): step 03 copies",
             f"one pair into shared memory at a time",
             f"and adds its BK terms to every dot product."]
    for i, ln in enumerate(notes):
        out.append(text(lx, ly + 4 * 22 + 70 + i * 17, ln, 12))
    save("03_shared_memory_problem", int(cx + N * E + 130), int(cy + M * E + 30), out)


def step03():
    """The block's cooperative copy of one K-tile pair, to scale: which thread copies which floats of
    the (BM, BK) tile of A and the (BK, BN) tile of B, the barrier, and the tile of C it computes."""
    BM, BN, BK = 32, 32, 128          # step 03's Config
    T = BM * BN                       # 1,024 threads
    SA, SB = T // BK, T // BN         # rows per pass: kStrideA = 8, kStrideB = 32
    E = 3.5                           # pixels per element
    WARP0 = "#edae49"                 # warp 0's floats in pass 0
    BAND = "#f1f3f5"                  # every other pass
    t_shown = 180
    row, col = t_shown // BN, t_shown % BN

    def a_cells(t):
        return [(t // BK + p, t % BK) for p in range(0, BM, SA)]

    def b_cells(t):
        return [(t // BN + p, t % BN) for p in range(0, BK, SB)]

    ax = 90
    bx = cx = ax + BK * E + 40
    by = 110
    ay = cy = by + BK * E + 40
    out = [text(40, 30, "Step 03, shared memory: the block copies one K-tile pair together, then computes", 17,
                weight="bold"),
           text(40, 52, f"BM = BN = {BM}, BK = {BK}, drawn to scale: {T:,} threads. Thread t computes "
                        f"C[t / {BN}][t % {BN}]; in the copy it is one of {T:,} movers:", 12),
           text(40, 68, f"A tile in {BM // SA} passes of {SA} rows (t / {BK}, column t % {BK}), "
                        f"B tile in {BK // SB} passes of {SB} rows (t / {BN}, column t % {BN})", 12)]
    # B tile (BK x BN): passes of SB rows
    for p in range(BK // SB):
        out.append(rect(bx, by + p * SB * E, BN * E, SB * E, BAND if p % 2 else "#ffffff", "none", 0))
        out.append(text(bx + BN * E + 8, by + (p * SB + SB / 2) * E + 4,
                        f"pass {p}: rows {p * SB}–{p * SB + SB - 1}", 11))
    out.append(rect(bx + col * E, by, E, BK * E, TINT_B, "none", 0))
    out.append(rect(bx, by, BN * E, E, WARP0, "none", 0))
    out.append(grid(bx, by, BK // SB, 1, BN * E, SB * E, EDGE, 0.8))
    out.append(outline(bx, by, BN * E, BK * E))
    out.append(text(bx, by - 10, "Bs ← B tile (BK × BN)", 14, weight="bold"))
    out.append(text(bx + BN * E + 8, by + E + 1, "← row 0: warp 0 (t0–t31)", 10, fill="#5f6670"))
    # A tile (BM x BK): passes of SA rows, each row copied by BK threads = 4 warps
    for p in range(BM // SA):
        out.append(rect(ax, ay + p * SA * E, BK * E, SA * E, BAND if p % 2 else "#ffffff", "none", 0))
        out.append(text(ax - 6, ay + (p * SA + SA / 2) * E + 4, f"pass {p}", 11, "end"))
    out.append(rect(ax, ay + row * E, BK * E, E, TINT_A, "none", 0))
    out.append(rect(ax, ay, 32 * E, E, WARP0, "none", 0))
    out.append(grid(ax, ay, BM // SA, 1, BK * E, SA * E, EDGE, 0.8))
    out.append(outline(ax, ay, BK * E, BM * E))
    for w in range(BK // 32):             # row 0 of pass 0: threads 0..127, warps 0..3
        out.append(path(f"M{ax + w * 32 * E},{ay - 5}v5", EDGE, 0.8))
        out.append(text(ax + (w + 0.5) * 32 * E, ay - 5, f"t{32 * w}–t{32 * w + 31}", 10, "middle",
                        fill="#5f6670"))
    out.append(text(ax, ay - 20, f"pass 0, row 0: threads 0–127 = warps 0–3, one float each; "
                                 f"row 1: threads 128–255, …", 11))
    out.append(text(ax, ay + BM * E + 18, "As ← A tile (BM × BK)", 14, weight="bold"))
    out.append(text(ax + BK * E, ay + BM * E + 18, f"pass 1, row {SA}: threads 0–127 again, …", 11, "end"))
    # C tile: one thread per element
    out.append(rect(cx, cy, BN * E, E, WARP0, "none", 0))
    out.append(grid(cx, cy, BM, BN, E, E, "#e3e6ea", 0.4))
    out.append(rect(cx + col * E, cy + row * E, E, E, WARP, "none", 0))
    out.append(f'<circle cx="{cx + (col + 0.5) * E}" cy="{cy + (row + 0.5) * E}" r="5" fill="none" '
               f'stroke="{WARP}" stroke-width="1.3"/>')
    out.append(outline(cx, cy, BN * E, BM * E))
    out.append(text(cx + BN * E + 10, cy + 12, "C tile (BM × BN)", 14, weight="bold"))
    out.append(text(cx + BN * E + 10, cy + 30, "thread t computes C[t / 32][t % 32]:", 11))
    out.append(text(cx + BN * E + 10, cy + 45, f"t{t_shown} → C[{row}][{col}], warp 0 → row 0", 11))
    out.append(text(cx + BN * E + 10, cy + 66, f"after the barrier t{t_shown} reads", 11))
    out.append(text(cx + BN * E + 10, cy + 81, f"row {row} of As and column {col} of Bs:", 11))
    out.append(text(cx + BN * E + 10, cy + 96, "floats that other threads copied", 11))
    # t_shown's reads meet at its element of C
    ex, ey = cx + (col + 0.5) * E, cy + (row + 0.5) * E
    out.append(path(f"M{ax + BK * E},{ey}H{cx + col * E}", READ_A, 1.2, dash="3,2"))
    out.append(path(f"M{ex},{by + BK * E}V{cy + row * E}", READ_B, 1.2, dash="3,2"))
    # t_shown's copies, ringed
    for (r, c), (x0, y0) in [(rc, (ax, ay)) for rc in a_cells(t_shown)] + [(rc, (bx, by)) for rc in b_cells(t_shown)]:
        out.append(rect(x0 + c * E, y0 + r * E, E, E, WARP, "none", 0))
        out.append(f'<circle cx="{x0 + (c + 0.5) * E}" cy="{y0 + (r + 0.5) * E}" r="5" fill="none" '
                   f'stroke="{WARP}" stroke-width="1.3"/>')

    # top left: the K-tile loop as a timeline, with its two barriers
    tx, ty, U = 40, by, 36
    out.append(text(tx, ty + 2, "one pass of the K loop (all 1,024 threads):", 13, weight="bold"))
    bars = [("copy A: 4 passes", 3.2, EDGE), ("copy B: 4 passes", 3.2, EDGE), None,
            ("128 FMAs from As, Bs", 4.2, READ_A), None]
    x = tx
    for b in bars:
        if b is None:
            out.append(path(f"M{x + 4},{ty + 12}v34", "#111111", 2.5))
            out.append(text(x + 4, ty + 60, "__syncthreads()", 10, "middle"))
            x += 8
            continue
        label, w, color = b
        out.append(rect(x, ty + 16, w * U, 26, color, "#ffffff", 1))
        out.append(text(x + w * U / 2, ty + 33, label, 11, "middle", fill="#ffffff"))
        x += w * U
    out.append(text(tx, ty + 80, "The first barrier: no thread reads As or Bs before every copy has landed; "
                                 "the second:", 11))
    out.append(text(tx, ty + 95, "no thread overwrites them with the next K-tile while others still read.", 11))

    # a few threads: what each copies and computes
    rows_t = [0, 1, 31, t_shown, T - 1]
    qy = ty + 126
    cols_x = [tx, tx + 52, tx + 170, tx + 232, tx + 362, tx + 420]
    heads = [("thread", ""), ("A tile: rows", f"t / {BK} + 0, 8, 16, 24"), ("col", f"t % {BK}"),
             ("B tile: rows", f"t / {BN} + 0, 32, 64, 96"), ("col", f"t % {BN}"), ("computes", "")]
    for x, (h1, h2) in zip(cols_x, heads):
        out.append(text(x, qy, h1, 11, weight="bold"))
        out.append(text(x, qy + 14, h2, 10, fill="#5f6670"))
    for i, t in enumerate(rows_t):
        yy = qy + 34 + i * 17
        fill = WARP if t == t_shown else TEXT
        ar, br = a_cells(t), b_cells(t)
        vals = [f"t{t}", ", ".join(str(r) for r, _ in ar), str(ar[0][1]), ", ".join(str(r) for r, _ in br),
                str(br[0][1]), f"C[{t // BN}][{t % BN}]"]
        for x, v in zip(cols_x, vals):
            out.append(text(x, yy, v, 11, weight="bold" if t == t_shown else "normal", fill=fill))
    ly = qy + 34 + len(rows_t) * 17 + 6
    out += legend(tx, ly, [(WARP, f"thread {t_shown}: its 4 + 4 copies (ringed) and C[{row}][{col}]"),
                           (WARP0, "warp 0 in pass 0: 32 neighbouring floats, one coalesced load"),
                           ((BAND, "#ffffff"), "one pass: all 1,024 threads copy one float each"),
                           (TINT_A, f"row {row} of As, which t{t_shown} reads"),
                           (TINT_B, f"column {col} of Bs, which t{t_shown} reads")])
    save("03_shared_memory_tiles", int(bx + BN * E + 250), int(ay + BM * E + 30), out)


def step04():
    """A warp's part of C: 32 threads side by side, each a column of TM = 16 elements; at one k the
    warp reads 32 neighbouring floats of Bs and 16 floats of As, each shared by all 32 threads."""
    E = 3.5
    BM, BN, BK, TM = 128, 64, 16, 16
    T = BM * BN // TM                 # 512 threads
    WPR = BN // 32                    # warps per row of threads: 2
    K_STEP = 5
    ax = 40
    bx = cx = ax + BK * E + 30
    by = 110
    ay = cy = by + BK * E + 36
    out = [text(40, 30, "Step 04, 1D blocktiling: a warp owns 16 rows × 32 columns of C", 17, weight="bold"),
           text(40, 52, f"BM = {BM}, BN = {BN}, BK = {BK}, TM = {TM}: {T} threads = {T // 32} warps; thread t "
                        f"owns column t % {BN}, rows (t / {BN})·{TM} … +{TM - 1}.", 12),
           text(40, 68, f"Warp w = threads 32w … 32w + 31: rows (w / {WPR})·{TM} … +{TM - 1}, "
                        f"columns (w % {WPR})·32 … +31. Consecutive threads: consecutive columns.", 12)]
    # Bs (BK x BN) on top: warp 0 reads columns 0..31 of row k
    out.append(text(bx, by - 8, "Bs (BK × BN)", 14, weight="bold"))
    out.append(rect(bx, by + K_STEP * E, BN * E, E, K_LINE, "none", 0))
    out.append(rect(bx, by + K_STEP * E, 32 * E, E, READ_B, "none", 0))
    out.append(grid(bx, by, BK, BN, E, E, "#e3e6ea", 0.35))
    out.append(outline(bx, by, BN * E, BK * E))
    out.append(text(bx - 6, by + K_STEP * E + E + 1, f"k = {K_STEP}", 11, "end"))
    # As (BM x BK) on the left: warp 0 reads rows 0..15 of column k
    out.append(text(ax, ay - 8, "As (BM × BK)", 14, weight="bold"))
    out.append(rect(ax + K_STEP * E, ay, E, BM * E, K_LINE, "none", 0))
    out.append(rect(ax + K_STEP * E, ay, E, TM * E, READ_A, "none", 0))
    out.append(grid(ax, ay, BM, BK, E, E, "#e3e6ea", 0.35, every_r=4))
    out.append(grid(ax, ay, BM, BK, E, E, EDGE, 0.6, every_r=TM, every_c=BK))
    out.append(outline(ax, ay, BK * E, BM * E))
    out.append(text(ax + K_STEP * E + E / 2, ay + BM * E + 14, f"k = {K_STEP}", 11, "middle"))
    # C tile: 8 bands of 16 rows, 2 warps side by side in each
    out.append(text(cx, cy + BM * E + 18, f"C tile (BM × BN = {BM} × {BN}): {T // 32} warps", 14, weight="bold"))
    out.append(rect(cx, cy, 32 * E, TM * E, TINT_C, "none", 0))
    out.append(rect(cx + E, cy, E, TM * E, WARP, "none", 0))
    out.append(grid(cx, cy, BM, BN, E, E, "#eceef1", 0.35, every_r=4))
    out.append(grid(cx, cy, BM // TM, WPR, 32 * E, TM * E, EDGE, 0.8))
    out.append(outline(cx, cy, BN * E, BM * E))
    out.append(outline(cx, cy, 32 * E, TM * E, WARP, 2))
    for w in range(T // 32):
        r, c = divmod(w, WPR)
        x, y = cx + (c + 0.5) * 32 * E, cy + (r + 0.5) * TM * E
        out.append(text(x, y - 2, f"warp {w}", 11, "middle", "bold" if w == 0 else "normal"))
        out.append(text(x, y + 12, f"t{32 * w}–t{32 * w + 31}", 10, "middle", fill="#5f6670"))
    for r in range(BM // TM):
        out.append(text(cx + BN * E + 6, cy + (r + 0.5) * TM * E + 4, f"rows {r * TM}–{r * TM + TM - 1}", 10,
                        fill="#5f6670"))

    # zoom on warp 0: 16 rows x 32 columns, thread c owns column c
    Z = 13
    zx = cx + BN * E + 110
    zy = cy + 10
    gx, gy = zx + Z + 8, zy + Z + 8       # the grid; A's values to its left, B's above
    out.append(text(zx, by - 8, f"warp 0 (threads 0–31) at k = {K_STEP}", 14, weight="bold"))
    for c in range(32):                   # thread numbers above B's values
        x, y = gx + (c + 0.5) * Z + 3, zy - 6
        out.append(f'<text x="{x}" y="{y}" font-family="DejaVu Sans, Arial, sans-serif" font-size="9" '
                   f'text-anchor="start" fill="{WARP if c == 1 else "#5f6670"}" '
                   f'transform="rotate(-90 {x} {y})">t{c}</text>')
    out.append(rect(gx, zy, 32 * Z, Z, READ_B, "none", 0))
    out.append(grid(gx, zy, 1, 32, Z, Z, "#ffffff", 1))
    out.append(rect(zx, gy, Z, TM * Z, READ_A, "none", 0))
    out.append(grid(zx, gy, TM, 1, Z, Z, "#ffffff", 1))
    out.append(rect(gx, gy, 32 * Z, TM * Z, TINT_C, "none", 0))
    out.append(rect(gx + Z, gy, Z, TM * Z, WARP, "none", 0))
    out.append(grid(gx, gy, TM, 32, Z, Z, "#ffffff", 0.6))
    out.append(grid(gx, gy, 1, 32, Z, TM * Z, EDGE, 0.7))
    out.append(outline(gx, gy, 32 * Z, TM * Z))
    out.append(text(zx + Z / 2, gy + TM * Z + 14, "a", 11, "middle", "bold"))
    for i in (0, TM - 1):
        out.append(text(zx - 5, gy + i * Z + Z - 3, f"row {i}", 10, "end", fill="#5f6670"))
    out.append(text(gx + 32 * Z + 6, zy + Z - 2, "b", 11, weight="bold"))
    out.append(outline(gx, gy, 32 * Z, TM * Z, WARP, 2))
    ny = gy + TM * Z + 36
    out += legend(zx, ny, [(WARP, f"thread 1: column 1, rows 0–15 (acc[0..15] in registers)"),
                           (TINT_C, "threads 0, 2 … 31: the neighbouring columns, same rows"),
                           (READ_B, f"b = Bs[{K_STEP}][t]: one float per thread, 32 neighbours"),
                           (READ_A, f"a = As[i][{K_STEP}], i = 0 … 15: the same for all 32 threads"),
                           (K_LINE, "column k of As, row k of Bs")])
    ky = ny + 5 * 22 + 22
    notes = [(f"per k, per thread: 1 load of B + {TM} loads of A → {TM} FMAs", True),
             ("(step 03: 2 loads from shared memory per FMA)", False),
             (f"per k, per warp: one 32-bank load of Bs, {TM} broadcasts of As,", False),
             (f"{32 * TM} FMAs: each a[i] serves 32 threads, each b serves {TM} rows", False),
             ("warp 1 (t32–t63): same rows, columns 32–63; warp 2: rows 16–31", False)]
    for i, (ln, bold) in enumerate(notes):
        out.append(text(zx, ky + i * 18 + (4 if i else 0), ln, 13 if bold else 12, weight="bold" if bold else "normal"))
    save("04_1d_blocktiling_mapping", int(gx + 32 * Z + 30), int(max(cy + BM * E + 34, ky + 5 * 18 + 20)), out)


def step05():
    """The 8 x 8 thread tiles of C, and one k: the outer product of a[0..7] and b[0..7]."""
    E = 3
    BM, BN, BK, TM, TN = 64, 128, 32, 8, 8
    K_STEP = 10
    ax = 40
    bx = cx = ax + BK * E + 30
    by = 110
    ay = cy = by + BK * E + 36
    tw = TN * E  # one thread tile: 24 px
    out = [text(40, 30, "Step 05, 2D blocktiling: one thread computes an 8 × 8 tile of C", 17, weight="bold"),
           text(40, 52, "BM = 64, BN = 128, BK = 32, TM = TN = 8: 8 × 16 = 128 threads; thread t owns "
                        "rows (t / 16)·8 …, cols (t % 16)·8 …", 12)]
    # Bs (BK x BN)
    out.append(text(bx, by - 8, "Bs (BK × BN)", 14, weight="bold"))
    out.append(rect(bx, by + K_STEP * E, BN * E, E, K_LINE, "none", 0))
    out.append(rect(bx + TN * E, by + K_STEP * E, TN * E, E, READ_B, "none", 0))
    out.append(grid(bx, by, BK, BN, E, E, "#e3e6ea", 0.3, every_r=4, every_c=4))
    out.append(outline(bx, by, BN * E, BK * E))
    out.append(text(bx - 6, by + K_STEP * E + E + 1, f"k = {K_STEP}", 11, "end"))
    # As (BM x BK)
    out.append(text(ax, ay - 8, "As (BM × BK)", 14, weight="bold"))
    out.append(rect(ax + K_STEP * E, ay, E, BM * E, K_LINE, "none", 0))
    out.append(rect(ax + K_STEP * E, ay, E, TM * E, READ_A, "none", 0))
    out.append(grid(ax, ay, BM, BK, E, E, "#e3e6ea", 0.3, every_r=4, every_c=4))
    out.append(outline(ax, ay, BK * E, BM * E))
    out.append(text(ax + K_STEP * E + E / 2, ay + BM * E + 14, f"k = {K_STEP}", 11, "middle"))
    # C: 8 x 16 thread tiles
    out.append(rect(cx + tw, cy, tw, tw, WARP, "none", 0))
    out.append(grid(cx, cy, BM, BN, E, E, "#eceef1", 0.3))
    out.append(grid(cx, cy, BM // TM, BN // TN, tw, tw, "#8a9099", 0.8))
    out.append(outline(cx, cy, BN * E, BM * E))
    for r in range(BM // TM):
        for c in range(BN // TN):
            t = r * (BN // TN) + c
            if r == 0 or c == 0 or t == 127:
                out.append(text(cx + c * tw + tw / 2, cy + r * tw + tw / 2 + 3.5, f"t{t}", 9.5, "middle",
                                "bold" if t == 1 else "normal", "#ffffff" if t == 1 else "#5f6670"))
    out.append(text(cx, cy + BM * E + 18, "C tile (BM × BN = 64 × 128), one 8 × 8 tile per thread", 14,
                    weight="bold"))

    rx = cx + BN * E + 30
    out += legend(rx, by - 4, [(WARP, "thread 1: rows 0..7, cols 8..15"),
                               (READ_A, f"a = As[0..7][{K_STEP}]"),
                               (READ_B, f"b = Bs[{K_STEP}][8..15]"),
                               (K_LINE, "column k of As, row k of Bs")])
    # outer product in registers, GEMM layout again
    C_ = 14
    oy = cy - 10
    out.append(text(rx, oy, f"thread 1 at k = {K_STEP}:", 13, weight="bold"))
    gx, gy = rx + C_ + 6, oy + 14 + C_ + 6
    out.append(rect(gx, oy + 14, TN * C_, C_, READ_B, "#ffffff", 0.8))
    out.append(grid(gx, oy + 14, 1, TN, C_, C_, "#ffffff", 1))
    out.append(text(gx + TN * C_ + 6, oy + 26, "b[0..7]", 12))
    out.append(rect(rx, gy, C_, TM * C_, READ_A, "#ffffff", 0.8))
    out.append(grid(rx, gy, TM, 1, C_, C_, "#ffffff", 1))
    out.append(rect(gx, gy, TN * C_, TM * C_, TINT_C, EDGE, 1))
    out.append(grid(gx, gy, TM, TN, C_, C_, "#ffffff", 1))
    out.append(text(gx + TN * C_ + 6, gy + 12, "a[0..7]", 12, fill=TEXT))
    out.append(text(gx + TN * C_ + 6, gy + 28, "× b[0..7]", 12))
    out.append(text(gx + TN * C_ + 6, gy + TM * C_ - 20, "8 × 8", 12))
    out.append(text(gx + TN * C_ + 6, gy + TM * C_ - 4, "acc", 12))
    out.append(text(rx, gy + TM * C_ + 18, "acc[i][j] += a[i] · b[j]", 12))
    out.append(text(rx, gy + TM * C_ + 36, "(outer product: 64 FMAs)", 12))
    ky = cy + BM * E + 50
    out.append(text(40, ky, "per k: 8 + 8 loads → 64 FMAs", 14, weight="bold"))
    out.append(text(290, ky, "(step 04: 1 + 16 loads → 16 FMAs)", 12))
    save("05_2d_blocktiling_outer_product", 800, int(ky + 20), out)


def step06():
    """One float4 of A copied transposed into As; the A fragment read back with two LDS.128."""
    E = 5
    BM, BK = 64, 32
    K_STEP = 6
    ax, ay = 40, 122
    sx, sy = 400, 122
    out = [text(40, 30, "Step 06, vectorized: float4 loads, A transposed in shared memory", 17,
                weight="bold"),
           text(40, 52, "BM = 64, BN = 128, BK = 32, 128 threads; one instruction moves a float4 "
                        "(4 floats = 16 bytes)", 12)]
    # A tile in global memory, 64 rows (m) x 32 columns (k), row 0 split into eight float4s
    out.append(text(ax, 84, "A tile in global memory (64 × 32)", 14, weight="bold"))
    out.append(text(ax, 100, "row m, column k (row-major)", 12))
    out.append(rect(ax + 4 * E, ay, (BK - 4) * E, E, TINT_C, "none", 0))
    out.append(rect(ax, ay, 4 * E, E, WARP, "none", 0))
    out.append(rect(ax + K_STEP * E, ay, E, 8 * E, READ_A, "none", 0))
    out.append(grid(ax, ay, BM, BK, E, E, "#e6e9ed", 0.35))
    out.append(grid(ax, ay, BM, BK, E, E, "#9aa0a6", 0.6, every_r=BM, every_c=4))
    out.append(grid(ax, ay, 1, BK, E, E, "#111111", 1.2, every_c=4))
    out.append(outline(ax, ay, BK * E, E, "#111111", 1.2))
    out.append(outline(ax, ay, BK * E, BM * E))
    for p in range(8):
        out.append(text(ax + p * 4 * E + 2 * E, ay - 5, f"t{p}", 11, "middle", "bold" if p == 0 else "normal",
                        WARP if p == 0 else TEXT))
    out.append(text(ax + K_STEP * E + E / 2, ay + BM * E + 14, f"k = {K_STEP}", 11, "middle"))
    out.append(text(ax + BK * E + 5, ay + 5, "row 0", 11))
    # As in shared memory, 32 rows (k) x 64 columns (m)
    out.append(text(sx, 84, "As in shared memory, transposed (32 × 64)", 14, weight="bold"))
    out.append(text(sx, 100, "row k, column m: As[k][m] = A[m][k]", 12))
    out.append(rect(sx, sy + 4 * E, E, (BK - 4) * E, TINT_C, "none", 0))
    out.append(rect(sx, sy, E, 4 * E, WARP, "none", 0))
    out.append(rect(sx, sy + K_STEP * E, 8 * E, E, READ_A, "none", 0))
    out.append(grid(sx, sy, BK, BM, E, E, "#e6e9ed", 0.35))
    out.append(outline(sx, sy, BM * E, BK * E))
    out.append(text(sx + BM * E + 5, sy + K_STEP * E + E, f"k = {K_STEP}", 11))
    # t0: one LDG.E.128 into four registers, then four 4-byte stores down column 0 of As
    rx, ry, R = 284, 126, 16
    for i in range(4):
        out.append(rect(rx, ry + i * R, R, R, WARP, "#ffffff", 1))
        out.append(path(f"M{rx + R + 1},{ry + i * R + R / 2}L{sx - 1},{sy + i * E + E / 2}", WARP, 0.9))
    out.append(text(rx + R / 2, ry + 4 * R + 14, "t0's float4", 11, "middle", fill=WARP))
    out.append(text(rx + R / 2, ry + 4 * R + 28, "(4 registers)", 11, "middle", fill=WARP))
    out.append(path(f"M{ax + 2 * E},{ay + E + 1}C{ax + 2 * E},{ay + 140} {rx - 110},{ry + 2 * R} {rx - 3},"
                    f"{ry + 2 * R}", WARP, 1.4, arrow=True))
    out.append(number(rx - 50, ry + 2 * R - 12, 1, WARP))
    out.append(number((rx + R + sx) / 2, ry + 6, 2, WARP))
    nx, ny = 226, ry + 4 * R + 60
    out.append(number(nx, ny - 4, 1, WARP))
    out.append(text(nx + 14, ny, "one 16-byte load:", 12))
    out.append(text(nx + 14, ny + 16, "A[0][0..3], LDG.E.128", 12))
    out.append(number(nx, ny + 40, 2, WARP))
    out.append(text(nx + 14, ny + 44, "four 4-byte stores:", 12))
    out.append(text(nx + 14, ny + 60, "As[0..3][0]", 12))
    # step k: the thread's 8 values of A are now neighbours in a row of As
    zx, zy, Z = sx, sy + BK * E + 40, 20
    out.append(path(f"M{sx},{sy + K_STEP * E + E}L{zx},{zy}M{sx + 8 * E},{sy + K_STEP * E + E}"
                    f"L{zx + 8 * Z},{zy}", READ_A, 0.8, dash="3,3"))
    out.append(rect(zx, zy, 8 * Z, Z, READ_A, "none", 0))
    out.append(grid(zx, zy, 1, 16, Z, Z, GRID, 0.8))
    out.append(outline(zx, zy, 16 * Z, Z, "#9aa0a6", 0.8))
    out.append(text(zx + 16 * Z + 8, zy + 14, "… 63", 12))
    for i in range(16):
        out.append(text(zx + i * Z + Z / 2, zy + 14, str(i), 10, "middle", fill="#ffffff" if i < 8 else "#5f6670"))
    for h in range(2):
        out.append(outline(zx + h * 4 * Z, zy, 4 * Z, Z, "#111111", 2))
        out.append(text(zx + h * 4 * Z + 2 * Z, zy + Z + 15, "LDS.128", 12, "middle", "bold"))
    out.append(text(zx - 8, zy + 14, f"row k = {K_STEP} of As", 12, "end"))
    ty = zy + Z + 48
    out.append(text(240, ty, f"at step k = {K_STEP}, thread t0 (rows 0..7 of C) reads "
                             f"As[{K_STEP}][0..7] = A[0..7][{K_STEP}]", 12, weight="bold"))
    out.append(text(240, ty + 18, "the 8 values of A it needs are neighbours in a row of As:", 12))
    out.append(text(240, ty + 34, "2 × 16-byte loads (LDS.128) instead of 8 × 4-byte loads down a column", 12))
    out += legend(240, ty + 54, [(WARP, "A[0][0..3]: one load of t0"),
                                 (TINT_C, "rest of row 0 (t1 … t7), lands in column 0 of As"),
                                 (READ_A, f"the 8 values of A thread t0 uses at k = {K_STEP}")])
    by_ = ty + 54 + 3 * 22 + 22
    out.append(rect(240, by_ - 12, 14, 14, READ_B, EDGE, 0.8))
    out.append(text(262, by_, "B: one 16-byte load from global memory, one 16-byte store into Bs, "
                              "same layout", 12))
    save("06_vectorized_transpose", 800, int(by_ + 20), out)


# ---- steps 07, 09, 10 ---------------------------------------------------------------------

LANE_COLORS = ["#d1495b", "#edae49", "#3c9d5d", "#2e86ab", "#7b4f9d", "#e07a5f", "#5c946e", "#4a6fa5"]


def step07():
    """One warp's store of A's first float into As, bank by bank, in step 06 and step 07;
    and the B row that 8 neighbouring threads read with LDS.128."""
    W = 22          # pixels per bank
    x0 = 60
    out = [text(40, 30, "Step 07, bank conflicts: 32 banks of 4 bytes; word w is in bank w mod 32", 17,
                weight="bold"),
           text(40, 52, "One warp stores the first float of its 32 float4s of A into the transposed As "
                        "(BK = 32, BM = 64):", 12),
           text(40, 68, "lane t holds row m = t / 8 and columns k = 4 (t % 8) .. 4 (t % 8) + 3 of the A tile", 12)]

    def banks_header(y):
        res = []
        for b in range(32):
            res.append(text(x0 + b * W + W / 2, y, str(b), 9, "middle", fill="#5f6670"))
        res.append(text(x0 - 6, y, "bank", 10, "end", fill="#5f6670"))
        return res

    def lane_cell(x, y, t):
        c = LANE_COLORS[t % 8]
        return [rect(x, y, W, 18, c, "#ffffff", 1), text(x + W / 2, y + 13, f"t{t}", 9, "middle", fill="#ffffff")]

    # step 06: bank = m = t / 8: 8 lanes on top of each other in banks 0..3
    y = 100
    out.append(text(40, y, "step 06: As(k, m) is word 64 k + m, so bank = m = t / 8", 14, weight="bold"))
    out += banks_header(y + 20)
    gy = y + 26
    out.append(rect(x0, gy, 32 * W, 8 * 18, "#f4f5f7", "none", 0))
    out.append(grid(x0, gy, 8, 32, W, 18, "#e1e4e8", 0.5))
    out.append(outline(x0, gy, 32 * W, 8 * 18, "#9aa0a6", 0.8))
    for t in range(32):
        out += lane_cell(x0 + (t // 8) * W, gy + (t % 8) * 18, t)
    for r in range(8):
        out.append(text(x0 + 32 * W + 8, gy + r * 18 + 13, f"wavefront {r + 1}", 10, fill="#5f6670"))
    out.append(text(x0 + 4 * W + 10, gy + 4 * 18 + 4, "8 lanes, 8 different words, one bank:", 12))
    out.append(text(x0 + 4 * W + 10, gy + 4 * 18 + 20, "served one after another (8-way conflict)", 12))

    # step 07: bank = 4 (k / 4) + m
    y = gy + 8 * 18 + 40
    out.append(text(40, y, "step 07: 4 floats of padding after every 4 rows: As(k, m) is word 64 k + 4 (k / 4) + m,",
                    14, weight="bold"))
    out.append(text(40, y + 18, "so bank = 4 (t % 8) + t / 8: 32 lanes, 32 banks, no conflict", 14, weight="bold"))
    y += 18
    out += banks_header(y + 20)
    gy2 = y + 26
    out.append(outline(x0, gy2, 32 * W, 18, "#9aa0a6", 0.8))
    for t in range(32):
        b = (4 * (t % 8) + t // 8) % 32
        out += lane_cell(x0 + b * W, gy2, t)
    out.append(text(x0 + 32 * W + 8, gy2 + 13, "wavefront 1", 10, fill="#5f6670"))

    # the exact addresses of lanes 0..9 and 31
    ty = gy2 + 52
    out.append(text(40, ty, "The exact addresses (4-byte words from the start of As; byte address = 4 × word):", 12,
                    weight="bold"))
    cols = [("lane t", 60), ("m = t / 8", 130), ("k = 4 (t % 8)", 215), ("step 06 word", 330), ("bank", 420),
            ("step 07 word", 500), ("bank", 590)]
    for label, cx in cols:
        out.append(text(cx, ty + 20, label, 11, "middle", "bold"))
    for i, t in enumerate(list(range(10)) + [31]):
        m, k = t // 8, 4 * (t % 8)
        w6, w7 = 64 * k + m, 64 * k + 4 * (k // 4) + m
        vals = [f"t{t}", m, k, w6, w6 % 32, w7, w7 % 32]
        yy = ty + 38 + i * 15
        if t == 31:
            out.append(text(60, yy - 4, "⋮", 11, "middle"))
            yy += 8
        for (label, cx), v in zip(cols, vals):
            out.append(text(cx, yy, str(v), 11, "middle", fill=LANE_COLORS[t % 8] if label == "lane t" else TEXT))

    # B: one row of Bs and the float4s of threads 0..7
    by = ty + 38 + 12 * 15 + 30
    out.append(text(40, by, "Reading B: threads 0-7 of a row of threads, one LDS.128 each, at one k", 14,
                    weight="bold"))
    for r, (title, start) in enumerate([("step 06: thread c reads columns 8c .. 8c + 3 (and 8c + 4 .. 8c + 7 next)",
                                         lambda c: 8 * c),
                                        ("step 07: thread c reads columns 4c .. 4c + 3 (and 64 + 4c .. next)",
                                         lambda c: 4 * c)]):
        yy = by + 22 + r * 84
        out.append(text(40, yy, title, 12))
        for row in range(2):
            ry = yy + 10 + row * 22
            out.append(rect(x0, ry, 32 * W, 18, "#f4f5f7", "none", 0))
            out.append(grid(x0, ry, 1, 32, W, 18, "#e1e4e8", 0.5))
            out.append(outline(x0, ry, 32 * W, 18, "#9aa0a6", 0.8))
            out.append(text(x0 - 6, ry + 13, f"{32 * row}-{32 * row + 31}", 9, "end", fill="#5f6670"))
        for c in range(8):
            s = start(c)
            row, col = divmod(s, 32)
            out.append(rect(x0 + col * W, yy + 10 + row * 22, 4 * W, 18, LANE_COLORS[c], "#ffffff", 1))
            out.append(text(x0 + col * W + 2 * W, yy + 10 + row * 22 + 13, f"thread {c}", 9, "middle",
                            fill="#ffffff"))
        out.append(text(x0 + 32 * W + 8, yy + 23, "floats of the row,", 10, fill="#5f6670"))
        out.append(text(x0 + 32 * W + 8, yy + 37, "one bank per column", 10, fill="#5f6670"))
    out.append(text(40, by + 22 + 2 * 84 + 4,
                    "step 06: 8 float4s spread over 256 bytes, two in each group of 4 banks; "
                    "step 07: 128 contiguous bytes, every bank once", 12))
    save("07_bank_conflicts_banks", 900, int(by + 22 + 2 * 84 + 24), out)


def step09():
    """Block tile -> 8 warp tiles -> one warp's 8 x 4 lanes, with lane 0's four 4 x 4 pieces."""
    out = [text(40, 30, "Step 09, warptiling: block tile → warp tile → thread tile", 17, weight="bold"),
           text(40, 52, "BM = BN = 128, WM = 64, WN = 32, TM = TN = 8: 8 warps, each 64 × 32 of C; "
                        "a warp's 32 lanes in an 8 × 4 grid; a thread owns four 4 × 4 pieces", 12)]
    # block tile: 128 x 128 at 2 px per element
    P = 2
    bx, by = 40, 90
    out.append(text(bx, by - 10, "block tile (128 × 128), 8 warps", 14, weight="bold"))
    for w in range(8):
        wm, wn = w // 4, w % 4
        fill = TINT_C if w == 0 else "#f4f5f7"
        out.append(rect(bx + wn * 32 * P, by + wm * 64 * P, 32 * P, 64 * P, fill, "#9aa0a6", 0.8))
        out.append(text(bx + wn * 32 * P + 16 * P, by + wm * 64 * P + 32 * P + 4, f"w{w}", 12, "middle",
                        "bold" if w == 0 else "normal"))
    out.append(outline(bx, by, 128 * P, 128 * P))
    # zoom: warp 0, 64 x 32 at 6 px per element
    Z = 6
    zx, zy = 360, 90
    out.append(text(zx, zy - 10, "warp w0's tile (64 × 32): 4 quarters of 32 × 16", 14, weight="bold"))
    out.append(rect(zx, zy, 32 * Z, 64 * Z, "#fbfbfc", "none", 0))
    for q in range(4):
        qm, qn = q // 2, q % 2
        for lane in range(32):
            lm, ln = lane // 4, lane % 4
            x = zx + (qn * 16 + ln * 4) * Z
            y = zy + (qm * 32 + lm * 4) * Z
            fill = WARP if lane == 0 else (TINT_C if lane in (1, 4) else "#f4f5f7")
            out.append(rect(x, y, 4 * Z, 4 * Z, fill, "#c9ced6", 0.6))
            if q == 0 or lane == 0:
                out.append(text(x + 2 * Z, y + 2 * Z + 4, str(lane), 10, "middle",
                                "bold" if lane == 0 else "normal", "#ffffff" if lane == 0 else TEXT))
    out.append(path(f"M{zx + 16 * Z},{zy}v{64 * Z}M{zx},{zy + 32 * Z}h{32 * Z}", "#111111", 1.6))
    out.append(outline(zx, zy, 32 * Z, 64 * Z, "#111111", 1.6))
    # As column and Bs row lane 0 reads at one k
    ax = zx - 50
    out.append(text(ax + 3 * Z / 2, zy - 10, "As(k, ·)", 11, "middle"))
    out.append(rect(ax, zy, 3 * Z, 64 * Z, "#f4f5f7", "#c9ced6", 0.6))
    for r0 in (0, 32):
        out.append(rect(ax, zy + r0 * Z, 3 * Z, 4 * Z, READ_A, "none", 0))
    bry = zy + 64 * Z + 16
    out.append(rect(zx, bry, 32 * Z, 3 * Z, "#f4f5f7", "#c9ced6", 0.6))
    for c0 in (0, 16):
        out.append(rect(zx + c0 * Z, bry, 4 * Z, 3 * Z, READ_B, "none", 0))
    out.append(text(zx + 32 * Z + 6, bry + 14, "Bs(k, ·)", 11))
    # notes
    nx = zx + 32 * Z + 40
    notes = ["lane l sits at row l / 4, column l % 4 of the",
             "8 × 4 grid, in each quarter: its four 4 × 4",
             "pieces are kStepM = 32 rows and",
             "kStepN = 16 columns apart.",
             "",
             "At each k, lane 0 reads two float4s of As",
             "(rows 0-3 and 32-35) and two of Bs",
             "(columns 0-3 and 16-19): 4 × LDS.128",
             "for 64 FMAs.",
             "",
             "Lanes 0-3 read the same float4s of As;",
             "lanes 0, 4, 8, ..., 28 the same of Bs.",
             "Per k the warp reads 64 + 32 floats:",
             "384 bytes (step 08's warp: 1,056)."]
    for i, ln in enumerate(notes):
        out.append(text(nx, zy + 14 + i * 18, ln, 12))
    out += legend(nx, zy + 14 + len(notes) * 18 + 10, [(WARP, "lane 0's 8 × 8 elements of C"),
                                                      (TINT_C, "lanes 1 and 4, for comparison"),
                                                      (READ_A, "what lane 0 reads from As at one k"),
                                                      (READ_B, "what lane 0 reads from Bs at one k")])
    save("09_warptiling_tiles", 980, int(bry + 3 * Z + 30), out)


def step10():
    """Schematic timeline of one block: step 09 (copy, barrier, math, barrier) against step 10's
    pipeline with the two stages that ship (kStages = 2, as kernel.cuh's header draws it)."""
    out = [text(40, 30, "Step 10, double buffering: one block over time (schematic, not to scale)", 17,
                weight="bold"),
           text(40, 52, "K-tiles t = 0, 1, 2, 3. Step 10 keeps two stages in shared memory: tile t lives in "
                        "stage t % 2, and tile t + 1 is on its way while tile t is computed", 12)]
    COPY, MATH, LOADA = "#2e86ab", "#3c9d5d", "#edae49"
    x0, U = 200, 32   # start of the time axis, pixels per time unit
    BAR = "#111111"
    y = 96
    out.append(text(40, y + 14, "step 09", 14, weight="bold"))
    out.append(text(40, y + 30, "(one buffer)", 11))
    t = 0
    for tile in range(4):
        out.append(rect(x0 + t * U, y, 2 * U, 18, COPY, "#ffffff", 1))
        out.append(text(x0 + t * U + U, y + 13, f"copy {tile}", 10, "middle", fill="#ffffff"))
        t += 2
        out.append(path(f"M{x0 + t * U},{y - 6}v{30}", BAR, 2))
        out.append(rect(x0 + t * U, y, 3 * U, 18, MATH, "#ffffff", 1))
        out.append(text(x0 + t * U + 1.5 * U, y + 13, f"math {tile}", 10, "middle", fill="#ffffff"))
        t += 3
        out.append(path(f"M{x0 + t * U},{y - 6}v{30}", BAR, 2))
    out.append(text(x0 + t * U + 8, y + 13, "done", 11, fill="#5f6670"))
    # step 10: a row per stage (the copies into it, A's stores into it) and the math between them
    y2 = y + 110
    rows = {0: y2 - 26, 1: y2 + 26}
    out.append(text(40, y2 + 14, "step 10", 14, weight="bold"))
    out.append(text(40, y2 + 30, "(2 stages)", 11))
    for yy, label in ((rows[0] + 13, "into stage 0"), (y2 + 13, "math"), (rows[1] + 13, "into stage 1")):
        out.append(text(x0 - 12, yy, label, 10, "end", fill="#5f6670"))
    STORE = 0.6           # A's stores after the math, in time units
    starts = [2 + i * (3 + STORE) for i in range(5)]   # the barrier at the top of iteration i
    # the prologue: tile 0 set off and stored, then the first wait and barrier
    out.append(rect(x0, rows[0], (2 - STORE) * U, 18, COPY, "#ffffff", 1))
    out.append(text(x0 + (2 - STORE) * U / 2, rows[0] + 13, "copy 0", 10, "middle", fill="#ffffff"))
    out.append(rect(x0 + (2 - STORE) * U, rows[0], STORE * U, 18, LOADA, "#ffffff", 1))
    out.append(text(x0 + U, y2 - 44, "prologue", 10, "middle", fill="#5f6670"))
    for i in range(4):
        b = starts[i]
        out.append(path(f"M{x0 + b * U},{rows[0] - 6}v{rows[1] - rows[0] + 30}", BAR, 2))
        out.append(text(x0 + (b + (3 + STORE) / 2) * U, y2 - 44, f"iteration {i}", 10, "middle", fill="#5f6670"))
        nxt = i + 1
        if nxt < 4:   # start_copy(next): B by cp.async, A into registers; finish_copy(next) after the math
            r = rows[nxt % 2]
            out.append(rect(x0 + (b + 0.15) * U, r, 2 * U, 18, COPY, "#ffffff", 1))
            out.append(text(x0 + (b + 1.15) * U, r + 13, f"copy {nxt}", 10, "middle", fill="#ffffff"))
            out.append(rect(x0 + (b + 3) * U, r, STORE * U, 18, LOADA, "#ffffff", 1))
        out.append(rect(x0 + b * U, y2, 3 * U, 18, MATH, "#ffffff", 1))
        out.append(text(x0 + (b + 1.5) * U, y2 + 13, f"math {i}", 10, "middle", fill="#ffffff"))
    end = starts[3] + 3
    out.append(text(x0 + end * U + 8, y2 + 13, "done", 11, fill="#5f6670"))
    out.append(text(40, y2 + 72, "Iteration t: wait for my copies of tile t, one barrier, set off tile t + 1 into "
                                 "the other stage, compute on tile t, store A of tile t + 1.", 12))
    out.append(text(40, y2 + 92, "The stage written in iteration t held tile t − 1: the barrier at its top "
                                 "proves that every warp has finished its math on it.", 12))
    ly = y2 + 112
    out += legend(40, ly, [(COPY, "start_copy(t): B by cp.async straight into the stage (no registers), "
                                  "A's global loads into registers"),
                           (LOADA, "finish_copy(t): A's registers stored, transposed, into the stage, "
                                   "after the math"),
                           (MATH, "math on the tile in shared memory (FMAs)")])
    out.append(path(f"M40,{ly + 3 * 22 + 2}v16", BAR, 2))
    out.append(text(52, ly + 3 * 22 + 15, "__syncthreads() (in step 10 after cp.async.wait_group 0): "
                                          "every thread waits for the slowest", 12))
    out.append(text(40, ly + 3 * 22 + 44,
                    "Step 09 runs two blocks per SM: the other block's math fills its gaps. Step 10 runs one: "
                    "only its own pipeline can.", 12))
    save("10_double_buffer_pipeline", 920, int(ly + 3 * 22 + 62), out)


def waves():
    """C of 32 tiles on 132 SMs (one block each), whole and with K split into S = 4 and 6 slices."""
    M = N = 1024
    K_TILES, SMS, COLS = 256, 132, 12     # K = 8192 in K-tiles of 32; the H100's SMs; SM grid columns
    SLICE = ["#d1495b", "#edae49", "#2e86ab", "#3c9d5d", "#8e6c8a", "#6b8f9e"]
    IDLE = "#eceef1"
    out = [text(40, 30, "Filling the GPU: M = N = 1024, K = 8192 in tiles of 128 x 256 on 132 SMs "
                        "(one block per SM)", 16, weight="bold"),
           text(40, 52, "Counted, not measured: a block's time is taken as proportional to its K-tiles; "
                        "the second kernel (the sum) is drawn small", 12, fill="#5f6670")]
    x_c, x_sm, x_t = 40, 230, 450
    cell, gap = 11, 2
    px = 1.25                             # pixels per K-tile on the time axis
    H = 110                               # the height of 132 busy SMs on the time axis
    y = 90
    for S in (1, 4, 6):
        k_per = -(-K_TILES // S)          # K-tiles per slice
        blocks = (M // 128) * (N // 256) * S
        waves = -(-blocks // SMS)
        title = "K whole: S = 1" if S == 1 else f"K split into S = {S} slices"
        out.append(text(x_c, y, title, 14, weight="bold"))
        # C: 8 rows x 4 columns of tiles; with a split, S slices stacked behind it
        cw, ch, off = 30, 15, 5 if S < 6 else 4
        top = y + 14
        for z in reversed(range(S)):
            x0, y0 = x_c + z * off, top + z * off
            out.append(rect(x0, y0, 4 * cw, 8 * ch, SLICE[z], "#ffffff", 1))
            out.append(grid(x0, y0, 8, 4, cw, ch, "#ffffff", 1))
        label_y = top + 8 * ch + (S - 1) * off + 18
        out.append(text(x_c, label_y, f"8 x 4 = 32 tiles" + (f" x {S} slices" if S > 1 else ""), 12))
        out.append(text(x_c, label_y + 16, f"= {blocks} blocks of {k_per} K-tiles", 12))
        # the SMs in the first wave: SM i runs block i
        out.append(text(x_sm, y, "the 132 SMs, first wave", 12))
        for i in range(SMS):
            r, c = divmod(i, COLS)
            fill = SLICE[i // 32] if i < blocks else IDLE
            out.append(rect(x_sm + c * (cell + gap), top + r * (cell + gap), cell, cell, fill, "none", 0))
        busy = min(blocks, SMS)
        out.append(text(x_sm, top + 11 * (cell + gap) + 16, f"{busy} busy, {SMS - busy} idle", 12))
        # busy SMs over time, wave by wave, then the sum of the slices
        out.append(text(x_t, y, "busy SMs over time", 12))
        base = top + H
        out.append(path(f"M{x_t},{top}v{H}h{K_TILES * px + 60}", EDGE, 1))
        out.append(path(f"M{x_t},{top}h{K_TILES * px + 60}", GRID, 1, dash="4 3"))
        out.append(text(x_t - 6, top + 4, "132", 10, "end", fill="#5f6670"))
        out.append(text(x_t - 6, base + 4, "0", 10, "end", fill="#5f6670"))
        t = x_t
        for w in range(waves):
            n = min(SMS, blocks - w * SMS)
            h = H * n / SMS
            out.append(rect(t, base - h, k_per * px, h, "#7a8a9c", "#ffffff", 1))
            out.append(text(t + k_per * px / 2, base - h + 14, f"{n}", 11, "middle", fill="#ffffff"))
            t += k_per * px
        if S > 1:
            out.append(rect(t, top + 10, 6, H - 10, "#555555", "none", 0))
            out.append(text(t + 10, top + 22, "sum of the slices", 11))
        out.append(text(t + (16 if S > 1 else 6), base - 4, f"{waves * k_per} K-tiles of time" +
                        (f" ({waves} waves)" if waves > 1 else ""), 11))
        y += 230
    out.append(text(40, y - 14, "S = 4: 128 blocks fill 128 of the 132 SMs in one wave, each with a quarter of K.", 12))
    out.append(text(40, y + 4, "S = 6: 192 blocks need a second wave of 60 blocks while 72 SMs wait: "
                               "86 K-tiles of time against 64.", 12))
    save("filling_the_gpu_waves", 920, int(y + 20), out)


if __name__ == "__main__":
    problem()
    step03()
    step04()
    step05()
    step06()
    step07()
    step09()
    step10()
    waves()
