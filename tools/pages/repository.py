#!/usr/bin/env python3
"""The course's place on GitHub, read from the one place it is written: python/pyproject.toml,
[project.urls] Repository. Everything that names the repository (python/README's Colab badges,
the notebook's clone cell and links, the docs site's links to files outside it) takes the URL
from here.

    url()          "https://github.com/OWNER/REPO"
    placeholder()  True while that is still OWNER/REPO (the course not yet published)
    blob(path)     the GitHub page of a file or folder of the repository, on branch main
    colab(path)    Colab's address of a notebook of the repository

Files that cannot import this module repeat the URL, and --write keeps them in step: the Colab
badge of python/README.md and python/README.zh-CN.md; in notebooks/sgemm_course.ipynb and its executed copies
docs/results/notebook_<gpu>.ipynb, the Colab badge, the clone cell's REPO_URL and every link to
a file or folder on GitHub (a notebook opened on Colab has no folder around it, so its links are
absolute; it links to no other repository's files, and --check would take one for this one's).

usage: tools/pages/repository.py            prints the URL (and says so when it is the placeholder)
       tools/pages/repository.py --check    one line per place that names another repository than
                                            python/pyproject.toml; exit 1 if there is one
       tools/pages/repository.py --write    writes python/pyproject.toml's URL into those places
"""
import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "python" / "pyproject.toml"
PLACEHOLDER = "OWNER/REPO"
BRANCH = "main"


def url():
    """The repository's URL, without a trailing slash or .git."""
    m = re.search(r'^\s*Repository\s*=\s*"(https://github\.com/[^"/]+/[^"/]+?)/?"\s*$',
                  PYPROJECT.read_text(encoding="utf-8"), re.M)
    if not m:
        raise SystemExit(f"{PYPROJECT.relative_to(ROOT)}: no [project.urls] Repository = \"https://github.com/OWNER/NAME\"")
    return m.group(1).removesuffix(".git")


def placeholder():
    return url().endswith("/" + PLACEHOLDER)


def slug():
    """OWNER/NAME."""
    return url().split("github.com/", 1)[1]


def blob(path):
    """The GitHub page of `path` (relative to the repository root) on the main branch."""
    kind = "tree" if (ROOT / path).is_dir() else "blob"
    return f"{url()}/{kind}/{BRANCH}/{Path(path).as_posix()}"


def colab(path):
    return f"https://colab.research.google.com/github/{slug()}/blob/{BRANCH}/{Path(path).as_posix()}"


# Where the URL is repeated, each form with the repository's OWNER/NAME as group 1. `required`:
# every file listed with that form has it at least once (a badge or clone cell that vanished, or
# was rewritten past the pattern, is reported rather than silently left out of the check).
NAME = r"[\w.-]+/[\w.-]+"
COLAB_BADGE = ("the Colab badge", re.compile(rf"https://colab\.research\.google\.com/github/({NAME})/blob/"), True)
CLONE = ("the clone cell's REPO_URL", re.compile(rf'REPO_URL = "https://github\.com/({NAME}?)(?:\.git)?"'), True)
FILE_LINK = ("a link to a file", re.compile(rf"https://github\.com/({NAME})/(?:blob|tree)/"), False)
NOTEBOOK = ROOT / "notebooks" / "sgemm_course.ipynb"


def places():
    """(file, the forms the URL takes there) for every file that repeats it."""
    readmes = [(ROOT / "python" / name, [COLAB_BADGE]) for name in ("README.md", "README.zh-CN.md")]
    notebooks = [NOTEBOOK, *sorted((ROOT / "docs" / "results").glob("notebook_*.ipynb"))]
    return readmes + [(nb, [COLAB_BADGE, CLONE, FILE_LINK]) for nb in notebooks]


def texts(path):
    """(where, text) for each piece of `path` that may name the repository: a Markdown file's
    lines; a notebook's cells (their sources only: outputs are what a run printed)."""
    rel = path.relative_to(ROOT)
    if path.suffix != ".ipynb":
        return [(f"{rel}:{n}", line) for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)]
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [(f"{rel} cell {i} ({c.get('id', '?')})", "".join(c["source"]) if isinstance(c["source"], list) else c["source"])
            for i, c in enumerate(cells)]


def out_of_date(path, forms, name):
    """One line per place in `path` that names another repository than `name`, and one per
    required form that `path` does not have at all."""
    problems, seen = [], set()
    for where, text in texts(path):
        for what, pattern, _ in forms:
            for m in pattern.finditer(text):
                seen.add(what)
                if m.group(1) != name:
                    problems.append(f"{where}: {what} names {m.group(1)}, python/pyproject.toml {name}")
    problems += [f"{path.relative_to(ROOT)}: no {what} found (its form is in tools/pages/repository.py)"
                 for what, _, required in forms if required and what not in seen]
    return problems


def rewrite(text, forms, name):
    for _, pattern, _ in forms:
        text = pattern.sub(lambda m: m.group(0)[:m.start(1) - m.start()] + name + m.group(0)[m.end(1) - m.start():], text)
    return text


def write(path, forms, name):
    """Writes `name` into every form of the URL in `path`; True if the file changed."""
    old = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":
        nb = json.loads(old)
        for cell in nb["cells"]:
            lines = cell["source"] if isinstance(cell["source"], list) else [cell["source"]]
            new = [rewrite(line, forms, name) for line in lines]
            cell["source"] = new if isinstance(cell["source"], list) else new[0]
        new_text = json.dumps(nb, indent=1, ensure_ascii=False) + "\n"  # the notebooks' own layout
    else:
        new_text = rewrite(old, forms, name)
    if new_text != old:
        path.write_text(new_text, encoding="utf-8")
    return new_text != old


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="one line per place that names another repository; exit 1 if there is one")
    mode.add_argument("--write", action="store_true", help="write python/pyproject.toml's URL into those places")
    args = ap.parse_args()
    name = slug()
    if args.check:
        problems = [p for path, forms in places() for p in out_of_date(path, forms, name)]
        for p in problems:
            print(p)
        if problems:
            print(f"repository.py --check: {len(problems)} place(s) out of date: python3 tools/pages/repository.py --write")
            return 1
        return 0
    if args.write:
        changed = [str(path.relative_to(ROOT)) for path, forms in places() if write(path, forms, name)]
        print(f"wrote {url()} into " + (", ".join(changed) if changed else "nothing (every place had it)"))
        return 0
    print(url() + ("   (the placeholder: set [project.urls] Repository in python/pyproject.toml)" if placeholder() else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
