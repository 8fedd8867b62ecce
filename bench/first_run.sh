#!/usr/bin/env bash
# `make run` from a fresh clone, timed to the first page it serves: what a newcomer waits.
#   bench/first_run.sh [REV ...]      (default HEAD; several REVs run one after the other)
# Each REV is cloned from this repository into a temporary folder, `make run PORT=...` starts
# there (a new .venv, the packages from the caches pip and uv keep in ~/.cache, a new
# db.sqlite3), and the time until http://127.0.0.1:PORT/ answers 200 is printed with the load.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
port=8190
for rev in "${@:-HEAD}"; do
  dir="$(mktemp -d)"
  git clone -q "$repo" "$dir/site" && git -C "$dir/site" checkout -q "$rev"
  start=$(date +%s.%N)
  (cd "$dir/site" && exec make run PORT=$port >"$dir/run.log" 2>&1) &
  maker=$!
  for _ in $(seq 1200); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/" || true)" = 200 ] && break
    sleep 0.5
  done
  end=$(date +%s.%N)
  printf '%s: first page after %.0f s (load %s)\n' "$(git -C "$dir/site" rev-parse --short HEAD)" \
    "$(echo "$end - $start" | bc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
  pkill -f "devserver.*127.0.0.1:$port" || true
  kill "$maker" 2>/dev/null || true
  wait "$maker" 2>/dev/null || true
  rm -rf "$dir"
  port=$((port + 1))
done
