#!/usr/bin/env python3
"""make diff STEP=NN: what changed in kernel.cuh from step NN-1 to step NN.

A plain `diff` of two neighbouring kernel.cuh files buries the step's idea under renames and
prose: the namespace and build lines carry the step number, and each file opens with its own
long comment. This prints a unified diff of the two files after three normalizations:

  - names that differ only by the step number are the same on both sides: `step01` in step
    01 and `step02` in step 02 (any case, and inside a longer name: STEP08_TUNED) compare
    equal; a line is printed as its file has it;
  - comments are left out (// and /* */, the file's opening comment too), with the lines
    they leave empty; --comments keeps them;
  - changes in the amount of white space are ignored, as `diff -b` does (a parameter list
    re-aligned under a longer kernel name is not a change); --whitespace shows them.

The hunk headers give the lines in kernel.cuh where each hunk starts and how many it spans
(comments left out included). Coloured when standard output is a terminal; --color=always
or never decides instead, and NO_COLOR=1 turns colour off. Step 01 has no step before it:
one line says so, and the exit status is 2.

tools/pages/results_table.py writes the same diff, comments left out and without colour,
into each lesson's "What changed" section (<!-- results: diff stepNN -->).

usage: tools/pages/kernel_diff.py NN [--comments] [--whitespace] [--color auto|always|never]
"""
import argparse
import difflib
import os
import re
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTEXT = 3  # unchanged lines around each hunk, as diff -u
COLOURS = {"-": "\033[31m", "+": "\033[32m", "@": "\033[36m", "h": "\033[1m"}
RESET = "\033[0m"


def step_dir(num):
    """steps/NN_name for the step number NN (an int), or None."""
    found = sorted(ROOT.glob(f"steps/{num:02d}_*"))
    return found[0] if found else None


def strip_comments(text):
    """The lines of C++ source `text` without comments, as (line number, text) pairs.

    A line that held a comment and nothing else disappears; a blank line of the file stays,
    but runs of blank lines become one, and none is kept at the start or the end."""
    out_lines, current, had_comment = [], [], False
    lineno, i, n = 1, 0, len(text)
    state = "code"  # or "line", "block", "string", "char"

    def end_line():
        nonlocal current, had_comment, lineno
        line = "".join(current).rstrip()
        if line or not had_comment:
            out_lines.append((lineno, line))
        current, had_comment = [], False
        lineno += 1

    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "\n":
            if state == "line":
                state = "code"
            end_line()
            i += 1
            continue
        if state == "code":
            if c == "/" and nxt == "/":
                state, had_comment = "line", True
                i += 2
                continue
            if c == "/" and nxt == "*":
                state, had_comment = "block", True
                i += 2
                continue
            if c == '"':
                state = "string"
            elif c == "'" and not (current and current[-1].isalnum()):  # 1'000 is a digit separator
                state = "char"
            current.append(c)
        elif state == "block":
            if c == "*" and nxt == "/":
                state = "code"
                i += 2
                continue
        elif state in ("string", "char"):
            current.append(c)
            if c == "\\" and nxt and nxt != "\n":
                current.append(nxt)
                i += 2
                continue
            if c == ('"' if state == "string" else "'"):
                state = "code"
        i += 1
    if current or had_comment:
        end_line()
    # blank lines: runs become one, none at the ends
    kept = []
    for num, line in out_lines:
        if not line and (not kept or not kept[-1][1]):
            continue
        kept.append((num, line))
    while kept and not kept[-1][1]:
        kept.pop()
    return kept


def all_lines(text):
    return list(enumerate(text.rstrip("\n").split("\n"), 1))


def key(line, num, whitespace):
    """What a line is compared by: the step's number in names made neutral, and (unless
    `whitespace`) every run of white space one space, none at the end."""
    line = re.sub(r"(?i)(?<![a-z])(step)%02d(?!\d)" % num, r"\1##", line)
    return line.rstrip() if whitespace else re.sub(r"\s+", " ", line).rstrip()


def diff_lines(num, comments=False, whitespace=False):
    """The diff of kernel.cuh from step num-1 to step num, as lines without colour.
    Raises LookupError when step num or the step before it does not exist."""
    new_dir, old_dir = step_dir(num), step_dir(num - 1)
    if new_dir is None:
        raise LookupError(f"there is no step {num:02d} under steps/")
    if old_dir is None:
        raise LookupError(f"step {num:02d} is the first step: there is no step before it to diff against")
    old_path, new_path = old_dir / "kernel.cuh", new_dir / "kernel.cuh"
    read = all_lines if comments else strip_comments
    a = read(old_path.read_text(encoding="utf-8"))
    b = read(new_path.read_text(encoding="utf-8"))
    ka = [key(t, num - 1, whitespace) for _, t in a]
    kb = [key(t, num, whitespace) for _, t in b]
    out = [f"--- {old_path.relative_to(ROOT).as_posix()}", f"+++ {new_path.relative_to(ROOT).as_posix()}"]
    matcher = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
    for group in matcher.get_grouped_opcodes(CONTEXT):
        out.append(f"@@ -{span(a, group[0][1], group[-1][2])} +{span(b, group[0][3], group[-1][4])} @@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [" " + t for _, t in b[j1:j2]]
                continue
            out += ["-" + t for _, t in a[i1:i2]]
            out += ["+" + t for _, t in b[j1:j2]]
    return out


def span(lines, lo, hi):
    """'start,count' in the file's own line numbers for lines[lo:hi] (diff -u's notation)."""
    if lo == hi:  # nothing on this side: the line after which the other side's lines go
        return f"{lines[lo - 1][0] if lo else 0},0"
    first, last = lines[lo][0], lines[hi - 1][0]
    return f"{first},{last - first + 1}"


def colour(line):
    if line.startswith(("--- ", "+++ ")):
        return COLOURS["h"] + line + RESET
    tag = line[:1] if line[:1] in "-+@" else ""
    return COLOURS[tag] + line + RESET if tag else line


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # make diff STEP=10 | head: stop quietly
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("step", help="the step number, e.g. 02")
    ap.add_argument("--comments", action="store_true", help="keep the comments")
    ap.add_argument("--whitespace", action="store_true", help="show changes in the amount of white space")
    ap.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    args = ap.parse_args()
    digits = re.sub(r"(?i)^step", "", args.step)
    if not digits.isdigit():
        print(f"kernel_diff: '{args.step}' is not a step number (e.g. 02)", file=sys.stderr)
        return 2
    try:
        lines = diff_lines(int(digits), args.comments, args.whitespace)
    except LookupError as e:
        print(f"make diff: {e}", file=sys.stderr)
        return 2
    use = args.color == "always" or (args.color == "auto" and sys.stdout.isatty() and not os.environ.get("NO_COLOR"))
    for line in lines:
        print(colour(line) if use else line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
