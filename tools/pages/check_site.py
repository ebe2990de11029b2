#!/usr/bin/env python3
"""Every internal link of the generated docs site leads somewhere (run by `make docs`).

Reads each HTML file of the site (build/docs/html, or the folder given) and follows every
href, src and <object data> that has no scheme (http:, https:, mailto:, javascript:, data: are left alone):
the file it names must exist inside the site folder (the site is published on its own, so a
link that climbs out of it, such as ../../README.md, is broken even where the file exists in a
checkout), and a link with #anchor must name an id or name that the target page defines.
Anchors are checked because Doxygen does not: a Markdown [text](#heading) or page.md#heading
that matches no generated anchor becomes a link that opens the page at its top, or nowhere,
without any warning. Prints one line per distinct broken target with the pages that link to
it, then the count; exits 1 if any link is broken, 2 when the folder is not a site.

usage: tools/pages/check_site.py [SITE_DIR]   (default: build/docs/html)
"""
import os
import re
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urldefrag

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT = os.path.join(ROOT, "build", "docs", "html")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")  # http:, mailto:, javascript:, ...
LINK_ATTRS = ("href", "src", "data")  # data: <object data="x.svg">, how Doxygen shows an SVG


class Page(HTMLParser):
    """The links a page makes and the anchors it defines."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links = []  # href, src and data values, as written
        self.anchors = set()  # id and name values

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name"):
                self.anchors.add(value)
            elif name in LINK_ATTRS and tag != "base":
                self.links.append(value.strip())

    handle_startendtag = handle_starttag


def parse(path):
    page = Page()
    with open(path, encoding="utf-8", errors="replace") as f:
        page.feed(f.read())
    page.close()
    return page


def main():
    args = sys.argv[1:]
    if len(args) > 1 or (args and args[0].startswith("-")):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    shown = args[0] if args else os.path.relpath(DEFAULT)
    site = os.path.abspath(shown)
    if not os.path.isfile(os.path.join(site, "index.html")):
        print(f"check_site.py: {shown} has no index.html: build the site first (make docs)", file=sys.stderr)
        return 2

    pages = {}  # path relative to the site -> Page
    for folder, _, files in os.walk(site):
        for name in files:
            if name.endswith((".html", ".htm")):
                path = os.path.join(folder, name)
                pages[os.path.relpath(path, site)] = parse(path)

    broken = {}  # target as written, resolved against the site -> set of pages linking it
    links = 0
    for rel, page in sorted(pages.items()):
        for link in page.links:
            if not link or SCHEME.match(link) or link.startswith("//"):
                continue
            links += 1
            target, anchor = urldefrag(link)
            target = unquote(target.split("?", 1)[0])
            anchor = unquote(anchor)
            if target:
                resolved = os.path.normpath(os.path.join(os.path.dirname(rel), target))
            else:
                resolved = rel  # #anchor in the same page
            where = os.path.join(site, resolved)
            if resolved.startswith(".."):
                why = "outside the site"
            elif not os.path.exists(where):
                why = "no such file"
            elif anchor and resolved in pages and anchor not in pages[resolved].anchors:
                why = "no such anchor"
            else:
                continue
            named = resolved + ("#" + anchor if anchor else "")
            broken.setdefault((named, why), set()).add(rel)

    for (target, why), sources in sorted(broken.items()):
        names = sorted(sources)
        more = f" and {len(names) - 8} more" if len(names) > 8 else ""
        print(f"{target} ({why}): linked from {', '.join(names[:8])}{more}")
    linking = set().union(*broken.values()) if broken else set()
    print(f"check_site.py: {len(broken)} broken link targets on {len(linking)} pages "
          f"({links} internal links on {len(pages)} pages of {shown})")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
