# A registration over plain HTTP (any language's client will do): the answer is the revision.
curl -sS --cacert "$SAMEKEY_CA" -H "authorization: Bearer $SAMEKEY_TOKEN" \
  -H 'content-type: application/json' -d '{"rows": 3}' "$SAMEKEY_URL/v1/revisions"
