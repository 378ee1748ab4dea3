# The rollout from v1 to v2 on one registry database (SQLite here: one process at a time;
# on PostgreSQL the processes of two neighbouring steps serve side by side).
dir=$(mktemp -d)
db="sqlite:$dir/registry.db"
serve() {  # starts `samekey serve` on the database with this key ring
  out=$(mktemp "$dir/stdout.XXXXXX")  # a new file per start: never the last server's address
  samekey serve --database "$db" --listen 127.0.0.1:0 "$@" > "$out" 2>> "$dir/log" &
  pid=$!
  until url=$(sed -n 's/^listening on //p' "$out") && [ -n "$url" ]; do
    kill -0 "$pid" 2> /dev/null || { cat "$dir/log" >&2; exit 1; }
    sleep 0.1
  done
}
stop() { kill "$pid" && wait "$pid" || true; }
post() {  # POST /v1/revisions: the status and the key
  curl -s -o "$dir/body" -w '%{http_code} ' -X POST "$url/v1/revisions" -H 'content-type: application/json' -d "$1"
  jq -r '.key // .code' "$dir/body"
}
states() { samekey schemes --database "$db" status | awk 'NR > 1 { printf "%s%s %s", sep, $1, $2; sep = ", " } END { print "" }'; }

serve --scheme v1                  # before: v1 alone
echo "before: $(post '{"rows": 1}')"
stop
serve --scheme v1 --accept v2      # 1. expand: v1 keys, and each revision's v2 key recorded
echo "expand: $(post '{"rows": 2}')"
stop
samekey schemes --database "$db" require v2 > /dev/null   # 2. every revision gets its v2 key
echo "required: $(states)"
timeout 10 samekey serve --database "$db" --listen 127.0.0.1:0 --scheme v1 > /dev/null 2>&1 || exit_code=$?
[ "${exit_code:-0}" = 1 ] && echo "a v1-only process now: refused to start"
serve --scheme v2 --accept v1      # 3. switch: new revisions get v2 keys
echo "switch: $(post '{"rows": 1}') / $(post '{"rows": 3}')"
stop
samekey schemes --database "$db" retire v1 > /dev/null    # 4. nothing is recorded under v1 again
echo "retired: $(states)"
serve --scheme v2                  # 5. contract: v2 alone; old revisions keep their keys
echo "contract: $(post '{"rows": 1}') / $(post '{"rows": 3}')"
stop
