module github.com/samekey/samekey/bindings/go

go 1.24
