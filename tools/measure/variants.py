#!/usr/bin/env python3
"""make variants: builds and times step 10 beside variants of it that did not pay.

Each variant is one patch in tools/measure/variants/ (NN_name.patch: a few lines saying what
it changes and why it was tried, then a unified diff against steps/10_double_buffer/kernel.cuh).
This script applies each patch to a copy of the kernel, renames its namespace, compiles every
copy into its own object (in parallel), links them with tools/measure/variants.cu and runs it.
`make diff`-style reading: `cat tools/measure/variants/03_*.patch` shows exactly what a variant
changes. A patch that no longer applies (the kernel changed) stops the build with one line.

usage: variants.py --arch sm_90 --build build/sm_90 --nvcc nvcc --flags "..." --lib LIB [--list | --check]
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
KERNEL = os.path.join(ROOT, "steps", "10_double_buffer", "kernel.cuh")
PATCHES = os.path.join(ROOT, "tools", "measure", "variants")


def fail(msg):
    print(f"variants: {msg}", file=sys.stderr)
    sys.exit(2)


def read_patch(path):
    """(description lines, hunks): each hunk a list of (' '|'-'|'+', text)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    desc, hunks, i = [], [], 0
    while i < len(lines) and not lines[i].startswith("--- "):
        if lines[i].strip():
            desc.append(lines[i].lstrip("# ").rstrip())
        i += 1
    i += 2  # the --- and +++ lines
    for line in lines[i:]:
        if line.startswith("@@"):
            hunks.append([])
        elif hunks and line[:1] in (" ", "-", "+"):
            hunks[-1].append((line[0], line[1:]))
        elif hunks and line == "":
            continue  # the file's last newline
        elif hunks:
            hunks[-1].append((" ", ""))  # an empty context line whose space an editor removed
    return desc, hunks


def apply(text, hunks, name):
    """The text with every hunk applied in order; each hunk's old lines must match exactly."""
    lines = text.split("\n")
    pos = 0
    for n, hunk in enumerate(hunks, 1):
        old = [t for op, t in hunk if op != "+"]
        new = [t for op, t in hunk if op != "-"]
        at = next((i for i in range(pos, len(lines) - len(old) + 1) if lines[i:i + len(old)] == old), None)
        if at is None:
            fail(f"{name}: hunk {n} no longer matches steps/10_double_buffer/kernel.cuh; "
                 "make the change again on the current kernel and save `diff -u` as the patch")
        lines[at:at + len(old)] = new
        pos = at + len(new)
    return "\n".join(lines)


def device_part(text, namespace):
    """The kernel file up to its configuration table (kConfigs included, the launchers not), in
    namespace `namespace`."""
    cut = text.find("/// Every configuration's kernels")
    if cut < 0:
        fail("kernel.cuh has no \"Every configuration's kernels\" comment to cut the code at")
    body = text[:cut].replace("namespace step10 {", f"namespace {namespace} {{")
    return body + f"}}  // namespace {namespace}\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--build", default="build/sm_90")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--flags", default="-std=c++17 -O3")
    ap.add_argument("--lib", default="")
    ap.add_argument("--ldlibs", default="-lcublas")
    ap.add_argument("--list", action="store_true", help="print the variants and what they change, build nothing")
    ap.add_argument("--build-only", action="store_true", help="build, do not run")
    ap.add_argument("--check", action="store_true",
                    help="only check that every patch still applies to the kernel (make test runs this)")
    args = ap.parse_args()

    kernel = open(KERNEL, encoding="utf-8").read()
    variants = [("shipped", ["step 10 as it ships (no patch)"], [])]
    for f in sorted(os.listdir(PATCHES)):
        if f.endswith(".patch"):
            name = re.sub(r"^\d+_", "", f[:-len(".patch")])
            if not re.fullmatch(r"[a-z0-9_]+", name):
                fail(f"{f}: a variant's name is lower case, digits and _")
            desc, hunks = read_patch(os.path.join(PATCHES, f))
            variants.append((name, desc, hunks))
    if args.check:
        for name, _, hunks in variants:
            apply(kernel, hunks, name)
        print(f"variants: all {len(variants) - 1} patches apply to steps/10_double_buffer/kernel.cuh")
        return 0
    if args.list:
        for name, desc, _ in variants:
            print(f"{name}: {' '.join(desc)}")
        return 0

    out = os.path.join(ROOT, args.build, "variants")
    os.makedirs(out, exist_ok=True)
    flags = shlex.split(args.flags)
    incs = ["-I" + ROOT, "-I" + os.path.join(ROOT, "common"), "-I" + os.path.join(ROOT, "tools", "measure"),
            "-I" + os.path.join(ROOT, args.build), "-I" + out]
    jobs = []
    for name, _, hunks in variants:
        ns = f"variant_{name}"
        header = os.path.join(out, f"{name}.cuh")
        text = "// generated by tools/measure/variants.py: steps/10_double_buffer/kernel.cuh" + \
               (f" with tools/measure/variants/*_{name}.patch\n" if hunks else "\n") + \
               device_part(apply(kernel, hunks, name), ns)
        if not os.path.exists(header) or open(header, encoding="utf-8").read() != text:
            open(header, "w", encoding="utf-8").write(text)
        unit = os.path.join(out, f"{name}.cu")
        src = (f"// built with: {args.nvcc} {args.flags}\n"  # new flags: a new file, so it is rebuilt
               f'#include "{name}.cuh"\n#include "variant.h"\n'
               f"sgemm_tools::Variant variant_info_{name}() {{\n"
               f"    constexpr {ns}::Config c = {ns}::kConfigs[0];\n"
               f"    return {{\"{name}\", {ns}::sgemm_double_buffer<c.BM, c.BN, c.BK, c.WM, c.WN, c.TM, c.TN, "
               f"c.blocks_per_sm, c.stages, c.unroll, true, true, true>,\n"
               f"            c.BM, c.BN, c.BK, c.stages, c.unroll, c.threads(), c.smem_bytes()}};\n}}\n")
        if not os.path.exists(unit) or open(unit, encoding="utf-8").read() != src:
            open(unit, "w", encoding="utf-8").write(src)
        obj = os.path.join(out, f"{name}.o")
        if not os.path.exists(obj) or os.path.getmtime(obj) < max(os.path.getmtime(header), os.path.getmtime(unit)):
            jobs.append([args.nvcc, *flags, *incs, "-c", unit, "-o", obj])
    with open(os.path.join(out, "variants_list.inc"), "w", encoding="utf-8") as f:
        f.writelines(f"VARIANT({name})\n" for name, _, _ in variants)

    def run(cmd):
        r = subprocess.run(cmd, capture_output=True, text=True)
        return cmd, r
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for cmd, r in pool.map(run, jobs):
            if r.returncode != 0:
                sys.stderr.write(r.stdout + r.stderr)
                fail(f"compiling {cmd[-3]} failed")
    exe = os.path.join(out, "variants")
    objs = [os.path.join(out, f"{name}.o") for name, _, _ in variants]
    cmd = [args.nvcc, *flags, *incs, os.path.join(ROOT, "tools", "measure", "variants.cu"), *objs,
           *([args.lib] if args.lib else []), *shlex.split(args.ldlibs), "-o", exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        fail("linking the variants failed")
    if args.build_only:
        print(f"built {exe}")
        return 0
    for name, desc, _ in variants:
        print(f"# {name}: {' '.join(desc)}")
    sys.stdout.flush()
    return subprocess.run([exe]).returncode


if __name__ == "__main__":
    sys.exit(main())
