#!/usr/bin/env bash
# The Rust toolchain a rust-toolchain.toml names, with every component and target it lists,
# whatever state the machine's rustup is in.
#
#   scripts/setup-rust.sh                       the workspace's (rust-toolchain.toml)
#   scripts/setup-rust.sh extensions/postgres   the PostgreSQL extension's own
#
# rustup adds a toolchain file's targets and components only when it installs that
# toolchain itself: where the toolchain already exists (a pre-provisioned image, a
# toolchain linked or copied in, RUSTUP_AUTO_INSTALL=0) nothing adds them, and `./dev
# build` once failed on a fresh machine for want of wasm32. Every recipe that builds for a
# target runs this first; it asks rustup twice and changes nothing when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."
file="${1:-.}/rust-toolchain.toml"
[ -f "$file" ] || { echo "setup-rust: no $file" >&2; exit 2; }

# The file's list of "a", "b" under KEY (one line or several).
list() { awk -v key="$1" '
  $0 ~ "^" key "[ ]*=" { on = 1 }
  on { line = line $0; if ($0 ~ /\]/) on = 0 }
  END { gsub(/^[^[]*\[|\].*$/, "", line); gsub(/[" ,]+/, " ", line); print line }' "$file"; }
channel=$(sed -nE 's/^channel *= *"(.*)"/\1/p' "$file")
profile=$(sed -nE 's/^profile *= *"(.*)"/\1/p' "$file")
read -ra components <<<"$(list components)"
read -ra targets <<<"$(list targets)"
[ -n "$channel" ] || { echo "setup-rust: $file names no channel" >&2; exit 2; }

if ! rustup run "$channel" rustc --version >/dev/null 2>&1; then
  echo "setup-rust: installing Rust $channel ($file)" >&2
  rustup toolchain install "$channel" --profile "${profile:-minimal}" --no-self-update
fi
missing() {  # what of "$@" after the kind is not in rustup's installed list
  local kind=$1 have; shift
  have=$(rustup "$kind" list --installed --toolchain "$channel")
  local x
  for x in "$@"; do
    # Components are listed with the host's triple: clippy-x86_64-unknown-linux-gnu.
    grep -qE "^$x(-[a-z0-9_]+-[a-z0-9_]+-[a-z0-9_]+(-[a-z0-9_]+)?)?\$" <<<"$have" || echo "$x"
  done
}
mapfile -t want < <(missing component "${components[@]}")
if ((${#want[@]})); then
  echo "setup-rust: adding ${want[*]} to Rust $channel" >&2
  rustup component add --toolchain "$channel" "${want[@]}"
fi
mapfile -t want < <(missing target "${targets[@]}")
if ((${#want[@]})); then
  echo "setup-rust: adding the targets ${want[*]} to Rust $channel" >&2
  rustup target add --toolchain "$channel" "${want[@]}"
fi
