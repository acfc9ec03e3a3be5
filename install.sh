#!/bin/sh
# Installs a released bpvm binary: no Rust toolchain needed.
#
#   curl -fsSL https://raw.githubusercontent.com/bpvm/bpvm/main/install.sh | sh
#   curl -fsSL https://raw.githubusercontent.com/bpvm/bpvm/main/install.sh | sh -s -- --version v0.1.0
#
# Picks the archive for this machine (Linux or macOS, x86-64 or arm64),
# checks it against its published SHA-256 and puts `bpvm` in the install
# folder. Nothing is installed when a download or the check fails.
#
# Options (each also read from the environment):
#   --version V   BPVM_VERSION       a release tag such as v0.1.0 (default: latest)
#   --dir DIR     BPVM_INSTALL_DIR   where `bpvm` goes (default: ~/.local/bin)
#                 BPVM_RELEASES_URL  where releases are downloaded from
#                                    (default: https://github.com/bpvm/bpvm/releases)
set -eu

version="${BPVM_VERSION:-latest}"
dir="${BPVM_INSTALL_DIR:-}"
releases="${BPVM_RELEASES_URL:-https://github.com/bpvm/bpvm/releases}"

fail() {
  echo "bpvm install: error: $*" >&2
  exit 1
}

usage() {
  echo "usage: install.sh [--version vX.Y.Z|latest] [--dir DIR]"
}

while [ "$#" -gt 0 ]; do
  case "$1" in
    --version) [ "$#" -ge 2 ] || fail "--version needs a value"; version="$2"; shift 2 ;;
    --version=*) version="${1#*=}"; shift ;;
    --dir) [ "$#" -ge 2 ] || fail "--dir needs a value"; dir="$2"; shift 2 ;;
    --dir=*) dir="${1#*=}"; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; fail "unknown option '$1'" ;;
  esac
done
if [ -z "$dir" ]; then
  [ -n "${HOME:-}" ] || fail "HOME is not set: set BPVM_INSTALL_DIR or pass --dir"
  dir="$HOME/.local/bin"
fi

# The platform names the release archives use.
detect_os() {
  os="$(uname -s)"
  case "$os" in
    Linux) echo linux ;;
    Darwin) echo macos ;;
    *) fail "no release archive for the operating system '$os' (there are archives for Linux and macOS); build from source: cargo install --locked --git https://github.com/bpvm/bpvm bpvm-cli" ;;
  esac
}

detect_arch() {
  arch="$(uname -m)"
  # A shell under Rosetta reports x86_64 on an arm64 Mac: take the native binary.
  if [ "$1" = macos ] && [ "$arch" = x86_64 ] &&
    [ "$(sysctl -n sysctl.proc_translated 2> /dev/null || echo 0)" = 1 ]; then
    arch=arm64
  fi
  case "$arch" in
    x86_64 | amd64) echo x86_64 ;;
    aarch64 | arm64) echo aarch64 ;;
    *) fail "no release archive for the processor '$arch' (there are archives for x86_64 and arm64)" ;;
  esac
}

# download URL FILE: fails with the URL when the server refuses it.
download() {
  if command -v curl > /dev/null; then
    curl --proto '=https,http,file' -fsSL --retry 3 -o "$2" "$1" ||
      fail "could not download $1 (is '$version' a released version?)"
  elif command -v wget > /dev/null; then
    wget -q -O "$2" "$1" ||
      fail "could not download $1 (is '$version' a released version?)"
  else
    fail "neither curl nor wget is installed: install one of them and run this again"
  fi
}

sha256_of() {
  if command -v sha256sum > /dev/null; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum > /dev/null; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  elif command -v openssl > /dev/null; then
    openssl dgst -sha256 "$1" | sed 's/^.*= *//'
  else
    fail "no SHA-256 tool (sha256sum, shasum or openssl) to check the download with"
  fi
}

os="$(detect_os)"
arch="$(detect_arch "$os")"
name="bpvm-$arch-$os"
case "$version" in
  latest) base="$releases/latest/download" ;;
  v*) base="$releases/download/$version" ;;
  *) version="v$version"; base="$releases/download/$version" ;;
esac

tmp="$(mktemp -d 2> /dev/null || mktemp -d -t bpvm)"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

echo "bpvm install: downloading $name.tar.gz ($version)" >&2
download "$base/$name.tar.gz" "$tmp/$name.tar.gz"
download "$base/$name.tar.gz.sha256" "$tmp/$name.tar.gz.sha256"

expected="$(cut -d ' ' -f 1 < "$tmp/$name.tar.gz.sha256")"
actual="$(sha256_of "$tmp/$name.tar.gz")"
[ -n "$expected" ] || fail "$name.tar.gz.sha256 is empty"
[ "$expected" = "$actual" ] ||
  fail "checksum mismatch for $name.tar.gz: expected $expected, got $actual; nothing was installed"

tar -xzf "$tmp/$name.tar.gz" -C "$tmp" || fail "could not unpack $name.tar.gz"
[ -f "$tmp/$name/bpvm" ] || fail "$name.tar.gz holds no $name/bpvm"

mkdir -p "$dir" || fail "could not create $dir"
# Copied beside the old binary, then renamed over it: never half a binary.
cp "$tmp/$name/bpvm" "$dir/.bpvm.new" || fail "could not write to $dir"
chmod 755 "$dir/.bpvm.new"
mv -f "$dir/.bpvm.new" "$dir/bpvm" || fail "could not replace $dir/bpvm"

echo "bpvm install: installed $("$dir/bpvm" --version) as $dir/bpvm" >&2
case ":${PATH:-}:" in
  *":$dir:"*) ;;
  *) echo "bpvm install: $dir is not on PATH; add it, e.g. export PATH=\"$dir:\$PATH\"" >&2 ;;
esac
