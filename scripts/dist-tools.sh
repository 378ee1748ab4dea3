#!/usr/bin/env bash
# The pinned release tools, once per machine (fast when present): maturin, ziglang, twine,
# auditwheel, pypiserver (scripts/dist-requirements.txt, from PyPI, into target/dist-tools)
# and cargo-zigbuild (crates.io). Every dist recipe and release job runs this first.
set -euo pipefail
cd "$(dirname "$0")/.."
zigbuild_version=0.24.1
tools=target/dist-tools
test -x "$tools/bin/python" || python3 -m venv "$tools"
"$tools/bin/pip" install --quiet --disable-pip-version-check -r scripts/dist-requirements.txt
cargo-zigbuild --version 2>/dev/null | grep -qx "cargo-zigbuild $zigbuild_version" ||
  cargo install --locked cargo-zigbuild --version "$zigbuild_version"
