samekey serve > registry.log 2>&1 &
curl -s --retry 20 --retry-connrefused http://127.0.0.1:8080/v1/revisions \
  -H 'content-type: application/json' -d '{"title": "Hello, world"}'
