#!/bin/sh
# make power: each method of make cutlass (steps 11 and 12, CUTLASS's mma.sync GEMMs, both cuBLAS
# modes) run back to back at 8192^3 for a few seconds (`cutlass_compare sustain`), while nvidia-smi
# reads the SM clock, the board's power draw and the clock's limiting reasons every 50 ms. Under
# such a load an H100 holds its power limit by lowering the clock: the file shows at what clock
# each kernel ran, and so how much of its speed the power limit took. Written as
# DIR/power_<gpu>.txt (the table) and DIR/power_<gpu>.csv (for the pages), each headed by where and
# when it was made. The clock and power are the means over the samples after the first second (the
# clock settles) up to the end; "capped" is the share of those samples whose reasons include the
# software power cap (bit 0x4 of clocks_event_reasons.active).
# usage: tools/measure/save_power.sh BINARY DIR [SECONDS]
set -eu
bin=${1:?usage: tools/measure/save_power.sh BINARY DIR [SECONDS]}
dir=${2:?usage: tools/measure/save_power.sh BINARY DIR [SECONDS]}
seconds=${3:-4}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
cd "$(dirname "$0")/../.."
mkdir -p "$dir"
. tools/measure/gpu_meta.sh  # $slug, header
size=8192
samples=$(mktemp)
trap 'rm -f "$samples"' EXIT
csv=method,size,seconds,launches,gflops,sm_mhz,power_w,capped_pct,gflops_per_w
for m in cublas_fp32 cublas_tf32 step11 step12 cutlass_tf32_256x128x32 cutlass_tf32_128x256x32 cutlass_3xtf32_128x128x32; do
    sleep 2  # let the GPU cool between methods
    nvidia-smi --query-gpu=clocks.sm,power.draw,clocks_event_reasons.active --format=csv,noheader,nounits -lms 50 > "$samples" &
    smi=$!
    line=$("$bin" sustain "$m" "$size" "$seconds")
    kill "$smi"
    wait "$smi" 2>/dev/null || true
    row=$(echo "$line" | awk -v s="$seconds" '{printf "%s,%s,%s,%s,%s", $1, $2, s, $3, $4}')
    # samples from the second second on (20 per second); reasons are hex: bit 0x4 is the power cap
    stats=$(tail -n +21 "$samples" | awk -F', *' '
        { c += $1; p += $2; n++; r = $3; sub(/^0x/, "", r); v = 0
          for (i = 1; i <= length(r); i++) v = v * 16 + index("0123456789abcdef", tolower(substr(r, i, 1))) - 1
          if (int(v / 4) % 2 == 1) capped++ }
        END { if (n == 0) exit 1; printf "%.0f,%.0f,%.0f", c / n, p / n, 100 * capped / n }')
    gflops=$(echo "$row" | cut -d, -f5)
    power=$(echo "$stats" | cut -d, -f2)
    csv="$csv
$row,$stats,$(awk -v g="$gflops" -v p="$power" 'BEGIN { printf "%.1f", g / p }')"
    echo "$m done"
done
what="make power (tools/measure/save_power.sh: cutlass_compare sustain METHOD $size $seconds, nvidia-smi every 50 ms)"
{ header "$what, as CSV"; echo "$csv"; } > "$dir/power_$slug.csv"
{ header "$what"
  echo "# power limit: $(nvidia-smi --query-gpu=power.limit --format=csv,noheader | head -n 1); the SM clock's maximum: $(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader | head -n 1)"
  echo "$csv" | awk -F, 'NR == 1 { printf "%-27s %9s %7s %10s %7s %6s %7s %9s\n", "method", "size", "seconds", "GFLOP/s", "SM MHz", "W", "capped", "GFLOP/s/W"; next }
                        { printf "%-27s %9s %7s %10s %7s %6s %6s%% %9s\n", $1, $2 "^3", $3, $5, $6, $7, $8, $9 }'; } > "$dir/power_$slug.txt"
cat "$dir/power_$slug.txt"
echo "wrote $dir/power_$slug.txt and $dir/power_$slug.csv"
