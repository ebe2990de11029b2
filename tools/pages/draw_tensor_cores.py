#!/usr/bin/env python3
"""Draw the tensor-core pictures of steps 11 and 12 as SVG (images/*.svg).

  11_tensor_cores_fragments: one shared-memory stage of step 11's 128 x 128 x 32 configuration
      (A's rows unpadded, kLdA = BK = 32 floats = 128 bytes, their eight 16-byte chunks swizzled:
      chunk c of row r, k = 4c .. 4c + 3, stored as chunk c ^ (r % 8); B's rows padded to
      kLdB = BN + 8) with what warp 0 reads at mma step 0, where it lies: in its 64 rows of A the
      two chunks of the step, scattered per row by the swizzle, the 4 A fragments (16 rows each)
      outlined, and 8 rows x 64 columns of B, the 8 B fragments (8 x 8) outlined; A fragment 0
      (in k order) and B fragment 0 enlarged, with the elements lane 9 receives (a[0..3],
      b[0..1]) and the 16 bytes it names for ldmatrix, each with its byte offset from the
      swizzled address; and the banks of one ldmatrix block of A (8 rows of one chunk: 8
      different 4-bank groups, banks 0 to 31) and of one b[0] load of B;
  12_3xtf32_split: one FP32 number x (0.1f) and its two pieces hi = tf32(x) and lo = x - hi
      as 32 bits each (sign, exponent, mantissa: 10 kept, 13 dropped: zero in hi, dropped from lo
      by the tensor core, which reads an operand's top 19 bits), and their significands by place
      value as the mma reads them, with what hi + lo misses;
  11_12_ktile_timeline: one K-tile of one warp in step 11 (128 x 128 x 32, 3 stages, 64 x 64
      warps) and in step 12 (4 stages, 64 x 32 warps), in program order, one lane per kind of work
      (copies, fragment loads, rounding or split, mma.sync, wait + barrier): in both steps the
      fragments of A and B loading one mma step ahead, alternating between two buffers; step 12's
      split (2 instructions an element on sm_90: cvt.rn and a subtraction, lo left unrounded) of
      B's 8 elements as they load, a step ahead, and of A's 16 at the step; the
      copies of tile t + kStages - 1 at step 0 (step 11) or a quarter per step (step 12), the
      wait and barrier at step 3; box widths are the instructions the warp issues, counted from
      the configurations' constants (not time measured).
Every position, offset, bank and bit is computed here from the kernel's constants and from the
FP32 bit patterns (struct), nothing typed by hand, and checked by asserts (the fragment maps
against ldmatrix's rule, the swizzle against the kernel's copy and ldmatrix addresses, every
ldmatrix block and b[0] load in 32 banks, x - hi exact, |x - (hi + lo)| <= 1 unit of x's last
place). hi's rounding is cvt.rn.tf32.f32's (to nearest, ties to even); where sm_80-89's cvt.rna
(ties away from zero) splits x otherwise, a line says how. The pictures hold no measured figure. Run it
after changing it; the output is deterministic and the SVGs are committed.

usage: tools/pages/draw_tensor_cores.py
"""
import struct
from decimal import Decimal, localcontext
from fractions import Fraction

from draw_mappings import GRID, READ_A, READ_B, TEXT, WARP, rect, text  # one style for all pictures
from draw_tiles import EDGE, TINT_A, TINT_B, grid, legend, outline, path, save

LDM = "#edae49"      # the 16 bytes a lane names for ldmatrix
PAD = "#c4c8ce"      # padding floats, dropped bits
IDLE = "#f4f5f7"     # floats the warp does not read at this step
NOTE = "#5f6670"     # small grey notes
TINT_A2 = "#a9cfe1"  # A at the step drawn, its second chunk (k = 8 STEP + 4 .. 8 STEP + 7)

# step 11's first configuration (steps/11_tensor_cores/kernel.cuh, kConfigs[0])
BM, BN, BK, WM, WN = 128, 128, 32, 64, 64
LDA, LDB = BK, BN + 8              # kLdA, kLdB: A's rows unpadded (swizzled), B's padded
THREADS = (BM // WM) * (BN // WN) * 32
STEP = 0                           # the mma step drawn: k = 8 STEP .. 8 STEP + 7
LANE = 9


def a_regs(lane):
    """(register, row, k) of the A fragment elements a lane receives (rows and k within the fragment)."""
    g, t = divmod(lane, 4)
    return [(0, g, t), (1, g + 8, t), (2, g, t + 4), (3, g + 8, t + 4)]


def b_regs(lane):
    """(register, k, n) of the B fragment elements a lane receives."""
    g, t = divmod(lane, 4)
    return [(0, t, g), (1, t + 4, g)]


def ldmatrix_named(lane):
    """(row, first k) of the 16 bytes a lane names for ldmatrix.x4 within a 16 x 8 fragment."""
    return lane % 8 + 8 * (lane // 8 % 2), 4 * (lane // 16)


def ldmatrix_receives(lane, reg):
    """(row, k) of the word a lane receives into a[reg] from ldmatrix.x4: word t of row g of block reg,
    block reg being the 8 row pieces named by lanes 8 reg .. 8 reg + 7."""
    g, t = divmod(lane, 4)
    row, k0 = ldmatrix_named(8 * reg + g)
    return row, k0 + t


def a_chunk(row, k):
    """The chunk of 16 bytes of its row where A's element (row, k) of the tile is stored: the swizzle."""
    return (k // 4) ^ (row % 8)


def a_float(row, k):
    return row * LDA + a_chunk(row, k) * 4 + k % 4


def a_byte(row, k):
    return 4 * a_float(row, k)


def b_byte(k, n):
    return 4 * (k * LDB + n)


def fragments():
    g, t = divmod(LANE, 4)
    # the fragment maps, checked against ldmatrix's rule
    for lane in range(32):
        for reg, row, k in a_regs(lane):
            assert ldmatrix_receives(lane, reg) == (row, k), (lane, reg)
    # the swizzle as the kernel writes it: the copies (thread x: row ra + i kRowsA, chunk ca) ...
    rows_a = THREADS // (BK // 4)
    assert rows_a % 8 == 0 and 4 * LDA % 128 == 0, "rows of whole 128 bytes; a thread's rows 8 apart"
    for x in range(THREADS):
        ra, ca = divmod(x, BK // 4)
        a_dst = ra * LDA + (ca ^ ra % 8) * 4
        for i in range(BM * BK // 4 // THREADS):
            assert a_dst + i * rows_a * LDA == a_float(ra + i * rows_a, 4 * ca)
    # ... and ldmatrix: lane l's 16 bytes at step s are step 0's XOR 32 s, in every fragment
    for lane in range(32):
        row, k0 = ldmatrix_named(lane)
        for i in range(BM // 16):
            at = 4 * ((row + 16 * i) * LDA + ((lane // 16) ^ (lane % 8)) * 4)
            for s in range(BK // 8):
                assert a_byte(row + 16 * i, 8 * s + k0) == at ^ 32 * s, (lane, i, s)
    # every block of 8 row pieces ldmatrix reads, and every b[0] load of a warp, in 32 banks: one pass
    for s in range(BK // 8):
        for i in range(BM // 16):
            for reg in range(4):
                pieces = [ldmatrix_named(lane) for lane in range(8 * reg, 8 * reg + 8)]
                banks = {(a_byte(16 * i + r, 8 * s + k0) // 4 + k) % 32 for r, k0 in pieces for k in range(4)}
                assert len(banks) == 32, "an ldmatrix block of 8 row pieces must cover the 32 banks"
        for j in range(BN // 8):
            banks = {(b_byte(8 * s + t_, 8 * j + g_) // 4) % 32 for g_ in range(8) for t_ in range(4)}
            assert len(banks) == 32, "a b[0] load of a warp must cover the 32 banks"

    W = 920
    E = 5                          # pixels per float in the stage views
    x0 = 84
    out = [text(40, 30, "Step 11, tensor cores: one warp's m16n8k8 fragments in a shared-memory stage", 17,
                weight="bold"),
           text(40, 52, f"Configuration {BM} × {BN} × {BK}: a stage holds A's tile, {BM} rows of kLdA = BK = "
                        f"{LDA} floats, then B's, {BK} rows of kLdB = {BN} + 8 = {LDB} floats.", 12),
           text(40, 68, f"A's rows are unpadded, {4 * LDA} bytes: {LDA // 4} chunks of 16 bytes, swizzled: "
                        f"chunk c of row r (k = 4c to 4c + 3) is stored as chunk c ^ (r mod 8).", 12),
           text(40, 84, f"Drawn, where it lies: what warp 0 (its tile of C: {WM} × {WN}) reads at mma step {STEP} "
                        f"(k = {8 * STEP}–{8 * STEP + 7} of {BK}): {WM // 16} A × {WN // 8} B fragments, "
                        f"{WM // 16 * (WN // 8)} mma.sync.", 12)]

    # B in the stage: rows k of step STEP, all LDB floats of each; the warp's WN columns, the others', the pad
    by, BH = 138, 7
    out.append(text(x0, by - 24, f"B in the stage: rows k = {8 * STEP}–{8 * STEP + 7} (of {BK}), {LDB} floats each",
                    13, weight="bold"))
    out.append(rect(x0, by, WN * E, 8 * BH, TINT_B, "none", 0))
    out.append(rect(x0 + WN * E, by, (BN - WN) * E, 8 * BH, IDLE, "none", 0))
    out.append(rect(x0 + BN * E, by, (LDB - BN) * E, 8 * BH, PAD, "none", 0))
    out.append(grid(x0, by, 8, LDB, E, BH, "#ffffff", 0.5))
    for reg, k, n in b_regs(LANE):
        out.append(rect(x0 + n * E, by + k * BH, E, BH, WARP, "none", 0))
    for j in range(WN // 8):
        out.append(outline(x0 + 8 * j * E, by, 8 * E, 8 * BH, EDGE, 1.1))
        out.append(text(x0 + (8 * j + 4) * E, by - 5, f"j = {j}", 10, "middle"))
    out.append(text(x0 + (WN + BN) / 2 * E, by - 5, "warp 1's columns", 10, "middle", fill=NOTE))
    out.append(text(x0 + (BN + LDB) / 2 * E, by - 5, "pad", 10, "middle", fill=NOTE))
    out.append(outline(x0, by, LDB * E, 8 * BH, EDGE, 0.8))
    out.append(text(x0 - 6, by + BH, f"k = {8 * STEP}", 9, "end", fill=NOTE))
    out.append(text(x0 - 6, by + 8 * BH, f"k = {8 * STEP + 7}", 9, "end", fill=NOTE))
    for n in (0, WN, BN, LDB):
        out.append(text(x0 + n * E, by + 8 * BH + 12, f"n = {n}" if n == 0 else str(n), 9, "middle", fill=NOTE))
    out.append(text(x0 + LDB * E + 10, by + 3 * BH, f"rows {8 * STEP + 8}–{BK - 1}:", 10, fill=NOTE))
    out.append(text(x0 + LDB * E + 10, by + 3 * BH + 13, "later steps", 10, fill=NOTE))

    # A in the stage: the warp's WM rows of LDA floats as stored, its two chunks of step STEP where the swizzle
    # puts them
    ay = by + 8 * BH + 84
    out.append(text(x0, ay - 26, f"A: warp 0's rows 0–{WM - 1}, as stored", 13, weight="bold"))
    out.append(rect(x0, ay, LDA * E, WM * E, IDLE, "none", 0))
    for row in range(WM):
        for h, fill in ((0, TINT_A), (1, TINT_A2)):
            out.append(rect(x0 + a_chunk(row, 8 * STEP + 4 * h) * 4 * E, ay + row * E, 4 * E, E, fill, "none", 0))
    out.append(grid(x0, ay, WM, LDA, E, E, "#ffffff", 0.5))
    out.append(grid(x0, ay, WM, LDA, E, E, "#ffffff", 1.2, every_r=8, every_c=4))
    row9, k9 = ldmatrix_named(LANE)
    out.append(rect(x0 + a_chunk(row9, 8 * STEP + k9) * 4 * E, ay + row9 * E, 4 * E, E, LDM, "none", 0))
    for reg, row, k in a_regs(LANE):
        out.append(rect(x0 + (a_float(row, 8 * STEP + k) - row * LDA) * E, ay + row * E, E, E, WARP, "none", 0))
    for i in range(WM // 16):
        out.append(outline(x0, ay + 16 * i * E, LDA * E, 16 * E, EDGE, 1.1))
        out.append(text(x0 - 6, ay + (16 * i + 8) * E + 4, f"i = {i}", 11, "end"))
    out.append(text(x0 - 6, ay - 5, "chunk", 9, "end", fill=NOTE))
    for c in range(LDA // 4):
        out.append(text(x0 + (4 * c + 2) * E, ay - 5, str(c), 9, "middle", fill=NOTE))
    for f in range(0, LDA + 1, 8):
        out.append(text(x0 + f * E, ay + WM * E + 12, f"byte {4 * f}" if f == 0 else str(4 * f), 9, "middle",
                        fill=NOTE))

    # A fragment 0 enlarged, in k order: 16 rows x 8 k, the four 8 x 4 blocks of ldmatrix.x4
    Z = WM * E // 16               # the 16 rows as tall as the warp's 64 rows
    zx, zy = 362, ay
    out.append(text(zx - 20, ay - 26, "A fragment i = 0 (16 × 8)", 13, weight="bold"))
    out.append(path(f"M{x0 + LDA * E + 3},{ay}L{zx - 22},{zy}M{x0 + LDA * E + 3},{ay + 16 * E}"
                    f"L{zx - 22},{zy + 16 * Z}", "#9aa0a6", 1, dash="4,3"))
    out.append(path(f"M{x0 + LDA * E + 3},{ay}v{16 * E}", "#9aa0a6", 1.5))
    out.append(rect(zx, zy, 4 * Z, 16 * Z, TINT_A, "none", 0))
    out.append(rect(zx + 4 * Z, zy, 4 * Z, 16 * Z, TINT_A2, "none", 0))
    out.append(rect(zx + k9 * Z, zy + row9 * Z, 4 * Z, Z, LDM, "none", 0))
    out.append(grid(zx, zy, 16, 8, Z, Z, "#ffffff", 1))
    for reg in range(4):
        r0, c0 = 8 * (reg % 2), 4 * (reg // 2)
        lanes = f"lanes {8 * reg}–{8 * reg + 7}"
        cx, cy = zx + (c0 + 2) * Z, zy + (r0 + 5) * Z
        out.append(text(cx, cy, f"a[{reg}]", 14, "middle", "bold", "#4d6f82"))
        out.append(text(cx, cy + 15, "rows named by", 9.5, "middle", fill="#2f4553"))
        out.append(text(cx, cy + 27, lanes, 9.5, "middle", fill="#2f4553"))
    out.append(path(f"M{zx + 4 * Z},{zy}v{16 * Z}M{zx},{zy + 8 * Z}h{8 * Z}", "#ffffff", 3))
    out.append(outline(zx + k9 * Z, zy + row9 * Z, 4 * Z, Z, "#b7780f", 1.6))
    out.append(text(zx + (k9 + 2) * Z, zy + row9 * Z + 14, f"lane {LANE} names", 9, "middle", "bold"))
    for reg, row, k in a_regs(LANE):
        out.append(rect(zx + k * Z, zy + row * Z, Z, Z, WARP, "none", 0))
        out.append(text(zx + (k + 0.5) * Z, zy + row * Z + 13.5, f"a[{reg}]", 8, "middle", "bold", "#ffffff"))
    out.append(outline(zx, zy, 8 * Z, 16 * Z, EDGE, 1.2))
    out.append(text(zx + 4 * Z, zy + 16 * Z + 16, "in each block, word t of row g", 10, "middle", fill=NOTE))
    out.append(text(zx + 4 * Z, zy + 16 * Z + 29, "goes to lane 4g + t", 10, "middle", fill=NOTE))
    for k in range(8):
        out.append(text(zx + (k + 0.5) * Z, zy - 5, str(8 * STEP + k), 9, "middle", fill=NOTE))
    for r in range(16):
        out.append(text(zx - 4, zy + r * Z + 14, str(r), 9, "end", fill=NOTE))
    out.append(text(zx - 4, zy - 5, "row \\ k", 9, "end", fill=NOTE))

    # B fragment 0 enlarged: 8 k x 8 n; and lane 9's registers with their byte offsets
    rx = 560
    bzx, bzy = rx + 40, ay
    out.append(text(rx, ay - 26, "B fragment j = 0 (8 × 8)", 13, weight="bold"))
    out.append(rect(bzx, bzy, 8 * Z, 8 * Z, TINT_B, "none", 0))
    out.append(grid(bzx, bzy, 8, 8, Z, Z, "#ffffff", 1))
    out.append(path(f"M{bzx},{bzy + 4 * Z}h{8 * Z}", "#ffffff", 3))
    for reg, k, n in b_regs(LANE):
        out.append(rect(bzx + n * Z, bzy + k * Z, Z, Z, WARP, "none", 0))
        out.append(text(bzx + (n + 0.5) * Z, bzy + k * Z + 13.5, f"b[{reg}]", 8, "middle", "bold", "#ffffff"))
    out.append(outline(bzx, bzy, 8 * Z, 8 * Z, EDGE, 1.2))
    for n in range(8):
        out.append(text(bzx + (n + 0.5) * Z, bzy - 5, str(n), 9, "middle", fill=NOTE))
    for k in range(8):
        out.append(text(bzx - 4, bzy + k * Z + 14, str(8 * STEP + k), 9, "end", fill=NOTE))
    out.append(text(bzx - 4, bzy - 5, "k \\ n", 9, "end", fill=NOTE))
    out.append(text(bzx + 8 * Z + 8, bzy + 2 * Z + 4, "k = t: b[0]", 10, fill=NOTE))
    out.append(text(bzx + 8 * Z + 8, bzy + 6 * Z + 4, "k = t + 4: b[1]", 10, fill=NOTE))

    ty = bzy + 8 * Z + 26
    out.append(text(rx, ty, f"lane {LANE} = 4g + t: g = {g}, t = {t}", 12, weight="bold"))
    ty += 18
    OX = 116                       # the offsets' column
    out.append(text(rx + 16, ty, "element", 10, fill=NOTE))
    out.append(text(rx + OX, ty, "its byte offset in the stage", 10, fill=NOTE))
    assert LDA == 32
    rows = []
    for reg, row, k in a_regs(LANE):
        kk = 8 * STEP + k
        rows.append((WARP, f"a[{reg}] = A[{row}][{kk}]",
                     f"4 · ({row} · {LDA} + ({kk // 4} ^ {row % 8}) · 4 + {kk % 4}) = {a_byte(row, kk):,}"))
    kk = 8 * STEP + k9
    at9 = 4 * (row9 * LDA + ((LANE // 16) ^ (LANE % 8)) * 4) ^ 32 * STEP
    assert at9 == a_byte(row9, kk)
    rows.append((LDM, f"names A[{row9}][{kk}–{kk + 3}]",
                 f"4 · ({row9} · {LDA} + ({kk // 4} ^ {row9 % 8}) · 4) = {a_byte(row9, kk):,}"))
    b0 = 4 * BM * LDA
    for reg, k, n in b_regs(LANE):
        kk = 8 * STEP + k
        rows.append((WARP, f"b[{reg}] = B[{kk}][{n}]", f"B + 4 · ({kk} · {LDB} + {n}) = B + {b_byte(kk, n):,}"))
    for i, (color, name, offset) in enumerate(rows):
        yy = ty + 20 + i * 17
        out.append(rect(rx, yy - 10, 10, 10, color, "none", 0))
        out.append(text(rx + 16, yy, name, 11))
        out.append(text(rx + OX, yy, offset, 11))
    ny = ty + 20 + len(rows) * 17
    out.append(text(rx + OX, ny, f"where B = 4 · {BM} · {LDA} = {b0:,}", 11, fill=NOTE))
    out.append(text(rx, ny + 17, f"A: 4 · (row · {LDA} + (k / 4 ^ row % 8) · 4 + k % 4)", 10.5, fill=NOTE))
    out.append(text(rx, ny + 32, "ldmatrix at step s: step 0's 16 bytes ^ 32 s", 10.5, fill=NOTE))

    # the banks: one ldmatrix block of A (the one of a[2]: chunk 2 STEP + 1, rows 0-7) and one b[0] load of B
    sy = ay + WM * E + 84
    BW, sx = 24, 120
    blk = 2                        # the block of a[2]: rows 0-7 at k = 8 STEP + 4 .. 8 STEP + 7, lanes 16-23
    r_first, k_first = ldmatrix_named(8 * blk)
    k_first += 8 * STEP
    c_first = k_first // 4

    def passes(ld_a, swizzle, ld_b):
        """The passes of one ldmatrix block of A (a[blk]) and of one b[0] load of B, with rows ld_a and ld_b
        floats long, A's chunks swizzled or not."""
        a = [(r * ld_a + ((c_first ^ r % 8) if swizzle else c_first) * 4 + k) % 32
             for r in range(r_first, r_first + 8) for k in range(4)]
        b = [(t_ * ld_b + g_) % 32 for t_ in range(4) for g_ in range(8)]
        return max(a.count(x) for x in a), max(b.count(x) for x in b)

    assert passes(LDA, True, LDB) == (1, 1)
    pa, pb = passes(BK, False, BN)
    assert passes(BK + 4, False, LDB)[0] == 1
    off = sorted({4 * r * (BK + 4) % 32 for r in range(8)})   # rows of BK + 4 floats: where they start in a sector
    assert off == [0, 16]
    caption = [f"Why the swizzle. A: ldmatrix reads the 8 row pieces of a[{blk}] (rows {r_first}–{r_first + 7}, "
               f"k = {k_first}–{k_first + 3}, chunk {c_first}) in one pass. Rows are {4 * LDA} bytes, so chunk p",
               f"of every row lies in banks 4p to 4p + 3, and row r stores chunk {c_first} as chunk {c_first} ^ (r mod "
               f"8): 8 rows, 8 chunks, 32 banks. Unswizzled, all 8",
               f"would sit in banks {4 * c_first}–{4 * c_first + 3}: {pa} passes. Rows of {BK} + 4 floats avoid that "
               f"too, but then every other row starts {off[1]} bytes off a 32-byte sector.",
               f"B: lane 4g + t reads b[0] at word {LDB}t + g, bank ({LDB % 32}t + g) mod 32: 4 rows × 8 columns, "
               f"32 banks; unpadded, in bank g: {pb} passes."]
    for i, line in enumerate(caption):
        out.append(text(40, sy + i * 16, line, 12))
    strips = []
    a_bank = {}
    for lane in range(8 * blk, 8 * blk + 8):
        r, k0 = ldmatrix_named(lane)
        for k in range(4):
            a_bank[(a_byte(r, 8 * STEP + k0 + k) // 4) % 32] = (r, 8 * STEP + k0 + k)
    b_bank = {(b_byte(8 * STEP + t_, g_) // 4) % 32: (t_, g_) for t_ in range(4) for g_ in range(8)}
    assert len(a_bank) == 32 and len(b_bank) == 32
    assert all(b // 4 == a_chunk(*rk) for b, rk in a_bank.items()), "chunk p lies in banks 4p to 4p + 3"
    strips.append(("A", a_bank, TINT_A2 if c_first % 2 else TINT_A, lambda rk: rk[0], "row {}",
                   {b for b, rk in a_bank.items() if rk[0] == row9}, {b for b, rk in a_bank.items() if
                                                                       rk == ldmatrix_receives(LANE, blk)}))
    strips.append(("B", b_bank, TINT_B, lambda tg: tg[0], "k = t = {}", set(),
                   {b for b, tg in b_bank.items() if tg == (t, g)}))
    yy = sy + len(caption) * 16 + 30
    for c in range(8):
        out.append(text(sx + (4 * c + 2) * BW, yy - 15, f"chunk {c}", 9, "middle", fill=NOTE))
        out.append(path(f"M{sx + 4 * c * BW + 2},{yy - 11}h{4 * BW - 4}", NOTE, 0.8))
    for b in range(32):
        out.append(text(sx + (b + 0.5) * BW, yy, str(b), 9, "middle", fill=NOTE))
    out.append(text(sx - 8, yy, "bank", 9, "end", fill=NOTE))
    for si, (name, banks, tint, group, glabel, named, received) in enumerate(strips):
        y = yy + 8 + si * 50
        out.append(text(sx - 8, y + 15, name, 13, "end", "bold"))
        for b in range(32):
            fill = WARP if b in received else (LDM if b in named else tint)
            out.append(rect(sx + b * BW, y, BW, 20, fill, "#ffffff", 1))
            first = banks[b]
            label = f"{first[0]},{first[1]}"
            out.append(text(sx + (b + 0.5) * BW, y + 14, label, 8.5, "middle",
                            fill="#ffffff" if b in received else TEXT))
        # group labels under runs of banks that share a row
        b = 0
        while b < 32:
            e = b
            while e + 1 < 32 and group(banks[e + 1]) == group(banks[b]):
                e += 1
            out.append(path(f"M{sx + b * BW + 2},{y + 24}h{(e - b + 1) * BW - 4}", NOTE, 0.8))
            out.append(text(sx + (b + e + 1) / 2 * BW, y + 35, glabel.format(group(banks[b])), 9, "middle", fill=NOTE))
            b = e + 1
    out.append(text(sx - 8, yy + 8 + 35, "(row, k)", 9, "end", fill=NOTE))
    out.append(text(sx - 8, yy + 58 + 35, "(k, n)", 9, "end", fill=NOTE))
    ly = yy + 8 + 2 * 50 + 8
    out += legend(40, ly, [(TINT_A, f"A at step {STEP}, k = {8 * STEP}–{8 * STEP + 3} (chunk {2 * STEP}), as stored; "
                                    f"fragments outlined"),
                           (TINT_A2, f"A at step {STEP}, k = {8 * STEP + 4}–{8 * STEP + 7} (chunk {2 * STEP + 1}), "
                                     f"as stored"),
                           (TINT_B, f"B at step {STEP}: the warp's 8 fragments, 8 × 8 each (outlined)"),
                           (IDLE, "read at other steps, or by other warps")], gap=20)
    out += legend(500, ly, [(PAD, f"padding: {LDB - BN} floats per row of B (A has none)"),
                            (WARP, f"what lane {LANE} receives: a[0..3], b[0..1]"),
                            (LDM, f"the 16 bytes lane {LANE} names for ldmatrix.x4")], gap=20)
    save("11_tensor_cores_fragments", W, int(ly + 4 * 20 + 8), out)


# ---------------------------------------------------------------------------------------------

def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f32_value(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def tf32_rn(bits):
    """The bit pattern rounded to TF32 as cvt.rn.tf32.f32 does: to nearest, ties to even, 13 low bits 0."""
    assert (bits >> 23) & 0xFF != 0xFF, "finite values only"
    low, base = bits & 0x1FFF, bits & ~0x1FFF & 0xFFFFFFFF
    if low > 0x1000 or (low == 0x1000 and base & 0x2000):
        base += 0x2000          # a carry out of the mantissa steps the exponent, as it should
    return base


def tf32_rna(bits):
    """The same as cvt.rna.tf32.f32 (sm_80 to 89): to nearest, ties away from zero."""
    assert (bits >> 23) & 0xFF != 0xFF, "finite values only"
    return ((bits & 0xFFFFFFFF) + 0x1000) & ~0x1FFF & 0xFFFFFFFF


def exact(bits):
    return Fraction(f32_value(bits))


def significand(bits):
    """(integer significand with its hidden bit, exponent of its last place) of a normal FP32 number."""
    e = (bits >> 23) & 0xFF
    assert 0 < e < 0xFF, "normal numbers only"
    return (bits & 0x7FFFFF) | 0x800000, e - 127 - 23


SUPER = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def pow2(n):
    """2ⁿ with a superscript exponent."""
    return "2" + str(n).translate(SUPER)


def sci(v):
    """v in scientific notation, three digits: 7.45 · 10⁻⁸."""
    mantissa, exponent = f"{v:.2e}".split("e")
    return f"{mantissa} · 10{str(int(exponent)).translate(SUPER)}"


def dec(v):
    """The exact decimal expansion of a dyadic fraction (every FP32 number is one)."""
    digits = 0
    while (v * 10 ** digits).denominator != 1:
        digits += 1
    with localcontext() as ctx:
        ctx.prec = 200                  # enough for any FP32 number: the division is exact
        return format(Decimal(v.numerator) / Decimal(v.denominator), f".{digits}f")


def split():
    X = 0.1
    xb = f32_bits(X)
    hb = tf32_rn(xb)
    x, hi = exact(xb), exact(hb)
    rest = x - hi
    rb = f32_bits(float(rest))
    assert exact(rb) == rest, "x - hi must be exact in FP32"
    lb = rb & ~0x1FFF                   # lo as the mma reads it: its 13 low bits dropped (toward zero)
    lo = exact(lb)
    miss = x - (hi + lo)
    assert lo != 0
    assert abs(miss) <= Fraction(2) ** significand(xb)[1], "hi + lo must hold x to within 1 unit of its last place"
    assert abs(miss) <= abs(x) / 2 ** 22
    xs, xe = significand(xb)
    hs, he = significand(hb)
    ls, le = significand(lb)
    assert hs % 2 ** 13 == 0 and ls % 2 ** 13 == 0
    hs, he, ls, le = hs >> 13, he + 13, ls >> 13, le + 13   # TF32: 11 significant bits
    rest_units = rest / Fraction(2) ** xe          # x - hi in units of x's last place
    assert rest_units.denominator == 1
    rest_units = int(rest_units)
    nbits = abs(rest_units).bit_length()
    low13 = xb & 0x1FFF
    lo_units = lo / Fraction(2) ** xe
    miss_units = miss / Fraction(2) ** xe
    assert lo_units.denominator == 1 and miss_units.denominator == 1
    lo_units, miss_units = int(lo_units), int(miss_units)
    # sm_80 to 89 round with cvt.rna (ties away from zero): the split there, for the note on ties
    hi_rna = exact(tf32_rna(xb))
    lo_rna = exact(f32_bits(float(x - hi_rna)) & ~0x1FFF)
    miss_rna = x - (hi_rna + lo_rna)
    assert abs(miss_rna) <= abs(x) / 2 ** 22

    W = 900
    out = [text(40, 30, "Step 12, 3xTF32: x = hi + lo, two TF32 numbers as the tensor core reads them",
                17, weight="bold"),
           text(40, 52, "hi = tf32(x) rounds x to nearest (ties to even, as cvt.rn.tf32.f32 does); lo = x − hi is exact in "
                        "FP32, and the tensor core drops its 13 low bits.", 12)]
    HI, LO, SIGN, EXP = READ_A, READ_B, "#e6dcef", "#dfe5ec"
    BW, GAP, x0 = 19, 8, 110

    def bit_x(i):
        """Left edge of bit i (31 = sign ... 0 = the last mantissa bit)."""
        pos = 31 - i
        return x0 + pos * BW + (GAP if i <= 30 else 0) + (GAP if i <= 22 else 0) + (4 if i <= 12 else 0)

    right = bit_x(0) + BW
    y = 90
    for lo_bit, hi_bit, label in ((31, 31, "sign"), (23, 30, "exponent: 8 bits"),
                                  (13, 22, "mantissa: the 10 bits TF32 keeps"), (0, 12, "the 13 bits TF32 drops")):
        left, end = bit_x(hi_bit), bit_x(lo_bit) + BW
        out.append(text((left + end) / 2, y, label, 10, "middle", fill=NOTE))
        out.append(path(f"M{left + 1},{y + 8}v-3h{end - left - 2}v3", NOTE, 0.8))

    rows = [("x", xb, None, f"x = {X}f = {dec(x)} (its exact value)", None),
            ("hi", hb, HI, f"hi = tf32(x) = {dec(hi)}",
             f"x's 13 low bits {low13:013b} = {low13:,} are {'below' if low13 < 0x1000 else 'above'} "
             f"{pow2(12)} = {0x1000:,}, half a unit in hi's last place: rounded {'down' if hb <= xb else 'up'}"
             if low13 != 0x1000 else f"x's 13 low bits are exactly {pow2(12)}, half a unit: a tie, rounded to even"),
            ("lo", rb, LO, f"lo = x − hi = {dec(rest)}; the mma reads {dec(lo)}",
             f"x − hi = {rest_units:,} · {pow2(xe)} is exact in FP32 and has {nbits} significant bits; the mma keeps "
             + (f"the top 11: {lo_units:,} · {pow2(xe)}" if lo_units != rest_units else "all of them"))]
    RS = 86
    for ri, (name, bits, color, label, note) in enumerate(rows):
        ry = y + 34 + ri * RS
        out.append(text(40, ry + 30, name, 16, weight="bold"))
        out.append(text(x0, ry, label, 12))
        for i in range(32):
            b = (bits >> i) & 1
            kept = color and 13 <= i < 23
            if i == 31:
                fill = SIGN
            elif i >= 23:
                fill = EXP
            elif i >= 13:
                fill = color or "#ffffff"
            else:
                fill = PAD if color else "#ffffff"
            out.append(rect(bit_x(i), ry + 10, BW, 26, fill, "#ffffff" if fill != "#ffffff" else GRID, 1))
            out.append(text(bit_x(i) + BW / 2, ry + 28, str(b), 12, "middle", "bold" if kept else "normal",
                            "#ffffff" if kept else TEXT))
        out.append(outline(bit_x(31), ry + 10, right - bit_x(31), 26, EDGE, 0.8))
        out.append(text(right + 12, ry + 28, f"0x{bits:08X}", 13, weight="bold"))
        if note:
            out.append(text(x0, ry + 52, note, 10.5, fill=NOTE))

    # the significands by place value: x's 24 bits, hi's 11, lo's 11, and what hi + lo misses
    py = y + 34 + 3 * RS - 4
    out.append(text(40, py, f"The same by place value: the significands with their hidden 1, one column per power "
                            f"of 2 ({pow2(xe + 23)} … {pow2(xe)})", 12, weight="bold"))
    CW, px = 22, 160
    cols = 24

    def col_x(power):
        return px + (xe + 23 - power) * CW

    for power in range(xe, xe + 24):
        if (xe + 23 - power) % 4 == 0 or power == xe:
            out.append(text(col_x(power) + CW / 2, py + 23, pow2(power), 12, "middle", fill=NOTE))
    place_rows = [("x", xs, xe, None, False), ("hi", hs, he, HI, False), ("lo", ls, le, LO, lo < 0),
                  ("x − (hi + lo)", abs(miss_units), xe, WARP, miss < 0)]
    for ri, (name, sig, e, color, negative) in enumerate(place_rows):
        yy = py + 30 + ri * 26
        out.append(text(px - 12, yy + 15, name + (" (−)" if negative else ""), 12, "end", "bold"))
        out.append(rect(px, yy, cols * CW, 20, "#fbfbfc", "none", 0))
        for p in range(sig.bit_length()):
            power = e + p
            assert xe <= power <= xe + 23
            bit = (sig >> p) & 1
            if color == WARP and not bit:
                continue
            out.append(rect(col_x(power), yy, CW, 20, color or "#ffffff", "#ffffff" if color else GRID, 1))
            out.append(text(col_x(power) + CW / 2, yy + 14.5, str(bit), 11, "middle",
                            "bold" if color else "normal", "#ffffff" if color else TEXT))
        out.append(outline(px, yy, cols * CW, 20, GRID, 0.8))
        count = f"{sig.bit_length()} significant bits" if color != WARP else \
            f"{abs(miss_units)} unit{'s' if abs(miss_units) != 1 else ''} in x's last place"
        out.append(text(px + cols * CW + 14, yy + 15, count, 11, fill=NOTE))
    assert hs.bit_length() == ls.bit_length() == 11 and xs.bit_length() == 24

    ny = py + 30 + 4 * 26 + 22
    rel = abs(miss) / abs(x)
    out.append(text(40, ny, f"x − (hi + lo) = {'−' if miss < 0 else ''}{abs(miss_units)} · {pow2(xe)} ≈ "
                            f"{sci(float(abs(miss)))}; relative to x, {sci(float(rel))}: within the bound "
                            f"{pow2(-22)} ≈ {sci(2.0 ** -22)}.", 12))
    out.append(text(40, ny + 18, "hi + lo carry 2 × 11 = 22 significant bits against FP32's 24.", 12))
    if hi_rna != hi:   # a tie in hi, which cvt.rna rounds away from zero
        units = lambda v: f"{'−' if v < 0 else ''}{abs(int(v / Fraction(2) ** xe)):,} · {pow2(xe)}"
        out.append(text(40, ny + 36, f"On sm_80 to 89, cvt.rna.tf32.f32 rounds that tie away from zero instead: "
                                     f"lo = {units(lo_rna)}, x − (hi + lo) = {units(miss_rna)}.", 12))
        ny += 18
    out += legend(40, ny + 34, [(HI, "hi: the 10 mantissa bits TF32 keeps"),
                                (LO, "lo: the 10 mantissa bits TF32 keeps")], gap=20)
    out += legend(420, ny + 34, [(PAD, "the 13 low bits: zero in hi, dropped from lo by the mma"),
                                 ((SIGN, EXP), "sign and exponent, as in FP32")], gap=20)
    save("12_3xtf32_split", W, int(ny + 34 + 2 * 20 + 8), out)


# ---------------------------------------------------------------------------------------------

def tint(color, f):
    """color blended with white: f = 0 gives the color, 1 white."""
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * f):02x}" for c in rgb)


def ktile_ops(step12):
    """The instructions one warp issues in one K-tile of step 11's or step 12's first configuration,
    in program order (kernel.cuh's pipeline()): (mma step, lane, count, kind, note). Counted from the
    configuration's constants; address arithmetic and the loop are left out."""
    # kConfigs[0] of steps/12_3xtf32/kernel.cuh, and of steps/11_tensor_cores/kernel.cuh
    bm, bn, bk, wm, wn, stages = (128, 128, 32, 64, 32, 4) if step12 else (BM, BN, BK, WM, WN, 3)
    threads = (bm // wm) * (bn // wn) * 32
    tiles_m, tiles_n, steps = wm // 16, wn // 8, bk // 8
    copies = bm * bk // 4 // threads + bk * bn // 4 // threads   # cp.async per thread and tile
    ld_a, ld_b = tiles_m, 2 * tiles_n                              # ldmatrix.x4, and scalar LDS
    elements = 4 * tiles_m + 2 * tiles_n                           # fragment elements per thread
    per_split = 2  # step 12's split(): cvt.rn and a subtraction (sm_90; lo is left unrounded)
    mma = tiles_m * tiles_n * (3 if step12 else 1)
    ops = []
    for s in range(steps):
        buf = (s + 1) % 2 if s < steps - 1 else 0     # the next step's fragments, or the next tile's step 0
        if step12:
            first, last = s * copies // steps, (s + 1) * copies // steps
            copy = (s, "copies", last - first, "copy", f"{first}–{last - 1}")
            # load_fragments(): the next step's fragments, B's 8 elements split as they arrive
            # (into the same buffer, a step ahead of their mma)
            load = [(s, "loads", ld_a + ld_b, f"buf{buf}", ""), (s, "round", per_split * ld_b, "split_b", str(buf))]
            if s < steps - 1:   # the next step's fragments, then a quarter of the copies
                ops += load + [copy]
            else:               # the last quarter, commit, wait, barrier, then the next tile's fragments
                ops += [copy, (s, "copies", 1, "commit", ""), (s, "sync", 2, "sync", "")] + load
            # compute(): A's 16 elements split at the step, then the three mma of each pair
            ops.append((s, "round", per_split * 4 * tiles_m, "split_a", ""))
            for k in ("lo·hi", "hi·lo", "hi·hi"):
                ops.append((s, "mma", mma // 3, f"mma{s % 2}", k))
        else:
            if s == steps - 1:
                ops.append((s, "sync", 2, "sync", ""))
            ops.append((s, "loads", ld_a + ld_b, f"buf{buf}", ""))
            if s == 0:
                ops += [(s, "copies", copies, "copy", ""), (s, "copies", 1, "commit", "")]
            ops.append((s, "round", elements, "round", str(elements)))   # one cvt.rn each (sm_90)
            ops.append((s, "mma", mma, f"mma{s % 2}", str(mma)))
    if step12:
        ops.append((steps, "mma", tiles_m * tiles_n * 4, "add", ""))
    # the counts the lessons quote per warp and mma step
    per_step = [sum(n for s_, lane, n, *_ in ops if s_ == 1 and lane == l) for l in ("mma", "round", "loads")]
    assert per_step == ([48, 48, 12] if step12 else [32, 32, 20]), per_step
    assert sum(n for _, lane, n, kind, _ in ops if kind == "copy") == (8 if step12 else 16)
    return ops, dict(stages=stages, copies=copies, steps=steps, threads=threads, wm=wm, wn=wn, ld_a=ld_a,
                     ld_b=ld_b, mma=mma, elements=elements, tiles_m=tiles_m, tiles_n=tiles_n)


def timeline():
    """One K-tile of one warp in steps 11 and 12, as lanes per kind of work, in program order."""
    COPY, ROUND, MMA, ADD, BAR = READ_A, "#8e6c8a", READ_B, WARP, "#111111"
    BUF = {0: LDM, 1: "#e07a5f"}
    FILL = {"copy": COPY, "round": ROUND, "add": ADD, "buf0": BUF[0], "buf1": BUF[1]}
    W, x0, PX, MINW = 920, 160, 1.3, 5
    LANES = ["copies", "loads", "round", "mma", "sync"]
    PITCH, BH = 40, 20
    out = [text(40, 30, "One K-tile of one warp, in program order (BK = 32: four mma steps of k = 8)", 16,
                weight="bold"),
           text(40, 50, f"Widths: the instructions one warp issues, counted from kernel.cuh; 1 instruction = "
                        f"{PX} px (at least {MINW} px); addresses and the loop left out.", 11.5),
           text(40, 65, "Instructions issued, not time measured: the compiler interleaves the groups, and the "
                        "tensor pipe works through the mma.sync after they issue.", 11.5)]

    def panel(y, step12):
        ops, c = ktile_ops(step12)
        ahead = c["stages"] - 1
        out.append(text(40, y, f"Step {12 if step12 else 11} · 128 × 128 × 32, {c['stages']} stages, "
                               f"{c['threads'] // 32} warps of {c['wm']} × {c['wn']} · per step: {c['mma']} "
                               + ("mma.sync into part (3 × 16)" if step12 else
                                  f"mma.sync ({c['tiles_m']} A × {c['tiles_n']} B fragments)"), 13.5, weight="bold"))
        out.append(text(40, y + 17, f"Stage read: tile t. Stage written: tile t + {ahead} (it held t − 1). "
                                    + ("The other two: t + 1, t + 2. " if step12 else "The third: t + 1. ")
                                    + f"Tile t + {ahead}'s copies are waited for at the end of tile t + {ahead - 1}.",
                        11.5, fill=NOTE))
        top = y + 42                      # the step headers' baseline
        ly = {lane: top + 22 + i * PITCH for i, lane in enumerate(LANES)}   # each lane's box top
        names = {"copies": ("copies", "(cp.async)"), "loads": ("fragment loads", "(ldmatrix / LDS)"),
                 "round": ("split", "(cvt.rn, sub)") if step12 else ("rounding", "(cvt.rn)"),
                 "mma": ("mma.sync", "(and the adds)" if step12 else ""), "sync": ("wait + barrier", "")}
        for lane, (a, b) in names.items():
            out.append(text(x0 - 10, ly[lane] + (9 if b else 14), a, 11.5, "end", "bold"))
            if b:
                out.append(text(x0 - 10, ly[lane] + 21, b, 9.5, "end", fill=NOTE))
        # lay the ops out in program order
        x, placed, starts = x0, [], {}
        for s, lane, cnt, kind, note in ops:
            w = max(cnt * PX, MINW)
            starts.setdefault(s, x)
            placed.append((s, lane, cnt, kind, note, round(x, 2), round(w, 2)))
            x += w
        end = round(x, 2)
        assert end < W - 40
        bottom = ly["sync"] + BH + 18
        for s in range(c["steps"]):
            sx, send = starts[s], starts.get(s + 1, end)
            out.append(path(f"M{sx:g},{top - 12}V{bottom}", GRID, 1, dash="3,3"))
            out.append(text((sx + send) / 2, top, f"step {s}", 11.5, "middle", "bold"))
            out.append(text((sx + send) / 2, top + 12, f"k = {8 * s}–{8 * s + 7}", 9.5, "middle", fill=NOTE))
        out.append(path(f"M{end:g},{top - 12}V{bottom}", EDGE, 1.2))
        out.append(text(end + 6, top, "tile t + 1 →", 11.5, fill=NOTE))
        # in flight, under the boxes: fragments until the step that uses them, copies off the tile
        for s, lane, cnt, kind, note, px, w in placed:
            if kind in ("buf0", "buf1"):
                upto = starts[s + 1] if s + 1 < c["steps"] else min(end + 40, W - 30)
                out.append(rect(px + w, ly[lane] + 7, round(upto - px - w, 2), BH - 14, tint(FILL[kind], 0.55),
                                "none", 0))
        copies = [(px, w) for s, lane, cnt, kind, note, px, w in placed if kind == "copy"]
        cx = copies[0][0] + copies[0][1]
        out.append(rect(cx, ly["copies"] + 12, W - 30 - cx, 6, tint(COPY, 0.7), "none", 0))
        out.append(path(f"M{W - 30},{ly['copies'] + 9}l8,6l-8,6z", tint(COPY, 0.7), 0, fill=tint(COPY, 0.7)))
        # the boxes
        for s, lane, cnt, kind, note, px, w in placed:
            yy = ly[lane]
            if kind == "sync":
                out.append(path(f"M{px + w / 2:g},{ly['copies'] - 4}V{yy + BH}", BAR, 2))
                out.append(rect(px, yy, w, BH, BAR, "none", 0))
            elif kind == "commit":
                out.append(path(f"M{px + w / 2:g},{yy - 3}v{BH + 6}", COPY, 2))
            elif kind.startswith("mma"):
                out.append(rect(px, yy, w, BH, MMA, "#ffffff", 1))
                out.append(rect(px + 0.5, yy + 0.5, w - 1, 4, BUF[int(kind[-1])], "none", 0))
                out.append(text(px + w / 2, yy + 16, str(cnt), 10, "middle", "bold", "#ffffff"))
            elif kind.startswith("split"):   # B's split: top band, the buffer it fills (its loads')
                out.append(rect(px, yy, w, BH, ROUND, "#ffffff", 1))
                if kind == "split_b":
                    out.append(rect(px + 0.5, yy + 0.5, w - 1, 4, BUF[int(note)], "none", 0))
                out.append(text(px + w / 2, yy + (16 if kind == "split_b" else 14.5), str(cnt), 10, "middle",
                                "bold", "#ffffff"))
                out.append(text(px + w / 2, yy + BH + 11, "B" if kind == "split_b" else "A", 9, "middle",
                                fill=NOTE))
            else:
                out.append(rect(px, yy, w, BH, FILL[kind], "#ffffff", 1))
                label = {"round": note, "add": f"{cnt} FADD"}.get(kind, str(cnt))
                if len(label) * 6.2 <= w:
                    size = 10 if len(label) * 6.2 + 3 <= w else 9   # a smaller label in a narrow box
                    out.append(text(px + w / 2, yy + 14.5, label, size, "middle", "bold", "#ffffff"))
        # what the boxes are, beside them
        mma_groups = {}
        for s, lane, cnt, kind, note, px, w in placed:
            if kind.startswith("mma"):
                g = mma_groups.setdefault(s, [px, px + w, kind[-1]])
                g[1] = px + w
        for s, (a, b_, buf) in mma_groups.items():
            out.append(text((a + b_) / 2, ly["mma"] + BH + 11, f"buffer {buf}", 9, "middle", fill=NOTE))
            if step12 and s == 0:
                out.append(text((a + b_) / 2, ly["mma"] - 4, "lo·hi, hi·lo, hi·hi", 9, "middle", fill=NOTE))
        for s, lane, cnt, kind, note, px, w in placed:
            yy = ly[lane]
            if kind in ("buf0", "buf1"):
                what = "t + 1, step 0" if s == c["steps"] - 1 else f"step {s + 1}"
                out.append(text(px + 2, yy + BH + 11, f"{what} → buffer {kind[-1]}", 9, fill=NOTE))
            elif kind == "copy":
                after = px + w + sum(w_ for s_, _, _, k_, _, _, w_ in placed if s_ == s and k_ in ("commit", "sync"))
                out.append(text(after + 4, yy + 9,
                                (f"cp.async {note} of tile t + {ahead}" if s == 0 else note) if step12 else
                                f"all {c['copies']} cp.async of tile t + {ahead}, then commit", 9.5, fill="#1f5f7a"))
            elif kind == "add":
                out.append(text(px + w, yy - 4, "acc += part; part = 0", 9, "end", fill=NOTE))
        out.append(text(end + 8, ly["copies"] + 9, "in flight into the stage written", 9.5, fill="#1f5f7a")
                   if not step12 else "")
        # the wait and the barrier, in words
        sync = [px for s, lane, cnt, kind, note, px, w in placed if kind == "sync"][0]
        words = [f"cp.async.wait_group {c['stages'] - 2}: my copies of tile t + 1 are in;",
                 "__syncthreads: everyone's are, and the stage read is free;",
                 "then read ← the next stage, write ← the stage just read"]
        for i, line in enumerate(words):
            if step12:
                out.append(text(sync - 8, ly["sync"] + 8 + i * 13, line, 9.5, "end"))
            else:
                out.append(text(sync + 12, ly["sync"] + 8 + i * 13, line, 9.5))
        return bottom

    b = panel(102, False)
    b = panel(b + 42, True)
    ly = b + 22
    out += legend(40, ly, [(COPY, "cp.async into the stage written (light: in flight); tick: commit"),
                           (BUF[0], "fragments into buffer 0, fragments[0] (light: loading)"),
                           (BUF[1], "fragments into buffer 1, fragments[1]"),
                           (ROUND, "step 12: B split as it loads (band: its buffer), A at the step")], gap=20)
    out += legend(500, ly, [(ROUND, "to TF32: 1 cvt.rn per element; split: cvt.rn + sub (sm_90)"),
                            (MMA, "mma.sync m16n8k8; top band: the buffer it reads"),
                            (ADD, "step 12: part joins acc (FP32 adds)"),
                            (BAR, "cp.async.wait_group, then __syncthreads")], gap=20)
    save("11_12_ktile_timeline", W, int(ly + 4 * 20 + 8), out)


if __name__ == "__main__":
    fragments()
    split()
    timeline()
