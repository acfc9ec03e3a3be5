# The `bpvm` command in an otherwise empty image:
#   docker run --rm -v "$PWD:/work" ghcr.io/bpvm/bpvm render --project .
#
# The build stage uses the Rust release bpvm is tested with (Cargo.toml's
# rust-version is the oldest it supports). It runs on the builder's own
# platform and cross-compiles for the image's (TARGETARCH), so a
# multi-platform build needs no emulation.
# The binary is statically linked (packaging/build-static.sh), so the final
# image holds nothing else: no shell, no libc, no package manager.

FROM --platform=$BUILDPLATFORM rust:1.95-bookworm AS build
ARG BUILDARCH
ARG TARGETARCH
WORKDIR /src
COPY . .
# Installs the other architecture's C cross compiler first when the image
# is for it (packaging/docker/build.sh).
RUN packaging/docker/build.sh "$BUILDARCH" "$TARGETARCH" /rootfs

FROM scratch
COPY --from=build /rootfs/ /
USER 65532:65532
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/bpvm"]
CMD ["--help"]
