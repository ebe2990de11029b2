#!/usr/bin/env python3
"""The classroom exercises: steps/NN_name/exercise.cu is the step's kernel.cuh with the parts
between `// exercise begin: ...` and `// exercise end` taken out and replaced by a TODO,
plus a main() that runs it with the shared harness (`./stepNN_exercise`, `--check`).

    tools/exercises/exercise.py write [NN ...]        (re)write exercise.cu of these steps (default: all)
    tools/exercises/exercise.py reset NN              the same for one step: throws away the work in it
    tools/exercises/exercise.py solve NN              paste kernel.cuh's code into exercise.cu's TODOs
    tools/exercises/exercise.py check                 every exercise.cu matches kernel.cuh outside its
                                            TODO blocks (make test runs this)
    tools/exercises/exercise.py skeleton NN FILE      write the untouched exercise to FILE (for the tests)
    tools/exercises/exercise.py solution NN FILE      ... and with the reference pasted in (for the tests)
    tools/exercises/exercise.py student-copy DIR [--blank NN ...]
                                            the committed tree without docs/answers/; --blank
                                            also takes the marked parts out of those steps'
                                            kernel.cuh (their ./stepNN then fails until written)

The text of each TODO, the placeholder code that keeps the skeleton compiling, and the hint
`--check` prints on failure are in EXERCISES below.
"""
import argparse
import io
import os
import pathlib
import re
import subprocess
import sys
import tarfile
import textwrap

ROOT = pathlib.Path(__file__).resolve().parents[2]
BEGIN = re.compile(r"^(\s*)// exercise begin: (.*)$")
END = re.compile(r"^\s*// exercise end$")

# Per step: one (todo, placeholder) per marked part, in order, and the hint for --check.
# The todo says what to write; the placeholder is the least code that keeps the file compiling
# (it must not compute GEMM: the untouched skeleton has to fail the check).
EXERCISES = {
    "01": {
        "parts": [(
            "acc = the dot product of row `row` of A and column `col` of B: the sum of\n"
            "a[k] * (element k of the column) over k = 0 .. K - 1. `a` points at the row;\n"
            "`b` points at the column, whose consecutive elements are N floats apart.",
            "")],
        "hint": "all K terms count (k = 0 .. K - 1), and element k of B's column is "
                "b[k * N], not b[k]; with K = 1 only the first term exists.",
    },
    "02": {
        "parts": [(
            "row and col: the element of C this thread computes. Consecutive threads\n"
            "(threadIdx.x and threadIdx.x + 1) must take consecutive columns of one row, so\n"
            "that a warp's loads of B and stores of C are one contiguous run of memory\n"
            "(step 01 did the opposite). The block's tile of C starts at row blockIdx.y * BM,\n"
            "column blockIdx.x * BN.",
            "const int row = 0, col = 0;  // replace: now every thread computes C(0, 0)")],
        "hint": "add the block's first row and column (blockIdx.y * BM, blockIdx.x * BN), and "
                "split threadIdx.x with BN, the width of the block's tile (with BM it only "
                "works while BM == BN). Right but slow? Compare ./step02_exercise 4096 with ./step01 4096.",
    },
    "03": {
        "parts": [(
            "One K-tile; A and B already point at its first column of A and row of B (k0).\n"
            "1. Copy the (BM, BK) tile of A into As and the (BK, BN) tile of B into Bs. Every\n"
            "   thread helps: it writes As[a_row + r][a_col] for r = 0, kStrideA, ... < BM and\n"
            "   Bs[b_row + r][b_col] for r = 0, kStrideB, ... < BK. An element outside A or B\n"
            "   (row m0 + .. >= M, column k0 + .. >= K of A; row k0 + .. >= K, column n0 + .. >= N\n"
            "   of B) becomes 0, so it adds nothing. Blocks with `inside` and a whole K-tile\n"
            "   may skip these checks.\n"
            "2. __syncthreads(): nobody reads the tiles before they are complete.\n"
            "3. acc += As[row][k] * Bs[k][col] for k = 0 .. BK - 1.\n"
            "4. __syncthreads(): nobody overwrites the tiles while another thread still reads.",
            "")],
        "hint": "shapes whose M, N or K are not multiples of the tile fail when the zero fill "
                "at the edges is wrong (compare k0 + column with K, not column with K). A "
                "missing __syncthreads() can pass by luck: run compute-sanitizer --tool "
                "racecheck ./step03_exercise 127 129 65 --no-cublas --reps 1 --warmup 0.",
    },
    "04": {
        "parts": [(
            "For each k = 0 .. BK - 1 of the tile: load b = Bs[k][col] once, then add\n"
            "As[row + i][k] * b to acc[i] for i = 0 .. TM - 1. One load of B feeds TM FMAs.",
            "")],
        "hint": "this thread's TM rows are row .. row + TM - 1 of the tile (row is already a "
                "multiple of TM), all in column col; and the k loop covers the whole tile, BK "
                "values (a shorter loop drops terms and every shape with K > 1 fails).",
    },
    "05": {
        "parts": [(
            "For each k = 0 .. BK - 1 of the tile (keep a `#pragma unroll` on this loop: the\n"
            "fragments must be registers, so every index must be a constant): load the TM\n"
            "values As[row + i][k] into a register array a[TM] and the TN values\n"
            "Bs[k][col + j] into b[TN], then add a[i] * b[j] to acc[i][j] for every i and j:\n"
            "their outer product, TM * TN FMAs from TM + TN loads.",
            "")],
        "hint": "acc[i][j] is row row + i, column col + j: a[] comes from column k of As "
                "(As[row + i][k]) and b[] from row k of Bs (Bs[k][col + j]). Right but slow? "
                "./step05_exercise 4096 prints the registers and the local memory per thread: "
                "more than 0 B of local memory means acc or the fragments spilled.",
    },
    "06": {
        "parts": [(
            "The register fragments of this k, four floats per shared-memory load:\n"
            "a[i .. i + 3] from As and b[j .. j + 3] from Bs, i and j stepping by 4, each as\n"
            "one float4 (*reinterpret_cast<const float4*>(address)). As holds the A tile\n"
            "transposed: As[k][m] is A(m0 + m, k0 + k), so the TM values of A for this k are\n"
            "consecutive in row k of As, starting at As[k][row].",
            "float a[TM] = {}, b[TN] = {};  // replace: fill them from As and Bs")],
        "hint": "As is transposed: A's values for this k are As[k][row + i], not As[row + i][k]. "
                "A float4 needs a 16-byte aligned address: row + i and col + j are multiples of "
                "4 when i and j step by 4.",
    },
    "07": {
        "parts": [(
            "Return where element (k, m) of the transposed (BK, BM) A tile lives in As: row\n"
            "k starts at k * BM, plus kPad = 128 / BK floats of padding after every group of\n"
            "four rows, so that the 32 floats one warp stores at once land in 32 different\n"
            "banks. kPad is a multiple of 4, so float4 reads stay 16-byte aligned. (Without\n"
            "padding, k * BM + m, the result is still right but the stores conflict: count\n"
            "them with make ncu STEP=07_exercise.)",
            "return 0;  // replace: now every element lands in As[0]")],
        "hint": "the padding grows once per group of four rows, (k / 4) * kPad: k * kPad "
                "overruns the 32 spare floats As has after its BK * BM, into Bs. Right but "
                "slow? make ncu STEP=07_exercise shows the bank conflicts of the stores.",
    },
    "08": {
        "parts": [(
            "Write this thread's results: acc[i][j] goes to row m0 + row + i and column\n"
            "n0 + col + (j / 4) * kSpread + j % 4 of C (four consecutive columns per float4,\n"
            "the float4s kSpread apart, as the loads of B were). store4<kVector>(address,\n"
            "columns left in the row, float4, alpha, beta) applies alpha and beta, never reads\n"
            "C when beta == 0 and writes only the columns that exist. In blocks on the edge\n"
            "(!inside) skip rows >= M and float4s that start at a column >= N. Put a\n"
            "`#pragma unroll` on the row loop: acc stays in registers only if every index is\n"
            "a constant.",
            "")],
        "hint": "float4 j / 4 of the thread's columns starts at col + (j / 4) * kSpread, not "
                "col + j; and the columns left for store4 are N minus that float4's first "
                "column. Keep the #pragma unroll: without it acc may go to local memory (at "
                "larger tiles it does); ./step08_exercise 4096 prints the local memory per "
                "thread, which should be 0 B.",
    },
    "09": {
        "parts": [(
            "row and col: the first row and column (in the block's tile) of this thread's\n"
            "first 4 x 4 piece. Its warp is threadIdx.x / 32 and its lane threadIdx.x % 32.\n"
            "The warps' (WM, WN) tiles lie row by row across the block's tile, BN / WN warps\n"
            "to a row; warp_m and warp_n, the first row and column of this warp's tile, are\n"
            "worth a name. Inside the warp tile the 32 lanes form a (32 / kLanesN) x kLanesN\n"
            "grid of 4 x 4 pieces. The thread's other pieces are kStepM rows and kStepN\n"
            "columns further on; the loops below add those offsets.",
            "const int row = 0, col = 0;  // replace: now every thread computes the same pieces")],
        "hint": "warp w sits in warp row w / (BN / WN) and warp column w % (BN / WN) (BN / WN "
                "warps to a row, not BM / WM); neighbouring lanes are 4 columns apart, not 1, "
                "since each piece is 4 x 4.",
    },
    "10": {
        "parts": [
            ("Prologue: set off the first kStages - 1 K-tiles, each into its stage, with\n"
             "start_copy(t) and then finish_copy(t), for the tiles that exist (t < tiles). After\n"
             "each of them, even past the last tile, commit one cp.async group\n"
             "(if constexpr (kCpAsync) cp_async_commit();): the wait in the loop then always\n"
             "counts the same number of groups.",
             ""),
            ("Head of the loop for tile t. Wait until at most kStages - 2 of this thread's\n"
             "commit groups are still in flight (cp_async_wait<kStages - 2>(), only if\n"
             "kCpAsync): its part of tile t has arrived. Then one __syncthreads(): every part of\n"
             "tile t is in shared memory, and every thread has finished the math of tile t - 1,\n"
             "whose stage is the one written next. Then set off tile `next` with\n"
             "start_copy(next), if it exists, and commit a group (always, as in the prologue).",
             ""),
            ("After the math: store the registers of tile next to its stage with\n"
             "finish_copy(next), if that tile exists. They were loaded before the math so that\n"
             "their global loads had the whole of tile t's math to arrive.",
             ""),
        ],
        "hint": "commit one group in every prologue and loop iteration, even with no tile "
                "left to copy, or cp_async_wait<kStages - 2> waits for the wrong tile; the one "
                "__syncthreads() goes after the wait and before the start_copy() that overwrites "
                "tile t - 1's stage. A race passes by luck: run compute-sanitizer --tool racecheck "
                "./step10_exercise 131 67 97 --no-cublas --reps 1 --warmup 0.",
    },    "11": {
        "parts": [
            ("Load this thread's fragments of mma step `step` in stage `stage`, unrounded\n"
             "(compute() rounds them). A's with ldmatrix_x4(f.a[i], address), one call per\n"
             "fragment i: `a_lane` is the shared-memory byte address of this lane's 16 bytes\n"
             "in stage 0, step 0 (lane l names row l % 8 + 8 (l / 8 % 2), chunk l / 16 of the\n"
             "warp's first 16 rows, stored swizzled at chunk (l / 16) ^ (l % 8)); a stage is\n"
             "kSizeA + kSizeB floats on; step s is the address XOR 32 s bytes, taken after\n"
             "adding the stage; fragment i 16 rows of kLdA floats. B's one float each: Bs(stage) + b_lane is\n"
             "b[0] of mma tile 0 in step 0 (row t, column g); f.b[j][0] is row t + 8 step,\n"
             "column j * 8 + g; f.b[j][1] is 4 rows further. Keep them as __float_as_uint.",
             "for (int i = 0; i < kTilesM; ++i) f.a[i][0] = f.a[i][1] = f.a[i][2] = f.a[i][3] = 0u;\n"
             "for (int j = 0; j < kTilesN; ++j) f.b[j][0] = f.b[j][1] = 0u;"),
        ],
        "hint": "ldmatrix takes a byte address in shared memory, not a pointer: 4 bytes per float, "
                "for the stage and the fragment's rows alike. In A a step is an XOR: (address of the stage) "
                "^ (32 * step), since A's chunks are swizzled; in B it is 8 rows (8 * kLdB floats) down; "
                "b[1] is 4 rows (4 * kLdB) below b[0].",
    },
    "12": {
        "parts": [
            ("For every pair (A fragment i, B fragment j), add a * b to part[i][j] with three\n"
             "mma_m16n8k8: a_lo * b_hi and a_hi * b_lo first (the small products, while part is\n"
             "small), then a_hi * b_hi. The fourth product, a_lo * b_lo, is below FP32's\n"
             "rounding: leave it out.",
             "for (int i = 0; i < kTilesM; ++i)\n"
             "    for (int j = 0; j < kTilesN; ++j) mma_m16n8k8(part[i][j], a_hi[i], b_hi[j]);  // TF32 only"),
        ],
        "hint": "with a_hi * b_hi alone the result is TF32's, about 2^-11 off: --check holds step 12 "
                "to FP32's bound. Add a_lo * b_hi and a_hi * b_lo (small ones first) into part.",
    },

}


def step_dir(num):
    dirs = sorted(ROOT.glob(f"steps/{num}_*"))
    if len(dirs) != 1:
        sys.exit(f"exercise.py: no step {num} (steps/{num}_*)")
    return dirs[0]


def all_steps():
    return [d.name[:2] for d in sorted(ROOT.glob("steps/[0-9][0-9]_*"))]


def split_regions(lines, where):
    """The lines, cut at the markers: [outside, (begin line, inside lines), outside, ...]."""
    pieces, current, region = [], [], None
    for n, line in enumerate(lines, 1):
        if BEGIN.match(line):
            if region is not None:
                raise SystemExit(f"{where}:{n}: exercise begin inside another exercise")
            pieces.append(current)
            region, current = line, []
        elif END.match(line):
            if region is None:
                raise SystemExit(f"{where}:{n}: exercise end without a begin")
            pieces.append((region, current))
            region, current = None, []
        else:
            current.append(line)
    if region is not None:
        raise SystemExit(f"{where}: exercise begin without an end")
    pieces.append(current)
    return pieces


def wrap(text, width):
    """The TODO text as lines of at most `width`: its lines joined into paragraphs, a new one
    at each numbered item ("2. ..."), whose later lines are indented under the item."""
    paragraphs = []
    for line in text.split("\n"):
        if not paragraphs or re.match(r"\d+\. ", line):
            paragraphs.append(line.strip())
        else:
            paragraphs[-1] += " " + line.strip()
    lines = []
    for paragraph in paragraphs:
        numbered = re.match(r"\d+\. ", paragraph)
        # no line break inside an index such as Bs[b_row + r][b_col]
        glued = re.sub(r"\[[^\]]*\]", lambda m: m.group(0).replace(" ", "\0"), paragraph)
        lines += [line.replace("\0", " ") for line in
                  textwrap.wrap(glued, width, subsequent_indent="   " if numbered else "",
                                break_on_hyphens=False)]
    return lines


def c_string(text, indent):
    """`text` as adjacent C string literals, one per line of at most ~90 characters."""
    pieces = textwrap.wrap(text, 80, drop_whitespace=False, break_on_hyphens=False)
    quoted = ['"' + p.replace("\\", "\\\\").replace('"', '\\"') + '"' for p in pieces]
    return ("\n" + indent).join(quoted)


def header(num, folder, count):
    parts = "the part" if count == 1 else f"the {count} parts"
    return f"""\
// Exercise for step {num} ({folder.name}): write {parts} marked TODO below, between the
// `// exercise begin` and `// exercise end` lines; everything else is kernel.cuh unchanged.
//
//   make exercise STEP={num} && ./step{num}_exercise 4096   build it, time it against cuBLAS
//   make check-exercise STEP={num}                       every awkward shape: which are wrong,
//                                                       the first wrong element, and a hint
//   tools/exercises/exercise.py reset {num}                        start again from the untouched exercise
//
// The lesson is README.md beside this file. Generated by tools/exercises/exercise.py from kernel.cuh.
"""


def main_function(num, folder, hint):
    title = folder.name[3:]
    # steps that choose among configurations (08-10) also report which one ran, and why
    plan = f", step{num}::plan" if "sgemm::PlanFn plan =" in (folder / "kernel.cuh").read_text() else ""
    # steps that are not plain FP32 (11, 12) name their arithmetic and the oldest GPU they run on
    if "kArithmetic" in (folder / "kernel.cuh").read_text():
        plan += f", step{num}::kArithmetic, step{num}::kMinArch"
    return f"""
#include "run/harness.h"  // for main(): the same program every step binary runs

/// Runs the exercise as `./step{num}_exercise [SIZE | M N K] [options]`; `--check` runs every
/// awkward shape and prints the hint below if one is wrong.
int main(int argc, char** argv) {{
    const sgemm::Step step{{"step{num}_exercise", "{title} (exercise)", step{num}::launch,
                           step{num}::geometry, reinterpret_cast<const void*>(step{num}::kernel){plan}}};
    const char* hint =  // printed by --check when a result is wrong
        {c_string(hint, "        ")};
    return sgemm::run_step(step, argc, argv, hint);
}}
"""


def generate(num, solved=False):
    """exercise.cu of step `num` as text: the skeleton, or with kernel.cuh's code in its TODOs."""
    folder = step_dir(num)
    spec = EXERCISES.get(num)
    if spec is None:
        raise SystemExit(f"exercise.py: step {num} has no entry in EXERCISES")
    kernel = folder / "kernel.cuh"
    text = kernel.read_text().replace(BLANKED_NOTE, "#pragma once\n", 1)  # a student copy's
    pieces = split_regions(text.split("\n"), kernel)
    regions = pieces[1::2]
    if len(regions) != len(spec["parts"]):
        raise SystemExit(f"{kernel}: {len(regions)} marked parts, EXERCISES['{num}'] describes "
                         f"{len(spec['parts'])}")
    out = [header(num, folder, len(regions)).rstrip("\n")]
    for index, piece in enumerate(pieces):
        if index % 2 == 0:
            out.extend(line for line in piece if line != "#pragma once")  # a .cu is compiled once
            continue
        begin, body = piece
        indent = BEGIN.match(begin).group(1)
        todo, placeholder = spec["parts"][index // 2]
        tag = f"TODO(exercise {num}" + (f", part {index // 2 + 1} of {len(regions)})" if len(regions) > 1 else ")")
        out.append(begin)
        if solved:
            out.extend(body)
        else:
            out.append(f"{indent}// {tag}:")
            out.extend(f"{indent}//   {line}" for line in wrap(todo, 100 - len(indent) - 5))
            if placeholder:
                out.append(indent + placeholder)
        out.append(f"{indent}// exercise end")
    text = "\n".join(out).rstrip("\n") + "\n"
    return text + main_function(num, folder, spec["hint"])


def exercise_path(num):
    return step_dir(num) / "exercise.cu"


def write(nums):
    for num in nums:
        path = exercise_path(num)
        path.write_text(generate(num))
        print(f"wrote {path.relative_to(ROOT)}")


def solve(num):
    """Pastes the reference into the TODO blocks of the existing exercise.cu, keeping the rest."""
    path = exercise_path(num)
    solved = split_regions(generate(num, solved=True).split("\n"), "generated")
    current = split_regions(path.read_text().split("\n"), path)
    if len(current) != len(solved):
        raise SystemExit(f"{path}: its exercise markers differ from kernel.cuh's; "
                         f"tools/exercises/exercise.py reset {num} starts again")
    merged = [solved[i] if i % 2 else current[i] for i in range(len(current))]
    path.write_text(join_regions(merged))
    print(f"pasted kernel.cuh's code into {path.relative_to(ROOT)}")


def join_regions(pieces):
    lines = []
    for i, piece in enumerate(pieces):
        if i % 2 == 0:
            lines.extend(piece)
        else:
            begin, body = piece
            lines.append(begin)
            lines.extend(body)
            lines.append(BEGIN.match(begin).group(1) + "// exercise end")
    return "\n".join(lines)


def check():
    """Every exercise.cu equals what `write` makes, except inside its TODO blocks (a student's work)."""
    problems, notes = [], []
    for num in all_steps():
        path = exercise_path(num)
        rel = path.relative_to(ROOT)
        if not path.exists():
            problems.append(f"{rel}: missing; tools/exercises/exercise.py write {num} makes it")
            continue
        want = split_regions(generate(num).split("\n"), "generated")
        have = split_regions(path.read_text().split("\n"), path)
        if len(want) != len(have):
            problems.append(f"{rel}: {len(have) // 2} marked parts, kernel.cuh has {len(want) // 2}; "
                            f"tools/exercises/exercise.py write {num} regenerates it")
            continue
        line = 1
        for i, (w, h) in enumerate(zip(want, have)):
            if i % 2 == 0 and w != h:
                first = next((k for k, (a, b) in enumerate(zip(w, h)) if a != b), min(len(w), len(h)))
                problems.append(f"{rel}:{line + first}: differs from kernel.cuh outside the TODO "
                                f"blocks; tools/exercises/exercise.py write {num} regenerates it")
                break
            if i % 2 == 1 and w != h:
                notes.append(f"{rel}: part {i // 2 + 1} holds other code than the untouched "
                             f"exercise (someone's work; tools/exercises/exercise.py reset {num} undoes it)")
            line += len(h) if i % 2 == 0 else len(h[1]) + 2
    for note in notes:
        print(f"note: {note}")
    for problem in problems:
        print(f"error: {problem}")
    count = len(all_steps())
    print(f"exercises: {count - len(problems)} of {count} exercise.cu files match their kernel.cuh")
    return 1 if problems else 0


# What a blanked kernel.cuh gets after its #pragma once: until the parts are written, some
# variables are unused, and the build turns nvcc's warning about that (177) into an error.
BLANKED_NOTE = """#pragma once
// Student copy (tools/exercises/exercise.py student-copy --blank): the parts between `exercise begin`
// and `exercise end` are yours to write, as in exercise.cu. Until then some variables are
// unused; the next line keeps that warning from failing the build.
#pragma nv_diag_suppress 177
"""


def member_problem(member, dest):
    """Why extracting this tar member under dest would be unsafe, or None. Paths are resolved
    against what is on disk, so a link extracted earlier that points elsewhere is followed."""
    name = member.name
    if name.startswith("/"):
        return "it has an absolute path"
    if ".." in pathlib.PurePosixPath(name).parts:
        return "its path has a '..' component"
    if not (member.isfile() or member.isdir() or member.issym()):
        kind = ("a hard link" if member.islnk() else "a device file" if member.isdev() and not member.isfifo()
                else "a fifo" if member.isfifo() else "of an unknown type")
        return f"it is {kind}; only regular files, folders and symbolic links are extracted"
    root = os.path.realpath(dest)
    parent = os.path.realpath(os.path.join(root, os.path.dirname(name)))
    if os.path.commonpath([root, os.path.join(parent, os.path.basename(name))]) != root:
        return f"it would be written outside {dest}"
    if member.issym():
        target = os.path.realpath(os.path.join(parent, member.linkname))
        if member.linkname.startswith("/") or os.path.commonpath([root, target]) != root:
            return f"it links to '{member.linkname}', outside {dest}"
    return None


def extract(tar, dest, members):
    """Extract members of tar under dest, refusing (one line) a member that would land or point
    outside dest, or that is not a file, a folder or a link inside it.

    tarfile's own "data" filter does this from Python 3.11.4 (and 3.10.12) on, but Debian 12's
    3.11.2 has no `filter` argument (TypeError). So the members are checked here whatever the
    interpreter, and the filter is added where it exists."""
    has_filter = hasattr(tarfile, "data_filter")

    def refuse_if_unsafe(member):
        if problem := member_problem(member, dest):
            raise SystemExit(f"exercise.py: refusing to extract '{member.name}': {problem}")

    members = list(members)
    for member in members:  # all of them before anything is written: a bad archive writes nothing
        refuse_if_unsafe(member)

    def checked():
        # and again as each is extracted (extractall takes them one by one): a link extracted
        # earlier is on disk by then, and a path through it is resolved to where it really goes
        for member in members:
            refuse_if_unsafe(member)
            if not has_filter:
                member.mode &= 0o755  # as the data filter does: no setuid bits, no group/other write
            yield member

    tar.extractall(dest, members=checked(), **({"filter": "data"} if has_filter else {}))


def student_copy(dest, blank):
    """The committed tree (git archive HEAD) without docs/answers/, optionally with blanked kernels."""
    dest = pathlib.Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise SystemExit(f"exercise.py: {dest} exists and is not empty")
    dest.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "HEAD"],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        members = [m for m in tar.getmembers() if not m.name.startswith("docs/answers")]
        extract(tar, dest, members)
    for num in blank:
        kernel = next(dest.glob(f"steps/{num}_*/kernel.cuh"))
        exercise = next(dest.glob(f"steps/{num}_*/exercise.cu"))
        # the kernel the lesson shows, with the marked parts as in the untouched exercise
        skeleton = split_regions(exercise.read_text().split("\n"), exercise)
        pieces = split_regions(kernel.read_text().split("\n"), kernel)
        for i in range(1, len(pieces), 2):
            pieces[i] = skeleton[i]
        text = join_regions(pieces).replace("#pragma once\n", BLANKED_NOTE, 1)
        kernel.write_text(text)
    print(f"student copy in {dest}: docs/answers/ left out"
          + (f"; the marked parts of steps {', '.join(blank)} blanked in kernel.cuh" if blank else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("write", help="(re)write exercise.cu from kernel.cuh")
    p.add_argument("steps", nargs="*")
    p = sub.add_parser("reset", help="rewrite one step's exercise.cu, throwing away the work in it")
    p.add_argument("step")
    p = sub.add_parser("solve", help="paste kernel.cuh's code into exercise.cu's TODO blocks")
    p.add_argument("step")
    sub.add_parser("check", help="every exercise.cu matches kernel.cuh outside its TODO blocks")
    for name in ("skeleton", "solution"):
        p = sub.add_parser(name, help=f"write the {name} of a step's exercise to a file")
        p.add_argument("step")
        p.add_argument("file")
    p = sub.add_parser("student-copy", help="the repository without docs/answers/")
    p.add_argument("dest")
    p.add_argument("--blank", nargs="*", default=[], metavar="NN")
    args = parser.parse_args()

    if args.command == "write":
        write(args.steps or all_steps())
    elif args.command == "reset":
        write([args.step])
    elif args.command == "solve":
        solve(args.step)
    elif args.command == "check":
        return check()
    elif args.command in ("skeleton", "solution"):
        text = generate(args.step, solved=args.command == "solution")
        out = pathlib.Path(args.file)
        if not out.exists() or out.read_text() != text:  # keep make's timestamps still
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text)
    elif args.command == "student-copy":
        for num in args.blank:
            step_dir(num)
        student_copy(args.dest, args.blank)
    return 0


if __name__ == "__main__":
    sys.exit(main())
