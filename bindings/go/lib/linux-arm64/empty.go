// Package lib is an empty placeholder: a release of the module puts the static samekey
// library for linux-arm64 beside it, and includelib.go imports it so that "go mod vendor"
// keeps the folder (golang.org/issue/26366).
package lib
