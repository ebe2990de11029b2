#!/usr/bin/env python3
"""make bench: every step binary, with cuBLAS in the same run, over a sweep of shapes.

Writes DIR/<gpu>.csv (one row per step and shape: the date, commit and driver, then the
columns of `./stepNN --csv`) and DIR/<gpu>.meta.json (GPU, compute capability, the SM clock
nvidia-smi read while the sweep ran, driver, CUDA runtime, cuBLAS, date, commit). The
README tables and the plots are made from these files (tools/pages/results_table.py,
tools/pages/plots.py).

Shapes are SIZE (M = N = K) or MxNxK. Shapes of more than 2 x 4096^3 multiply-adds run 1
warm-up and 5 timed launches instead of 3 and 20. A run that would take longer than the
time budget, judged from the same step's previous shape, is skipped and the output says
so (the naive step at 8192^3 is the one this is for).

With --gpu-class sm_XX every run is made as for that smaller GPU class (SGEMM_GPU_CLASS,
see common/gpu/gpu.h): the steps choose that class's configurations and are held to its
blocks per SM, on this GPU. The files are then DIR/<gpu>_as_<class>.csv and .meta.json, and
the speeds are this GPU's, never the class's. --steps limits the run to some steps.

usage: tools/measure/bench.py DIR [--shapes S ...] [--budget SECONDS] [--gpu-class sm_XX] [--steps NN ...] [--cold-l2]
"""
import argparse
import csv
import datetime
import io
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# square 256 to 8192; sizes that are not multiples of 4 (rows off 16-byte boundaries:
# docs/alignment.md), square, thin and with a different size in each dimension; tall, wide,
# short-K and long-K shapes (few tiles of C, long K); thin C: M or N of 64, 128 or 256 against 4096
DEFAULT_SHAPES = ["256", "512", "1024", "2048", "4096", "8192", "4095",
                  "1023", "1025", "2047", "3001x1025x2047", "4095x255x4095",
                  "8192x1024x4096", "1024x8192x4096", "4096x4096x512", "1024x1024x8192",
                  "4096x128x4096", "128x4096x4096", "2048x2048x16384",
                  "64x4096x4096", "256x4096x4096", "4096x64x4096", "4096x256x4096"]
BIG = 2 * 4096 ** 3  # multiply-adds above which a shape gets 1 + 5 launches


def dims(shape):
    parts = [int(x) for x in shape.split("x")]
    return parts * 3 if len(parts) == 1 else parts


def work(shape):
    """Multiply-adds of a shape: M * N * K."""
    m, n, k = dims(shape)
    return m * n * k


def launches(shape):
    """Launches of one run, warm-up and timed: 1 + 5 for big shapes, 3 + 20 otherwise."""
    return 6 if work(shape) > BIG else 23


GPU_META = ("gpu", "driver", "slug", "commit", "cuda", "stamp")


def gpu_meta():
    """name, driver, slug, commit, CUDA release and stamp line, as tools/measure/gpu_meta.sh sets them."""
    script = ". tools/measure/gpu_meta.sh; printf '%s\\n' " + " ".join(f'"${k}"' for k in GPU_META)
    out = subprocess.run(["sh", "-c", script], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return dict(zip(GPU_META, out.split("\n")))


class ClockSampler(threading.Thread):
    """Reads the SM clock with nvidia-smi once a second while the sweep runs."""

    def __init__(self):
        super().__init__(daemon=True)
        self.samples, self.stop = [], threading.Event()

    def run(self):
        while not self.stop.is_set():
            p = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm", "--format=csv,noheader,nounits"],
                               capture_output=True, text=True)
            if p.returncode == 0 and p.stdout.strip().split("\n")[0].strip().isdigit():
                self.samples.append(int(p.stdout.strip().split("\n")[0]))
            self.stop.wait(1.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--shapes", nargs="+", default=DEFAULT_SHAPES)
    ap.add_argument("--budget", type=float, default=60.0, help="seconds one run may take (default 60)")
    ap.add_argument("--gpu-class", default="", help="run as for a smaller GPU class, e.g. sm_75")
    ap.add_argument("--steps", nargs="+", default=None, help="only these steps, e.g. 08 09 10")
    ap.add_argument("--cold-l2", action="store_true",
                    help="flush L2 before every timed launch (step and cuBLAS); writes <gpu>_cold_l2.csv")
    args = ap.parse_args()
    os.chdir(ROOT)
    os.environ["SGEMM_GPU_CLASS"] = args.gpu_class
    bins = sorted(b for b in os.listdir(".") if re.fullmatch(r"step\d\d", b)
                  and (args.steps is None or b[4:] in args.steps))
    if not bins:
        print("bench: no step binaries; run make first", file=sys.stderr)
        return 2
    meta = gpu_meta()
    os.makedirs(args.dir, exist_ok=True)
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    header = subprocess.run(["./step01", "--csv-header"], capture_output=True, text=True, check=True).stdout.strip()
    runs = [(b, s) for b in bins for s in args.shapes]
    total, rows, skipped = len(runs), [], []
    sampler = ClockSampler()
    sampler.start()
    start = time.time()
    per_flop = {}  # step -> seconds per multiply-add of its last run, launch overhead included
    for i, (b, shape) in enumerate(runs, 1):
        m, n, k = dims(shape)
        extra = ["--warmup", "1", "--reps", "5"] if work(shape) > BIG else []
        guess = per_flop[b] * work(shape) * launches(shape) if b in per_flop else None
        if guess is not None and guess > args.budget:
            skipped.append((b, shape, guess))
            print(f"[{i}/{total}] {b} {shape}: skipped, would take about {guess:.0f} s "
                  f"(budget {args.budget:.0f} s per run)", flush=True)
            continue
        t0 = time.time()
        if args.cold_l2:
            extra.append("--cold-l2")
        p = subprocess.run([f"./{b}", str(m), str(n), str(k), "--csv", *extra], capture_output=True, text=True)
        took = time.time() - t0
        if p.returncode != 0:
            print(f"[{i}/{total}] {b} {shape}: FAILED (exit {p.returncode})\n{p.stdout}{p.stderr}", flush=True)
            sampler.stop.set()
            return 1
        row = p.stdout.strip().split("\n")[-1]
        rows.append(f"{date},{meta['commit']},{meta['driver']},{row}")
        fields = dict(zip(header.split(","), row.split(",")))
        per_flop[b] = float(fields["median_ms"]) / 1e3 / work(shape)
        elapsed = time.time() - start
        # time left: each remaining run at its step's rate (or this step's, for steps not seen
        # yet), plus a second of start-up
        left = sum(per_flop.get(rb, per_flop[b]) * work(rs) * launches(rs) + 1.0 for rb, rs in runs[i:])
        print(f"[{i}/{total}] {b} {shape}: {float(fields['gflops']):,.0f} GFLOP/s, "
              f"{fields['pct_of_cublas']}% of cuBLAS, {fields['verified']} ({took:.1f} s; "
              f"{elapsed:.0f} s so far, about {left:.0f} s left)", flush=True)
    sampler.stop.set()
    sampler.join()

    name = meta["slug"] + (f"_as_{args.gpu_class}" if args.gpu_class else "") + ("_cold_l2" if args.cold_l2 else "")
    out = os.path.join(args.dir, f"{name}.csv")
    with open(out, "w") as f:
        f.write(f"date,commit,driver,{header}\n")
        f.write("\n".join(rows) + "\n")
    first = next(csv.DictReader(io.StringIO(f"date,commit,driver,{header}\n{rows[0]}\n")))
    clocks = sampler.samples
    info = {
        "gpu": meta["gpu"], "compute_capability": first["cc"], "sms": int(first["sms"]),
        "peak_clock_mhz": int(first["clock_mhz"]),
        "sm_clock_mhz_during_run": {"samples": len(clocks), "min": min(clocks, default=None),
                                    "median": statistics.median(clocks) if clocks else None,
                                    "max": max(clocks, default=None)},
        "driver": meta["driver"], "cuda_runtime": first["cuda_runtime"], "cublas": first["cublas"],
        "date": date, "commit": meta["commit"], "shapes": args.shapes,
        "skipped": [{"step": b, "shape": s, "estimated_s": round(g)} for b, s, g in skipped],
        "budget_s": args.budget,
        "gpu_class": args.gpu_class or None,
        "l2": "cold" if args.cold_l2 else "warm",
    }
    meta_path = os.path.join(args.dir, f"{name}.meta.json")
    with open(meta_path, "w") as f:
        json.dump(info, f, indent=2)
        f.write("\n")
    print(f"wrote {out} ({len(rows)} rows) and {meta_path}; {len(skipped)} runs skipped by the budget; "
          f"SM clock during the sweep: {info['sm_clock_mhz_during_run']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
