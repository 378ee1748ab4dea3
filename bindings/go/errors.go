package samekey

import "fmt"

// Error is every failure of this package: Code is the stable code shared by every
// samekey implementation. Compare with errors.Is against the exported sentinels:
//
//	if errors.Is(err, samekey.ErrIdentityMismatch) { ... }
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string {
	if e.Message == "" {
		return "samekey: " + e.Code
	}
	return fmt.Sprintf("samekey: %s: %s", e.Code, e.Message)
}

// Is matches any *Error with the same Code, so sentinels compare by code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

func newError(code, message string) error {
	return &Error{Code: code, Message: message}
}

// The sentinels of the core's codes are in errors_gen.go.

var (
	// ErrInvalidArgument is an argument of a shape the library cannot take (rows of
	// different widths, a value Scan cannot read).
	ErrInvalidArgument = &Error{Code: "invalid_argument"}
)
