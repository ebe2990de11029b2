#!/usr/bin/env python3
"""Doxygen input filter for the Markdown pages (docs/Doxyfile: FILTER_PATTERNS).

On GitHub a lesson's link [kernel.cuh](kernel.cuh) opens the source file. Doxygen turns it
into a dead relative link, so for the site this filter rewrites every relative link to a
C++/CUDA source file into a Doxygen reference to that file's page (which links to its
browsable source): [text](kernel.cuh) in steps/01_naive/README.md becomes
\\ref steps/01_naive/kernel.cuh "text". Links to sources the site does not include (tests/,
tools/) become the text and the path. Pictures under images/ are named by their file name,
so that Doxygen copies them into the site, and **bold** outside code becomes <b>bold</b>.
Everything else passes through unchanged.

usage (by Doxygen): python3 tools/pages/doxygen_filter.py PAGE.md
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCUMENTED = ("steps/", "common/")  # the source folders docs/Doxyfile reads
CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.S)  # fenced blocks and code spans: untouched
BOLD = re.compile(r"\*\*([^*\n]+?)\*\*")
IMAGE = re.compile(r"!\[([^\]]*)\]\(((?!https?:)[^)\s]*images/[^)\s]+)\)")
LINK = re.compile(r"\[([^\]]+)\]\(((?!https?:)[^)#\s]+\.(?:cuh|cu|h|cpp))\)")


def main():
    page = sys.argv[1]
    base = os.path.dirname(os.path.abspath(page))
    with open(page, encoding="utf-8") as f:
        text = f.read()

    def to_ref(m):
        target = os.path.relpath(os.path.normpath(os.path.join(base, m.group(2))), ROOT)
        if not os.path.exists(os.path.join(ROOT, target)):
            return m.group(0)  # tools/pages/check_docs.py reports it; leave it as it is
        if not target.startswith(DOCUMENTED):  # not on the site (tests, tools): name it
            return f"{m.group(1)} (`{target}`)"
        label = m.group(1).replace('"', "'").replace('`', '')
        return f'\\ref {target} "{label}"'

    # Bold: Doxygen's Markdown does not close **text** before Chinese punctuation (（，。),
    # so outside code the filter writes it as HTML.
    text = "".join(BOLD.sub(r"<b>\1</b>", part) if i % 2 == 0 else part
                   for i, part in enumerate(CODE.split(text)))
    # Pictures: by their bare name, which Doxygen finds in IMAGE_PATH (images/) and copies
    # next to the page; a relative path would point outside the site.
    text = IMAGE.sub(lambda m: f"![{m.group(1)}]({os.path.basename(m.group(2))})", text)
    sys.stdout.write(LINK.sub(to_ref, text))


if __name__ == "__main__":
    main()
