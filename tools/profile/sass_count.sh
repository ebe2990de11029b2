#!/bin/sh
# Counts the global- and shared-memory load and store instructions in the SASS of an
# object file, per kernel and per width: LDG.E is a 4-byte global load, LDG.E.128 a
# 16-byte one; LDS/LDS.128 and STS/STS.128 are the same for shared memory, STG.E and
# STG.E.128 for stores to global memory. These count instructions in the code (both paths
# of a branch, every unrolled copy), not instructions executed.
# usage: tools/profile/sass_count.sh build/sm_90/step06.o      (needs cuobjdump from the CUDA Toolkit)
set -eu
obj=${1:?usage: tools/profile/sass_count.sh OBJECT}
cuobjdump -sass "$obj" | awk '
    /Function : / { name = $NF; order[++kernels] = name; next }
    name != "" && match($0, /(LDG|STG|LDS|STS)(\.[A-Z0-9]+)*/) {
        op = substr($0, RSTART, RLENGTH)
        sub(/\.CONSTANT/, "", op)  # a load through the read-only path: same width
        if (!((name, op) in count)) ops[name] = ops[name] " " op
        count[name, op]++
    }
    END {
        for (i = 1; i <= kernels; i++) {
            name = order[i]
            printf "%s\n", name
            n = split(ops[name], list, " ")
            for (j = 1; j <= n; j++) printf "    %-12s %4d\n", list[j], count[name, list[j]]
        }
    }' | while IFS= read -r line; do
    case $line in
        " "*) echo "$line" ;;
        *) echo "$line" | c++filt | sed 's/(.*//; s/^void //' ;;
    esac
done
