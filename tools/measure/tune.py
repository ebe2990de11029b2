#!/usr/bin/env python3
"""make tune STEP=08: search step 08's tile sizes on the GPU at hand.

Every candidate (BM, BN, BK, TM, TN) that step 08's kernel accepts is compiled as its own
small program (tools/measure/tune_step08.cu, in parallel), then run one at a time against cuBLAS at
each shape class's size: 4096^3 (tiles of C enough for many waves) and 1024^3 (a C whose
large tiles cannot fill the SMs). A candidate is rejected if ptxas reports register spills,
if it fails verification, or if it does not run. The fastest of the rest at each size
becomes one of this GPU class's entries in steps/08_autotuning/tuned/<arch>.cuh (one entry
when the same candidate wins both), which step 08 includes when built for that
architecture; step 08 then chooses among the entries by the problem's shape
(sgemm::choose_shape()), weighing each by its speed at the first size. The whole table
goes to docs/results/tune_<arch>.txt.

With --gpu-class sm_XX the search is for a smaller GPU class, on this GPU: each candidate
runs held to the blocks per SM that class gives it (SGEMM_GPU_CLASS, see
common/gpu/gpu.h), the table goes to docs/results/tune_<arch>_as_<class>.txt, and the
winner becomes the header's entry for that class. The speeds are this GPU's, not the class's.

    python3 tools/measure/tune.py [--arch sm_90] [--gpu-class sm_75] [--sizes 4096 1024] [--jobs N] [--list]
"""
import argparse
import concurrent.futures
import datetime
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED_LIMIT = 48 * 1024  # bytes of static shared memory per block


def candidates():
    """Every tile configuration step 08's static_asserts accept, in a range worth timing."""
    out = []
    for BM in (64, 128, 256):
        for BN in (64, 128, 256):
            for BK in (8, 16, 32):
                for TM in (4, 8, 16):
                    for TN in (4, 8, 16):
                        if BM % TM or BN % TN:
                            continue
                        threads = (BM // TM) * (BN // TN)
                        # 32 to 128 accumulators per thread, and one thread tile (16 x 16)
                        # that cannot fit the 255 registers a thread may have: the spill case
                        spill_case = (BM, BN, BK, TM, TN) == (128, 128, 16, 16, 16)
                        if not 64 <= threads <= 512 or not (32 <= TM * TN <= 128 or spill_case):
                            continue
                        if BM % 32 or BK > 32:  # the padding of As
                            continue
                        rows_a, rows_b = threads // (BK // 4), threads // (BN // 4)  # copy passes
                        if threads % (BK // 4) or rows_a == 0 or BM % rows_a:
                            continue
                        if threads % (BN // 4) or rows_b == 0 or BK % rows_b:
                            continue
                        if (BM + BN) * BK * 4 + 128 > SHARED_LIMIT:
                            continue
                        out.append((BM, BN, BK, TM, TN))
    return out


def name(c):
    return "<%d, %d, %d, %d, %d>" % c


def compile_one(c, arch, outdir, nvcc):
    """Builds one candidate; returns (binary or None, spill bytes, compiler message)."""
    tag = "%d_%d_%d_%d_%d" % c
    binary = os.path.join(outdir, "cand_" + tag)
    defs = ["-DTUNE_%s=%d" % (k, v) for k, v in zip(("BM", "BN", "BK", "TM", "TN"), c)]
    cmd = [nvcc, "-std=c++17", "-O3", "-arch=" + arch, "-I" + ROOT, "-I" + os.path.join(ROOT, "common"),
           "--resource-usage", *defs, os.path.join(ROOT, "tools", "measure", "tune_step08.cu"),
           os.path.join(ROOT, "build", arch, "libsgemm_common.a"), "-lcublas", "-o", binary]
    tuned = os.path.join(ROOT, "steps", "08_autotuning", "tuned", arch + ".cuh")
    if os.path.exists(tuned):  # as the Makefile does; the candidate's own sizes are explicit anyway
        cmd.insert(1, '-DSTEP08_TUNED="tuned/%s.cuh"' % arch)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, 0, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "compile failed"
    spills = 0
    lines = p.stderr.splitlines()
    for i, line in enumerate(lines):  # the kernel's "Function properties" block
        if "Function properties" in line and "sgemm_autotunedILi%dELi%dELi%dELi%dELi%dELb1E" % c in line:
            for follow in lines[i + 1:i + 4]:
                m = re.search(r"(\d+) bytes spill stores", follow)
                if m:
                    spills = int(m.group(1))
    return binary, spills, ""


def run_one(binary, size, gpu_class):
    env = dict(os.environ, SGEMM_GPU_CLASS=gpu_class or "")
    p = subprocess.run([binary, str(size)], capture_output=True, text=True, timeout=300, env=env)
    if p.returncode != 0:
        return None, (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
    fields = dict(kv.split("=", 1) for kv in p.stdout.split())
    return fields, ""


ENTRY = re.compile(r"((?:    //.*\n)*    \{[^}]*\"(sm_\d+)\", \"[^\"]*\"\},\n)")


def read_entries(header):
    """The entries of an existing tuned header, as lists by the GPU class searched for."""
    out = {}
    if os.path.exists(header):
        with open(header) as f:
            for m in ENTRY.finditer(f.read()):
                out.setdefault(m.group(2), []).append(m.group(1))
    return out


def write_header(header, arch, entries):
    """The header's list: the architecture's own class first, then smaller classes by number."""
    order = sorted(entries, key=lambda k: (k != arch, -int(k[3:])))
    with open(header, "w") as f:
        f.write("""/// @file
/// @brief Step 08's tile sizes for %(arch)s, one entry per GPU class searched for. Generated by
///        `make tune STEP=08 [CLASS=sm_XX]`; do not edit.
#pragma once

namespace step08 {

/// The winners of the searches on %(arch)s, the GPU's own class first, then smaller classes.
inline constexpr Tuned kTuned[] = {
%(entries)s};

}  // namespace step08
""" % dict(arch=arch, entries="".join("".join(entries[k]) for k in order)))


def git_commit():
    if os.environ.get("SGEMM_COMMIT"):
        return os.environ["SGEMM_COMMIT"]
    try:
        return subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def gpu_name():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                              capture_output=True, text=True, check=True).stdout.splitlines()[0].strip()
    except (OSError, subprocess.CalledProcessError, IndexError):
        return "unknown GPU"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", default=None, help="nvcc target, default: this machine's GPU")
    ap.add_argument("--sizes", type=int, nargs="+", default=[4096, 1024],
                    help="M = N = K of each shape class's timed problem; the first weighs the entries")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel compiles")
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "nvcc"))
    ap.add_argument("--list", action="store_true", help="print the candidates and stop")
    ap.add_argument("--gpu-class", default="", help="search for a smaller GPU class, e.g. sm_75")
    args = ap.parse_args()
    arch = args.arch or subprocess.run(["sh", os.path.join(ROOT, "tools", "compile", "detect_arch.sh")],
                                       capture_output=True, text=True).stdout.strip()
    cands = candidates()
    if args.list:
        for c in cands:
            print(name(c))
        print("%d candidates" % len(cands))
        return 0
    if not os.path.exists(os.path.join(ROOT, "build", arch, "libsgemm_common.a")):
        print("tune: build/%s/libsgemm_common.a is missing; run make first" % arch, file=sys.stderr)
        return 2

    outdir = os.path.join(ROOT, "build", arch, "tune")
    os.makedirs(outdir, exist_ok=True)
    start = time.time()
    print("tune: %d candidates for step 08 on %s (%s), compiling with %d jobs" % (len(cands), gpu_name(), arch, args.jobs),
          flush=True)
    built = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(compile_one, c, arch, outdir, args.nvcc): c for c in cands}
        for i, f in enumerate(concurrent.futures.as_completed(futures), 1):
            built[futures[f]] = f.result()
            if i % 10 == 0 or i == len(cands):
                print("tune: compiled %d/%d (%.0f s)" % (i, len(cands), time.time() - start), flush=True)

    rows = []
    for i, c in enumerate(cands, 1):
        binary, spills, msg = built[c]
        row = {"c": c, "spills": spills, "threads": (c[0] // c[3]) * (c[1] // c[4])}
        if binary is None:
            row.update(verdict="rejected: does not compile (%s)" % msg)
        else:
            for size in args.sizes:
                fields, msg = run_one(binary, size, args.gpu_class)
                if fields is None or fields.get("fits") == "0":
                    break
                fields.pop("threads")
                row.setdefault("at", {})[size] = fields
                row.update(fields if size == args.sizes[0] else {})
            if fields is None:
                row.update(verdict="rejected: did not run (%s)" % msg)
            elif fields.get("fits") == "0":
                row.update(verdict="rejected: does not fit %s" % args.gpu_class)
            elif any(f["verified"] != "pass" for f in row["at"].values()):
                row["verdict"] = "rejected: wrong result"
            else:
                if spills > 0:
                    row["verdict"] = "rejected: spills (%d B of spill stores)" % spills
                elif int(fields["local"]) > 0:  # an array the compiler could not keep in registers
                    row["verdict"] = "rejected: %s B of local memory" % fields["local"]
                else:
                    row["verdict"] = "ok"
        elapsed = time.time() - start
        left = elapsed / i * (len(cands) - i) if i else 0
        print("tune: [%3d/%d] %-22s %8s GFLOP/s  %s  (about %.0f s left)" % (
            i, len(cands), name(c), row.get("gflops", "-"), row["verdict"], left), flush=True)
        rows.append(row)

    timed = [r for r in rows if "gflops" in r]
    good = [r for r in timed if r["verdict"] == "ok"]
    if not good:
        print("tune: no candidate passed; nothing written", file=sys.stderr)
        return 1
    # the winner of each shape class, by its speed at that class's size
    winners = []  # (size, row)
    for size in args.sizes:
        best = max(good, key=lambda r: float(r["at"][size]["gflops"]))
        winners.append((size, best))
        best.setdefault("won", []).append(size)
    for r in good:
        if "won" in r:
            r["verdict"] = "winner at " + ", ".join("%d^3" % z for z in r["won"])
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    gpu, commit = gpu_name(), git_commit()

    klass = args.gpu_class or arch  # the GPU class searched for
    suffix = "_as_" + args.gpu_class if args.gpu_class else ""
    report = os.path.join(ROOT, "docs", "results", "tune_%s%s.txt" % (arch, suffix))
    os.makedirs(os.path.dirname(report), exist_ok=True)
    timed.sort(key=lambda r: -float(r["gflops"]))
    with open(report, "w") as f:
        f.write("# make tune STEP=08 on %s (%s), %s, commit %s\n" % (gpu, arch, date, commit))
        if args.gpu_class:
            f.write("# for the %s class: each candidate held to the blocks per SM %s gives it"
                    " (SGEMM_GPU_CLASS=%s); speeds are the %s's\n" % (klass, klass, klass, gpu))
        f.write("# %d candidates <BM, BN, BK, TM, TN>, each timed at %s (median of 10 after 3 warm-up)"
                " against cuBLAS in the same process; sorted by the first\n" % (
                    len(cands), " and ".join("%d^3" % z for z in args.sizes)))
        f.write("# FLOP/B: global (per byte copied to shared memory) and shared (per byte read from it)\n")
        f.write("%-22s %7s %5s %6s %6s %5s %6s %6s" % (
            "tiles", "threads", "regs", "local", "blk/SM", "warps", "glob", "shared"))
        for z in args.sizes:
            f.write(" %9s %7s" % ("GF@%d" % z, "%cuBLAS"))
        f.write("  verdict\n")
        for r in timed + [r for r in rows if "gflops" not in r]:
            BM, BN, BK, TM, TN = r["c"]
            f.write("%-22s %7d %5s %6s %6s %5s %6.1f %6.2f" % (
                name(r["c"]), r["threads"], r.get("regs", "-"), r.get("local", "-"), r.get("blocks", "-"),
                r.get("warps", "-"), BM * BN / (2.0 * (BM + BN)), TM * TN / (2.0 * (TM + TN))))
            for z in args.sizes:
                at = r.get("at", {}).get(z)
                f.write(" %9s %7s" % (at["gflops"] if at else "-",
                                      "%.1f" % (100 * float(at["gflops"]) / float(at["cublas"])) if at else "-"))
            f.write("  %s\n" % r["verdict"])

    header = os.path.join(ROOT, "steps", "08_autotuning", "tuned", arch + ".cuh")
    entries = read_entries(header)
    entries[klass] = []
    first = args.sizes[0]
    for size, best in winners:
        if best["won"][0] != size:  # the same candidate won an earlier size: one entry
            continue
        at, ref = best["at"][size], best["at"][first]
        shapes = ", ".join("%d^3" % z for z in best["won"])
        entries[klass].append(
            ("    // %s at %s: %s, %s, commit %s: the fastest of %d candidates at %d^3, %s GFLOP/s\n"
             "    // (%.1f%% of cuBLAS); at %d^3 %s GFLOP/s = %.2f%% of the FP32 peak; %s registers, %s blocks/SM;\n"
             "    // docs/results/%s\n"
             "    {%d, %d, %d, %d, %d, %s, %.2f, \"%s\", \"%s\"},\n") % (
                klass, shapes, gpu, date, commit, len(cands), size, at["gflops"],
                100 * float(at["gflops"]) / float(at["cublas"]), first, ref["gflops"],
                100 * float(ref["gflops"]) / float(ref["peak"]), best["regs"], best["blocks"],
                os.path.basename(report), *best["c"], best["blocks"],
                100 * float(ref["gflops"]) / float(ref["peak"]), klass, shapes))
    write_header(header, arch, entries)
    # what includes step 08 must be rebuilt with the new sizes
    os.utime(os.path.join(ROOT, "steps", "08_autotuning", "kernel.cuh"))
    for size, best in winners:
        at = best["at"][size]
        print("tune: winner for %s at %d^3: %s, %s GFLOP/s (%.1f%% of cuBLAS)" % (
            klass, size, name(best["c"]), at["gflops"], 100 * float(at["gflops"]) / float(at["cublas"])))
    print("tune: wrote %s and %s (%.0f s)" % (os.path.relpath(header, ROOT), os.path.relpath(report, ROOT),
                                             time.time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
