#!/bin/sh
# make regs: one line per step kernel with its registers, spills, stack and shared memory,
# read from the ptxas resource reports (--resource-usage) that `make regs` keeps beside each
# step's cubin (build/ARCH/regs/stepNN.res). Exits 1 if any step kernel spills registers to local memory. Also writes the
# table as "kernel|registers|static shared memory" lines to build/ARCH/regs/regs.txt, which
# tools/compile/configs.cu reads to say which configuration each architecture gets.
# usage: tools/compile/regs.sh ARCH build/ARCH/regs/stepNN.res ...
set -eu
arch=$1
shift
table=$(dirname "$1")/regs.txt
rm -f "$table.tmp"
printf '%-8s %-56s %5s %7s %7s %7s %9s\n' step kernel regs stack spill_st spill_ld smem_bytes
spilled=0
for res in "$@"; do
    step=$(basename "$res" .res)
    # ptxas prints, per entry function: "Function properties for NAME", then
    # "N bytes stack frame, S bytes spill stores, L bytes spill loads", then "Used R registers, ..."
    awk -v step="$step" '
        /Function properties for/ { name = $NF }
        /bytes stack frame/ { stack = $1; st = $5; ld = $9 }
        /Used [0-9]+ registers/ {
            regs = $5; smem = 0
            if (match($0, /[0-9]+ bytes smem/)) { smem = substr($0, RSTART, RLENGTH); sub(/ .*/, "", smem) }
            if (name ~ /^_ZN6step/) print step, name, regs, stack, st, ld, smem
        }' "$res" |
    while read -r s name regs stack st ld smem; do
        pretty=$(echo "$name" | c++filt | sed 's/(.*//; s/^void //')
        printf '%-8s %-56s %5s %7s %7s %7s %9s\n' "$s" "$pretty" "$regs" "$stack" "$st" "$ld" "$smem"
        printf '%s|%s|%s\n' "$pretty" "$regs" "$smem" >> "$table.tmp"
    done
done | tee /tmp/sgemm_regs.$$
mv "$table.tmp" "$table"
# Kernel names hold spaces ("<64, 64, 8, 8>"), so the spill columns are counted from the end.
# awk exits 0 only if it read the table and found no spill; anything else fails the check.
if ! awk '{ if ($(NF - 2) + 0 > 0 || $(NF - 1) + 0 > 0) bad = 1 } END { exit bad ? 1 : 0 }' /tmp/sgemm_regs.$$; then
    spilled=1
fi
rm -f /tmp/sgemm_regs.$$
if [ "$spilled" -ne 0 ]; then
    echo "FAIL: a step kernel spills registers to local memory on $arch (see spill_st / spill_ld above)"
    exit 1
fi
echo "OK: no step kernel spills on $arch"
