# A registry with write and read tokens (one per line; several lines rotate them).
dir=$(mktemp -d)
echo "write-token-change-me" > "$dir/write-tokens"
echo "read-token-change-me" > "$dir/read-tokens"
samekey serve --database "sqlite:$dir/registry.db" --listen 127.0.0.1:0 \
  --token-file "$dir/write-tokens" --read-token-file "$dir/read-tokens" > "$dir/stdout" 2> "$dir/log" &
trap 'kill $(jobs -p) 2>/dev/null' EXIT
until url=$(sed -n 's/^listening on //p' "$dir/stdout") && [ -n "$url" ]; do sleep 0.1; done

post() {  # POST /v1/revisions: the status, then the key or the error's code
  curl -s -o "$dir/body" -w '%{http_code} ' -X POST "$url/v1/revisions" -H 'content-type: application/json' "$@"
  jq -r '.key // .code' "$dir/body"
}
post -d '{"rows": 3}'                                                          # no token
post -H 'authorization: Bearer write-token-change-me' -d '{"rows": 3}'         # created
post -H 'authorization: Bearer write-token-change-me' -d '{ "rows" : 3.0 }'    # found: the same JSON
post -H 'authorization: Bearer read-token-change-me' -d '{"rows": 4}'          # a read token cannot write

curl -s -H 'authorization: Bearer read-token-change-me' "$url/metrics" | grep '^samekey_registry_registrations_total'

# A backup while it serves: SQLite's online backup (on PostgreSQL, pg_dump).
sqlite3 "$dir/registry.db" ".backup '$dir/backup.db'"
key=$(post -H 'authorization: Bearer write-token-change-me' -d '{"rows": 3}' | cut -d' ' -f2)
samekey serve --database "sqlite:$dir/backup.db" --listen 127.0.0.1:0 --public-reads \
  --token-file "$dir/write-tokens" > "$dir/restored" 2>> "$dir/log" &
until restored=$(sed -n 's/^listening on //p' "$dir/restored") && [ -n "$restored" ]; do sleep 0.1; done
echo "restored: $(curl -s "$restored/v1/revisions/$key/data")"
