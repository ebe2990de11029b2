# Sourced by the result scripts (not run): sets what every measured file records.
#   gpu     the GPU's name, e.g. "NVIDIA H100 80GB HBM3"
#   driver  the driver version nvidia-smi reports
#   slug    the name results files use for that GPU: "h100-80gb-hbm3"
#   commit  $SGEMM_COMMIT if set (for a copy of the tree without .git), else HEAD,
#           with "-dirty" when tracked files have uncommitted changes
#   cuda    the CUDA release nvcc reports, e.g. "13.0"
#   stamp   the line a results file opens with: GPU, driver, CUDA, date (UTC) and commit
# and the function header WHAT, which prints the two lines every results file opens with: what
# made it, then the stamp (tools/pages/results_table.py reads them into docs/results/README.md).
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -n 1)
slug=$(echo "$gpu" | tr 'A-Z' 'a-z' | sed 's/nvidia//; s/geforce//; s/[^a-z0-9]\{1,\}/-/g; s/^-*//; s/-*$//')
if [ -n "${SGEMM_COMMIT:-}" ]; then
    commit=$SGEMM_COMMIT
else
    commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
    if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
        commit="$commit-dirty"
    fi
fi
cuda=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')
stamp="$gpu, driver $driver, CUDA $cuda, $(date -u +%Y-%m-%d), commit $commit"
header() {
    echo "# $1"
    echo "# $stamp"
}
