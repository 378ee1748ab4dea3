# The registry on an address other hosts can reach: refused with no token file.
dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$dir"' EXIT
status=0
samekey serve --database "sqlite:$dir/registry.db" --listen 0.0.0.0:0 > /dev/null 2> "$dir/refused" || status=$?
echo "no tokens on 0.0.0.0: exit $status, $(grep -o 'refusing to listen on [^ ]*' "$dir/refused")"

# A certificate for it (here self-signed; yours comes from your CA or ACME client).
certificate() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 -subj /CN=localhost \
    -addext subjectAltName=DNS:localhost -keyout "$dir/key.pem" -out "$dir/cert.pem" 2> /dev/null
  cp "$dir/cert.pem" "$dir/trusted-$1.pem"  # what clients trust
}
certificate 1
echo "write-token-change-me" > "$dir/tokens"
samekey serve --database "sqlite:$dir/registry.db" --listen 0.0.0.0:0 --token-file "$dir/tokens" \
  --tls-cert "$dir/cert.pem" --tls-key "$dir/key.pem" --cors-origin https://app.example.com \
  > "$dir/stdout" 2> "$dir/log" &
pid=$!
for _ in $(seq 100); do line=$(grep -m1 '^listening on ' "$dir/stdout") && break; sleep 0.1; done
echo "$line" | sed 's/:[0-9]*$/:PORT/'
url="https://localhost:${line##*:}"

curl -s --cacert "$dir/trusted-1.pem" -o /dev/null -w 'healthz over TLS: %{http_code}\n' "$url/healthz"
curl -s --cacert "$dir/trusted-1.pem" -o /dev/null -w 'no token: %{http_code}\n' "$url/v1/revisions" -d '{}'
# A browser's preflight from the allowed origin, answered before authentication.
curl -s --cacert "$dir/trusted-1.pem" -o /dev/null -X OPTIONS "$url/v1/revisions" \
  -H 'origin: https://app.example.com' -H 'access-control-request-method: POST' \
  -w 'preflight: %{http_code} %header{access-control-allow-origin}\n'

# A renewed certificate: SIGHUP (or just the new files, within a second), no restart.
certificate 2
kill -HUP "$pid"
for _ in $(seq 50); do curl -s --cacert "$dir/trusted-2.pem" -o /dev/null "$url/healthz" && break; sleep 0.1; done
curl -s --cacert "$dir/trusted-2.pem" -o /dev/null -w 'after renewal: %{http_code}\n' "$url/healthz"
