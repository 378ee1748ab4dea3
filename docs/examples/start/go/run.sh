"$SAMEKEY"/bindings/go/scripts/go.sh mod tidy
"$SAMEKEY"/bindings/go/scripts/go.sh run .
