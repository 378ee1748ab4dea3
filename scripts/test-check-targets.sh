#!/usr/bin/env bash
# scripts/check-targets.sh catches a change that breaks only a non-Linux target: in a
# scratch copy of the tree, the core checks for Windows; with the break that once reached
# main re-created (content_file.rs's `use crate::error::Error` under #[cfg(unix)], its use
# not), the Windows check fails with E0433 while the host's still passes.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test-check-targets: FAIL: $*" >&2; exit 1; }

git ls-files -z --cached --others --exclude-standard | xargs -0 -I{} cp --parents {} "$work/"
# The scratch tree's own target dir would rebuild every dependency; share the real one's.
export CARGO_TARGET_DIR="$repo/target/check-targets" SAMEKEY_CHECK_PACKAGES=samekey
check() { (cd "$work" && scripts/check-targets.sh "$@") >"$work/.out" 2>&1; }

check x86_64-pc-windows-gnu || fail "the unchanged tree does not check for Windows: $(tail -n 20 "$work/.out")"

file="$work/crates/samekey/src/content_file.rs"
grep -qx 'use crate::error::Error;' "$file" || fail "content_file.rs no longer has the line this test breaks: update the test"
sed -i 's/^use crate::error::Error;$/#[cfg(unix)]\nuse crate::error::Error;/' "$file"

(cd "$work" && cargo check --quiet --locked -p samekey) >"$work/.host" 2>&1 || fail "the break fails the host too, so it proves nothing: $(tail -n 20 "$work/.host")"
if check x86_64-pc-windows-gnu; then
  fail "the Windows check passed a tree that does not compile for Windows"
fi
grep -q 'error\[E0433\]: .*`Error`' "$work/.out" || fail "the Windows check failed, but not on the break: $(tail -n 20 "$work/.out")"
grep -q 'check-targets: 0 passed, 1 failed (x86_64-pc-windows-gnu)' "$work/.out" || fail "no failure summary: $(tail -n 5 "$work/.out")"
echo "test-check-targets: the Windows-only break fails check-targets (E0433) and passes the host's check"
echo "check-targets-catches-break: 1 passed, 0 failed"
