#!/usr/bin/env python3
"""make cutlass: fetches CUTLASS's headers from PyPI's nvidia-cutlass package into build/ (never
into the repository), for tools/measure/cutlass_compare.cu.

Downloads the wheel with pip (no dependencies, nothing installed) and unpacks its
cutlass_library/source/include/ into DEST/include, so that DEST/include/cutlass/cutlass.h exists.
A machine without the network can be handed DEST from one that has it (a GPU machine: copy
build/cutlass along with the tree).

usage: tools/measure/get_cutlass.py VERSION DEST     (e.g. 4.2.0.0 build/cutlass)
"""
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

PREFIX = "cutlass_library/source/include/"


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    version, dest = sys.argv[1], Path(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        got = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--dest", tmp,
                              f"nvidia-cutlass=={version}"], capture_output=True, text=True)
        wheels = list(Path(tmp).glob("nvidia_cutlass-*.whl"))
        if got.returncode != 0 or not wheels:
            why = (got.stderr.strip().splitlines() or ["no wheel"])[-1]
            print(f"get_cutlass.py: could not download nvidia-cutlass=={version} from PyPI ({why}); "
                  f"on a machine without the network, copy {dest} from one that has it", file=sys.stderr)
            return 2
        include = dest / "include"
        shutil.rmtree(include, ignore_errors=True)
        with zipfile.ZipFile(wheels[0]) as wheel:
            for name in wheel.namelist():
                if name.startswith(PREFIX) and not name.endswith("/"):
                    target = include / name[len(PREFIX):]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(wheel.read(name))
    if not (include / "cutlass" / "cutlass.h").exists():
        print(f"get_cutlass.py: the wheel of nvidia-cutlass=={version} has no {PREFIX}cutlass/cutlass.h", file=sys.stderr)
        return 2
    print(f"CUTLASS {version}'s headers in {include}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
