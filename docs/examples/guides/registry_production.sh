# A registry for production: PostgreSQL holds revisions and keys, an S3 bucket holds their
# data, clients present tokens over TLS. Set these to your own (the docs tests set them to
# a PostgreSQL and a SeaweedFS cluster they start):
#   SAMEKEY_DATABASE_URL   postgres://USER@HOST/DB, a database the registry's role owns
#   SAMEKEY_DATA_STORE     s3://BUCKET/PREFIX
#   AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
#   (AWS_ALLOW_HTTP=true for an endpoint without TLS)
: "${SAMEKEY_DATABASE_URL:?}" "${SAMEKEY_DATA_STORE:?}" "${AWS_ENDPOINT_URL:?}"
dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$dir"' EXIT

# Tokens, one per line (several lines rotate them), and a certificate (here self-signed;
# yours comes from your CA or ACME client; SIGHUP or new files reload it).
echo "write-token-change-me" > "$dir/write-tokens"
echo "read-token-change-me" > "$dir/read-tokens"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 -subj /CN=localhost \
  -addext subjectAltName=DNS:localhost -keyout "$dir/key.pem" -out "$dir/cert.pem" 2> /dev/null

# As many of these as you like, on as many hosts, on the one database and bucket.
samekey serve --listen 0.0.0.0:0 --token-file "$dir/write-tokens" --read-token-file "$dir/read-tokens" \
  --tls-cert "$dir/cert.pem" --tls-key "$dir/key.pem" --cors-origin https://app.example.com \
  > "$dir/stdout" 2> "$dir/log" &
until line=$(grep -m1 '^listening on ' "$dir/stdout"); do sleep 0.1; done
url="https://localhost:${line##*:}"
write=(-H 'authorization: Bearer write-token-change-me')
read=(-H 'authorization: Bearer read-token-change-me')

post() {  # POST /v1/revisions: the status, then the key or the error's code
  curl -s --cacert "$dir/cert.pem" "${write[@]}" -o "$dir/body" -w '%{http_code} ' "$url/v1/revisions" "$@"
  jq -r '.key // .code' "$dir/body"
}
# Small data (up to --inline-limit, 64 KiB) stays in the database; larger data goes to
# the bucket, gigabytes streamed in 8 MiB parts.
post -H 'content-type: application/json' -d '{"rows": 3}'
head -c 200000 /dev/zero > "$dir/table.bin"
post -H 'content-type: application/octet-stream' --data-binary @"$dir/table.bin" | tee "$dir/posted"
key=$(cut -d' ' -f2 "$dir/posted")
curl -s --cacert "$dir/cert.pem" "${read[@]}" "$url/v1/revisions/$key/data" -o "$dir/back.bin"
cmp -s "$dir/table.bin" "$dir/back.bin" && echo "read back from the bucket: $(wc -c < "$dir/back.bin") bytes, the same"

# gc, from cron or a timer on any host: objects no revision names, older than the grace.
samekey registry gc --grace 60m
