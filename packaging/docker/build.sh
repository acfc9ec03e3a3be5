#!/bin/sh
# The Dockerfile's build stage: builds bpvm statically linked for the
# image's architecture and lays out the image's root filesystem in DIR.
#   packaging/docker/build.sh BUILDARCH TARGETARCH DIR
# (Docker's names: amd64, arm64.) Building for the other architecture
# installs its C cross compiler and libc, since the allocator and the TLS
# code are partly C; building for its own needs nothing more.
set -eu
[ "$#" -eq 3 ] || { echo "usage: $0 BUILDARCH TARGETARCH DIR" >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
# Empty without BuildKit: then the image is for the builder's architecture.
buildarch="${1:-$(dpkg --print-architecture)}"
targetarch="${2:-$buildarch}"

triple() {
  case "$1" in
    amd64) echo x86_64-unknown-linux-gnu ;;
    arm64) echo aarch64-unknown-linux-gnu ;;
    *) echo "error: no build for the architecture '$1' (amd64 or arm64)" >&2; exit 1 ;;
  esac
}
target="$(triple "$targetarch")"
triple "$buildarch" > /dev/null

if [ "$buildarch" != "$targetarch" ]; then
  case "$targetarch" in
    amd64) gnu=x86_64-linux-gnu libc=libc6-dev-amd64-cross ;;
    arm64) gnu=aarch64-linux-gnu libc=libc6-dev-arm64-cross ;;
  esac
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "gcc-$gnu" "$libc" > /dev/null
  rm -rf /var/lib/apt/lists/*
  # Cargo's and the cc crate's variables for that target, e.g.
  # CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER and CC_aarch64_unknown_linux_gnu.
  upper="$(echo "$target" | tr 'a-z-' 'A-Z_')"
  lower="$(echo "$target" | tr '-' '_')"
  export "CARGO_TARGET_${upper}_LINKER=$gnu-gcc" "CC_$lower=$gnu-gcc" "AR_$lower=$gnu-ar"
fi
rustup target add "$target"
binary="$("$here/../build-static.sh" "$target")"
"$here/rootfs.sh" "$binary" "$3"
