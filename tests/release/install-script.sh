#!/usr/bin/env bash
# Runs install.sh against a fake release served over HTTP on 127.0.0.1:
# archives and checksums made the way the release workflow makes them, from
# the bpvm binary given (default target/release/bpvm). Checks that the
# latest and a given version install and run, and that a tampered archive,
# a missing version and an unknown platform are refused with nothing
# installed. Also fills the Homebrew formula from such a release.
set -euo pipefail
# shellcheck source=tests/release/http-server.sh
source "$(dirname "$0")/http-server.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
bpvm="$(realpath "${1:-$root/target/release/bpvm}")"
[ -x "$bpvm" ] || { echo "error: $bpvm is not an executable (cargo build --release)" >&2; exit 2; }

work="$(mktemp -d)"
server=""
cleanup() {
  [ -z "$server" ] || kill "$server" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

case "$(uname -m)" in
  x86_64) arch=x86_64 ;;
  aarch64 | arm64) arch=aarch64 ;;
esac
name="bpvm-$arch-linux"

# One release folder: the archive and its checksum file, as released
# (.github/workflows/release.yml), for this platform or PLATFORM.
release() { # DIR [PLATFORM]
  local archive="${2:+bpvm-$2}"
  archive="${archive:-$name}"
  mkdir -p "$1/$archive"
  cp "$bpvm" "$1/$archive/bpvm"
  tar -czf "$1/$archive.tar.gz" -C "$1" "$archive"
  rm -r "${1:?}/$archive"
  (cd "$1" && sha256sum "$archive.tar.gz" > "$archive.tar.gz.sha256")
}
site="$work/site"
release "$site/latest/download"
release "$site/download/v0.1.0"
# v0.0.9's archive was changed after its checksum was published.
release "$site/download/v0.0.9"
echo "extra" >> "$site/download/v0.0.9/$name.tar.gz"

serve "$site" "$work/server.log"
export BPVM_RELEASES_URL="http://127.0.0.1:$port"

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# install CASE ARGS...: runs install.sh into $work/CASE, output in $work/CASE.log.
install() {
  local case="$1"
  shift
  BPVM_INSTALL_DIR="$work/$case" sh "$root/install.sh" "$@" > "$work/$case.log" 2>&1
}

if install latest && cmp -s "$bpvm" "$work/latest/bpvm" && "$work/latest/bpvm" --version > /dev/null; then
  pass "the latest release installs and runs"
else
  fail "latest: $(cat "$work/latest.log")"
fi

if install pinned --version 0.1.0 && cmp -s "$bpvm" "$work/pinned/bpvm" &&
  grep -q "installed .* as $work/pinned/bpvm" "$work/pinned.log"; then
  pass "--version 0.1.0 installs v0.1.0"
else
  fail "pinned: $(cat "$work/pinned.log")"
fi

# A second install replaces the binary in place.
if install pinned --version v0.1.0; then
  pass "installing again replaces the binary"
else
  fail "again: $(cat "$work/pinned.log")"
fi

if install tampered --version v0.0.9; then
  fail "a tampered archive was installed"
elif grep -q "checksum mismatch for $name.tar.gz: expected [0-9a-f]\{64\}, got [0-9a-f]\{64\}; nothing was installed" "$work/tampered.log" &&
  [ ! -e "$work/tampered/bpvm" ]; then
  pass "a bad checksum is refused and nothing is installed"
else
  fail "tampered: $(cat "$work/tampered.log")"
fi

if install missing --version v9.9.9; then
  fail "a missing version installed"
elif grep -q "could not download $BPVM_RELEASES_URL/download/v9.9.9/$name.tar.gz (is 'v9.9.9' a released version?)" "$work/missing.log"; then
  pass "a version that was never released is named in the error"
else
  fail "missing: $(cat "$work/missing.log")"
fi

# A platform with no archive: uname answers for FreeBSD.
mkdir -p "$work/fake-bin"
printf '#!/bin/sh\necho FreeBSD\n' > "$work/fake-bin/uname"
chmod +x "$work/fake-bin/uname"
if PATH="$work/fake-bin:$PATH" install freebsd; then
  fail "installed on an unknown operating system"
elif grep -q "no release archive for the operating system 'FreeBSD'" "$work/freebsd.log"; then
  pass "an operating system without archives is refused"
else
  fail "freebsd: $(cat "$work/freebsd.log")"
fi

if install badopt --prefix /x; then
  fail "an unknown option was accepted"
elif grep -q "unknown option '--prefix'" "$work/badopt.log"; then
  pass "an unknown option is refused"
else
  fail "badopt: $(cat "$work/badopt.log")"
fi

# The Homebrew formula, filled as the release workflow fills it.
for platform in aarch64-macos x86_64-macos aarch64-linux x86_64-linux; do
  release "$work/dist" "$platform"
done
# Each platform's url line is followed by that archive's sha256 line.
formula_names_each() {
  local platform
  for platform in aarch64-macos x86_64-macos aarch64-linux x86_64-linux; do
    grep -A1 "download/v0.1.0/bpvm-$platform.tar.gz\"" "$work/bpvm.rb" |
      grep -q "sha256 \"$(cut -d ' ' -f 1 < "$work/dist/bpvm-$platform.tar.gz.sha256")\"" || return 1
  done
}
if sh "$root/packaging/homebrew/fill.sh" v0.1.0 "$work/dist" > "$work/bpvm.rb" 2> "$work/fill.log" &&
  ! grep -q "@" "$work/bpvm.rb" &&
  grep -q 'version "0.1.0"' "$work/bpvm.rb" &&
  [ "$(grep -c 'releases/download/v0.1.0/bpvm-' "$work/bpvm.rb")" -eq 4 ] &&
  formula_names_each; then
  pass "the Homebrew formula names each archive with its checksum"
else
  fail "homebrew: $(cat "$work/fill.log" "$work/bpvm.rb")"
fi
rm "$work/dist/bpvm-x86_64-linux.tar.gz.sha256"
if sh "$root/packaging/homebrew/fill.sh" v0.1.0 "$work/dist" > /dev/null 2> "$work/fill.log"; then
  fail "a formula was filled with an archive missing"
elif grep -q "bpvm-x86_64-linux.tar.gz.sha256 is missing" "$work/fill.log"; then
  pass "no formula without every archive"
else
  fail "homebrew missing: $(cat "$work/fill.log")"
fi

[ "$failures" -eq 0 ] || { echo "$failures install.sh check(s) failed" >&2; exit 1; }
