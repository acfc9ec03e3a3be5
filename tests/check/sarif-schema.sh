#!/usr/bin/env bash
# Prints the path of the SARIF 2.1.0 JSON schema that tests/it/check_sarif.rs
# validates `bpvm check --format sarif` against, fetching it first when it
# is not there yet. The schema is OASIS's, not ours, so it is not in the
# repository: npm publishes it in @microsoft/jest-sarif, whose tarball is
# unpacked into target/sarif-schema/. Installs npm (Debian's package) when
# it is missing. Only the path goes to standard output.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"

package="@microsoft/jest-sarif@1.0.0-beta.0"
member="package/lib/schemas/sarif-2.1.0-rtm.5.json"
# The schema's SHA-256, so that a different file is refused.
sha256="2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8"
dir="$root/target/sarif-schema"
schema="$dir/sarif-2.1.0-rtm.5.json"

if [ ! -s "$schema" ]; then
  if ! command -v npm > /dev/null; then
    apt-get update -qq >&2 && apt-get install -y -qq npm > /dev/null
  fi
  mkdir -p "$dir"
  tmp="$(mktemp -d "$dir/fetch.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "$package" > /dev/null)
  tar -xzf "$tmp"/*.tgz -C "$tmp" "$member"
  echo "$sha256  $tmp/$member" | sha256sum --check --quiet >&2
  # Moved in whole, so a run that stops half-way leaves no partial schema.
  mv "$tmp/$member" "$schema"
fi
echo "$schema"
