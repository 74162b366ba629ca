#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 600) one after the other, with the
# small seed corpora in fuzz/corpus/ (new finds go to a scratch copy, so the
# repository's corpora stay small). Needs cargo-fuzz and the nightly toolchain.
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_TARGET="${1:-600}"
for target in parse_move parse_position parse_record legals_are_legal client_msg; do
  scratch="$(mktemp -d)"
  cp -r "corpus/$target/." "$scratch/" 2>/dev/null || true
  echo "== $target ($SECONDS_PER_TARGET s)"
  cargo +nightly fuzz run "$target" "$scratch" -- -max_total_time="$SECONDS_PER_TARGET" -print_final_stats=1 2>&1 | tail -n 25
  rm -rf "$scratch"
done
