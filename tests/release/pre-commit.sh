#!/usr/bin/env bash
# Runs this repository's pre-commit hooks (.pre-commit-hooks.yaml) with
# `pre-commit try-repo`, as a user's repository would run them: a sample
# git repository made here holds the Windsor example, the Bluelink example
# and their rendered output; the bpvm given (default target/release/bpvm)
# is the one on PATH. Both hooks pass on it; then a context value changed
# without rendering again fails `bpvm batch --check`, and a template
# mistake fails `bpvm check`.
# Needs pre-commit (PyPI) and git (.ci/tools.sh installs them).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bpvm="$(realpath "${1:-$root/target/release/bpvm}")"
[ -x "$bpvm" ] || { echo "error: $bpvm is not an executable (cargo build --release)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
ln -s "$bpvm" "$work/bin/bpvm"
export PATH="$work/bin:$PATH"
# pre-commit's cache and git's identity: the test's own, not the user's.
export PRE_COMMIT_HOME="$work/pre-commit-cache"
export GIT_CONFIG_GLOBAL="$work/gitconfig" GIT_CONFIG_NOSYSTEM=1
git config --global user.name test
git config --global user.email test@example.com
git config --global init.defaultBranch main

sample="$work/sample"
mkdir -p "$sample/services"
cp -R "$root/examples/windsor" "$sample/platform"
cp "$root"/examples/bluelink/* "$sample/services/"
(
  cd "$sample"
  # The rendered output is committed, and is not itself a template.
  echo "rendered/" > .ignore
  bpvm batch . --out rendered > /dev/null 2>&1
  git init --quiet
  git add -A
  git commit --quiet -m sample
)

failures=0
# hook ID EXPECT [WHEN]: runs the hook over the sample; EXPECT is passed or failed.
hook() {
  local status=passed
  (cd "$sample" && pre-commit try-repo "$root" "$1" --all-files) > "$work/$1.log" 2>&1 || status=failed
  if [ "$status" = "$2" ]; then
    echo "ok: $1${3:+ $3}: $2"
  else
    echo "FAIL: $1${3:+ $3}: expected it to have $2; its output:" >&2
    cat "$work/$1.log" >&2
    failures=$((failures + 1))
  fi
}
hook bpvm-check passed
hook bpvm-batch-check passed "on the committed output"
grep -q "bpvm batch --check.*Passed" "$work/bpvm-batch-check.log" || {
  echo "FAIL: bpvm-batch-check did not report Passed" >&2
  failures=$((failures + 1))
}

# A context changed without rendering again: the committed output drifted.
sed -i 's/name: sandbox/name: playground/' "$sample/platform/contexts/local/values.yaml"
hook bpvm-batch-check failed "after a change not rendered again"
grep -q "^+.*playground" "$work/bpvm-batch-check.log" || {
  echo "FAIL: bpvm-batch-check did not show the drift as a diff" >&2
  failures=$((failures + 1))
}
git -C "$sample" checkout --quiet -- .

# A mistake in a template: a value the blueprint's variables do not declare.
sed -i 's/variables\.environment/variables.enviroment/' "$sample/services/blueprint.yaml"
hook bpvm-check failed "on a misspelt variable"
grep -q "enviroment" "$work/bpvm-check.log" || {
  echo "FAIL: bpvm-check did not name the misspelt variable" >&2
  failures=$((failures + 1))
}
[ "$failures" -eq 0 ] || exit 1
