#!/usr/bin/env bash
# Builds SeaweedFS's `weed` (Apache-2.0) at one pinned version from the Go module proxy and
# prints its path; the object-storage tests start their cluster from it. Built once per
# machine and version, outside the clone (~7 min on 2 cores, a ~230 MB binary).
# `go install …/weed@v` is refused (the module's go.mod has a `replace`), so the module
# is downloaded and a writable copy built.
set -euo pipefail
version=v0.0.0-20261109003541-7506e5f91cd6
cache=${SAMEKEY_TOOL_CACHE:-$HOME/.cache/samekey}/seaweedfs/$version
if [ -x "$cache/weed" ]; then
  echo "$cache/weed"
  exit 0
fi
dir=$(go mod download -json "github.com/seaweedfs/seaweedfs@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[ -d "$dir" ] || { echo "seaweedfs: go mod download gave no directory" >&2; exit 1; }
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
cp -r "$dir/." "$work/"
chmod -R u+w "$work"
mkdir -p "$cache"
(cd "$work" && GOFLAGS=-mod=mod go build -trimpath -o "$cache/weed.tmp" ./weed) >&2
mv "$cache/weed.tmp" "$cache/weed"
echo "$cache/weed"
