#!/usr/bin/env python3
"""Runs notebooks/sgemm_course.ipynb top to bottom in a fresh kernel, as a student's "Run all"
from a clone does (the notebook's folder as the working directory), and writes the executed copy
with a first cell that says where it ran: the GPU, driver, CUDA, date, commit and how long it
took. That copy is docs/results/notebook_<gpu>.ipynb (tools/validate/gpu_check.sh, stage
notebook); python/tests/test_notebook.py checks it still matches the notebook's cells. Its links,
like the notebook's, are absolute (tools/pages/repository.py), so they lead where the notebook's
do from any folder.

Needs nbclient and ipykernel (pip install nbclient ipykernel). Exits 0 when every cell ran,
1 when a cell failed (the partial copy is written all the same, for reading), 2 on bad use.

usage: python3 tools/validate/run_notebook.py OUT.ipynb [--timeout SECONDS]
"""
import argparse
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "notebooks" / "sgemm_course.ipynb"
LABEL_KEY = "sgemm_run"  # the executed copy's metadata: where and when it ran
sys.path.insert(0, str(REPO / "tools" / "pages"))
import repository  # noqa: E402  (the course's GitHub address, for the label's link)


def where_it_runs():
    """The GPU, driver, CUDA release and commit as every results file records them
    (tools/measure/gpu_meta.sh, through bench.py), and the time, to the second."""
    sys.path.insert(0, str(REPO / "tools" / "measure"))
    from bench import gpu_meta
    meta = gpu_meta()
    run = {key: meta[key] or "unknown" for key in ("gpu", "driver", "cuda", "commit")}
    run["date"] = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return run


def label_cell(nbformat, run, seconds, failed):
    state = f"stopped at a failing cell after {seconds:.0f} s" if failed else f"ran top to bottom in {seconds:.0f} s"
    if run["steps_built_before"]:
        state += " (the step programs were already built when it started)"
    text = (
        f"> **These outputs are from one run on an {run['gpu']}**, not a T4 (none was at hand): "
        f"driver {run['driver']}, CUDA {run['cuda']}, {run['date']}, commit {run['commit']}; the "
        f"notebook {state} in a fresh kernel (`tools/validate/run_notebook.py`). A T4 prints other "
        "figures. The notebook to open and run yourself, without outputs, is "
        f"[`notebooks/sgemm_course.ipynb`]({repository.blob('notebooks/sgemm_course.ipynb')})."
    )
    return nbformat.v4.new_markdown_cell(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="where to write the executed copy (.ipynb)")
    ap.add_argument("--timeout", type=int, default=1200, help="seconds one cell may take (default 1200)")
    args = ap.parse_args()
    try:
        import nbformat
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError
    except ImportError as e:
        print(f"run_notebook.py needs nbclient and ipykernel ({e}): pip install nbclient ipykernel")
        return 2

    nb = nbformat.read(str(NOTEBOOK), as_version=4)
    run = where_it_runs()
    run["steps_built_before"] = all((REPO / f"step{n:02d}").exists() for n in range(1, 11))
    client = NotebookClient(nb, timeout=args.timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    start = time.monotonic()
    failed = None
    try:
        client.execute()
    except CellExecutionError as e:
        # the cell's own last line (StopNotebook prints "STOP: why"), not nbclient's whole dump
        lines = [l for l in str(e).splitlines() if l.strip()]
        failed = next((l for l in lines if l.startswith("STOP:")), lines[-1] if lines else "a cell failed")
    seconds = time.monotonic() - start

    run["seconds"] = round(seconds)
    run["ran_to_the_end"] = failed is None
    nb.metadata[LABEL_KEY] = run
    nb.cells.insert(0, label_cell(nbformat, run, seconds, failed))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(args.out))
    if failed:
        print(f"the notebook stopped after {seconds:.0f} s: {failed} (partial copy: {args.out})")
        return 1
    print(f"the notebook ran top to bottom on {run['gpu']} in {seconds:.0f} s: wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
