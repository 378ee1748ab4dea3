go get github.com/samekey/samekey/bindings/go
