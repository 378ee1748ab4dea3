//go:build samekey_includelib

package samekey

// Never built: the imports make "go mod vendor" copy the library folders, which it would
// otherwise prune because no built package imports them (golang.org/issue/26366).
import (
	_ "github.com/samekey/samekey/bindings/go/lib/darwin-amd64"
	_ "github.com/samekey/samekey/bindings/go/lib/darwin-arm64"
	_ "github.com/samekey/samekey/bindings/go/lib/linux-amd64"
	_ "github.com/samekey/samekey/bindings/go/lib/linux-amd64-musl"
	_ "github.com/samekey/samekey/bindings/go/lib/linux-arm64"
	_ "github.com/samekey/samekey/bindings/go/lib/linux-arm64-musl"
	_ "github.com/samekey/samekey/bindings/go/lib/windows-amd64"
)
