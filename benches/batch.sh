#!/usr/bin/env bash
# Batch rendering against one `bpvm render` process per target, and the
# memory a batch takes as it grows.
#
#   cargo build --release -p bpvm-cli
#   cargo run --release --example monorepo -- /tmp/monorepo
#   benches/batch.sh /tmp/monorepo
#
# Environment:
#   BPVM=path    the bpvm binary (default target/release/bpvm)
#   LIMIT=N      time only the first N targets of each kind one process at a
#                time, and extrapolate to all of them (both are printed)
#   RUNS=N       runs of each batch measurement; the median is reported (3)
#   MONOREPO=path the generator, for part 3 (target/release/examples/monorepo)
#
# Measurements:
#   1. per-process: every target rendered by its own `bpvm render`, one
#      after the other, output to /dev/null. Targets are read from the
#      tree: each Windsor project (windsor.yaml beside contexts/_template/)
#      gives its contexts/* folders but _template; each service.yaml its
#      service.vars.yaml. Its memory column is the larger peak of one
#      Windsor and one Bluelink render.
#   2. batch: `bpvm batch DIR --jobs 1` and `--jobs 2`, RUNS times each,
#      under GNU time (elapsed seconds, peak RSS).
#   3. rss: peak RSS of `bpvm batch` (default jobs) over monorepos of
#      exactly 250, 500 and 1,000 targets (8, 16 and 32 projects of 25
#      contexts plus 50, 100 and 200 blueprints), generated with the same
#      generator (MONOREPO=path, default target/release/examples/monorepo;
#      skipped when it is missing).
#   4. affected-by: `bpvm batch --affected-by HEAD --list` on a git copy
#      of the monorepo with one file changed, without and with a warm
#      render cache (skipped without git).
#   5. incremental: benches/cache.sh over the monorepo — input tracking's
#      cost, cold and warm render cache runs (CACHE=0 skips it).
# Parts 2 and 3 are skipped when GNU time (/usr/bin/time) is missing or
# the binary has no `batch` subcommand.
#
# Exits 1 when a target failed to render (after printing the table).

set -euo pipefail

usage() { echo "usage: [BPVM=bin] [LIMIT=N] [RUNS=N] $0 MONOREPO_DIR" >&2; exit 2; }
[[ $# -eq 1 ]] || usage
ROOT=${1%/}
BPVM=${BPVM:-target/release/bpvm}
LIMIT=${LIMIT:-}
RUNS=${RUNS:-3}
[[ -d $ROOT ]] || { echo "error: $ROOT is not a folder" >&2; exit 2; }
[[ -x $BPVM ]] || { echo "error: $BPVM is not an executable (build with: cargo build --release -p bpvm-cli, or set BPVM)" >&2; exit 2; }
if [[ -n $LIMIT && ! $LIMIT =~ ^[1-9][0-9]*$ ]]; then
    echo "error: LIMIT=$LIMIT: expected a positive whole number" >&2
    exit 2
fi
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "error: RUNS=$RUNS: expected a positive whole number" >&2; exit 2; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# --- Targets ---------------------------------------------------------------

WINDSOR=()  # "project<TAB>context"
BLUELINK=() # "blueprint<TAB>vars file or empty"
while IFS= read -r -d '' file; do
    project=${file%/windsor.yaml}
    [[ -d $project/contexts/_template ]] || continue
    while IFS= read -r -d '' ctx; do
        name=${ctx##*/}
        [[ $name == _template ]] && continue
        WINDSOR+=("$project"$'\t'"$name")
    done < <(find "$project/contexts" -mindepth 1 -maxdepth 1 -type d -print0 | LC_ALL=C sort -z)
done < <(find "$ROOT" -type f -name windsor.yaml -not -path '*/contexts/*' -print0 | LC_ALL=C sort -z)
while IFS= read -r -d '' bp; do
    vars=${bp%.yaml}.vars.yaml
    [[ -f $vars ]] || vars=""
    BLUELINK+=("$bp"$'\t'"$vars")
done < <(find "$ROOT" -type f -name service.yaml -not -path '*/contexts/*' -print0 | LC_ALL=C sort -z)
TOTAL=$(( ${#WINDSOR[@]} + ${#BLUELINK[@]} ))
(( TOTAL > 0 )) || { echo "error: no targets under $ROOT (generate them with: cargo run --release --example monorepo -- $ROOT)" >&2; exit 2; }
echo "targets: ${#WINDSOR[@]} Windsor contexts + ${#BLUELINK[@]} Bluelink blueprints = $TOTAL under $ROOT"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

FAILED=0
failed() {
    FAILED=$(( FAILED + 1 ))
    (( FAILED <= 5 )) && echo "  failed: $*" >&2
    return 0
}

render_windsor() { # "project<TAB>context"
    "$BPVM" render --project "${1%%$'\t'*}" --context "${1#*$'\t'}" >/dev/null 2>&1 || failed "windsor ${1/$'\t'/ --context }"
}
render_bluelink() { # "blueprint<TAB>vars"
    local bp=${1%%$'\t'*} vars=${1#*$'\t'}
    if [[ -n $vars ]]; then
        "$BPVM" render "$bp" --vars "$vars" >/dev/null 2>&1 || failed "bluelink $bp"
    else
        "$BPVM" render "$bp" >/dev/null 2>&1 || failed "bluelink $bp"
    fi
}

# --- 1. One process per target ---------------------------------------------

# Times the first LIMIT (or all) of the targets of one kind; sets
# KIND_SECS (measured), KIND_DONE (how many) and KIND_EST (all of them).
time_kind() {
    local fn=$1; shift
    local all=$# n=$# t0 t1 target
    [[ -n $LIMIT ]] && (( LIMIT < n )) && n=$LIMIT
    t0=$(now)
    for target in "${@:1:n}"; do "$fn" "$target"; done
    t1=$(now)
    KIND_SECS=$(secs "$t0" "$t1")
    KIND_DONE=$n
    KIND_EST=$(awk -v s="$KIND_SECS" -v n="$n" -v a="$all" 'BEGIN { printf "%.2f", n ? s * a / n : 0 }')
}

echo "per-process: rendering ${LIMIT:+the first $LIMIT of each kind of }$TOTAL targets, one process each…"
W_SECS=0 W_DONE=0 W_EST=0 B_SECS=0 B_DONE=0 B_EST=0
if (( ${#WINDSOR[@]} )); then
    time_kind render_windsor "${WINDSOR[@]}"
    W_SECS=$KIND_SECS W_DONE=$KIND_DONE W_EST=$KIND_EST
    echo "  windsor:  $W_DONE targets in ${W_SECS}s ($(awk -v s="$W_SECS" -v n="$W_DONE" 'BEGIN { printf "%.1f", 1000 * s / n }') ms each)"
fi
if (( ${#BLUELINK[@]} )); then
    time_kind render_bluelink "${BLUELINK[@]}"
    B_SECS=$KIND_SECS B_DONE=$KIND_DONE B_EST=$KIND_EST
    echo "  bluelink: $B_DONE targets in ${B_SECS}s ($(awk -v s="$B_SECS" -v n="$B_DONE" 'BEGIN { printf "%.1f", 1000 * s / n }') ms each)"
fi
PP_DONE=$(( W_DONE + B_DONE ))
PP_SECS=$(awk -v a="$W_SECS" -v b="$B_SECS" 'BEGIN { printf "%.2f", a + b }')
PP_EST=$(awk -v a="$W_EST" -v b="$B_EST" 'BEGIN { printf "%.2f", a + b }')
echo "  total:    $PP_DONE targets in ${PP_SECS}s; all $TOTAL: ${PP_EST}s$( (( PP_DONE < TOTAL )) && echo " (extrapolated)")"

# --- GNU time --------------------------------------------------------------

HAVE_TIME=1
if ! /usr/bin/time -f '%e %M' -o "$WORK/probe" true 2>/dev/null; then
    echo "GNU time is missing (/usr/bin/time); install it with: apt-get install -y time. Skipping the memory and batch measurements." >&2
    HAVE_TIME=0
fi

mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# The peak RSS (KB) of one render of each kind, for the per-process row.
PP_RSS=""
if (( HAVE_TIME )); then
    peak=0
    if (( ${#WINDSOR[@]} )); then
        t=${WINDSOR[0]}
        /usr/bin/time -f '%e %M' -o "$WORK/one" "$BPVM" render --project "${t%%$'\t'*}" --context "${t#*$'\t'}" >/dev/null 2>&1 || true
        read -r _ kb <"$WORK/one"; (( kb > peak )) && peak=$kb
    fi
    if (( ${#BLUELINK[@]} )); then
        t=${BLUELINK[0]}
        vars=${t#*$'\t'}
        /usr/bin/time -f '%e %M' -o "$WORK/one" "$BPVM" render "${t%%$'\t'*}" ${vars:+--vars "$vars"} >/dev/null 2>&1 || true
        read -r _ kb <"$WORK/one"; (( kb > peak )) && peak=$kb
    fi
    PP_RSS=$(mb "$peak")
fi

# --- 2 and 3. bpvm batch ---------------------------------------------------

HAVE_BATCH=1
if ! "$BPVM" batch --help >/dev/null 2>&1; then
    echo "bpvm batch not available in $BPVM: skipping the batch and rss measurements" >&2
    HAVE_BATCH=0
fi

# Runs `bpvm batch DIR ARGS...` RUNS times; sets RUN_SECS (median),
# RUN_RSS (largest peak, MB) and RUN_OK (0 when any run failed).
batch_runs() {
    local dir=$1 times=() peak=0 i s kb
    shift
    RUN_OK=1
    for ((i = 0; i < RUNS; i++)); do
        if ! /usr/bin/time -f '%e %M' -o "$WORK/time" "$BPVM" batch "$dir" "$@" >"$WORK/log" 2>&1; then
            RUN_OK=0
            echo "  bpvm batch $* failed; its last lines:" >&2
            tail -n 5 "$WORK/log" | sed 's/^/    /' >&2
        fi
        # GNU time prints "Command exited with non-zero status" first then.
        read -r s kb < <(tail -n 1 "$WORK/time")
        times+=("$s")
        (( kb > peak )) && peak=$kb
    done
    RUN_SECS=$(printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    RUN_RSS=$(mb "$peak")
}

ROWS=()
row() { ROWS+=("| $1 | $2 | $3 | $4 |"); }

# One run, not a median: it is long, and each of its renders is timed alike.
if (( PP_DONE < TOTAL )); then
    row "per-process (one run), measured" "$PP_DONE" "$PP_SECS" "${PP_RSS:-–} (one render)"
    row "per-process, extrapolated" "$TOTAL" "$PP_EST" "${PP_RSS:-–} (one render)"
else
    row "per-process (one run)" "$TOTAL" "$PP_SECS" "${PP_RSS:-–} (one render)"
fi

J1_SECS="" J2_SECS=""
if (( HAVE_TIME && HAVE_BATCH )); then
    for jobs in 1 2; do
        echo "batch --jobs $jobs: $RUNS runs…"
        batch_runs "$ROOT" --jobs "$jobs"
        (( RUN_OK )) || FAILED=$(( FAILED + 1 ))
        row "batch --jobs $jobs$( (( RUN_OK )) || echo ' (failed)')" "$TOTAL" "$RUN_SECS" "$RUN_RSS"
        if (( jobs == 1 )); then J1_SECS=$RUN_SECS; else J2_SECS=$RUN_SECS; fi
    done
    GEN=${MONOREPO:-target/release/examples/monorepo}
    if [[ -x $GEN ]]; then
        for spec in "250 8 50" "500 16 100" "1000 32 200"; do
            read -r n projects blueprints <<<"$spec"
            echo "rss: $n targets, $RUNS runs…"
            "$GEN" --projects "$projects" --contexts 25 --blueprints "$blueprints" "$WORK/m$n" >/dev/null
            batch_runs "$WORK/m$n"
            (( RUN_OK )) || FAILED=$(( FAILED + 1 ))
            row "rss: batch$( (( RUN_OK )) || echo ' (failed)')" "$n" "$RUN_SECS" "$RUN_RSS"
            rm -rf "${WORK:?}/m$n"
        done
    else
        echo "the generator $GEN is missing (cargo build --release --example monorepo): skipping the rss measurements" >&2
    fi
fi

# --- 4. --affected-by ------------------------------------------------------
# A copy of the monorepo committed to git, one file changed (a line added
# to the first Bluelink blueprint), then `bpvm batch --affected-by HEAD
# --list`: with templates loaded alone, and with every manifest from a
# warm render cache. Skipped without git.

if (( HAVE_TIME && HAVE_BATCH )) && command -v git >/dev/null; then
    AFF="$WORK/affected"
    cp -R "$ROOT" "$AFF"
    gitq() { git -C "$AFF" -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false "$@" >/dev/null; }
    gitq init -q -b main && gitq add -A && gitq commit -q -m start
    first=$(find "$AFF" -type f -name service.yaml | LC_ALL=C sort | head -n 1)
    printf '\n# changed\n' >>"$first"
    echo "affected-by: $RUNS runs each…"
    batch_runs "$AFF" --affected-by HEAD --list
    (( RUN_OK )) || FAILED=$(( FAILED + 1 ))
    row "batch --affected-by HEAD --list (one file changed, templates loaded)" "$TOTAL" "$RUN_SECS" "$RUN_RSS"
    "$BPVM" batch "$AFF" --cache "$WORK/cache" >/dev/null 2>&1 || FAILED=$(( FAILED + 1 ))
    batch_runs "$AFF" --affected-by HEAD --list --cache "$WORK/cache"
    (( RUN_OK )) || FAILED=$(( FAILED + 1 ))
    row "batch --affected-by HEAD --list (one file changed, warm cache)" "$TOTAL" "$RUN_SECS" "$RUN_RSS"
    rm -rf "${AFF:?}" "${WORK:?}/cache"
fi

# --- Report ----------------------------------------------------------------

echo
echo "| measurement | targets | median s | max RSS MB |"
echo "|---|---:|---:|---:|"
printf '%s\n' "${ROWS[@]}"
echo
if [[ -n $J2_SECS ]]; then
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f×", a / b; else printf "–" }'; }
    what="per-process"
    (( PP_DONE < TOTAL )) && what="per-process (extrapolated)"
    echo "- $what / batch --jobs 2: $(ratio "$PP_EST" "$J2_SECS")"
    echo "- batch --jobs 1 / batch --jobs 2: $(ratio "$J1_SECS" "$J2_SECS")"
else
    echo "- ratios: no batch measurement (see above)"
fi

# --- 5. Input tracking and the render cache --------------------------------
# `benches/cache.sh` over the same monorepo (its own table): runs without
# and with input tracking, and with a cold and a warm render cache.
# Skipped with CACHE=0.

if [[ ${CACHE:-1} != 0 ]] && (( HAVE_BATCH )); then
    echo
    BPVM="$BPVM" RUNS="$RUNS" "$(dirname "$0")/cache.sh" "$ROOT" || FAILED=$(( FAILED + 1 ))
fi
if (( FAILED )); then
    echo "$FAILED failure(s): a render or a batch run did not succeed" >&2
    exit 1
fi
