#!/usr/bin/env python3
"""The include rule of common/ (common/README.md): includes point only downward,

    errors.h  <-  device/  <-  gpu/  <-  launch/  <-  run/

and there is no cycle anywhere. Reads every `#include "..."` of common/ and fails (exit 1,
one line per problem) on
  - an include of a higher layer (device/ including gpu/, gpu/ including launch/ or run/, ...);
  - a cycle: files taken as modules (x.h and x.cpp are one), so that x.cpp including y.h while
    y.h includes x.h counts, as the linker would see it;
  - run/harness.h included by anything but run/harness.cpp: the harness is the top of run/
    (it may call the self-check; nothing calls it);
  - a file of ours included by its bare name instead of from common/ ("device/cuda_check.cuh");
  - a file of common/ outside the layers (every file but errors.h lives in a layer's folder).
`make test` runs it before the Catch2 tests. Needs no build and no GPU.

    tools/compile/check_includes.py [--root DIR]   check DIR/common (default: this repository)
    tools/compile/check_includes.py --self-test     plant an upward include and a cycle in a
                                                    copy of common/ and show that both fail
"""
import argparse
import pathlib
import re
import shutil
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
LAYERS = ["errors.h", "device", "gpu", "launch", "run"]  # bottom first
SUFFIXES = {".h", ".cuh", ".cpp", ".cu", ".def"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
TOP = "run/harness"  # the module nothing else may include


def layer_name(layer):
    """A layer as the rule names it: errors.h, device/, gpu/, ..."""
    return layer if layer.endswith(".h") else layer + "/"


def layer_of(rel):
    """Index into LAYERS of a path relative to common/ ("gpu/gpu.h" -> 2); None outside them."""
    parts = rel.split("/")
    if len(parts) == 1:
        return 0 if rel == "errors.h" else None
    return LAYERS.index(parts[0]) if parts[0] in LAYERS[1:] and len(parts) == 2 else None


def module_of(rel):
    """x.h, x.cuh, x.cpp and x.cu of one folder are one module: "run/harness"."""
    return rel.rsplit(".", 1)[0]


def check(common):
    """The problems of the tree under `common`, one line each, and how many files were read."""
    files = sorted(p for p in common.rglob("*") if p.is_file() and p.suffix in SUFFIXES)
    problems = []
    edges = {}  # module -> {module: "file includes file", ...}
    for path in files:
        rel = path.relative_to(common).as_posix()
        layer = layer_of(rel)
        if layer is None:
            problems.append(f"common/{rel}: not in a layer; put it in one of "
                            f"{', '.join(l + '/' for l in LAYERS[1:])} (only errors.h sits in common/ itself)")
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for name in INCLUDE.findall(text):
            beside = path.parent / name
            if path.parent != common and beside.is_file():
                target = beside.relative_to(common).as_posix()
                problems.append(f"common/{rel}: #include \"{name}\": write it from common/, as "
                                f"#include \"{target}\"")
            elif (common / name).is_file():
                target = name
            else:
                continue  # not ours: a system or CUDA header, or the build's steps_registry.h
            to_layer = layer_of(target)
            if to_layer is not None and to_layer > layer:
                allowed = [layer_name(l) for l in LAYERS[:layer + 1]]
                problems.append(f"common/{rel}: includes \"{target}\", which is in a higher layer "
                                f"({layer_name(LAYERS[layer])} may include only {', '.join(allowed)})")
            if module_of(target) == TOP and module_of(rel) != TOP:
                problems.append(f"common/{rel}: includes \"{target}\"; the harness is the top of run/ "
                                "and nothing in common/ includes it (it calls the others)")
            a, b = module_of(rel), module_of(target)
            if a != b:
                edges.setdefault(a, {}).setdefault(b, f"{rel} includes {target}")
    problems += [f"include cycle: {c}" for c in cycles(edges)]
    return problems, len(files)


def cycles(edges):
    """One description per cycle found by a depth-first walk of the module graph."""
    found, state, stack = [], {}, []

    def walk(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(edges.get(node, {})):
            if state.get(nxt) == "open":
                loop = stack[stack.index(nxt):] + [nxt]
                found.append("; ".join(edges[x][y] for x, y in zip(loop, loop[1:])))
            elif nxt not in state:
                walk(nxt)
        stack.pop()
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            walk(node)
    return found


def report(common):
    problems, count = check(common)
    for p in problems:
        print(f"check_includes: {p}", file=sys.stderr)
    if problems:
        print(f"check_includes: {len(problems)} problem(s) in {count} files of common/ "
              "(the rule: common/README.md)", file=sys.stderr)
        return 1
    print(f"include rule: {count} files of common/, every include downward "
          f"({' <- '.join(map(layer_name, LAYERS))}), no cycle")
    return 0


def self_test():
    """Plants two mistakes in a copy of common/ and checks that each is caught."""
    plants = [
        ("device/cuda_check.cuh", '#include "run/timing.cuh"\n', "higher layer"),      # upward
        ("run/compare.h", '#include "run/self_check.h"\n', "include cycle"),          # a cycle
        ("run/self_check.cpp", '#include "run/harness.h"\n', "top of run/"),          # the top
    ]
    failed = 0
    for rel, line, expect in plants:
        with tempfile.TemporaryDirectory() as tmp:
            copy = pathlib.Path(tmp) / "common"
            shutil.copytree(ROOT / "common", copy)
            target = copy / rel
            target.write_text(target.read_text().replace("#pragma once\n", "#pragma once\n" + line, 1)
                              if "#pragma once\n" in target.read_text() else line + target.read_text())
            problems, _ = check(copy)
            hit = [p for p in problems if expect in p]
            print(f"planted {line.strip()} in common/{rel}: " +
                  (f"caught: {hit[0]}" if hit else f"NOT caught (problems: {problems})"))
            failed += not hit
    clean, count = check(ROOT / "common")
    print(f"the real common/ ({count} files): {len(clean)} problem(s)")
    return 1 if failed or clean else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=pathlib.Path, default=ROOT, help="the repository to check")
    parser.add_argument("--self-test", action="store_true", help="show that planted mistakes fail")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    return report(args.root / "common")


if __name__ == "__main__":
    sys.exit(main())
