#!/usr/bin/env bash
# Time and peak memory of `toolsift search` on the large hostile catalogs of issue #39 (see
# crates/toolsift-catalog/examples/hostile_files.rs), and the target: <= 2 s and <= 3 x the
# file's size + 64 MiB. Needs GNU time (/usr/bin/time). Usage: benches/hostile.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-target/hostile-files}"
cargo build --release -q -p toolsift-cli
cargo run --release -q -p toolsift-catalog --example hostile_files -- "$dir" >/dev/null
printf '%-36s %10s %8s %10s %10s %s\n' file bytes seconds peak_MiB limit_MiB outcome
for f in "$dir"/*; do
  name=$(basename "$f")
  case "$name" in *.mcp.*) flag=--mcp ;; *) flag=--openapi ;; esac
  size=$(stat -c %s "$f")
  /usr/bin/time -f '%e %M' -o /tmp/hostile-time target/release/toolsift search "send a message" \
    "$flag" "$f=s" >/dev/null 2>/tmp/hostile-err || true
  read -r secs kib < <(tail -1 /tmp/hostile-time)
  outcome=$(grep -m1 -o 'error: .*\|note: .*' /tmp/hostile-err | cut -c1-60 || true)
  printf '%-36s %10d %8s %10d %10d %s\n' "$name" "$size" "$secs" $((kib / 1024)) $((3 * size / 1048576 + 64)) "${outcome:-ok}"
done
