#!/usr/bin/env python3
"""Fails when a page quotes a measured figure that is not generated, or names where and when a
run was made (run by `make test`).

A figure typed by hand goes stale at the next run. So in every page (the ones results_table.py
fills: READMEs, lessons, lab notes, docs, answers, tools), outside code, a measured figure
must stand inside a generated block (<!-- results: ... -->) or an inline marker
(<!--v:EXPR-->value<!--/v-->) that results_table.py fills from docs/results/. What counts as
measured:

    rate      a number with GFLOP/s, TFLOP/s, GB/s, TB/s             "51,345 GFLOP/s"
    time      a number with ms, µs, us, ns, or s (seconds)            "2.66 ms", "194 s"
    percent   any percentage: of cuBLAS, of peak, of a counter        "99.3%"
    ratio     a speed-up or ratio with a decimal point: ×, x, 倍       "1.41×", "3.35 倍"
    counter   a count of seven digits or more, with separators        "268,457,848"; "24.3 亿"
    bytes     an amount with a decimal point: KB, MB, GB, KiB, ...    "604.09 MB"
    cell      a table cell that is only a number with a decimal point, or with a thousands
              separator unless it is a multiple of 32 (a size or capacity: 1,024, 65,536)

A figure that is worked out, not measured (a count of bytes, a share of a grid, a datasheet
formula), is written as an inline marker too, with the arithmetic as its expression, so that
it is checked as well: <!--v:4096*4096*4-->67,108,864<!--/v-->. Sizes and capacities without
a decimal point ("99 KB", "65,536 registers", "128 × 64") are not figures of a run.

Provenance (GPU, driver, CUDA, date, commit) lives in the results files and in one generated
table (docs/results/README.md), never in prose: a commit id, an ISO date or a driver version
outside code and generated blocks fails too.

Before checking the pages it checks itself: a page planted with one figure of each kind must
fail with each, and the same figures inside markers, code and generated blocks must pass.

usage: tools/pages/check_figures.py [PAGE ...]   (default: every page)
"""
import re
import sys
import tempfile
from pathlib import Path

from check_docs import reader_lines  # the lines a reader sees as prose: no code, no generated block
from results_table import INLINE, ROOT, pages

NUMBER = r"(?<![\w.,/\-])\d[\d,]*(?:\.\d+)?"
DECIMAL = r"(?<![\w.,/\-])\d[\d,]*\.\d+"
KINDS = [
    ("rate", re.compile(NUMBER + r"\s?(?:[GT]FLOP/s|[GT]FLOPS|[GT]B/s)")),
    ("time", re.compile(NUMBER + r"\s?(?:ms|µs|us|ns|s)(?![\w/])")),
    ("percent", re.compile(NUMBER + r"\s?[%％]")),
    ("ratio", re.compile(DECIMAL + r"\s?(?:[×x]|倍)(?![\w])")),
    ("counter", re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3}){2,}(?![\d,])|" + NUMBER + r"\s?[万亿]")),
    ("bytes", re.compile(DECIMAL + r"\s?(?:[KMGT]i?B)(?![\w/])")),
    ("commit", re.compile(r"(?<![\w/.#-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![\w-])")),
    ("date", re.compile(r"(?<!\d)20\d\d-[01]\d-[0-3]\d(?!\d)")),
    ("driver", re.compile(r"(?<![\w.])\d{3}\.\d{2,3}\.\d{2}(?!\w|\.\d)")),
]
CELL = re.compile(r"^\s*(?:\*\*)?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+)(?:\*\*)?\s*$")
COMMENT = re.compile(r"<!--.*?-->")
CODE = re.compile(r"`[^`]*`")
LINK_TARGET = re.compile(r"\]\([^)\s]*\)")
HTML_ATTR = re.compile(r"<[a-zA-Z][^>]*>")


def prose(line):
    """The line as a reader sees it, less what is generated or code: inline markers, inline
    code, link targets, HTML tags and comments."""
    line = INLINE.sub(" ", line)
    line = CODE.sub(" ", line)
    line = COMMENT.sub(" ", line)
    line = LINK_TARGET.sub("]", line)
    return HTML_ATTR.sub(" ", line)


def problems(text, rel):
    """One line per figure typed by hand in `text` (the page `rel`)."""
    out = []
    for number, line in reader_lines(text):
        seen = prose(line)
        hits = [(kind, m.group(0)) for kind, pattern in KINDS for m in pattern.finditer(seen)]
        if seen.lstrip().startswith("|"):
            hits += [("cell", c.strip()) for c in seen.strip().strip("|").split("|") if CELL.match(c)
                     and ("." in c or int(c.strip(" *").replace(",", "")) % 32)]
        for kind, figure in hits:
            out.append(f"{rel}:{number}: {kind} '{figure.strip()}' typed by hand")
    return out


PLANTED = {
    "rate": "step 05 runs at 35,970 GFLOP/s here.",
    "time": "The run took 2.66 ms.",
    "percent": "It reaches 99.3% of cuBLAS.",
    "ratio": "That is 1.41× faster.",
    "counter": "ncu counts 268,457,848 conflicts.",
    "bytes": "It reads 604.09 MB.",
    "cell": "| 01 | 5,892 |",
    "commit": "This was measured at 817991e.",
    "date": "Measured on 2026-11-24.",
    "driver": "With driver 580.159.04.",
}
ALLOWED = "\n".join([
    "step 05 runs at <!--v:gf(5)-->35,970<!--/v--> GFLOP/s, <!--v:pc(5)|.1f-->99.3<!--/v-->% of cuBLAS;",
    "a byte count worked out: <!--v:4096*4096*4-->67,108,864<!--/v--> bytes, `2.66 ms` in code,",
    "a tile of 128 × 64, 99 KB of shared memory, 65,536 registers, sm_90, step 10, 4096³, [a link](../results/x_2026-11-24.txt).",
    "<!-- results: overview -->", "| 01 | 5,892 | 99.3% |", "<!-- /results -->",
    "```text", "took 2.66 ms at 817991e", "```",
])


def self_test():
    """The check finds each planted kind and nothing in the allowed forms; raises if not."""
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "planted.md"
        for kind, line in PLANTED.items():
            page.write_text(ALLOWED + "\n" + line + "\n", encoding="utf-8")
            found = problems(page.read_text(encoding="utf-8"), page.name)
            if [f.split(": ")[1].split()[0] for f in found] != [kind]:
                raise SystemExit(f"check_figures self-test: planted {kind} '{line}' gave {found or 'nothing'}")


def main(args):
    self_test()
    chosen = [Path(a).resolve() for a in args] or list(pages())
    out = []
    for page in chosen:
        out += problems(page.read_text(encoding="utf-8"), page.relative_to(ROOT))
    for line in out:
        print(line)
    if out:
        print(f"figures check: {len(out)} figures typed by hand in {len({o.split(':')[0] for o in out})} pages: "
              "generate each (an inline marker <!--v:EXPR-->, tools/pages/README.md) or remove it")
        return 1
    print(f"figures check: {len(chosen)} pages, every measured figure generated (self-test: {len(PLANTED)} kinds planted, each caught)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
