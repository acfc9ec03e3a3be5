#!/usr/bin/env bash
# Builds the container image with buildah from a statically linked bpvm
# (packaging/build-static.sh) and checks its root filesystem: with the
# image mounted, `bpvm --version` and a render of examples/windsor run in
# it through chroot, as the image's user, and print what the same binary
# prints outside; `http_resource` looks a host name up with no C library
# files in the image; and the image holds nothing but bpvm. Containers
# cannot be started on the CI machine, so chroot stands in for
# `docker run`.
#
# The image is laid out as the Dockerfile lays it out: the same
# packaging/docker/rootfs.sh, and the Dockerfile's USER, WORKDIR,
# ENTRYPOINT and CMD applied with `buildah config`. (`buildah bud` of the
# Dockerfile itself would pull the Rust image from a registry.)
#   tests/release/image.sh [STATIC_BINARY]
set -euo pipefail
# shellcheck source=tests/release/http-server.sh
source "$(dirname "$0")/http-server.sh"
root="$(cd "$(dirname "$0")/../.." && pwd)"
bpvm="$(realpath "${1:-$("$root/packaging/build-static.sh")}")"
cd "$root"

if [ "$(id -u)" -ne 0 ]; then
  # Mounting needs root, or a user namespace where this user is root.
  exec buildah unshare "$0" "$bpvm"
fi
if readelf -l "$bpvm" | grep -q INTERP; then
  echo "error: $bpvm is dynamically linked; the image holds no libc" >&2
  exit 1
fi

work="$(mktemp -d)"
# Storage of its own (vfs: no overlay mounts needed), removed afterwards.
store=(--root "$work/storage" --runroot "$work/run" --storage-driver vfs)
container=""
server=""
cleanup() {
  [ -z "$server" ] || kill "$server" 2> /dev/null || true
  if [ -n "$container" ]; then
    buildah "${store[@]}" umount "$container" > /dev/null 2>&1 || true
    buildah "${store[@]}" rm "$container" > /dev/null 2>&1 || true
  fi
  buildah "${store[@]}" rmi --all --force > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# The Dockerfile's final-stage instruction NAME's argument.
instruction() {
  sed -n "/^FROM scratch/,\$ s/^$1 //p" Dockerfile
}
user="$(instruction USER)"
workdir="$(instruction WORKDIR)"
entrypoint="$(instruction ENTRYPOINT)"
cmd="$(instruction CMD)"
if [ -z "$user" ] || [ -z "$entrypoint" ]; then
  echo "error: no USER or ENTRYPOINT in the Dockerfile's final stage" >&2
  exit 1
fi

packaging/docker/rootfs.sh "$bpvm" "$work/rootfs"
container="$(buildah "${store[@]}" from scratch)"
buildah "${store[@]}" copy "$container" "$work/rootfs/" / > /dev/null
buildah "${store[@]}" config --user "$user" --workingdir "$workdir" \
  --entrypoint "$entrypoint" --cmd "$cmd" "$container"
buildah "${store[@]}" commit --quiet "$container" bpvm-test > /dev/null
buildah "${store[@]}" rm "$container" > /dev/null

# The committed image, opened afresh: what a registry would serve.
container="$(buildah "${store[@]}" from bpvm-test)"
inspect="$(buildah "${store[@]}" inspect --type image --format '{{.OCIv1.Config.User}} {{.OCIv1.Config.Entrypoint}} {{.OCIv1.Config.Cmd}} {{.OCIv1.Config.WorkingDir}}' bpvm-test)"
[ "$inspect" = "65532:65532 [/usr/local/bin/bpvm] [--help] /work" ] || { echo "error: image config: $inspect" >&2; exit 1; }
# A user's repository, as `docker run -v "$PWD:/work"` would mount it.
buildah "${store[@]}" copy "$container" examples/windsor /work/windsor > /dev/null
mnt="$(buildah "${store[@]}" mount "$container")"

failures=0
# in_image ARGS...: the entrypoint with ARGS, as the image's user.
in_image() {
  chroot --userspec="$user" "$mnt" /usr/local/bin/bpvm "$@"
}
if [ "$(in_image --version)" = "$("$bpvm" --version)" ]; then
  echo "ok: bpvm --version in the image: $(in_image --version)"
else
  echo "FAIL: bpvm --version in the image" >&2
  failures=$((failures + 1))
fi
if in_image render --project /work/windsor > "$work/in-image.yaml" &&
  "$bpvm" render --project examples/windsor > "$work/outside.yaml" &&
  cmp -s "$work/in-image.yaml" "$work/outside.yaml" && [ -s "$work/outside.yaml" ]; then
  echo "ok: bpvm render --project examples/windsor in the image ($(wc -l < "$work/in-image.yaml") lines, as outside)"
else
  echo "FAIL: the render in the image differs or failed" >&2
  diff "$work/outside.yaml" "$work/in-image.yaml" >&2 || true
  failures=$((failures + 1))
fi
# A name looked up by the statically linked C library, with no NSS
# modules in the image: `localhost` from /etc/hosts, which container
# runtimes provide (written here as they would).
mkdir -p "$work/site"
echo '{"ok": true}' > "$work/site/config.json"
serve "$work/site" "$work/server.log"
echo "127.0.0.1 localhost" > "$mnt/etc/hosts"
fetched="$(in_image eval --dialect bluelink --allow-http localhost \
  "utf8(http_resource('http://localhost:$port/config.json'))" 2>&1 || true)"
if [ "$fetched" = '"{\"ok\": true}\n"' ]; then
  echo "ok: http_resource resolves localhost in the image"
else
  echo "FAIL: http_resource from the image: $fetched" >&2
  failures=$((failures + 1))
fi
# Nothing but bpvm: no shell to run anything else with.
if [ -e "$mnt/bin/sh" ] || [ -e "$mnt/lib" ] || [ -e "$mnt/usr/lib" ]; then
  echo "FAIL: the image holds more than bpvm: $(cd "$mnt" && find . -maxdepth 2 | sort | tr '\n' ' ')" >&2
  failures=$((failures + 1))
else
  echo "ok: the image holds only bpvm ($(du -sh "$mnt" | cut -f 1))"
fi
[ "$failures" -eq 0 ] || exit 1
