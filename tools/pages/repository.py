#!/usr/bin/env python3
"""The course's place on GitHub, read from the one place it is written: python/pyproject.toml,
[project.urls] Repository. Everything that names the repository (the READMEs' Colab badges,
the notebook's clone cell and links, the docs site's links to files outside it) takes the URL
from here.

    url()          "https://github.com/OWNER/REPO"
    placeholder()  True while that is still OWNER/REPO (the course not yet published)
    blob(path)     the GitHub page of a file or folder of the repository, on branch main
    colab(path)    Colab's address of a notebook of the repository

usage: tools/pages/repository.py   (prints the URL, and says so when it is the placeholder)
"""
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


if __name__ == "__main__":
    print(url() + ("   (the placeholder: set [project.urls] Repository in python/pyproject.toml)" if placeholder() else ""))
    sys.exit(0)
