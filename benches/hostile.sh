#!/usr/bin/env bash
# Time and peak memory of `toolsift search` and `toolsift check` on the large hostile catalogs
# of issue #39 and on a 10 MB REST description shaped like GitHub's (see
# crates/toolsift-catalog/examples/hostile_files.rs), and the target: <= 2 s and <= 3 x the
# file's size + 64 MiB. Needs GNU time (/usr/bin/time). Usage: benches/hostile.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-target/hostile-files}"
cargo build --release -q -p toolsift-cli
cargo run --release -q -p toolsift-catalog --example hostile_files -- "$dir" >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-40s %10s %9s %9s %9s %9s %9s %s\n' file bytes search_s search_MiB check_s check_MiB limit_MiB outcome
for f in "$dir"/*; do
  name=$(basename "$f")
  case "$name" in *.mcp.*) flag=--mcp ;; *) flag=--openapi ;; esac
  size=$(stat -c %s "$f")
  /usr/bin/time -f '%e %M' -o "$tmp/search" target/release/toolsift search "send a message" \
    "$flag" "$f=s" >/dev/null 2>"$tmp/err" || true
  /usr/bin/time -f '%e %M' -o "$tmp/check" target/release/toolsift check --json \
    "$flag" "$f=s" >"$tmp/check.json" 2>/dev/null || true
  read -r search_s search_kib < <(tail -1 "$tmp/search")
  read -r check_s check_kib < <(tail -1 "$tmp/check")
  outcome=$(grep -m1 -o 'error: .*' "$tmp/err" | cut -c1-60 || true)
  if [ -z "$outcome" ]; then
    # Tools loaded, and the load problems by code (`check`'s analysis findings left out).
    outcome=$(python3 - "$tmp/check.json" <<'EOF'
import json, sys
try:
    report = json.load(open(sys.argv[1]))
except ValueError:
    sys.exit(0)
# The six checks of `check` itself (crates/toolsift-cli/src/cmd/check.rs), not load problems.
quality = {"name-miss", "summary-miss", "near-duplicate", "empty-description", "huge-description",
           "repeated-description"}
groups = [f"{g['code']} {g['count']}" for g in report.get("groups", []) if g["code"] not in quality]
print(f"{report.get('tools')} tools; " + (", ".join(groups) or "no load problems"))
EOF
)
  fi
  printf '%-40s %10d %9s %9d %9s %9d %9d %s\n' "$name" "$size" "$search_s" $((search_kib / 1024)) \
    "$check_s" $((check_kib / 1024)) $((3 * size / 1048576 + 64)) "${outcome:-ok}"
done
