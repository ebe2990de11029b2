#!/usr/bin/env python3
"""Doxygen input filter for the Markdown pages (docs/Doxyfile: FILTER_PATTERNS).

The pages are written for GitHub; this filter makes the same text work on the Doxygen site
(tools/pages/check_site.py then checks every link of the built site). Outside code blocks
and code spans it rewrites:

- relative links. A page of the site ([x](lab.md), [x](../../README.md#the-steps)) becomes a
  Doxygen reference to that page or to the heading's label (below); an anchor that names no
  heading falls back to the page. A C++/CUDA source of the site ([x](kernel.cuh)) becomes a
  reference to that file's page. Anything the site does not hold (step folders, the notebook,
  docs/results/*.csv and *.txt, tools/, the answers) becomes its page on GitHub
  (tools/pages/repository.py blob()). What is on the site is read from docs/Doxyfile
  (INPUT, FILE_PATTERNS, EXCLUDE_PATTERNS). Doxygen shows a reference's text literally, so
  a text that is one code span, [`lab.md`](lab.md), becomes <code>[lab.md](@ref ...)</code>,
  and other backticks in a reference's text are dropped; a reference's text is put on one
  line (Doxygen ends it at the line break), the break moving to the end of the paragraph.
- headings: each one but the page's title gets the label page-id + "-" + GitHub's anchor of
  the heading, {#md_steps_10_double_buffer_lab-thin-shapes}, so that links to #anchors
  (written as GitHub makes them) have a target; Doxygen would otherwise name it autotoc_mdN.
  Headings lose code spans and emphasis, which Doxygen would show as &lt;tt&gt; text.
- inline figure markers <!--v:EXPR|FMT-->value<!--/v--> become the bare value: Doxygen drops
  a comment together with the space after it ("128registers").
- <details> and <summary> lines pass to the HTML as they are (\\htmlonly[block]): Doxygen's own
  handling closes <details> at the end of the summary's paragraph and boxes the body apart.
- pictures under images/ are named by their file name, so that Doxygen copies them from
  IMAGE_PATH next to the page.
- **bold** and *italic* become <b> and <em>: Doxygen's Markdown closes neither next to
  Chinese text, nor **bold** that starts with a code span. A code span right after such a
  tag, or one holding a block command (`@verbatim`, after which Doxygen would read no more
  Markdown on the page), goes in as <code> HTML with Doxygen's escapes.

Every replacement keeps the page's line count, so Doxygen's warnings name the right line.

usage (by Doxygen): python3 tools/pages/doxygen_filter.py PAGE.md
"""
import fnmatch
import os
import re
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import repository  # noqa: E402  (tools/pages/repository.py: the GitHub address, in one place)

DOXYFILE = os.path.join(ROOT, "docs", "Doxyfile")
SOURCES = (".cuh", ".cu", ".h", ".cpp")  # files the site shows as file pages, with source
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
MARKER = re.compile(r"<!--v:.*?-->(.*?)<!--/v-->")
DETAILS = re.compile(r"^\s*(?:</?details\b[^>]*>|<summary\b.*?</summary>|\s)+$")
SPAN = re.compile(r"`(?:[^`\n]|\n(?![ \t]*\n))*`")  # a code span: may wrap, not cross a blank line
HELD = re.compile("\ue000(\\d+)\ue001")  # a code span held aside while links and emphasis change
# A link or picture; its text may wrap a line (and hold code spans, held aside by then).
LINK = re.compile(r"(!?)\[((?:[^\]\n]|\n(?![ \t]*\n))*?)\]\(([^)\s]+)\)")
# Emphasis, as HTML: Doxygen's Markdown closes neither **bold** nor *italic* next to Chinese
# text and punctuation (同一*行*上, **加粗**（), nor **bold** that starts with a code span.
BOLD = re.compile(r"(?<![\\*])\*\*(?=[^\s*])((?:[^*\n]|\*(?!\*)|\n(?![ \t]*\n))+?)(?<=[^\s*])\*\*")
ITALIC = re.compile(r"(?<![\\*])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*\\])\*(?!\*)")
# Doxygen's Markdown stage skips from a block command (@verbatim, \\code, ...) to its end
# command even inside a code span, so the rest of the page would not be Markdown any more.
BLOCK_COMMAND = re.compile(r"[@\\](?:end)?(?:verbatim|code|dot|msc|startuml|htmlonly|latexonly|"
                           r"xmlonly|rtfonly|manonly|docbookonly|f[$\[{(])")


def doxyfile():
    """INPUT, FILE_PATTERNS and EXCLUDE_PATTERNS of docs/Doxyfile, as lists."""
    values, key = {}, None
    with open(DOXYFILE, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("#"):
                continue
            line = line.rstrip()
            m = re.match(r"^([A-Z_]+)\s*\+?=\s*(.*)$", line)
            if m:
                key, rest = m.group(1), m.group(2)
                values.setdefault(key, [])
            elif key and line.startswith((" ", "\t")):
                rest = line
            else:
                key = None
                continue
            cont = rest.endswith("\\")
            values[key] += rest.rstrip("\\").split()
            key = key if cont else None
    return values


CONFIG = doxyfile()
MAINPAGE = os.path.normpath(CONFIG.get("USE_MDFILE_AS_MAINPAGE", [""])[0] or ".")


def on_site(path):
    """Whether Doxygen reads `path` (relative to ROOT) into the site."""
    full = os.path.join(ROOT, path)
    inside = any(path == os.path.normpath(i) or path.startswith(os.path.normpath(i) + os.sep)
                 for i in CONFIG.get("INPUT", []))
    return (inside and os.path.isfile(full)
            and any(fnmatch.fnmatch(os.path.basename(path), p) for p in CONFIG.get("FILE_PATTERNS", []))
            and not any(fnmatch.fnmatch(full, p) for p in CONFIG.get("EXCLUDE_PATTERNS", [])))


def page_id(path):
    """Doxygen's name for the page of a Markdown file: md_ and the path, non-identifier
    characters as _ (markdownFileNameToId); the main page is index."""
    if path == MAINPAGE:
        return "index"
    return "md_" + re.sub(r"[^A-Za-z0-9_]", "_", os.path.splitext(path)[0])


def label_prefix(path):
    return "md_" + re.sub(r"[^A-Za-z0-9_]", "_", os.path.splitext(path)[0])


def github_slug(text):
    """The anchor GitHub gives a heading: its visible text, lower case, without punctuation
    or symbols (letters, marks, digits, _ and - stay), each space a hyphen."""
    text = MARKER.sub(r"\1", text)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link shows its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("**", "")
    return "".join(c for c in text.lower()
                   if c in " -_" or unicodedata.category(c)[0] in "LMN").replace(" ", "-")


def prose_lines(lines):
    """(index, line) of the lines outside fenced code blocks."""
    fence = None
    for i, line in enumerate(lines):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not line.strip()[len(m.group(1)):].strip():
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        yield i, line


HEADINGS = {}


def headings(path):
    """{GitHub anchor: line index} of a page's headings; the title (its first line, a level-1
    heading, which Doxygen makes the page's title) maps to None: a link to it is to the page."""
    if path not in HEADINGS:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            lines = f.read().split("\n")
        found, seen = {}, {}
        for i, line in prose_lines(lines):
            m = HEADING.match(line)
            if not m:
                continue
            slug = github_slug(m.group(2))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            if n:
                slug = f"{slug}-{n}"
            found[slug] = None if (i == 0 and len(m.group(1)) == 1) else i
        HEADINGS[path] = found
    return HEADINGS[path]


def code(span, as_html=False):
    """A code span as Doxygen should get it: as it is, or as HTML (<code>, where Doxygen's
    escapes keep each character itself) where it holds a block command or as_html."""
    if not (as_html or BLOCK_COMMAND.search(span)):
        return span
    inner = span.strip("`").strip().replace("\\", "\\\\").replace("::", "\\::")
    for c in "@&<>*_`#%\"$":
        inner = inner.replace(c, "\\" + c)
    return f"<code>{inner}</code>"


def reference(text, target, spans):
    """A Markdown link to a Doxygen name (a page, a label, a file). Doxygen shows the text
    of a reference literally, backticks included: a text that is one code span goes inside
    <code>, other code spans lose their backticks."""
    m = HELD.fullmatch(text)
    if m:
        return f"<code>[{spans[int(m.group(1))].strip('`').strip()}](@ref {target})</code>"
    return f"[{HELD.sub(lambda m: spans[int(m.group(1))].strip('`'), text)}](@ref {target})"


def rewrite_link(m, page, spans):
    bang, text, target = m.groups()
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//|^@ref\b", target):
        return m.group(0)  # a web address, or already a reference
    where, _, anchor = target.partition("#")
    path = page if not where else os.path.relpath(
        os.path.normpath(os.path.join(ROOT, os.path.dirname(page), where)), ROOT)
    if not os.path.exists(os.path.join(ROOT, path)):
        return m.group(0)  # tools/pages/check_docs.py reports it; leave it as it is
    if bang:
        if "images/" in where:  # by its bare name, which Doxygen finds in IMAGE_PATH
            return f"![{text}]({os.path.basename(where)})"
        return m.group(0)
    if on_site(path) and path.endswith(".md"):
        line = headings(path).get(anchor) if anchor else None
        if anchor and anchor not in headings(path):
            print(f"doxygen_filter.py: {page}: {target}: no heading has that anchor; linking the page",
                  file=sys.stderr)
        return reference(text, f"{label_prefix(path)}-{anchor}" if line is not None else page_id(path),
                         spans)
    if on_site(path) and path.endswith(SOURCES):
        return reference(text, path, spans)
    return f"[{text}]({repository.blob(path)}{'#' + anchor if anchor else ''})"


def inline(prose, page):
    """Links and emphasis of a run of prose lines; code spans are held aside meanwhile."""
    spans = []

    def hold(m):
        spans.append(m.group(0))
        return f"\ue000{len(spans) - 1}\ue001"

    def link(m):
        # A reference's text must be on one line (Doxygen's \\ref "text" ends at the line);
        # the line break moves to the end of the paragraph, keeping the page's line count.
        out = rewrite_link(m, page, spans)
        return out if out == m.group(0) else out.replace("\n", " ") + "\ue002" * out.count("\n")

    def code_at(m):
        # A code span right after a tag (<b>`x`</b>) keeps Doxygen from reading the tag
        # when a letter stands before it, as in Chinese text: there it goes in as HTML.
        after_tag = m.start() > 0 and m.string[m.start() - 1] == ">"
        return code(spans[int(m.group(1))], after_tag)

    prose = SPAN.sub(hold, prose)
    prose = LINK.sub(link, prose)
    prose = ITALIC.sub(r"<em>\1</em>", BOLD.sub(r"<b>\1</b>", prose))
    prose = HELD.sub(code_at, prose)
    while "\ue002" in prose:
        i = prose.index("\ue002")
        n = len(prose[i:]) - len(prose[i:].lstrip("\ue002"))
        prose = prose[:i] + prose[i + n:]
        end = prose.find("\n\n", i)
        end = len(prose) if end < 0 else end
        prose = prose[:end] + "\n" * n + prose[end:]
    return prose


def main():
    page = os.path.relpath(os.path.abspath(sys.argv[1]), ROOT)
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        lines = f.read().split("\n")

    anchors = {line: slug for slug, line in headings(page).items() if line is not None}
    prose = dict(prose_lines(lines))
    for i, line in prose.items():
        line = MARKER.sub(r"\1", line)
        if HEADING.match(line):
            # Doxygen shows a heading's markup as text (&lt;tt&gt;make bench&lt;/tt&gt;):
            # a heading goes in plain, without code spans or emphasis.
            line = re.sub(r"`|\*\*|(?<![\\\w])\*(?=\S)|(?<=\S)\*(?!\w)", "", line.rstrip())
        if i in anchors:
            line = f"{line} {{#{label_prefix(page)}-{anchors[i]}}}"
        elif DETAILS.match(line) and line.strip():
            line = f"\\htmlonly[block] {line.strip()} \\endhtmlonly"
        lines[i] = line

    # Links and emphasis, in each run of prose lines; fenced blocks stay as they are.
    out, run = [], []
    for i, line in enumerate(lines + [None]):
        if i in prose:
            run.append(line)
            continue
        if run:
            out.append(inline("\n".join(run), page))
            run = []
        if line is not None:
            out.append(line)
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
