#!/usr/bin/env python3
"""The last line of `make test`: what ran, what was skipped and why, read from the run's log.

    make test: passed in 203 s (built with -j2): page checks 7 passed; Catch2 33 passed, 14 skipped
    (GPU tests: no usable CUDA device: no NVIDIA driver found (libcuda.so.1 is not installed));
    pytest 96 passed, 3 skipped (…)

(one line). A failed run names what failed first: the build, a page check, Catch2 or pytest.

usage: tools/validate/test_summary.py LOG STATUS SECONDS JOBS
"""
import re
import sys
from collections import Counter

PAGE_CHECK = re.compile(r"^page checks: (\d+) passed$", re.M)
CATCH_SKIP = re.compile(r"^GPU tests skipped \((?P<why>.*)\): (?P<n>\d+) test cases", re.M)
CATCH = re.compile(r"^tests: (?P<passed>\d+) passed, (?P<failed>\d+) failed, (?P<skipped>\d+) skipped$", re.M)
PYTEST = re.compile(r"^=*\s*(?P<counts>(?:\d+ (?:passed|failed|skipped|errors?|xfailed|xpassed|deselected)(?:, )?)+) in [\d.]+s", re.M)
PYTEST_SKIP = re.compile(r"^SKIPPED \[(?P<n>\d+)\] [^:]+:\d+: (?P<why>.*)$", re.M)
PAGE_RUN = re.compile(r"^\S*python\S* (tools/\S+(?: \S+)?)$", re.M)


def summary(log, status, seconds, jobs):
    parts = []
    pages = PAGE_CHECK.search(log)
    if pages:
        parts.append(f"page checks {pages.group(1)} passed")
    elif PAGE_RUN.search(log):
        parts.append(f"page check FAILED: {PAGE_RUN.findall(log)[-1]}")
    catch = CATCH.search(log)
    if catch:
        text = f"Catch2 {catch['passed']} passed"
        text += f", {catch['failed']} FAILED" if catch["failed"] != "0" else ""
        if catch["skipped"] != "0":
            skip = CATCH_SKIP.search(log)
            text += f", {catch['skipped']} skipped" + (f" (GPU tests: {skip['why']})" if skip else "")
        parts.append(text)
    pytest = PYTEST.search(log)
    if pytest:
        text = "pytest " + pytest["counts"].replace("failed", "FAILED")
        reasons = Counter()
        for m in PYTEST_SKIP.finditer(log):
            reasons[m["why"].strip()] += int(m["n"])
        if reasons:
            text += " (" + "; ".join(why + (f" ×{n}" if n > 1 else "") for why, n in reasons.items()) + ")"
        parts.append(text)
    if status != 0 and not parts:
        parts.append("the build failed (see the lines above)")
    verdict = "passed" if status == 0 else "FAILED"
    return f"make test: {verdict} in {seconds} s (built with {jobs}): " + "; ".join(parts)


def main(argv):
    path, status, seconds, jobs = argv
    with open(path, encoding="utf-8", errors="replace") as f:
        log = f.read()
    print(summary(log, int(status), seconds, jobs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
