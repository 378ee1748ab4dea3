go mod init example.com/hello
go mod edit -replace github.com/samekey/samekey/bindings/go="$SAMEKEY"/bindings/go
