# samekey: one Rust core, the same keys in every language.
# `just` lists the recipes. On a fresh machine use ./dev, which installs just first.

set shell := ["bash", "-euo", "pipefail", "-c"]

# Seconds each fuzz target runs in `just fuzz`.
fuzz_seconds := env_var_or_default("FUZZ_SECONDS", "60")

# Where setup-swift puts a Debian trixie root with swiftlang, when the machine has no swift.
swift_root := justfile_directory() / ".swiftroot"

default:
    @just --list

# Nothing else installs system packages (scripts/check_system_installs.py checks it).
# Every Debian package any recipe needs, in one apt-get install, before any server starts.
setup-system:
    scripts/setup-system.sh

# Install what the recipes need (idempotent; fast when already installed).
setup: setup-system
    rustup component add clippy rustfmt >/dev/null 2>&1 || true
    python3 -m pip install --quiet --disable-pip-version-check -r spec/reference/requirements.txt

# The main job: build what ships: the samekey CLI (target/release/samekey), the Python
# wheel and sdist (target/python-dist) and the npm packages samekey and samekey-wasm
# (target/npm).
build: setup python-dist setup-node setup-wasm
    cargo build --release -p samekey-cli
    mkdir -p target/npm && cd bindings/node && npm pack --silent --pack-destination ../../target/npm >/dev/null
    cd bindings/wasm && npm pack --silent --pack-destination ../../target/npm >/dev/null
    @echo "built target/release/samekey ($(target/release/samekey --version)), target/python-dist/ and target/npm/"

# Every test in every language.
test: setup check-vectors check-versions lint check-targets test-environment test-ffi test-go test-go-dist test-kotlin test-swift test-python-sdist test-dist-fast test-node-pack test-node test-wasm test-rust test-registry test-registry-faults test-examples test-python test-engines test-postgres-extension test-small-vectors

# cargo check of each crate that ships for a target, its build scripts compiled by the
# release's compilers, warnings denied: Linux gnu and musl and macOS on x86_64 and
# aarch64, Windows x64, wasm32 (TARGET... for some). A check: no codegen, no linking.
# Every release target compiles.
check-targets *targets: setup-dist-tools
    scripts/check-targets.sh {{targets}}

# System packages come only from setup-system; scripts/postgres.sh restarts a server
# whose binary an upgrade replaced; check-targets fails a change that breaks only a
# non-Linux target; no binding copies a host rule of samekey::host (check_host_rules.py).
# What keeps a run from breaking on a new machine or another platform, or drifting.
test-environment: setup-system
    python3 scripts/check_system_installs.py --self-test
    python3 scripts/check_system_installs.py
    python3 scripts/check_host_rules.py --self-test
    python3 scripts/check_host_rules.py
    scripts/test-postgres-restart.sh
    scripts/test-check-targets.sh

# Every runner works with any valid vector file, not only ours (spec §10.1): the Rust,
# Python, Node, WebAssembly and Go runners on test-vectors/small.json, whose cases and
# counts differ (Kotlin and Swift run it in their own recipes). Run after their setups.
test-small-vectors:
    #!/usr/bin/env bash
    set -euo pipefail
    export SAMEKEY_VECTORS="$PWD/test-vectors/small.json"
    cargo test -q -p samekey-vectors --test every_vector -- --nocapture every_vector_passes | grep -E " vectors$"
    (cd bindings/python && .venv/bin/python -m pytest -q -p no:cacheprovider tests/test_vectors.py | tail -n 1)
    (cd bindings/node && node --test test/vectors.test.js | grep -E "^# (pass|fail)")
    (cd bindings/wasm && SAMEKEY_JS_PACKAGE="$PWD/pkg/node.cjs" node --test ../node/test/vectors.test.js | grep -E "^# (pass|fail)")
    (cd bindings/go && {{go_env}} go test -count=1 -run 'TestEveryVector' -v . | grep -E "vectors from|^(ok|FAIL)")

# The Rust core and CLI: unit, property, RFC 8785, fuzz-corpus and vector tests.
# SAMEKEY_VECTORS=FILE makes the vector tests read FILE.
test-rust:
    #!/usr/bin/env bash
    set -uo pipefail
    log=$(mktemp)
    cargo test --workspace --exclude samekey-python --exclude samekey-node --exclude samekey-wasm --exclude samekey-uniffi --exclude samekey-registry --all-features --no-fail-fast 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    awk '/^test result:/ {p += $4; f += $6} END {printf "rust: %d passed, %d failed\n", p, f}' "$log"
    rm -f "$log"
    exit "$status"

# The revision registry (crates/samekey-registry), every scenario on SQLite and on a
# PostgreSQL from Debian's packages that scripts/postgres.sh installs and starts on
# 127.0.0.1 (SAMEKEY_TEST_POSTGRES names another server instead).
test-registry: setup-system
    #!/usr/bin/env bash
    set -euo pipefail
    export SAMEKEY_TEST_POSTGRES="${SAMEKEY_TEST_POSTGRES:-$(scripts/postgres.sh)}"
    cargo test -p samekey-registry --no-fail-fast

# The upsert pipelines of examples/ on real databases: Node + better-sqlite3, Python +
# PostgreSQL (scripts/postgres.sh), Go + FerretDB (built from examples/ferretdb), with a
# lost acknowledgement injected by examples/faultproxy.py; then the three output files of
# the same input must be the same bytes.
test-examples: setup-system setup-node setup-python setup-go
    #!/usr/bin/env bash
    set -euo pipefail
    out="$PWD/target/examples/out"
    rm -rf "$out"
    export SAMEKEY_EXAMPLES_OUT="$out"
    export SAMEKEY_TEST_POSTGRES="${SAMEKEY_TEST_POSTGRES:-$(scripts/postgres.sh)}"
    (cd examples/node && npm install --no-audit --no-fund --loglevel=error && node --test test/)
    {{python_venv}}/bin/python -m pip install --quiet --disable-pip-version-check -r examples/python/requirements.txt
    (cd examples/python && ../../{{python_venv}}/bin/python -m pytest -q test_pipeline.py)
    (cd examples/ferretdb && go build -o ../../target/examples/ferretdb .)
    (cd examples/go && {{go_env}} go vet ./... && SAMEKEY_FERRETDB="$PWD/../../target/examples/ferretdb" {{go_env}} go test -count=1 -race ./...)
    cmp "$out/node.tsv" "$out/python.tsv" && cmp "$out/node.tsv" "$out/go.tsv"
    echo "examples: node, python and go wrote the same $(wc -l < "$out/node.tsv") lines (ids, hashes, actions)"

# Disk full (SQLite and PostgreSQL), I/O errors, kill -9 mid-commit, PostgreSQL crashed
# and restarted, its connections cut, wall-clock jumps, unwritable databases at start;
# every client answer recorded and checked against what the registry holds afterwards.
# Needs root: it mounts tmpfs filesystems and runs PostgreSQL servers of its own.
# The registry under storage, process and clock faults.
test-registry-faults: setup-system
    #!/usr/bin/env bash
    set -euo pipefail
    if [ "$(id -u)" != 0 ]; then
      echo "test-registry-faults: not run: it needs root (tmpfs mounts, PostgreSQL as its own user)" >&2
      exit 1
    fi
    cargo test -p samekey-registry --test faults --test history -- --include-ignored --test-threads=1

# Registrations per second, p50/p99, at concurrency 1 and 32, SQLite and PostgreSQL, next
# to direct SQL inserts of the same rows.
bench-registry: setup-system
    #!/usr/bin/env bash
    set -euo pipefail
    export SAMEKEY_BENCH_POSTGRES="${SAMEKEY_BENCH_POSTGRES:-$(scripts/postgres.sh)}"
    cargo bench -p samekey-registry --bench registry

python_venv := "bindings/python/.venv"

# A virtualenv with the Python package installed from its source (pip install ./bindings/python).
setup-python:
    test -x {{python_venv}}/bin/python || python3 -m venv {{python_venv}}
    {{python_venv}}/bin/python -m pip install --quiet --disable-pip-version-check "./bindings/python[test]"

# The Python binding: pytest (every vector, SAMEKEY_VECTORS honoured), mypy --strict, and
# stubtest (the .pyi against the installed native module).
test-python: setup-python
    cd bindings/python && .venv/bin/python -m mypy --strict --no-incremental tests python/samekey examples
    cd bindings/python && .venv/bin/python -m mypy.stubtest --mypy-config-file pyproject.toml samekey
    {{python_venv}}/bin/python -c "import samekey; print('selftest ok:', samekey.selftest(), 'vectors')"
    cd bindings/python && .venv/bin/python -m pytest -q -p no:cacheprovider --ignore=tests/engines

engines_venv := "bindings/python/.venv-engines"

# A virtualenv with the samekey wheel (built from the source as pip builds it) and the
# pinned data engines of bindings/python/tests/engines/requirements.txt, and nothing else.
setup-engines:
    test -x {{engines_venv}}/bin/python || python3 -m venv {{engines_venv}}
    rm -rf target/python-engines
    {{engines_venv}}/bin/python -m pip wheel --quiet --disable-pip-version-check --no-deps -w target/python-engines ./bindings/python
    {{engines_venv}}/bin/python -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps target/python-engines/samekey-*.whl
    {{engines_venv}}/bin/python -m pip install --quiet --disable-pip-version-check -r bindings/python/tests/engines/requirements.txt

# samekey in pyarrow, Polars, DuckDB and Apache Spark (master local[2] on Java 17): every
# ulid vector through each, a 1M-row Spark job against the single-machine batch, and the
# modules' doctests. A skipped test fails the run.
test-engines: setup-engines
    cd bindings/python && .venv-engines/bin/python -m pytest -q -p no:cacheprovider tests/engines
    cd /tmp && {{justfile_directory()}}/{{engines_venv}}/bin/python -m pytest -q -p no:cacheprovider --doctest-modules --pyargs samekey.arrow samekey.polars samekey.duckdb

pg_ext_venv := "extensions/postgres/.venv"

# The PostgreSQL extension (extensions/postgres, pgrx 0.19.4 on Rust 1.96 by its own
# toolchain file), packaged and installed from its tarball into the project's PostgreSQL
# as a user installs it; cargo-pgrx, Debian's server headers and libclang once per machine.
setup-postgres-extension: setup-engines
    scripts/postgres-extension.sh install
    test -x {{pg_ext_venv}}/bin/python || python3 -m venv {{pg_ext_venv}}
    {{pg_ext_venv}}/bin/python -m pip install --quiet --disable-pip-version-check -r extensions/postgres/tests/requirements.txt
    {{pg_ext_venv}}/bin/python -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps target/python-engines/samekey-*.whl

# CREATE EXTENSION samekey on the project's PostgreSQL (scripts/postgres.sh), then every
# vector through SQL, errors and their SQLSTATEs included (and test-vectors/small.json),
# a generated column against the Python binding, an expression index, a 1M-row backfill,
# a parallel plan and an identity trigger; the crate's fmt and clippy.
test-postgres-extension: setup-postgres-extension
    #!/usr/bin/env bash
    set -euo pipefail
    export SAMEKEY_TEST_POSTGRES="${SAMEKEY_TEST_POSTGRES:-$(scripts/postgres.sh)}"
    cd extensions/postgres
    CARGO_TARGET_DIR=../../target/postgres cargo fmt --check
    CARGO_TARGET_DIR=../../target/postgres cargo clippy --release --quiet -- -D warnings
    .venv/bin/python -m pytest -q -p no:cacheprovider tests
    SAMEKEY_VECTORS="$PWD/../../test-vectors/small.json" .venv/bin/python -m pytest -q -p no:cacheprovider -s tests/test_vectors.py | grep -E "vectors ran|passed|failed"

# Rows per second of samekey_ulid against the closest built-in expression,
# encode(sha256(convert_to(slug || ':' || lang, 'UTF8')), 'hex'), on the same table.
bench-postgres-extension: setup-postgres-extension
    SAMEKEY_TEST_POSTGRES="${SAMEKEY_TEST_POSTGRES:-$(scripts/postgres.sh)}" {{pg_ext_venv}}/bin/python extensions/postgres/bench/bench.py

# The extension's tarballs (one per PostgreSQL major version installed) in
# target/dist/postgres, with INSTALL.md.
dist-postgres:
    scripts/postgres-extension.sh package

dist_tools := "target/dist-tools"
zigbuild_version := "0.24.1"
actionlint_version := "v1.7.12"

# The pinned release tools: maturin, ziglang, twine, auditwheel, pypiserver (PyPI) and
# cargo-zigbuild (crates.io).
setup-dist-tools:
    test -x {{dist_tools}}/bin/python || python3 -m venv {{dist_tools}}
    {{dist_tools}}/bin/pip install --quiet --disable-pip-version-check -r scripts/dist-requirements.txt
    cargo zigbuild --version 2>/dev/null | grep -qx "cargo-zigbuild {{zigbuild_version}}" || cargo install --locked cargo-zigbuild --version {{zigbuild_version}}

# Every release artifact in target/dist/, with SHA256SUMS: the Python wheels of every
# release target and the sdist (python/), the npm packages (npm/), the crates (crates/),
# the CLI archives (cli/), the Go module as its proxy serves it (go/proxy), the Kotlin
# artifact in a Maven repository (maven/), the Swift package's Linux archives (swift/),
# the PostgreSQL extension's tarballs (postgres/).
dist: dist-python dist-node dist-crates dist-cli dist-go dist-kotlin dist-swift dist-postgres
    cd target/dist && find python npm crates cli go/proxy maven swift postgres -type f | sort | xargs sha256sum > SHA256SUMS
    cat target/dist/SHA256SUMS

# Python wheels for the targets given (every release target by default) and the sdist.
dist-python *targets: setup-dist-tools
    scripts/dist-python.sh {{targets}}

# The crates for crates.io, each verified by building it from its package (the ones it
# depends on come from a local overlay registry, in dependency order). cargo reuses a
# copy of an overlay crate it extracted before when the version is the same, so copies
# left by an earlier run go first: otherwise a crate is verified against old sources.
dist-crates:
    rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/samekey*-[0-9]*
    cargo package --locked -p samekey -p samekey-vectors -p samekey-registry -p samekey-cli
    mkdir -p target/dist/crates && cp target/package/*.crate target/dist/crates/

# The samekey command as release archives for the targets given (every release target
# by default).
dist-cli *targets: setup-dist-tools
    scripts/dist-cli.sh {{targets}}

# npm packages for the platforms given (every release platform by default): the addon
# packages, the main package naming them, samekey-wasm.
dist-node *platforms: setup-dist-tools setup-node setup-wasm
    node scripts/dist-node.mjs {{platforms}}

# The whole release matrix, built and installed from local registries where it can run here.
test-dist: dist check-dist
    scripts/test-go-proxy.sh --all
    scripts/test-kotlin-repo.sh --all
    scripts/test-cli-archives.sh
    {{dist_tools}}/bin/python scripts/check_cli.py target/dist/cli
    just test-bundlers

# What CI runs of test-dist: the manylinux2014 x86_64 wheel and the sdist, the macOS arm64
# wheel (a link that check-targets cannot see: macOS frameworks through zig's stubs), the
# linux-x64 npm packages (gnu, musl), checked as check-dist says; samekey-wasm bundled by
# esbuild (ESM and IIFE) in Chromium; the crates packaged and verified.
test-dist-fast: setup-dist-tools setup-node setup-wasm
    rm -rf target/dist/python target/dist/npm
    scripts/dist-python.sh x86_64-unknown-linux-gnu aarch64-apple-darwin
    node scripts/dist-node.mjs linux-x64-gnu linux-x64-musl
    just check-dist
    just test-bundlers esbuild esbuild-iife
    just dist-crates

# The Python and npm artifacts in target/dist, installed as users would: from pypiserver
# into a Debian bullseye root (glibc 2.31) and, for aarch64, under qemu-user; the sdist
# without Rust; from Verdaccio into fresh projects; then read with tools.
check-dist: setup-dist-tools
    scripts/test-python-index.sh
    scripts/test-sdist-no-rust.sh
    {{dist_tools}}/bin/python scripts/check_wheels.py target/dist/python
    scripts/test-npm-registry.sh
    {{dist_tools}}/bin/python scripts/check_npm.py target/dist/npm

# Build the Python sdist and install it into a fresh virtualenv (what PyPI users get).
test-python-sdist: setup-python
    #!/usr/bin/env bash
    set -euo pipefail
    out=$(mktemp -d)
    {{python_venv}}/bin/python -m pip install --quiet "maturin==1.16.0"
    (cd bindings/python && .venv/bin/maturin sdist -o "$out")
    python3 -m venv "$out/venv"
    "$out/venv/bin/pip" install --quiet "$out"/samekey-*.tar.gz
    "$out/venv/bin/python" -c "import samekey; print('sdist selftest ok:', samekey.selftest(), 'vectors')"
    rm -rf "$out"

# Build the Python wheel (abi3, one per platform) and sdist into target/python-dist.
python-dist: setup-python
    {{python_venv}}/bin/python -m pip install --quiet "maturin==1.16.0"
    cd bindings/python && .venv/bin/maturin build --release --sdist -o ../../target/python-dist

# The npm package's dependencies and its native addon (bindings/node/samekey.<platform>.node).
setup-node:
    cd bindings/node && npm ci --no-audit --no-fund --loglevel=error
    cd bindings/node && npx napi build --platform --release --no-js --dts native.d.ts

# The Node binding: tsc --strict over every export, selftest, then node --test (every
# vector; SAMEKEY_VECTORS honoured).
test-node: setup-node
    cd bindings/node && npx tsc -p test/tsconfig.json
    cd bindings/node && node -e "console.log('selftest ok:', require('samekey').selftest(), 'vectors')"
    cd bindings/node && node --test test/

# Pack the npm package and install the tarball into a fresh project; require and import it.
test-node-pack: setup-node
    #!/usr/bin/env bash
    set -euo pipefail
    out=$(mktemp -d)
    (cd bindings/node && npm pack --silent --pack-destination "$out" >/dev/null)
    cd "$out" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error ./samekey-*.tgz
    node -e "console.log('packed require ok:', require('samekey').selftest(), 'vectors')"
    node --input-type=module -e "import { selftest } from 'samekey'; console.log('packed import ok:', selftest(), 'vectors')"
    rm -rf "$out"

wasm_bindgen_version := "0.2.130"

# The wasm target, the wasm-bindgen CLI of exactly the crate's version, Chromium, the npm
# packages, and the built package (bindings/wasm/pkg).
setup-wasm: setup-system
    rustup target add wasm32-unknown-unknown >/dev/null 2>&1
    wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen {{wasm_bindgen_version}}" || cargo install wasm-bindgen-cli --version {{wasm_bindgen_version}}
    cd bindings/wasm && npm ci --no-audit --no-fund --loglevel=error
    cd bindings/wasm && node scripts/build.mjs

# samekey-wasm packed and installed into a fresh project, bundled as a user would (esbuild
# ESM and IIFE/ES2020 by default; also vite and webpack), every vector in Chromium.
test-bundlers *builders="esbuild esbuild-iife vite webpack": setup-wasm
    cd bindings/wasm && node test/bundle/run.mjs {{builders}}

# The WASM package: the Node binding's API tests against it (every vector; SAMEKEY_VECTORS
# honoured), the size budget, and every vector inside headless Chromium.
test-wasm: setup-wasm
    cd bindings/wasm && SAMEKEY_JS_PACKAGE="$PWD/pkg/node.cjs" SAMEKEY_JS_MODULE="$PWD/pkg/node.mjs" node --test ../node/test/vectors.test.js ../node/test/api.test.js ../node/test/esm.test.mjs test/size.test.mjs test/browser.test.mjs

cbindgen_version := "0.29.2"

# The C ABI's static library (target/release/libsamekey_ffi.a) and its tools.
setup-ffi: setup-system
    cbindgen --version 2>/dev/null | grep -qx "cbindgen {{cbindgen_version}}" || cargo install cbindgen --version {{cbindgen_version}}
    cargo build --release -p samekey-ffi

# Regenerate the committed C header.
ffi-header: setup-ffi
    cd crates/samekey-ffi && cbindgen --config cbindgen.toml --crate samekey-ffi --output include/samekey.h

# The C ABI: the committed header equals a fresh cbindgen run, and a C program using it
# runs clean under valgrind --leak-check=full.
test-ffi: setup-ffi
    #!/usr/bin/env bash
    set -euo pipefail
    fresh=$(mktemp)
    (cd crates/samekey-ffi && cbindgen --quiet --config cbindgen.toml --crate samekey-ffi --output "$fresh")
    diff -u crates/samekey-ffi/include/samekey.h "$fresh" || { echo "samekey.h is stale: run just ffi-header"; exit 1; }
    rm -f "$fresh"
    gcc -std=c11 -Wall -Wextra -Werror -g -I crates/samekey-ffi/include crates/samekey-ffi/tests/c/test_samekey.c       target/release/libsamekey_ffi.a -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -o target/test_samekey_c
    valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=1 -q target/test_samekey_c

# The Go package in a checkout: the host's static library linked into bindings/go/lib
# where a release carries the prebuilt ones (gitignored; see bindings/go/README.md).
setup-go: setup-ffi
    #!/usr/bin/env bash
    set -euo pipefail
    dir="bindings/go/lib/$(go env GOOS)-$(go env GOARCH)"
    ln -sfn "$PWD/target/release/libsamekey_ffi.a" "$dir/libsamekey_ffi.a"

# cgo caches a package by its flags, not by the static library it links: the library's
# hash in CGO_CFLAGS makes a rebuilt core relink. Prefix every go command of a checkout.
go_env := 'CGO_CFLAGS="-O2 -g -DSAMEKEY_FFI_BUILD=$(sha256sum ' + justfile_directory() + '/target/release/libsamekey_ffi.a | cut -c1-16)"'

# The Go package (cgo over the C ABI): go vet, then every vector and the API tests under
# the race detector (SAMEKEY_VECTORS honoured).
test-go: setup-go
    cd bindings/go && {{go_env}} go vet ./... && {{go_env}} go test -race -count=1 -v ./... 2>&1 | grep -vE '^(=== (RUN|PAUSE|CONT)|\?   )' | tail -n 20

# Go per id: DeriveULID, the Deriver and the batch calls against the pure-Go peer
# (crypto/sha256 + encoding/base32), interleaved rounds, and the cost of each step.
bench-go rounds="9": setup-go
    cd bindings/go && {{go_env}} go test -count=1 -run TestSpeedTable -samekey.rounds={{rounds}} -v . | grep -E '^\s+(\||[0-9]+ rounds)' | sed 's/^ *//'

# The Go module as a release publishes it, for the platforms given (every release
# platform by default): target/dist/go/module (the tagged tree) and target/dist/go/proxy.
dist-go *platforms: setup-dist-tools
    scripts/dist-go.sh {{platforms}}

# The Go module from a GOPROXY=file:// directory into a fresh module, no cargo on PATH:
# vectors, CGO_ENABLED=0's message, a static musl binary in an empty root. What `just
# test` runs; test-dist adds glibc 2.17 on bullseye, arm64 under qemu, Windows and macOS.
test-go-dist: (dist-go "linux-amd64" "linux-amd64-musl")
    scripts/test-go-proxy.sh

# The uniffi library (dev profile: fast to build) and the Kotlin and Swift sources that
# the workspace's own uniffi-bindgen generates from it (target/uniffi/).
generate-bindings:
    rm -rf target/uniffi
    cargo build -p samekey-uniffi --features bindgen
    ./target/debug/uniffi-bindgen generate --library target/debug/libsamekey_uniffi.so --language kotlin --out-dir target/uniffi/kotlin --no-format
    ./target/debug/uniffi-bindgen generate --library target/debug/libsamekey_uniffi.so --language swift --out-dir target/uniffi/swift --no-format
    mkdir -p bindings/swift/Sources/Samekey
    cp target/uniffi/swift/Samekey.swift bindings/swift/Sources/Samekey/Samekey.swift
    cp target/uniffi/swift/SamekeyFFI.h bindings/swift/Sources/SamekeyFFI/SamekeyFFI.h

# Maven (Debian's) and a JDK; Maven fetches the Kotlin compiler, JNA and the plugins from
# Maven Central at the versions bindings/kotlin/pom.xml pins.
setup-kotlin: setup-system

# The Kotlin/JVM artifact for the JNA platforms given (every release platform by default),
# deployed to the file:// Maven repository target/dist/maven; its build runs the API tests
# and every vector against the JAR's own native library.
dist-kotlin *platforms: setup-kotlin setup-dist-tools
    scripts/dist-kotlin.sh {{platforms}}

# Kotlin per id: the idiomatic API, the prepared deriver and the generated call against the
# pure-JVM peer (MessageDigest + a Crockford loop), interleaved rounds, medians.
bench-kotlin rounds="9": (dist-kotlin "linux-x86-64")
    cd bindings/kotlin && SAMEKEY_BENCH_ROUNDS={{rounds}} mvn -B -q -Dsamekey.natives="$PWD/../../target/kotlin-natives" -Dtest=SpeedTable -Dsurefire.failIfNoSpecifiedTests=false test | grep -E '^(\||[0-9]+ rounds)'

# The Swift package's Linux archives (static library and pkg-config file) for the arches
# given (x86_64 and aarch64 by default), in target/dist/swift.
dist-swift *arches: setup-dist-tools
    scripts/dist-swift.sh {{arches}}

# Kotlin: the uniffi crate's own tests, the artifact with the host's library (its tests run
# every vector), then a fresh Maven project depending on it from the file:// repository
# runs every vector with plain `mvn test`.
test-kotlin: (dist-kotlin "linux-x86-64")
    cargo test -q -p samekey-uniffi --lib
    scripts/test-kotlin-repo.sh

# A Swift toolchain where the machine has none: Debian trixie's swiftlang, debootstrapped
# into {{swift_root}} (needs root and Debian's mirror; about a minute and 3 GB).
setup-swift: setup-system
    #!/usr/bin/env bash
    set -euo pipefail
    if command -v swift >/dev/null 2>&1; then exit 0; fi
    # A root made before SwiftPM's dependency test needed git gets it added.
    if [ -e {{swift_root}}/.ready ]; then
      [ -x {{swift_root}}/usr/bin/git ] || chroot {{swift_root}} apt-get install -y -qq --no-install-recommends git ca-certificates >/dev/null 2>&1
      exit 0
    fi
    rm -rf {{swift_root}}.tmp
    debootstrap --variant=minbase trixie {{swift_root}}.tmp http://deb.debian.org/debian >/dev/null
    chroot {{swift_root}}.tmp apt-get install -y -qq --no-install-recommends swiftlang libc6-dev git ca-certificates >/dev/null 2>&1
    touch {{swift_root}}.tmp/.ready && mv {{swift_root}}.tmp {{swift_root}}

# Swift: every vector and the API tests through the generated Swift package (XCTest), with
# the machine's swift or else the one in {{swift_root}}. If neither can be had, it says
# SKIPPED and counts nothing as passed.
test-swift:
    #!/usr/bin/env bash
    set -euo pipefail
    if ! command -v swift >/dev/null 2>&1 && ! (unshare -m true && just setup-swift); then
      echo "test-swift: SKIPPED, not run and not counted: no swift here and setup-swift failed (it needs root, unshare, debootstrap and Debian's mirror)"
      exit 0
    fi
    scripts/test-swift.sh

# The same version everywhere, and generators pinned to the versions their crates use.
check-versions:
    python3 scripts/check_versions.py

# Fail when test-vectors/samekey.json differs from a fresh run of the reference.
check-vectors:
    python3 spec/reference/gen_vectors.py --check
    python3 spec/reference/check_orders.py

# Regenerate test-vectors/samekey.json from the reference implementation.
vectors: setup
    python3 spec/reference/gen_vectors.py

lint:
    cargo fmt --all --check
    cargo check -q -p samekey --no-default-features --features serde
    cargo clippy -q -p samekey-cli --no-default-features -- -D warnings
    ! cargo tree -q -p samekey-cli --no-default-features -e normal --prefix none | grep -E '^(tokio|sqlx|axum|hyper) ' || { echo "samekey-cli without serve still depends on the registry's stack"; exit 1; }
    cargo clippy --workspace --all-targets --all-features -- -D warnings
    target/tools/actionlint -version 2>/dev/null | grep -qx {{actionlint_version}} || GOBIN="$PWD/target/tools" go install github.com/rhysd/actionlint/cmd/actionlint@{{actionlint_version}}
    target/tools/actionlint
    test -z "$(gofmt -l bindings/go examples/go scripts/go-proxy)" || { gofmt -l bindings/go examples/go scripts/go-proxy; exit 1; }
    go -C scripts/go-proxy vet ./...

# Run every fuzz target for fuzz_seconds (needs a nightly toolchain and cargo-fuzz).
fuzz:
    #!/usr/bin/env bash
    set -euo pipefail
    if ! rustup toolchain list | grep -q nightly; then echo "just fuzz: no nightly toolchain; skipped"; exit 0; fi
    command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
    cd fuzz
    for t in ulid content_hash revision_key json rfc3339; do
      cargo +nightly fuzz run "$t" -- -max_total_time={{fuzz_seconds}}
    done

# Every benchmark, printed as tables.
bench: bench-rust bench-instructions bench-content bench-python bench-batch bench-node bench-wasm bench-go bench-kotlin bench-registry

# samekey-wasm vs @noble/hashes and crypto.subtle, in Node and in headless Chromium.
bench-wasm: setup-wasm
    cd bindings/wasm && node bench/bench.mjs

# Node addon vs the fastest node:crypto equivalent and @noble/hashes.
bench-node: setup-node
    cd bindings/node && node bench/bench.mjs

# Python binding vs the fastest pure-Python equivalent and uuid.uuid5.
bench-python: setup-python
    {{python_venv}}/bin/python bindings/python/bench/bench.py

# Batch keying of 1M rows next to what users write otherwise, each table's variants
# interleaved: Arrow vs lists vs hashlib, Polars, Spark local[2], and the CLI vs jq and a
# Python pipeline. SAMEKEY_BENCH_ROWS=N for another size.
bench-batch: setup-system setup-engines
    cargo build --release -p samekey-cli
    {{engines_venv}}/bin/python bindings/python/bench/bench_batch.py --cli target/release/samekey

# ns per ULID derivation next to the bare-SHA-256 floor (criterion, then interleaved
# rounds in one process, which cancels most machine noise), and in-memory throughput.
bench-rust:
    cargo bench -p samekey --bench derive -- --warm-up-time 2 --measurement-time 5
    python3 scripts/bench_table.py target/criterion ulid
    cargo bench -p samekey --bench ulid_vs_floor
    cargo bench -p samekey --bench batch_threads
    cargo bench -p samekey --bench content

# Instructions per ULID derivation under callgrind: repeatable on a noisy machine.
bench-instructions: setup-system
    scripts/bench-instructions.sh

# 256 MiB file: samekey hash vs openssl dgst -sha256 and b3sum.
bench-content:
    command -v b3sum >/dev/null || cargo install b3sum
    cargo build --release -p samekey-cli
    scripts/bench-content.sh 5
