#!/usr/bin/env bash
# Builds libbpvm_capi.a and tests the Go package against it: go vet, go test,
# go test -race. Arguments are passed to each go test (e.g. -run Eval, or
# -bench . to run the benchmarks as well).
#
# The Rust target folder is $CARGO_TARGET_DIR when set, else <repo>/target.
# Installs Go from Debian when `go` is missing (CI runs on a fresh machine).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

if ! command -v go > /dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && $sudo apt-get install -y -qq golang-go > /dev/null
fi

echo "== cargo build --release -p bpvm-capi"
(cd "$repo" && cargo build --release -p bpvm-capi)

target="${CARGO_TARGET_DIR:-$repo/target}"
case "$target" in
  /*) ;;
  *) target="$repo/$target" ;; # cargo reads a relative one from where it runs
esac
export CGO_ENABLED=1
export CGO_LDFLAGS="-L$target/release ${CGO_LDFLAGS:-}"

cd "$here"
echo "== go version"
go version
echo "== go vet"
go vet ./...
echo "== go test"
go test -count=1 "$@" ./...
echo "== go test -race"
go test -count=1 -race "$@" ./...
