#!/usr/bin/env python3
"""How much a student reads in one sitting: the visible words of each step's lesson.

A lesson is steps/NN_name/README.md and its twin README.zh-CN.md. Its words are counted in
three parts:

    visible  everything outside <details> ... </details>: prose, code listings and generated
             blocks (<!-- results: ... --> ... <!-- /results -->) alike; the budget applies to it
    main     the prose alone: visible, less fenced code and generated blocks
    folded   what sits inside <details> (a student opens it only when wanted)

English counts whitespace-separated words. Chinese counts CJK characters / 1.6 (a rough
English-word equivalent) plus Latin words and numbers. This is the count the budget of
issue 23 is measured with.

The budget: at most 3,000 visible words for each of steps 01-07 and 4,000 for steps 08-12,
in both languages; and no commit id (7-40 hex digits, letters and digits mixed) in a lesson's
visible text: run ids belong in the lab notes (steps/NN_name/lab.md).

With --check the exit status is 1 when a step in ENFORCED is over its budget or shows a commit
id; the other steps are reported (marked "not enforced") but do not fail. make test runs it.

usage: tools/pages/lesson_words.py [--check]
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUDGET = {n: (3000 if n <= 7 else 4000) for n in range(1, 13)}
# The steps whose budget --check enforces. A step joins when its lesson has been rewritten to
# the budget (issue 23: steps 01-10; 4,000 words for 08-10; issue 30: steps 11 and 12, 4,000).
ENFORCED = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"]

GENERATED = re.compile(r"<!-- results:.*?<!-- /results -->", re.S)
COMMIT = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")


def words(text, zh):
    if zh:
        cjk = len(re.findall(r"[\u4e00-\u9fff]", text))
        latin = len(re.findall(r"[A-Za-z0-9_.,%×³/+-]+", text))
        return int(cjk / 1.6 + latin)
    return len(re.findall(r"\S+", text))


def split(text):
    """(prose, code listings, folded): the lines outside code and <details>, the fenced code
    outside <details>, and the lines inside <details>."""
    main, listing, folded = [], [], []
    in_code = in_details = False
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("<details"):
            in_details = True
        if in_details:
            folded.append(line)
            if "</details>" in s:
                in_details = False
            continue
        if s.startswith("```"):
            in_code = not in_code
            listing.append(line)
            continue
        (listing if in_code else main).append(line)
    return "\n".join(main), "\n".join(listing), "\n".join(folded)


def measure(page):
    """{visible, main, listing, folded, commits} of one lesson page."""
    zh = page.name.endswith(".zh-CN.md")
    text = page.read_text(encoding="utf-8")
    prose, _, _ = split(GENERATED.sub("", text))
    vis_prose, vis_code, folded = split(text)
    return {
        "visible": words(vis_prose, zh) + words(vis_code, zh),
        "main": words(prose, zh),
        "listing": words(vis_code, zh),
        "folded": words(folded, zh),
        # every commit id a student sees, generated blocks included
        "commits": len(COMMIT.findall(vis_prose + "\n" + vis_code)),
    }


def main():
    check = "--check" in sys.argv[1:]
    bad = []
    print(f"{'step':<22}{'lang':<6}{'visible':>8}{'budget':>8}{'main':>7}{'listing':>9}{'folded':>8}{'commits':>9}")
    for d in sorted(ROOT.glob("steps/[0-9][0-9]_*")):
        number = d.name[:2]
        enforced = number in ENFORCED
        for lang, name in (("en", "README.md"), ("zh", "README.zh-CN.md")):
            page = d / name
            if not page.exists():
                continue
            m = measure(page)
            cap = BUDGET[int(number)]
            over = m["visible"] > cap
            note = ""
            if over or m["commits"]:
                note = "  over budget" if over else ""
                note += "  commit id visible" if m["commits"] else ""
                note += "" if enforced else " (not enforced)"
            print(f"{d.name:<22}{lang:<6}{m['visible']:>8}{cap:>8}{m['main']:>7}{m['listing']:>9}"
                  f"{m['folded']:>8}{m['commits']:>9}{note}")
            if enforced and over:
                bad.append(f"{page.relative_to(ROOT)}: {m['visible']} visible words > {cap}")
            if enforced and m["commits"]:
                bad.append(f"{page.relative_to(ROOT)}: {m['commits']} commit ids in visible text "
                           "(they belong in lab.md)")
    if check:
        for b in bad:
            print(b)
        print(f"lesson budget check: steps {' '.join(ENFORCED) or '(none)'} enforced, {len(bad)} problems")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
