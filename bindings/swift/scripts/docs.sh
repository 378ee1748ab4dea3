#!/usr/bin/env bash
# The Swift API reference with DocC, as swift-docc-plugin would make it but without the
# plugin (a package from GitHub, which this machine cannot reach): the Samekey module's
# symbol graphs from the compiler, then `docc convert` with the catalog
# (Sources/Samekey/Samekey.docc) into target/swift-docc, static, for the site's
# api/swift/ (hosted under /samekey/api/swift). Warnings fail it.
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
repo=$PWD
bindings/swift/scripts/dist.sh --host "$repo/target/swift-sdk"
rm -rf "$repo/target/swift-docc" "$repo"/.build/*/symbolgraph
# SwiftPM's own command (the compiler's -emit-symbol-graph flags through `swift build`
# write nothing for an up-to-date target).
bindings/swift/scripts/in-swift.sh "$repo" swift package dump-symbol-graph --minimum-access-level public > /dev/null
graphs=$(ls -d "$repo"/.build/*/symbolgraph)
bindings/swift/scripts/in-swift.sh "$repo" docc convert bindings/swift/Sources/Samekey/Samekey.docc \
  --fallback-display-name Samekey --fallback-bundle-identifier io.github.samekey.Samekey \
  --additional-symbol-graph-dir "$graphs" --output-path "$repo/target/swift-docc" \
  --transform-for-static-hosting --hosting-base-path samekey/api/swift --warnings-as-errors
echo "swift::docs: target/swift-docc ($(find target/swift-docc -name '*.json' -path '*data/documentation*' | wc -l) pages)"
