#!/usr/bin/env bash
# The pinned release tools, once per machine (fast when present): maturin, ziglang, twine,
# auditwheel, pypiserver (scripts/dist-requirements.txt, from PyPI) and cargo-zigbuild
# (crates.io). Every dist recipe and release job runs this first.
#
# The virtualenv lives outside the clone, one per content of the requirements file
# (~/.cache/samekey/dist-tools/<sha256>), and target/dist-tools links to it: every fresh
# clone made its own (35 s of each CI run), and its path, part of the zig compiler's
# command, kept Go's build cache from recognising cgo builds done in another clone.
set -euo pipefail
cd "$(dirname "$0")/.."
zigbuild_version=0.24.1
requirements=scripts/dist-requirements.txt
key=$(sha256sum "$requirements" | cut -c1-16)
venv=${XDG_CACHE_HOME:-$HOME/.cache}/samekey/dist-tools/$key
mkdir -p "$(dirname "$venv")"
(
  flock 9
  if [ ! -e "$venv/installed" ]; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
    : > "$venv/installed"
  fi
) 9>"$venv.lock"
if [ "$(readlink target/dist-tools 2>/dev/null)" != "$venv" ]; then
  mkdir -p target
  rm -rf target/dist-tools
  ln -s "$venv" target/dist-tools
fi
cargo-zigbuild --version 2>/dev/null | grep -qx "cargo-zigbuild $zigbuild_version" ||
  cargo install --locked cargo-zigbuild --version "$zigbuild_version"
