#!/bin/sh
# Fills the Homebrew formula template for a release and prints it:
#   packaging/homebrew/fill.sh VERSION DIST > bpvm.rb
# VERSION without the leading v (0.1.0); DIST the folder holding the four
# release archives' .sha256 files. Fails when one is missing, so a formula
# never points at an archive that was not released.
set -eu
[ "$#" -eq 2 ] || { echo "usage: $0 VERSION DIST" >&2; exit 2; }
version="${1#v}"
dist="$2"
template="$(dirname "$0")/bpvm.rb"

sha() { # PLATFORM
  file="$dist/bpvm-$1.tar.gz.sha256"
  [ -s "$file" ] || { echo "error: $file is missing" >&2; exit 1; }
  cut -d ' ' -f 1 < "$file"
}
aarch64_macos="$(sha aarch64-macos)"
x86_64_macos="$(sha x86_64-macos)"
aarch64_linux="$(sha aarch64-linux)"
x86_64_linux="$(sha x86_64-linux)"

# The template's own comment is for the repository, not the tap.
sed -e '/^# /d' \
  -e "s/@VERSION@/$version/g" \
  -e "s/@SHA256_AARCH64_MACOS@/$aarch64_macos/" \
  -e "s/@SHA256_X86_64_MACOS@/$x86_64_macos/" \
  -e "s/@SHA256_AARCH64_LINUX@/$aarch64_linux/" \
  -e "s/@SHA256_X86_64_LINUX@/$x86_64_linux/" \
  "$template"
