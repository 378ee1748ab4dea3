module example.com/hello

go 1.24

require github.com/samekey/samekey/bindings/go v0.2.0
