#!/usr/bin/env bash
# Sourced by the release tests: `serve DIR LOG` serves DIR over HTTP on
# 127.0.0.1 at a free port, sets `server` (its pid, for the caller's
# cleanup) and `port`, and fails when it does not start.
serve() {
  python3 -u -m http.server --bind 127.0.0.1 --directory "$1" 0 > "$2" 2>&1 &
  # shellcheck disable=SC2034 # the sourcing script kills it on exit
  server=$!
  port=""
  for _ in $(seq 50); do
    port="$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$2" | head -n 1)"
    [ -n "$port" ] && return 0
    sleep 0.1
  done
  echo "error: the test's HTTP server did not start" >&2
  cat "$2" >&2
  return 1
}
