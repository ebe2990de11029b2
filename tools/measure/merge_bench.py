#!/usr/bin/env python3
"""Puts a later `make bench` run of some steps into the committed sweep: the rows of the steps in
NEW replace theirs in OLD (same GPU, same columns), and OLD's .meta.json records the run under
"remeasured" (its steps, date, commit, driver, CUDA, cuBLAS, clocks), so the provenance table
says which rows came from which commit; an earlier re-measurement keeps only the steps this one
did not replace. For a step whose kernel changed while the others did not:
the sweep's other rows stay as they were measured.

usage: tools/measure/merge_bench.py OLD.csv NEW.csv     (e.g. docs/results/h100-80gb-hbm3.csv /tmp/res/h100-80gb-hbm3.csv)
"""
import csv
import io
import json
import sys
from pathlib import Path


def read(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = list(csv.DictReader(io.StringIO("\n".join(lines))))
    return lines[0], lines[1:], rows


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    old_path, new_path = Path(sys.argv[1]), Path(sys.argv[2])
    old_head, old_lines, old_rows = read(old_path)
    new_head, new_lines, new_rows = read(new_path)
    if old_head != new_head:
        print(f"merge_bench.py: {new_path} has other columns than {old_path}", file=sys.stderr)
        return 2
    if {r["gpu"] for r in old_rows} != {r["gpu"] for r in new_rows}:
        print(f"merge_bench.py: {new_path} was measured on another GPU than {old_path}", file=sys.stderr)
        return 2
    steps = sorted({r["step"] for r in new_rows})
    out, placed = [old_head], False
    for line, row in zip(old_lines, old_rows):
        if row["step"] in steps:
            if not placed:  # the new rows where the old ones of these steps began
                out += new_lines
                placed = True
            continue
        out.append(line)
    if not placed:
        out += new_lines
    old_path.write_text("\n".join(out) + "\n", encoding="utf-8")
    meta_path = old_path.with_name(old_path.stem + ".meta.json")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    new_meta = json.loads(new_path.with_name(new_path.stem + ".meta.json").read_text(encoding="utf-8"))
    keep = ("date", "commit", "driver", "cuda_runtime", "cublas", "sm_clock_mhz_during_run")
    # an earlier re-measurement of these steps no longer describes any row: keep it for the others only
    earlier = [{**run, "steps": [s for s in run["steps"] if s not in steps]} for run in meta.get("remeasured", [])]
    meta["remeasured"] = [run for run in earlier if run["steps"]]
    meta["remeasured"].append({"steps": steps, **{k: new_meta[k] for k in keep if k in new_meta}})
    meta_path.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(f"{old_path}: the rows of {', '.join(steps)} replaced by {new_path}'s ({len(new_rows)} rows); "
          f"{meta_path.name} records the run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
