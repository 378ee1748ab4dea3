#!/usr/bin/env bash
# Installs samekey as a user would: the artifacts of target/dist/python are uploaded with
# twine to a PyPI-compatible server (pypiserver) on 127.0.0.1, then installed with pip from
# that index, wheels only, into a fresh venv: in a Debian bullseye root (glibc 2.31,
# scripts/old-glibc-root.sh, a CPython built there: ~8 minutes cold), or with `host` in
# this machine's own Python (what `just test` runs; auditwheel still holds the wheel to
# glibc 2.17 in check_wheels.py). There, selftest() and every vector must pass, and the
# wheel pip chose must be the manylinux2014 one. When an aarch64 wheel is among the
# artifacts, the same runs on aarch64 under qemu-user, with Debian bookworm arm64's
# Python (scripts/arm64-root.sh). SAMEKEY_VECTORS names another vector file.
#
#   scripts/test-index.sh [bullseye|host]
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
where=${1:-bullseye}
tools="$PWD/target/dist-tools/bin"
vectors=$(realpath "${SAMEKEY_VECTORS:-test-vectors/samekey.json}")
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT

mkdir "$work/packages"
port=$(scripts/free-port.sh)
"$tools/pypi-server" run -i 127.0.0.1 -p "$port" -a . -P . "$work/packages" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/simple/" >/dev/null && break; sleep 0.2; done
"$tools/twine" upload --non-interactive --disable-progress-bar --repository-url "http://127.0.0.1:$port/" \
  -u samekey -p unused target/dist/python/* >/dev/null
echo "index: $(ls "$work/packages" | wc -l) artifacts on http://127.0.0.1:$port/simple/"

# What a user runs, given a Python 3.10+, the index's port, a scratch directory and the
# vectors: the site's install line (docs/examples/install/python.sh, copied beside this
# script as install-line.sh) with the venv first on PATH, pip's options from the environment.
cp docs/examples/install/python.sh "$work/install-line.sh"
cat > "$work/install.sh" <<'SH'
set -euo pipefail
python=$1 port=$2 dir=$3 vectors=$4
echo "install: $(ldd --version | head -1), $("$python" --version)"
rm -rf "$dir/venv" && "$python" -m venv "$dir/venv"
(export PATH="$dir/venv/bin:$PATH" PIP_QUIET=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ONLY_BINARY=:all: \
   PIP_INDEX_URL="http://127.0.0.1:$port/simple"
 echo "install: $(cat "$(dirname "$0")/install-line.sh")" && bash -euo pipefail "$(dirname "$0")/install-line.sh")
grep ^Tag: "$dir"/venv/lib/python3.*/site-packages/samekey-*.dist-info/WHEEL
grep -q "^Tag: cp310-abi3-manylinux_2_17_x86_64" "$dir"/venv/lib/python3.*/site-packages/samekey-*.dist-info/WHEEL
"$dir/venv/bin/python" - "$vectors" <<'PY'
import sys
import samekey
from samekey import _vectors
print("selftest:", samekey.selftest(), "vectors")
outcomes = _vectors.run_document(open(sys.argv[1], encoding="utf-8").read())
failed = [o for o in outcomes if not o.passed]
print(f"vectors: {len(outcomes) - len(failed)} passed, {len(failed)} failed")
for o in failed[:10]:
    print("FAIL", o.id, o.expected, o.actual)
assert outcomes and not failed
PY
SH

if [ "$where" = host ]; then
  # Outside the repository and its venvs: a user's directory.
  (cd "$work" && env -u PYTHONPATH -u VIRTUAL_ENV bash install.sh "$(command -v python3)" "$port" "$work" "$vectors")
else
  root=$(scripts/old-glibc-root.sh)
  # The root shares this machine's network (a mount namespace only), so 127.0.0.1 is the server.
  cp "$vectors" "$root/tmp/samekey-vectors.json"
  cp "$work/install.sh" "$root/tmp/samekey-install.sh"
  cp "$work/install-line.sh" "$root/tmp/install-line.sh"
  unshare -m bash -euo pipefail -c '
    mkdir -p "$1/proc" && mount -t proc proc "$1/proc"
    chroot "$1" env -i HOME=/root PATH=/usr/bin:/bin \
      bash /tmp/samekey-install.sh /opt/python3.11/bin/python3.11 "$2" /tmp /tmp/samekey-vectors.json
  ' _ "$root" "$port"
fi

# aarch64, emulated: pip resolves the manylinux2014 aarch64 wheel for an arm64 Python.
if ! ls target/dist/python/*manylinux*aarch64*.whl >/dev/null 2>&1; then
  echo "aarch64: not run (no aarch64 wheel among the artifacts: just dist-python builds it)"
  exit 0
fi
arm=$(scripts/arm64-root.sh)
site="$work/arm64-site"
py=(qemu-aarch64-static -L "$arm" "$arm/usr/bin/python3.11")
"${py[@]}" -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --only-binary :all: --target "$site" \
  --index-url "http://127.0.0.1:$port/simple" samekey
grep ^Tag: "$site"/samekey-*.dist-info/WHEEL
grep -q "^Tag: cp310-abi3-manylinux_2_17_aarch64" "$site"/samekey-*.dist-info/WHEEL
PYTHONPATH="$site" "${py[@]}" - "$vectors" <<'PY'
import platform, sys
import samekey
from samekey import _vectors
outcomes = _vectors.run_document(open(sys.argv[1], encoding="utf-8").read())
failed = [o for o in outcomes if not o.passed]
print(f"aarch64 ({platform.machine()}, glibc {platform.libc_ver()[1]}, qemu-user): selftest {samekey.selftest()}, "
      f"{len(outcomes) - len(failed)} vectors passed, {len(failed)} failed")
assert outcomes and not failed
PY
