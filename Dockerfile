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
ARG TARGETARCH
# A C cross compiler and libc for arm64, used only when building for it.
RUN apt-get update \
  && apt-get install -y --no-install-recommends gcc-aarch64-linux-gnu=4:12.* libc6-dev-arm64-cross=2.36-* \
  && rm -rf /var/lib/apt/lists/*
RUN rustup target add x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu
ENV CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
    CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc \
    AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar
WORKDIR /src
COPY . .
RUN case "$TARGETARCH" in \
      amd64) target=x86_64-unknown-linux-gnu ;; \
      arm64) target=aarch64-unknown-linux-gnu ;; \
      *) echo "no build for $TARGETARCH" >&2; exit 1 ;; \
    esac \
  && binary="$(packaging/build-static.sh "$target")" \
  && packaging/docker/rootfs.sh "$binary" /rootfs

FROM scratch
COPY --from=build /rootfs/ /
USER 65532:65532
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/bpvm"]
CMD ["--help"]
