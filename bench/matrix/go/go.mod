module github.com/samekey/samekey/bench/matrix/go

go 1.24

require github.com/samekey/samekey/bindings/go v0.0.0

replace github.com/samekey/samekey/bindings/go => ../../../bindings/go
