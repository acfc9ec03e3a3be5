#!/bin/sh
# Builds the `bpvm` command as one statically linked Linux executable and
# prints its path (only that goes to standard output):
#   packaging/build-static.sh [TARGET]   (default: this machine's, e.g.
#                                         x86_64-unknown-linux-gnu)
# glibc linked in whole (`crt-static`): the binary needs no libc on the
# machine, so one file runs on any Linux of its architecture and in an
# empty (`scratch`) container image. Only the target gets the flag, so build
# scripts and proc-macros still link as usual. The release workflow, the
# Dockerfile and CI build it this way.
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
target="${1:-$(rustc -vV | sed -n 's/^host: //p')}"
case "$target" in
  *-linux-gnu) ;;
  *) echo "error: $target: static builds are made for the *-linux-gnu targets" >&2; exit 2 ;;
esac

cd "$root"
cargo build --release --locked -p bpvm-cli --target "$target" \
  --config "target.$target.rustflags = [\"-C\", \"target-feature=+crt-static\"]" >&2
out="${CARGO_TARGET_DIR:-$root/target}"
case "$out" in
  /*) ;;
  *) out="$root/$out" ;;
esac
binary="$out/$target/release/bpvm"
# A binary with a program interpreter would need the machine's libc.
if command -v readelf > /dev/null && readelf -l "$binary" | grep -q 'INTERP'; then
  echo "error: $binary is dynamically linked" >&2
  exit 1
fi
echo "$binary"
