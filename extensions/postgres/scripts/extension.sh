#!/usr/bin/env bash
# samekey's PostgreSQL extension (extensions/postgres, pgrx) for every PostgreSQL server
# installed from Debian's packages here (scripts/postgres.sh installs one).
#   extensions/postgres/scripts/extension.sh package   target/dist/postgres/samekey-pgN-VERSION-linux-ARCH.tar.gz
#                                           and the .deb and .rpm of each
#   extensions/postgres/scripts/extension.sh install   package, then install the tarballs as a user
#                                           would (extracted at /), for the tests
#   extensions/postgres/scripts/extension.sh package-suite SUITE MAJOR   one major's tarball, .deb, .rpm
#                                           (postgresql-MAJOR-samekey_VERSION-1_ARCH.deb), built
#                                           against pg-root.sh's root of SUITE or pg-wheel.sh's wheel (SUITE pypi)
#   extensions/postgres/scripts/extension.sh package-arm64 [SUITE MAJOR]   one major's tarball, .deb
#                                           and .rpm for aarch64, cross-built against pg-arm64.sh's
#                                           arm64 root of SUITE (default bookworm 15)
#   extensions/postgres/scripts/extension.sh package-musl [SUITE MAJOR [ARCH]]   one major for musl
#                                           (Alpine) on x86_64 or aarch64:
#                                           samekey-pgN-VERSION-linux-ARCH-musl.tar.gz, laid out
#                                           as the postgres:N-alpine images install PostgreSQL
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
pgrx_version=0.19.4
glibc_floor=2.28
tools_bin="$PWD/target/dist-tools/bin"
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
  "$PWD/scripts/dist-tools.sh"  # cargo-zigbuild and zig, for the glibc floor
  scripts/setup-rust.sh extensions/postgres  # Rust 1.96 with its components
  cd "$ext"  # its rust-toolchain.toml applies from here on
  # cargo-pgrx must be the version of the pgrx crate; built once per machine.
  if ! cargo pgrx --version 2>/dev/null | grep -qx "cargo-pgrx $pgrx_version"; then
    cargo install --locked cargo-pgrx --version "$pgrx_version"
  fi
  # The machine's majors, and any given as further --pgN PG_CONFIG pairs. `cargo pgrx init`
  # rewrites its config, and pgrx-pg-sys rebuilds (minutes) whenever that file changes: it
  # runs only when a pair is missing, and keeps the majors configured before whose pg_config
  # still exists (a deleted clone's root would make init fail).
  local args=("$@") config=$HOME/.pgrx/config.toml missing=false i key path
  for m in $(majors); do args+=("--pg$m" "/usr/lib/postgresql/$m/bin/pg_config"); done
  for ((i = 0; i < ${#args[@]}; i += 2)); do
    grep -qxF "${args[i]#--} = \"${args[i + 1]}\"" "$config" 2>/dev/null || missing=true
  done
  # A configured pg_config that is gone (another clone's root) fails pgrx-pg-sys's build,
  # and init keeps the majors it is not given: such lines are dropped here.
  local line kept=()
  if [ -f "$config" ]; then
    while IFS= read -r line; do
      path=${line#*= \"} && path=${path%\"}
      if [[ $line == pg[0-9]*' = "'* && ! -x $path ]]; then missing=true; else kept+=("$line"); fi
    done < "$config"
    if $missing; then printf '%s\n' "${kept[@]}" > "$config"; fi
  fi
  if $missing; then
    while IFS=' =' read -r key path; do
      path=${path//\"/}
      [[ $key == pg[0-9]* && " ${args[*]} " != *" --$key "* && -x $path ]] && args+=("--$key" "$path")
    done < <(grep -E '^pg[0-9]+ = ' "$config" 2>/dev/null || true)
    cargo pgrx init "${args[@]}" >/dev/null
  fi
  cd - >/dev/null
}

# One major's tarball, .deb and .rpm in $out, built against PG_CONFIG (the machine's, or a
# root's from pg-root.sh), its library linked for glibc $glibc_floor unless FLOOR is
# "host" (the tests of `just test`: the same code, minutes less); prints their paths.
package_major() {
  local m=$1 pg_config=$2 floor=${3:-floor} version arch stage
  version=$(sed -nE 's/^version = "(.*)"/\1/p' "$ext/Cargo.toml" | head -1)
  arch=$(uname -m)
  stage="$CARGO_TARGET_DIR/package/pg$m"
  rm -rf "$stage" && mkdir -p "$out"
  (cd "$ext" && cargo pgrx package --pg-config "$pg_config" --out-dir "$stage" >&2)
  if [ "$floor" = floor ]; then relink_floor "$m" "$pg_config" "$arch" "$stage"; fi
  package_stage "$m" "$version" "$arch" "$stage"
}

# A stage's tarball (with INSTALL.md), .deb and .rpm in $out; prints their paths.
package_stage() {
  local m=$1 version=$2 arch=$3 stage=$4
  install -m 644 "$ext/INSTALL.md" "$stage/INSTALL.md"
  tar -C "$stage" -czf "$out/samekey-pg$m-$version-linux-$arch.tar.gz" --owner=0 --group=0 INSTALL.md usr
  echo "$out/samekey-pg$m-$version-linux-$arch.tar.gz"
  "$ext/scripts/deb.sh" "$stage" "$m" "$version" "$out"
  "$ext/scripts/rpm.sh" "$stage" "$m" "$version" "$out"
}

relink_floor() {
  local m=$1 pg_config=$2 arch=$3 stage=$4 sysroot=${5:-}
  # The library again, linked against glibc $glibc_floor (zig's stubs) instead of this
  # machine's: the SQL pgrx wrote is the same code's, and the .so loads on older
  # distributions (RHEL 8, Debian bullseye).
  local triple=$arch-unknown-linux-gnu icu lib
  icu=$(icu_include "$pg_config" "pg$m-$arch")
  # Another architecture's headers: bindgen (libclang, told the target by cargo) parses
  # them with that system's root as its sysroot.
  local bindgen=()
  [ -z "$sysroot" ] || bindgen=("BINDGEN_EXTRA_CLANG_ARGS_${triple//-/_}=--sysroot=$sysroot")
  lib=$(zig_build "$m" "$pg_config" "$triple" "$arch-linux-gnu.$glibc_floor" "$icu" \
    "$CARGO_TARGET_DIR/glibc-$glibc_floor" "${bindgen[@]}")
  install -m 755 "$lib" "$stage/usr/lib/postgresql/$m/lib/samekey.so"
}

# PostgreSQL's headers include ICU's (unicode/), which zig does not look for in
# /usr/include: that directory alone, from beside PG_CONFIG's includedir, in a directory
# of its own named NAME, to add beside zig's own C library headers. Prints its path.
icu_include() {
  local pg_config=$1 icu="$CARGO_TARGET_DIR/icu-$2"
  # `|| return`: a command substitution does not inherit set -e.
  { rm -rf "$icu" && mkdir -p "$icu" && ln -s "$("$pg_config" --includedir)/../unicode" "$icu/unicode"; } || return
  echo "$icu"
}

# The library of major M for TRIPLE against PG_CONFIG's server headers (and ICU's in ICU),
# built in TARGET_DIR by plain cargo with cargo-zigbuild's `zig cc -target ZIG_TARGET` as
# C compiler and linker (`cargo zigbuild` would also hand bindgen zig's libc headers,
# which this libclang cannot parse PostgreSQL's headers with); TARGET_DIR is its own, as
# zig as the linker applies to build scripts too and sharing pgrx package's would rebuild
# both every time. Further NAME=VALUE arguments join cargo's environment. Prints the
# library's path.
zig_build() {
  local m=$1 pg_config=$2 triple=$3 zig_target=$4 icu=$5 target_dir=$6
  shift 6
  local env_triple=${triple//-/_} zigcc="$CARGO_TARGET_DIR/zigcc-$zig_target"
  printf '#!/bin/sh\nexport CARGO_ZIGBUILD_ZIG_COMMAND=%s CARGO_ZIGBUILD_ZIG_COMMAND_ARGS="-m ziglang"\nexec cargo-zigbuild zig cc -- -g -fno-sanitize=all -target %s "$@"\n' \
    "$tools_bin/python3" "$zig_target" > "$zigcc"
  chmod +x "$zigcc"
  rustup target add --toolchain "$(sed -nE 's/^channel = "(.*)"/\1/p' "$ext/rust-toolchain.toml")" "$triple" >/dev/null 2>&1
  (cd "$ext" && env PGRX_PG_CONFIG_PATH="$pg_config" "CC_$env_triple=$zigcc" "CFLAGS_$env_triple=-I$icu" \
    "CARGO_TARGET_${env_triple^^}_LINKER=$zigcc" CARGO_TARGET_DIR="$target_dir" "$@" \
    cargo build --quiet --release --locked --target "$triple" --no-default-features --features "pg$m") >&2 || return
  echo "$target_dir/$triple/release/libsamekey_pg.so"
}

# MAJOR for aarch64, from SUITE's arm64 root (pg-arm64.sh): the SQL, control file and
# layout pgrx packages for that major on this machine (the same on every architecture:
# this machine's major packaged again, cheap when nothing changed; another major's x86-64
# stage as `dist` made it just before, or made now if missing), and the library built
# again for aarch64 against the root's server headers, linked for glibc $glibc_floor;
# packaged as any other major.
package_arm64() {
  local suite=$1 m=$2 pg_config version stage x86 sysroot
  version=$(sed -nE 's/^version = "(.*)"/\1/p' "$ext/Cargo.toml" | head -1)
  stage="$CARGO_TARGET_DIR/package/pg$m-aarch64"
  rm -rf "$stage" && mkdir -p "$out"
  if [ -x "/usr/lib/postgresql/$m/bin/pg_config" ]; then
    (cd "$ext" && cargo pgrx package --pg-config "/usr/lib/postgresql/$m/bin/pg_config" --out-dir "$stage" >&2)
  else
    x86="$CARGO_TARGET_DIR/package/pg$m"
    [ -f "$x86/usr/share/postgresql/$m/extension/samekey.control" ] ||
      "$ext/scripts/extension.sh" package-suite "$suite" "$m" >/dev/null
    cp -a "$x86" "$stage"
  fi
  rm -f "$stage/INSTALL.md" "$stage/usr/lib/postgresql/$m/lib/samekey.so"
  pg_config=$("$ext/scripts/pg-arm64.sh" pg-config "$suite" "$m")
  sysroot=$("$ext/scripts/pg-arm64.sh" make "$suite" "$m")
  relink_floor "$m" "$pg_config" aarch64 "$stage" "$sysroot"
  package_stage "$m" "$version" aarch64 "$stage"
}

# MAJOR for musl (Alpine, the postgres:N-alpine images) on ARCH (x86_64, aarch64): the
# SQL and control file of that major's x86-64 package (this machine's packaged again;
# another's stage as `dist` made it, or made now), and the library built again for
# ARCH-unknown-linux-musl with zig's musl as C compiler and linker (a dynamic C library:
# a shared object cannot be built on musl's static default), against the server headers
# of SUITE's MAJOR (x86_64: as package-suite, bookworm being this machine's; aarch64: the
# arm64 ones, pg-arm64.sh). bindgen reads them with musl's C headers (x86_64: the
# machine's musl-dev; aarch64: bookworm's arm64 musl-dev, pg-musl.sh), so the C library
# symbols it binds are musl's (sigsetjmp). Only a tarball: its usr/local/ is where the
# official Alpine images keep PostgreSQL (pkglibdir /usr/local/lib/postgresql); Alpine's
# own packages use other paths (INSTALL.md: copy to pg_config's directories).
package_musl() {
  local suite=$1 m=$2 arch=$3 version pg_config sql stage musl_include
  version=$(sed -nE 's/^version = "(.*)"/\1/p' "$ext/Cargo.toml" | head -1)
  stage="$CARGO_TARGET_DIR/package/pg$m-musl-$arch"
  rm -rf "$stage" && mkdir -p "$out" "$stage/usr/local/lib/postgresql" "$stage/usr/local/share/postgresql/extension"
  if [ -x "/usr/lib/postgresql/$m/bin/pg_config" ]; then
    pg_config=/usr/lib/postgresql/$m/bin/pg_config sql="$CARGO_TARGET_DIR/package/pg$m-musl-sql"
    rm -rf "$sql"
    (cd "$ext" && cargo pgrx package --pg-config "$pg_config" --out-dir "$sql" >&2)
  else
    if [ "$suite" = pypi ]; then pg_config=$("$ext/scripts/pg-wheel.sh" "$m" pg-config)
    else pg_config=$("$ext/scripts/pg-root.sh" pg-config "$suite" "$m"); fi
    sql="$CARGO_TARGET_DIR/package/pg$m"
    [ -f "$sql/usr/share/postgresql/$m/extension/samekey.control" ] ||
      "$ext/scripts/extension.sh" package-suite "$suite" "$m" >/dev/null
  fi
  cp "$sql/usr/share/postgresql/$m/extension/"samekey* "$stage/usr/local/share/postgresql/extension/"
  if [ "$arch" = x86_64 ]; then
    musl_include=/usr/include/x86_64-linux-musl
  else
    pg_config=$("$ext/scripts/pg-arm64.sh" pg-config "$suite" "$m")
    musl_include=$("$ext/scripts/pg-musl.sh" aarch64 musl)/usr/include/aarch64-linux-musl
  fi
  local triple=$arch-unknown-linux-musl env=${arch}_unknown_linux_musl icu lib
  icu=$(icu_include "$pg_config" "pg$m-$arch")
  lib=$(zig_build "$m" "$pg_config" "$triple" "$arch-linux-musl" "$icu" "$CARGO_TARGET_DIR/musl" \
    "CARGO_TARGET_${env^^}_RUSTFLAGS=-C target-feature=-crt-static" \
    "BINDGEN_EXTRA_CLANG_ARGS_$env=-nostdlibinc -isystem $musl_include -I$icu")
  install -m 755 "$lib" "$stage/usr/local/lib/postgresql/samekey.so"
  install -m 644 "$ext/INSTALL.md" "$stage/INSTALL.md"
  tar -C "$stage" -czf "$out/samekey-pg$m-$version-linux-$arch-musl.tar.gz" --owner=0 --group=0 INSTALL.md usr
  echo "$out/samekey-pg$m-$version-linux-$arch-musl.tar.gz"
}

package() {
  tools
  rm -rf "$out"
  for m in $(majors); do package_major "$m" "/usr/lib/postgresql/$m/bin/pg_config" "${1:-floor}"; done
}

case "${1:-package}" in
  package) package ;;
  install)
    package host >/dev/null
    # As INSTALL.md tells a user: the usr/ tree of the tarball, extracted at /.
    for m in $(majors); do tar -C / -xzf "$out"/samekey-pg"$m"-*.tar.gz --no-overwrite-dir usr; done
    ;;
  package-suite)
    # A major from elsewhere: a Debian root's (bullseye, trixie, sid) or a PyPI wheel's (14, 16).
    # SAMEKEY_PG_FLOOR=host links with this machine's linker (the quick check of `just test`).
    if [ "$2" = pypi ]; then pg_config=$("$ext/scripts/pg-wheel.sh" "$3" pg-config)
    else pg_config=$("$ext/scripts/pg-root.sh" pg-config "$2" "$3"); fi
    tools "--pg$3" "$pg_config"
    package_major "$3" "$pg_config" "${SAMEKEY_PG_FLOOR:-floor}"
    ;;
  package-arm64)
    # SUITE MAJOR (default bookworm 15, this machine's major): a Debian release's arm64 root, or pypi (14, 16).
    tools
    package_arm64 "${2:-bookworm}" "${3:-15}"
    ;;
  package-musl)
    # SUITE MAJOR (default bookworm 15, this machine's major): as package-suite's; ARCH
    # x86_64 (the default) or aarch64.
    tools
    package_musl "${2:-bookworm}" "${3:-15}" "${4:-x86_64}"
    ;;
  *) echo "usage: $0 package|install|package-suite SUITE MAJOR|package-arm64 [SUITE MAJOR]|package-musl [SUITE MAJOR [ARCH]]" >&2; exit 2 ;;
esac
