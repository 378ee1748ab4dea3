#!/usr/bin/env bash
# samekey's PostgreSQL extension (extensions/postgres, pgrx) for every PostgreSQL server
# installed from Debian's packages here (scripts/postgres.sh installs one).
#   extensions/postgres/scripts/extension.sh package   target/dist/postgres/samekey-pgN-VERSION-linux-ARCH.tar.gz
#   extensions/postgres/scripts/extension.sh install   package, then install the tarballs as a user
#                                           would (extracted at /), for the tests
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
pgrx_version=0.19.4
ext="$PWD/extensions/postgres"
out="$PWD/target/dist/postgres"
export CARGO_TARGET_DIR="$PWD/target/postgres"

majors() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sed -E 's#.*/([0-9]+)/bin$#\1#' | sort -n; }

tools() {
  # The server, its headers and libclang come from Debian with every other system package,
  # in one step before any server starts: installing the headers here once upgraded the
  # server under the tests' running one.
  scripts/setup-system.sh
  local m
  for m in $(majors); do
    [ -x "/usr/lib/postgresql/$m/bin/pg_config" ] && [ -d "/usr/include/postgresql/$m/server" ] && continue
    echo "postgres-extension: PostgreSQL $m has no server headers (postgresql-server-dev-$m): install them, or remove that major" >&2
    exit 1
  done
  cd "$ext"  # its rust-toolchain.toml (Rust 1.96) applies from here on
  local toolchain
  toolchain=$(sed -nE 's/^channel = "(.*)"/\1/p' rust-toolchain.toml)
  rustup toolchain install "$toolchain" --profile minimal --component rustfmt,clippy >/dev/null 2>&1
  # cargo-pgrx must be the version of the pgrx crate; built once per machine.
  if ! cargo pgrx --version 2>/dev/null | grep -qx "cargo-pgrx $pgrx_version"; then
    cargo install --locked cargo-pgrx --version "$pgrx_version"
  fi
  local args=()
  for m in $(majors); do args+=("--pg$m" "/usr/lib/postgresql/$m/bin/pg_config"); done
  cargo pgrx init "${args[@]}" >/dev/null
  cd - >/dev/null
}

package() {
  tools
  local version arch
  version=$(sed -nE 's/^version = "(.*)"/\1/p' "$ext/Cargo.toml" | head -1)
  arch=$(uname -m)
  rm -rf "$out" && mkdir -p "$out"
  for m in $(majors); do
    local stage="$CARGO_TARGET_DIR/package/pg$m"
    rm -rf "$stage"
    (cd "$ext" && cargo pgrx package --pg-config "/usr/lib/postgresql/$m/bin/pg_config" --out-dir "$stage")
    install -m 644 "$ext/INSTALL.md" "$stage/INSTALL.md"
    tar -C "$stage" -czf "$out/samekey-pg$m-$version-linux-$arch.tar.gz" --owner=0 --group=0 INSTALL.md usr
    echo "$out/samekey-pg$m-$version-linux-$arch.tar.gz"
  done
}

case "${1:-package}" in
  package) package ;;
  install)
    package >/dev/null
    # As INSTALL.md tells a user: the usr/ tree of the tarball, extracted at /.
    for m in $(majors); do tar -C / -xzf "$out"/samekey-pg"$m"-*.tar.gz --no-overwrite-dir usr; done
    ;;
  *) echo "usage: $0 package|install" >&2; exit 2 ;;
esac
