#!/bin/sh
# make check-generated: draws the pictures and fills the pages' tables again from docs/results/
# (make plots), and fails if that changed a file: every committed picture, table and figure must
# be what the committed results give. Compares each file before and after, so it also works in a
# tree with changes of its own. Without matplotlib it says so and exits 2.
# usage: tools/validate/check_generated.sh [MAKE]
set -eu
make_cmd=${1:-make}
cd "$(dirname "$0")/../.."
# every picture and every page the generator may write (images/ whole: a new picture counts too)
snapshot() {
    { find images -type f; git ls-files '*.md'; } | sort | while read -r f; do
        [ -f "$f" ] && cksum "$f"
    done
}
before=$(mktemp) after=$(mktemp)
trap 'rm -f "$before" "$after"' EXIT
snapshot > "$before"
$make_cmd --no-print-directory plots > /dev/null
snapshot > "$after"
changed=$(diff "$before" "$after" | sed -n 's/^[<>] [0-9]* [0-9]* //p' | sort -u)
if [ -n "$changed" ]; then
    echo "check-generated: make plots changed what is committed, so it was not generated from docs/results/:"
    echo "$changed" | sed 's/^/  /'
    echo "commit what make plots wrote (or fix the generator), then run make check-generated again"
    exit 1
fi
echo "check-generated: make plots rewrote nothing: $(wc -l < "$after") pictures and pages are what docs/results/ gives"
