# samekey: one Rust core, the same keys in every language.
#
# The front door: `build`, `test`, `dist`, `bench`, `lint`, `generate`. Each binding,
# the extension and the registry own their recipes in their folder's justfile (a module:
# `just python::test`, `just --list python`); the names of the earlier single justfile
# (`just test-python`, `just dist-go`, ...) are aliases of them. On a fresh machine use
# ./dev, which installs just first.

set shell := ["bash", "-euo", "pipefail", "-c"]

# The C ABI (crates/samekey-ffi): static library, header, C test under valgrind.
mod ffi 'crates/samekey-ffi'
# The samekey command (crates/samekey-cli): release archives and their install tests.
mod cli 'crates/samekey-cli'
# The revision registry (crates/samekey-registry): scenarios, faults, benchmark.
mod registry 'crates/samekey-registry'
# Python (bindings/python): the package, its wheels, and the data engines.
mod python 'bindings/python'
# Node (bindings/node): the napi addon package and the npm release.
mod node 'bindings/node'
# WebAssembly (bindings/wasm): samekey-wasm for browsers and Node.
mod wasm 'bindings/wasm'
# Go (bindings/go): cgo over the C ABI, and the module as its proxy serves it.
mod go 'bindings/go'
# The JVM (bindings/kotlin): one JAR for Kotlin, Java and Scala (JNI + uniffi/JNA), samekey-spark.
mod jvm 'bindings/kotlin'
# The same module by its earlier name (`just kotlin::test` keeps working).
[private]
mod kotlin 'bindings/kotlin'
# Swift (bindings/swift): SwiftPM over the C ABI.
mod swift 'bindings/swift'
# The PostgreSQL extension (extensions/postgres, pgrx, its own toolchain).
mod postgres 'extensions/postgres'
# The documentation site (docs, mdBook): build, serve, run every example it shows.
mod site 'docs'

# Seconds each fuzz target runs in `just fuzz`.
fuzz_seconds := env_var_or_default("FUZZ_SECONDS", "60")
actionlint_version := "v1.7.12"

[private]
default:
    @just --list --list-submodules

# Every Debian package any recipe needs, in one apt-get install, before any server starts.
# Nothing else installs system packages (scripts/check_system_installs.py checks it).
[doc("Every Debian package any recipe needs, before any server starts")]
setup-system:
    scripts/setup-system.sh

# The workspace's Rust with every target and component rust-toolchain.toml lists, added
# when missing (rustup adds them only when it installs the toolchain itself).
[doc("The workspace's Rust, its targets and components (rust-toolchain.toml)")]
setup-rust:
    scripts/setup-rust.sh

# Install what the recipes need (idempotent; fast when already installed).
setup: setup-system setup-rust
    python3 -m pip install --quiet --disable-pip-version-check -r spec/reference/requirements.txt

# The pinned release tools (scripts/dist-tools.sh): maturin, ziglang, twine, auditwheel,
# pypiserver and cargo-zigbuild. Every dist recipe runs it; release jobs run it once.
[doc("The pinned release tools (maturin, zig, twine, cargo-zigbuild...)")]
setup-dist-tools:
    scripts/dist-tools.sh

# The main job: build what ships: the samekey CLI (target/release/samekey), the Python
# wheel and sdist (target/python-dist) and the npm packages samekey and samekey-wasm
# (target/npm).
[doc("The main job: the CLI, the Python wheel and sdist, the npm packages")]
build: setup python::wheel node::setup wasm::setup
    cargo build --release -p samekey-cli
    mkdir -p target/npm && cd bindings/node && npm pack --silent --pack-destination ../../target/npm >/dev/null
    cd bindings/wasm && npm pack --silent --pack-destination ../../target/npm >/dev/null
    @echo "built target/release/samekey ($(target/release/samekey --version)), target/python-dist/ and target/npm/"

# Every test in every language. Each step is marked (.ci/run prints how long each took).
# What is heavy runs in recipes of its own, of which `test` runs a fast subset: the
# release matrix in test-dist (every platform's wheel, addon, library and archive, the
# crates verified from their packages, the Spark JVM tests, the Go module's static musl
# link), the engines in test-engines (the Spark suite and the PostgreSQL extension's
# clippy on top of what `test` runs). A fresh clone's run had grown to 85 of CI's minutes.
test: (step "setup") setup \
    (step "check-generated") check-generated \
    (step "lint") lint \
    (step "check-targets") (check-targets ci_targets) \
    (step "test-environment") test-environment (prune "target/check-targets") \
    (step "ffi::test") ffi::test \
    (step "go::test") go::test \
    (step "go::test-dist") (go::test-dist "linux-amd64") \
    (step "jvm::test") jvm::test \
    (step "swift::test") swift::test \
    (step "python::test-sdist") python::test-sdist \
    (step "test-dist-fast") test-dist-fast \
    (step "node::test-pack") node::test-pack \
    (step "node::test") node::test \
    (step "wasm::test") wasm::test \
    (step "test-rust") test-rust \
    (step "registry::test") registry::test \
    (step "registry::test-faults") registry::test-faults \
    (step "test-examples") test-examples \
    (step "python::test") python::test \
    (step "registry::test-clients") registry::test-clients \
    (step "python::test-engines-fast") python::test-engines-fast \
    (step "postgres::test") postgres::test \
    (step "test-small-vectors") test-small-vectors \
    (step "site::test") site::test

# Every engine samekey runs inside: pyarrow, Polars, DuckDB and Spark local[2], and the
# PostgreSQL extension on this machine's server (pg_regress, every vector through SQL, a
# 1M-row backfill) with its clippy; test-dist adds the extension's other majors, arm64
# and musl, and Spark's clusters.
[doc("Every engine: Arrow, Polars, DuckDB, Spark, and the PostgreSQL extension with its clippy")]
test-engines: python::test-engines postgres::lint postgres::test

# The start of one of test's steps, for .ci/run's table of times (scripts/ci-steps.sh).
[private]
step name:
    @scripts/ci-steps.sh mark "{{name}}"

# With SAMEKEY_PRUNE set (CI's fresh clone: .ci/run), a scratch tree that no later step
# of `test` reads is deleted once its last reader is done: check-targets' 2 GB of
# metadata. A shared disk's free space varies; the run's peak
# stays lower. Elsewhere they are kept, for the next run.
[private]
prune path:
    @if [ -n "${SAMEKEY_PRUNE:-}" ]; then echo "prune: {{path}} ($(du -sh {{path}} 2>/dev/null | cut -f1))"; rm -rf {{path}}; fi

# Every generated file (C header, uniffi Swift sources, TypeScript error union, Go
# sentinels, test vectors) rewritten, and every version pin checked: cargo xtask.
[doc("Rewrite every generated file and check every pin (cargo xtask generate-all)")]
generate: setup
    cargo xtask generate-all

# Fails, naming the command to run, when a generated file is stale or a pin drifted.
[doc("Fail, naming the command, when a generated file or a pin is stale")]
check-generated: setup
    cargo xtask generate-all --mode check

# What `test` checks of the targets: one per OS besides the host's (Windows, macOS), and
# one per architecture (aarch64, wasm32), so every cfg our crates branch on (unix or not,
# x86_64 or not, wasm32 or not) is compiled both ways with clippy's host build; the other
# five (Linux musl and glibc 2.17 for both architectures, x86_64 macOS) in `check-targets`
# alone and in test-dist's builds. Three targets instead of eight.
ci_targets := "aarch64-apple-darwin x86_64-pc-windows-gnu wasm32-unknown-unknown"

# cargo check of each crate that ships for a target, its build scripts compiled by the
# release's compilers, warnings denied: Linux gnu and musl and macOS on x86_64 and
# aarch64, Windows x64, wasm32 (TARGET... for some). A check: no codegen, no linking.
# Every release target compiles.
[doc("Every release target compiles (cargo check per target, warnings denied)")]
check-targets *targets: setup-dist-tools
    scripts/check-targets.sh {{targets}}

# System packages come only from setup-system; scripts/postgres.sh restarts a server
# whose binary an upgrade replaced; setup-rust adds the targets a toolchain lacks; check-targets fails a change that breaks only a
# non-Linux target; no binding copies a host rule of samekey::host (check_host_rules.py);
# a rebuilt core is relinked into the Go package.
# What keeps a run from breaking on a new machine or another platform, or drifting.
[doc("What keeps a run from breaking on a new machine or another platform")]
test-environment: setup-system ffi::build
    python3 scripts/check_system_installs.py --self-test
    python3 scripts/check_system_installs.py
    python3 scripts/check_host_rules.py --self-test
    python3 scripts/check_host_rules.py
    scripts/test-postgres-restart.sh
    scripts/test-setup-rust.sh
    scripts/test-check-targets.sh
    bindings/go/scripts/test-relink.sh

# Every runner works with any valid vector file, not only ours (spec §10.1): the Rust,
# Python, Node, WebAssembly and Go runners on test-vectors/small.json, whose cases and
# counts differ (Kotlin and Swift run it in their own recipes). Run after their setups.
[doc("Every runner on test-vectors/small.json, not only ours")]
test-small-vectors:
    #!/usr/bin/env bash
    set -euo pipefail
    export SAMEKEY_VECTORS="$PWD/test-vectors/small.json"
    cargo test -q -p samekey-vectors --test every_vector -- --nocapture every_vector_passes | grep -E " vectors$"
    (cd bindings/python && .venv/bin/python -m pytest -q -p no:cacheprovider tests/test_vectors.py | tail -n 1)
    (cd bindings/node && node --test test/vectors.test.js | grep -E "^# (pass|fail)")
    (cd bindings/wasm && SAMEKEY_JS_PACKAGE="$PWD/pkg/node.cjs" node --test ../node/test/vectors.test.js | grep -E "^# (pass|fail)")
    (cd bindings/go && scripts/go.sh test -count=1 -run 'TestEveryVector' -v . | grep -E "vectors from|^(ok|FAIL)")

# The Rust core and CLI: unit, property, RFC 8785, fuzz-corpus and vector tests, and the
# maintainers' tool. SAMEKEY_VECTORS=FILE makes the vector tests read FILE.
[doc("The Rust core and CLI: unit, property, RFC 8785, fuzz-corpus, vectors")]
test-rust:
    #!/usr/bin/env bash
    set -uo pipefail
    log=$(mktemp)
    cargo test --workspace --exclude samekey-python --exclude samekey-node --exclude samekey-wasm --exclude samekey-uniffi --exclude samekey-registry --all-features --no-fail-fast 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    awk '/^test result:/ {p += $4; f += $6} END {printf "rust: %d passed, %d failed\n", p, f}' "$log"
    rm -f "$log"
    exit "$status"

# The upsert pipelines of examples/ on real databases: Node + better-sqlite3, Python +
# PostgreSQL (scripts/postgres.sh), Go + FerretDB (built from examples/ferretdb), with a
# lost acknowledgement injected by examples/faultproxy.py; then the three output files of
# the same input must be the same bytes.
[doc("The upsert pipelines of examples/ on real databases, faults injected")]
test-examples: setup-system node::setup python::setup ffi::build
    #!/usr/bin/env bash
    set -euo pipefail
    out="$PWD/target/examples/out"
    rm -rf "$out"
    export SAMEKEY_EXAMPLES_OUT="$out"
    export SAMEKEY_TEST_POSTGRES="${SAMEKEY_TEST_POSTGRES:-$(scripts/postgres.sh)}"
    gosh="$PWD/bindings/go/scripts/go.sh"
    scripts/npm-install.sh examples/node install && (cd examples/node && node --test test/)
    bindings/python/.venv/bin/python -m pip install --quiet --disable-pip-version-check -r examples/python/requirements.txt
    (cd examples/python && ../../bindings/python/.venv/bin/python -m pytest -q test_pipeline.py)
    (cd examples/ferretdb && go build -o ../../target/examples/ferretdb .)
    (cd examples/go && "$gosh" vet ./... && SAMEKEY_FERRETDB="$PWD/../../target/examples/ferretdb" "$gosh" test -count=1 -race ./...)
    cmp "$out/node.tsv" "$out/python.tsv" && cmp "$out/node.tsv" "$out/go.tsv"
    echo "examples: node, python and go wrote the same $(wc -l < "$out/node.tsv") lines (ids, hashes, actions)"

# Every release artifact in target/dist/, with SHA256SUMS: the Python wheels of every
# release target and the sdist (python/), the npm packages (npm/), the crates (crates/),
# the CLI archives (cli/), the Go module as its proxy serves it (go/proxy), the Kotlin
# artifact in a Maven repository (maven/), the Swift package's Linux archives (swift/),
# the PostgreSQL extension's tarballs (postgres/).
[doc("Every release artifact in target/dist, with SHA256SUMS")]
dist: python::dist node::dist dist-crates cli::dist go::dist jvm::dist swift::dist postgres::dist
    cd target/dist && find python npm crates cli go/proxy maven swift postgres -type f | sort | xargs sha256sum > SHA256SUMS
    cat target/dist/SHA256SUMS

# The crates for crates.io, each verified by building it from its package (the ones it
# depends on come from a local overlay registry, in dependency order). cargo reuses a
# copy of an overlay crate it extracted before when the version is the same, so copies
# left by an earlier run go first: otherwise a crate is verified against old sources.
# A packaged crate is built as a workspace of its own, without this workspace's
# [profile.dev]: the same settings given as environment (Cargo.toml's, repeated here) let
# the verification reuse what the tests compiled instead of building every dependency
# again (3 minutes of CI's).
[doc("The crates for crates.io, each verified from its package")]
dist-crates:
    rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/samekey*-[0-9]*
    CARGO_PROFILE_DEV_DEBUG=line-tables-only CARGO_PROFILE_DEV_PACKAGE_SHA2_OPT_LEVEL=3 \
      CARGO_PROFILE_DEV_PACKAGE_BLAKE3_OPT_LEVEL=3 CARGO_PROFILE_DEV_PACKAGE_SAMEKEY_OPT_LEVEL=1 \
      cargo package --locked -p samekey -p samekey-vectors -p samekey-registry -p samekey-cli
    mkdir -p target/dist/crates && cp target/package/*.crate target/dist/crates/

# The whole release matrix, built and installed from local registries where it can run here.
[doc("The whole release matrix, built and installed from local registries")]
test-dist: dist check-dist registry::test-heavy jvm::test-spark postgres::test-musl go::test-proxy-all jvm::test-repo-all jvm::test-spark-consumer jvm::test-spark-cluster python::test-spark-cluster postgres::test-majors postgres::test-arm64 postgres::test-arm64-majors postgres::test-musl-majors postgres::test-upgrade cli::test-dist wasm::test-bundlers wasm::test-runtimes

# What `test` runs of test-dist: samekey-wasm packed, installed into fresh projects and
# bundled by esbuild (ESM, IIFE and the inline entry) for Chromium, and run by Deno and
# Bun. The wheels and npm addons of each platform, built with zig and installed from
# local registries, are test-dist's (`dist` and `check-dist`; Rollup, Parcel, Vite and
# webpack too): four release builds of the core took 10 minutes of a run here;
# python::test-sdist and node::test-pack install this machine's sdist and package.
[doc("What `test` runs of test-dist: samekey-wasm bundled by esbuild, Deno and Bun")]
test-dist-fast:
    just wasm::test-bundlers esbuild esbuild-iife esbuild-inline
    just wasm::test-runtimes

# The Python and npm artifacts in target/dist, installed as users would: from pypiserver
# into a Debian bullseye root (glibc 2.31) and, for aarch64, under qemu-user; the sdist
# without Rust; from Verdaccio into fresh projects; then read with tools.
[doc("The Python and npm artifacts of target/dist installed as users would")]
check-dist: python::check-dist node::check-dist

# Regenerate test-vectors/ from the reference implementation.
vectors: setup
    cargo xtask generate vectors

[doc("rustfmt, clippy (warnings denied), the CLI without serve, actionlint, gofmt")]
lint: setup-rust
    cargo fmt --all --check
    cargo check -q -p samekey --no-default-features --features serde
    cargo clippy -q -p samekey-cli --no-default-features -- -D warnings
    ! cargo tree -q -p samekey-cli --no-default-features -e normal --prefix none | grep -E '^(tokio|sqlx|axum|hyper) ' || { echo "samekey-cli without serve still depends on the registry's stack"; exit 1; }
    cargo clippy --workspace --all-targets --all-features -- -D warnings
    target/tools/actionlint -version 2>/dev/null | grep -qx {{actionlint_version}} || GOBIN="$PWD/target/tools" go install github.com/rhysd/actionlint/cmd/actionlint@{{actionlint_version}}
    target/tools/actionlint
    test -z "$(gofmt -l bindings/go examples/go bench/matrix/go)" || { gofmt -l bindings/go examples/go bench/matrix/go; exit 1; }
    go -C bindings/go/scripts/proxy vet ./...

# Run every fuzz target for fuzz_seconds (needs a nightly toolchain and cargo-fuzz).
fuzz:
    #!/usr/bin/env bash
    set -euo pipefail
    if ! rustup toolchain list | grep -q nightly; then echo "just fuzz: no nightly toolchain; skipped"; exit 0; fi
    command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
    cd fuzz
    for t in ulid content_hash revision_key json rfc3339 record batch; do
      cargo +nightly fuzz run "$t" -- -max_total_time={{fuzz_seconds}}
    done

# Every benchmark, printed as tables.
bench: bench-matrix bench-rust bench-instructions bench-content python::bench python::bench-batch node::bench wasm::bench go::bench jvm::bench registry::bench

# One table of every operation of the spec in every binding (core, C ABI, Python, Node,
# WASM in Node, Go, Kotlin, Java, Swift): each binding's runner started once, rounds
# interleaved, ns per call and the ratio to the core's own call, and each cell against
# the goal (bench/matrix/README.md). Release builds throughout.
[doc("Every operation in every binding: ns per call, ratio to the core, interleaved")]
bench-matrix rounds="7": ffi::build python::setup node::setup wasm::setup go::setup swift::setup (jvm::dist "linux-x86-64")
    bindings/swift/scripts/dist.sh --host target/swift-sdk
    bench/matrix/build.sh
    python3 bench/matrix/run.py --rounds {{rounds}}

# ns per ULID derivation next to the bare-SHA-256 floor (criterion, then interleaved
# rounds in one process, which cancels most machine noise), and in-memory throughput.
[doc("ns per ULID next to the bare-SHA-256 floor; in-memory throughput")]
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

# The names of the single justfile that came before the modules, as the READMEs use them.
[private]
alias check-vectors := check-generated
[private]
alias check-versions := check-generated
[private]
alias generate-bindings := generate
[private]
alias ffi-header := generate
[private]
alias setup-ffi := ffi::build
[private]
alias test-ffi := ffi::test
[private]
alias dist-cli := cli::dist
[private]
alias test-registry := registry::test
[private]
alias test-registry-faults := registry::test-faults
[private]
alias bench-registry := registry::bench
[private]
alias setup-python := python::setup
[private]
alias test-python := python::test
[private]
alias test-python-sdist := python::test-sdist
[private]
alias python-dist := python::wheel
[private]
alias dist-python := python::dist
[private]
alias setup-engines := python::setup-engines
[private]
alias bench-python := python::bench
[private]
alias bench-batch := python::bench-batch
[private]
alias setup-node := node::setup
[private]
alias test-node := node::test
[private]
alias test-node-pack := node::test-pack
[private]
alias dist-node := node::dist
[private]
alias bench-node := node::bench
[private]
alias setup-wasm := wasm::setup
[private]
alias test-wasm := wasm::test
[private]
alias test-bundlers := wasm::test-bundlers
[private]
alias bench-wasm := wasm::bench
[private]
alias setup-go := go::setup
[private]
alias test-go := go::test
[private]
alias test-go-dist := go::test-dist
[private]
alias dist-go := go::dist
[private]
alias bench-go := go::bench
[private]
alias setup-kotlin := jvm::setup
[private]
alias test-kotlin := jvm::test
alias docs := site::build
alias docs-serve := site::serve
alias test-docs := site::test
alias dist-jvm := jvm::dist
alias bench-jvm := jvm::jmh
[private]
alias dist-kotlin := jvm::dist
[private]
alias bench-kotlin := jvm::bench
[private]
alias setup-swift := swift::setup
[private]
alias test-swift := swift::test
[private]
alias dist-swift := swift::dist
[private]
alias setup-postgres-extension := postgres::setup
[private]
alias test-postgres-extension := postgres::test
[private]
alias bench-postgres-extension := postgres::bench
[private]
alias dist-postgres := postgres::dist
