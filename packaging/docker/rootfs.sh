#!/bin/sh
# Lays out the container image's whole root filesystem in DIR around a
# statically linked bpvm: the binary, a /tmp anyone can write, and the
# unprivileged user the image runs as (uid and gid 65532, "bpvm").
#   packaging/docker/rootfs.sh BINARY DIR
# The Dockerfile copies DIR into an empty image; tests/release/image.sh
# builds the same image with buildah.
set -eu
[ "$#" -eq 2 ] || { echo "usage: $0 BINARY DIR" >&2; exit 2; }
binary="$1"
dir="$2"

mkdir -p "$dir/usr/local/bin" "$dir/etc" "$dir/tmp" "$dir/work"
cp "$binary" "$dir/usr/local/bin/bpvm"
chmod 755 "$dir/usr/local/bin/bpvm"
chmod 1777 "$dir/tmp"
printf 'root:x:0:0:root:/root:/sbin/nologin\nbpvm:x:65532:65532:bpvm:/tmp:/sbin/nologin\n' > "$dir/etc/passwd"
printf 'root:x:0:\nbpvm:x:65532:\n' > "$dir/etc/group"
