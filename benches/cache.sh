#!/usr/bin/env bash
# The cost of input tracking and the gain of the render cache, on a
# monorepo `examples/monorepo.rs` writes:
#
#   cargo build --release -p bpvm-cli
#   cargo run --release --example monorepo -- /tmp/monorepo   # 1,200 targets
#   benches/cache.sh /tmp/monorepo
#
# Environment:
#   BPVM=path   the bpvm binary (default target/release/bpvm)
#   RUNS=N      runs of each measurement; medians are reported (5)
#
# Measurements (whole `bpvm batch` runs, default jobs, wall time):
#   1. tracking: runs with a JUnit report (no input tracking: JUnit has no
#      place for manifests) and with a JSON report (every input tracked,
#      each manifest written), interleaved A, B, A, B…, so that a machine
#      that slows down or speeds up weighs on both alike; the ratio is
#      given of the medians and as the median of each pair's.
#   2. cache: a cold run (`--cache` of an emptied folder: renders and
#      stores every target) then a warm run (nothing changed: every target
#      from the cache), RUNS times.
#   3. with INSTRUCTIONS=1 (and valgrind): the runs of part 1 once each
#      under callgrind, `--jobs 1`, every process counted — instructions,
#      which a busy machine does not change. Slow (about 60× a run): give
#      it a small monorepo (`examples/monorepo.rs` with 4 projects).
#
# Exits 1 when a run fails.

set -euo pipefail

usage() { echo "usage: [BPVM=bin] [RUNS=N] $0 MONOREPO_DIR" >&2; exit 2; }
[[ $# -eq 1 ]] || usage
ROOT=${1%/}
BPVM=${BPVM:-target/release/bpvm}
RUNS=${RUNS:-5}
INSTRUCTIONS=${INSTRUCTIONS:-}
[[ -d $ROOT ]] || { echo "error: $ROOT is not a folder" >&2; exit 2; }
[[ -x $BPVM ]] || { echo "error: $BPVM is not an executable (build with: cargo build --release -p bpvm-cli, or set BPVM)" >&2; exit 2; }
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "error: RUNS=$RUNS: expected a positive whole number" >&2; exit 2; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

now() { date +%s.%N; }
# Runs `bpvm batch ROOT ARGS...` once; prints its wall time in seconds.
timed() {
    local t0 t1
    t0=$(now)
    if ! "$BPVM" batch "$ROOT" "$@" >"$WORK/log" 2>&1; then
        echo "bpvm batch $* failed; its last lines:" >&2
        tail -n 5 "$WORK/log" | sed 's/^/    /' >&2
        exit 1
    fi
    t1=$(now)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f %%", 100 * a / b }'; }
# The median of the ratios of each pair of runs made one after the other
# (A[i] / B[i]): a machine that is busy for a while slows both runs of a
# pair, so this varies less than the ratio of the medians.
paired() {
    local -n a=$1 b=$2
    local i r=()
    for ((i = 0; i < ${#a[@]}; i++)); do
        r+=("$(awk -v x="${a[i]}" -v y="${b[i]}" 'BEGIN { printf "%.4f", x / y }')")
    done
    awk -v m="$(median "${r[@]}")" 'BEGIN { printf "%.1f %%", 100 * m }'
}

# A first run, not counted: it warms the page cache and counts the targets.
timed --report "$WORK/count.json" >/dev/null
targets=$(grep -c '"id"' "$WORK/count.json" || true)
echo "targets: $targets under $ROOT; $RUNS runs of each"

untracked=() tracked=()
for ((i = 0; i < RUNS; i++)); do
    untracked+=("$(timed --report "$WORK/a.xml" --report-format junit)")
    tracked+=("$(timed --report "$WORK/b.json")")
done
A=$(median "${untracked[@]}")
B=$(median "${tracked[@]}")

cold=() warm=()
for ((i = 0; i < RUNS; i++)); do
    rm -rf "$WORK/cache"
    cold+=("$(timed --cache "$WORK/cache")")
    warm+=("$(timed --cache "$WORK/cache")")
done
C=$(median "${cold[@]}")
W=$(median "${warm[@]}")

echo
echo "| run | median s | runs |"
echo "|---|---:|---|"
echo "| untracked (JUnit report) | $A | ${untracked[*]} |"
echo "| tracked (JSON report with manifests) | $B | ${tracked[*]} |"
echo "| cold cache | $C | ${cold[*]} |"
echo "| warm cache | $W | ${warm[*]} |"
echo
echo "- tracked / untracked: $(ratio "$B" "$A") (median of the pairs' ratios: $(paired tracked untracked))"
echo "- warm / cold cache: $(ratio "$W" "$C") (pairs: $(paired warm cold)); warm / untracked: $(ratio "$W" "$A")"

# Instructions of every process of one `bpvm batch --jobs 1` run.
instructions() {
    local dir="$WORK/callgrind" total=0 n file
    rm -rf "$dir" && mkdir "$dir"
    valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$dir/out.%p" \
        "$BPVM" batch "$ROOT" --jobs 1 "$@" >/dev/null 2>&1 || { echo "a run under callgrind failed" >&2; exit 1; }
    for file in "$dir"/out.*; do
        n=$(awk '/^totals:/ { print $2; exit }' "$file")
        total=$((total + n))
    done
    echo "$total"
}
if [[ -n $INSTRUCTIONS ]] && command -v valgrind >/dev/null; then
    IA=$(instructions --report "$WORK/a.xml" --report-format junit)
    IB=$(instructions --report "$WORK/b.json")
    echo "- instructions: untracked $IA, tracked $IB: $(ratio "$IB" "$IA")"
fi
