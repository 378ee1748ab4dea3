#!/usr/bin/env bash
# Builds `samekey` of the previous release, for the registry's upgrade test
# (crates/samekey-registry/tests/upgrade_release.rs), and prints its path. The release is
# the commit below: main as it was before key rings were made safe to change while
# processes run (issue 53), whose databases this build must upgrade in place.
#
# It is built from the repository's own history (git archive), in the shared target
# directory so that the dependencies, locked to the same versions, are not compiled twice.
# Its version gets a build label so that cargo keeps the release's own crates apart from
# this checkout's (same names, same paths relative to the workspace). The binary is kept
# outside the clone, by commit (~/.cache/samekey/previous-release/COMMIT): a release's
# source does not change, and its build took two of every CI run's minutes.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
commit=cdc1709cae071f1cb999b299df5650b0bb2cf978
cache=${XDG_CACHE_HOME:-$HOME/.cache}/samekey/previous-release/$commit
mkdir -p "$cache"
exec 9>"$cache.lock"
flock 9
if [ -x "$cache/samekey" ]; then
  echo "$cache/samekey"
  exit 0
fi
out=$repo/target/previous-release
if ! git -C "$repo" cat-file -e "$commit^{commit}" 2>/dev/null; then
  echo "previous-release: commit $commit is not in this clone (a shallow clone?): git fetch --unshallow" >&2
  exit 1
fi
rm -rf "$out" && mkdir -p "$out/src"
git -C "$repo" archive "$commit" | tar -x -C "$out/src"
sed -i 's/^version = "\([0-9.]*\)"$/version = "\1+previous-release"/' "$out/src/Cargo.toml"
grep -q '^version = ".*+previous-release"$' "$out/src/Cargo.toml" || { echo "previous-release: no workspace version to label" >&2; exit 1; }
(cd "$out/src" && CARGO_TARGET_DIR="$repo/target" cargo build -q -p samekey-cli --bin samekey) >&2
cp "$repo/target/debug/samekey" "$out/samekey"
# cargo links target/debug/samekey only when it builds it: put this checkout's back.
rm -f "$repo/target/debug/samekey"
(cd "$repo" && cargo build -q -p samekey-cli --bin samekey) >&2
"$out/samekey" --version | grep -q '+previous-release' || { echo "previous-release: built the wrong binary" >&2; exit 1; }
cp "$out/samekey" "$cache/samekey.tmp" && mv "$cache/samekey.tmp" "$cache/samekey"
rm -rf "$out"
echo "$cache/samekey"
