#!/usr/bin/env bash
# The sdist where there is no Rust toolchain and no network: pip must stop at once with a
# message naming what to install (bindings/python/build_backend), not fetch a toolchain.
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
sdist=$(ls target/dist/python/samekey-*.tar.gz)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
# The build backend's own requirement, fetched now: the install below has no index at all.
"$work/venv/bin/pip" download --quiet --disable-pip-version-check -d "$work/wheels" \
  "$(grep -o 'maturin==[0-9.]*' bindings/python/pyproject.toml)"
start=$(date +%s)
set +e
env -i HOME="$work" PATH="$work/venv/bin:/usr/bin:/bin" "$work/venv/bin/pip" install \
  --disable-pip-version-check --no-index --find-links "$work/wheels" "$sdist" >"$work/log" 2>&1
status=$?
set -e
took=$(( $(date +%s) - start ))
rust=$(grep -o '^rust-version = "[0-9.]*"' Cargo.toml | grep -o '[0-9.]*[0-9]')
if [ "$status" -eq 0 ] || ! grep -q "needs Rust $rust or newer, and no cargo was found on PATH" "$work/log" \
   || grep -qi puccinialin "$work/log"; then
  cat "$work/log"; echo "sdist without Rust: expected a failure naming Rust $rust"; exit 1
fi
echo "sdist without Rust: refused in ${took}s with: $(grep -m1 'needs Rust' "$work/log" | sed 's/^ *//')"
