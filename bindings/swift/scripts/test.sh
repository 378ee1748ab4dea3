#!/usr/bin/env bash
# The Swift package, with the machine's swift or else the one in the swift root (Debian
# trixie's swiftlang; the repository is bind-mounted at the same path):
#   1. the generated ErrorCode.swift is fresh (cargo xtask);
#   2. every vector and the API tests (XCTest) at the repository root, the core found
#      through pkg-config exactly as a Linux user installs it (bindings/swift/scripts/dist.sh);
#   3. a fresh package depending on Samekey by URL and version (a git repository of the
#      working tree, tagged) builds, which SwiftPM refuses for a package with unsafeFlags,
#      and runs the ulid vectors.
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
repo=$PWD
root=${SAMEKEY_SWIFT_ROOT:-$HOME/.cache/samekey/swiftroot-trixie}  # just swift::setup
version=$(grep -m1 '^version = ' Cargo.toml | cut -d'"' -f2)
vectors="$(realpath "${SAMEKEY_VECTORS:-test-vectors/samekey.json}")"

# 1. The generated error codes are the core's (compared by the maintainers' tool).
cargo xtask generate swift-errors --mode check

# 2. The library as a Linux user installs it, then the package's tests.
sdk="$repo/target/swift-sdk"
bindings/swift/scripts/dist.sh --host "$sdk"

# in_swift DIR COMMAND...: runs COMMAND in DIR with a Swift toolchain.
in_swift() { SAMEKEY_VECTORS="$vectors" bindings/swift/scripts/in-swift.sh "$@"; }
in_swift "$repo" swift test 2>&1 | grep -E "[0-9]+ passed, [0-9]+ failed|Executed [0-9]+ tests|error:" | tail -n 3
test "${PIPESTATUS[0]}" -eq 0
# The runner works with any valid vector file, not only the repository's (spec §10.1).
main_vectors=$vectors vectors="$repo/test-vectors/small.json"
in_swift "$repo" swift test --filter VectorTests 2>&1 | grep -E "[0-9]+ passed, [0-9]+ failed|error:" | tail -n 2
test "${PIPESTATUS[0]}" -eq 0
vectors=$main_vectors

# 3. Samekey as a versioned dependency: the working tree's package files in a git
#    repository tagged with the version, inside the repository (the chroot sees it).
work="$repo/target/swift-consumer"
rm -rf "$work" && mkdir -p "$work/samekey" "$work/app/Sources/App"
git ls-files -z Package.swift bindings/swift LICENSE-MIT LICENSE-APACHE | xargs -0 cp -L --parents -t "$work/samekey"
git -C "$work/samekey" init -q && git -C "$work/samekey" add -A
git -C "$work/samekey" -c user.name=test -c user.email=test@samekey.invalid commit -q -m "samekey $version"
git -C "$work/samekey" tag "$version"
cp bindings/swift/scripts/consumer/main.swift.txt "$work/app/Sources/App/main.swift"
# The documentation's Swift programs, as a user's package builds them: the site's hello
# example must print the reference's id, the README's usage block what the README shows,
# and each call the playground generates (Sources/CallN) the reference's id for its case.
mkdir -p "$work/app/Sources/Hello" "$work/app/Sources/Readme"
cp docs/examples/hello/Hello.swift "$work/app/Sources/Hello/main.swift"
python3 bindings/swift/scripts/docs_examples.py readme-code > "$work/app/Sources/Readme/main.swift"
python3 bindings/swift/scripts/docs_examples.py playground-calls "$work/app/Sources" > "$work/calls.tsv"
call_list=$(cut -f1 "$work/calls.tsv" | sed 's/.*/"&"/' | paste -sd, | sed 's/,/, /g')
# The site's install line, its GitHub URL replaced by the tagged local repository's.
dependency=$(sed "s|https://github.com/samekey/samekey\"|file://$work/samekey\"|" docs/examples/install/Package.swift)
grep -q "file://" <<<"$dependency" || { echo "swift::test: no GitHub URL in docs/examples/install/Package.swift" >&2; exit 1; }
sed -e "s|@DEPENDENCY@|$dependency|" -e "s|@CALL_LIST@|$call_list|" \
  bindings/swift/scripts/consumer/Package.swift.txt > "$work/app/Package.swift"
in_swift "$work/app" swift build --cache-path "$work/cache" -c release > "$work/build.log" 2>&1 ||
  { tail -n 40 "$work/build.log" >&2; exit 1; }
in_swift "$work/app" swift run --skip-build -c release App 2>&1 | tail -n 5
test "${PIPESTATUS[0]}" -eq 0
hello=$(in_swift "$work/app" swift run --skip-build -c release Hello)
[ "$hello" = "$(python3 bindings/swift/scripts/docs_examples.py hello-id)" ] ||
  { echo "swift::test: the site's Swift hello example printed $hello, not the reference's id" >&2; exit 1; }
in_swift "$work/app" swift run --skip-build -c release Readme > "$work/readme.out"
diff -u <(python3 bindings/swift/scripts/docs_examples.py readme-output) "$work/readme.out" ||
  { echo "swift::test: the README's usage block printed the +lines, the README shows the -lines" >&2; exit 1; }
calls=0
while IFS=$'\t' read -r name want secret; do
  got=$(in_swift "$work/app" env SAMEKEY_SECRET="$secret" swift run --skip-build -c release "$name" < /dev/null)
  [ "$got" = "$want" ] || { echo "swift::test: the playground's Swift call $name printed $got, the reference derives $want:" >&2
                            cat "$work/app/Sources/$name/main.swift" >&2; exit 1; }
  calls=$((calls + 1))
done < "$work/calls.tsv"
echo "swift::test: the site's hello example prints $hello; the README's usage block prints what the README shows;" \
  "the playground's Swift calls of $calls cases print the reference's ids"

# 4. The API reference: DocC, warnings as errors, into target/swift-docc (the site's
#    api/swift/; site::api copies it, as CI prunes this toolchain's root before the site).
bindings/swift/scripts/docs.sh
