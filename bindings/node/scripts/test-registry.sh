#!/usr/bin/env bash
# Publishes target/dist/npm/*.tgz to a Verdaccio registry on 127.0.0.1, then installs as a
# user would, in fresh directories: the site's `npm install samekey` and `npm install
# samekey-wasm` must pick this platform's addon package and run every vector through both
# packages; another --os/--cpu/--libc must pick that platform's package; without a
# matching addon, requiring samekey must fail with the message that names the platform
# and the package.
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
repo=$PWD
vectors=$(realpath "${SAMEKEY_VECTORS:-test-vectors/samekey.json}")
(cd bindings/node/scripts/npm-registry && npm ci --no-audit --no-fund --loglevel=error)
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(scripts/free-port.sh)
registry="http://127.0.0.1:$port/"
cat > "$work/config.yaml" <<YAML
storage: $work/storage
auth:
  htpasswd:
    file: $work/htpasswd
uplinks: {}
packages:
  '**':
    access: \$all
    publish: \$authenticated
log: { type: stdout, format: pretty, level: warn }
YAML
bindings/node/scripts/npm-registry/node_modules/.bin/verdaccio --config "$work/config.yaml" --listen "127.0.0.1:$port" >"$work/verdaccio.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -fs "${registry}-/ping" >/dev/null && break; sleep 0.2; done
token=$(curl -fs -X PUT -H 'content-type: application/json' "${registry}-/user/org.couchdb.user:samekey" \
  -d '{"name":"samekey","password":"release-test"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
export npm_config_userconfig="$work/npmrc" npm_config_registry="$registry" npm_config_cache="$work/cache"
echo "//127.0.0.1:$port/:_authToken=$token" > "$npm_config_userconfig"
for tgz in target/dist/npm/*.tgz; do npm publish --loglevel=error "$tgz" >/dev/null; done
published=$(ls target/dist/npm/*.tgz | wc -l)
echo "registry: $published packages published to $registry"

here=$(node -p 'const r = process.report.getReport().header; `${process.platform}-${process.arch}` + (r.glibcVersionRuntime ? "-gnu" : "")')
mkdir "$work/app" && cd "$work/app" && npm init -y >/dev/null
# The site's install lines, as a reader types them (npm's options from the environment).
for line in docs/examples/install/node.sh docs/examples/install/wasm.sh; do
  echo "install: $(cat "$repo/$line")"
  npm_config_audit=false npm_config_fund=false npm_config_loglevel=error bash -euo pipefail "$repo/$line"
done
installed=$(ls node_modules | grep '^samekey-' | grep -v '^samekey-wasm$' | tr '\n' ' ')
echo "installed for $here: $installed"
[ "$installed" = "samekey-$here " ] || { echo "expected only samekey-$here"; exit 1; }
cat > run.mjs <<'JS'
import fs from 'node:fs';
const text = fs.readFileSync(process.argv[2], 'utf8');
for (const name of ['samekey', 'samekey-wasm']) {
  const api = await (await import(name)).init();
  const runner = await import(`${name}/vectors`);
  const outcomes = runner.runDocument(api, text);
  const failed = outcomes.filter((o) => !o.passed);
  console.log(`${name}: ${outcomes.length - failed.length} vectors passed, ${failed.length} failed (selftest ${api.selftest()})`);
  if (failed.length || !outcomes.length) process.exit(1);
}
JS
node run.mjs "$vectors"

# Another platform: npm picks that platform's package (when it was published).
for other in "--os=darwin --cpu=arm64:samekey-darwin-arm64" "--os=linux --cpu=x64 --libc=musl:samekey-linux-x64-musl"; do
  flags=${other%%:*}; want=${other##*:}
  [ -e "$repo/target/dist/npm/$want-$(node -p "require('$repo/bindings/node/package.json').version").tgz" ] || continue
  rm -rf "$work/other" && mkdir "$work/other" && cd "$work/other" && npm init -y >/dev/null
  npm install --no-audit --no-fund --loglevel=error --force $flags samekey >/dev/null 2>&1
  got=$(ls node_modules | grep '^samekey-' | tr '\n' ' ')
  echo "installed with $flags: $got"
  [ "$got" = "$want " ] || { echo "expected only $want"; exit 1; }
  # That package cannot load here: samekey says which package it looked for, not npm.
  out=$(node -e "require('samekey')" 2>&1 || true)
  echo "$out" | grep -q "the native addon for $here is missing: the package samekey-$here is not installed" \
    || { echo "$out"; exit 1; }
done

# A platform without a prebuilt addon: the message names it and offers samekey-wasm.
cd "$work/app"
out=$(node -e "Object.defineProperty(process, 'arch', { value: 'riscv64' }); require('samekey')" 2>&1 || true)
echo "$out" | grep -q "no prebuilt native addon for linux-riscv64-gnu (looked for samekey-linux-riscv64-gnu)" \
  && echo "$out" | grep -q "npm install samekey-wasm" || { echo "$out"; exit 1; }
echo "no addon for linux-riscv64-gnu: $(echo "$out" | grep -o 'samekey: there is no prebuilt.*(looked for [^)]*)')"
