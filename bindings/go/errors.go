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

// Sentinels, one per code.
var (
	ErrTimestampOutOfRange   = &Error{Code: "timestamp_out_of_range"}
	ErrInvalidTimestamp      = &Error{Code: "invalid_timestamp"}
	ErrNoFields              = &Error{Code: "no_fields"}
	ErrFieldTooLong          = &Error{Code: "field_too_long"}
	ErrInvalidString         = &Error{Code: "invalid_string"}
	ErrEmptySecret           = &Error{Code: "empty_secret"}
	ErrUnknownScheme         = &Error{Code: "unknown_scheme"}
	ErrSchemeNotSupported    = &Error{Code: "scheme_not_supported"}
	ErrNamespaceNotSupported = &Error{Code: "namespace_not_supported"}
	ErrSecretNotSupported    = &Error{Code: "secret_not_supported"}
	ErrInvalidULID           = &Error{Code: "invalid_ulid"}
	ErrInvalidKey            = &Error{Code: "invalid_key"}
	ErrSchemeMismatch        = &Error{Code: "scheme_mismatch"}
	ErrSchemeNotAccepted     = &Error{Code: "scheme_not_accepted"}
	ErrEmptyParent           = &Error{Code: "empty_parent"}
	ErrDuplicateKey          = &Error{Code: "duplicate_key"}
	ErrNumberOutOfRange      = &Error{Code: "number_out_of_range"}
	ErrInvalidJSON           = &Error{Code: "invalid_json"}
	ErrNestingTooDeep        = &Error{Code: "nesting_too_deep"}
	ErrIdentityMismatch      = &Error{Code: "identity_mismatch"}
	ErrIOError               = &Error{Code: "io_error"}
	// ErrInvalidArgument is an argument of a shape the library cannot take (rows of
	// different widths, a value Scan cannot read).
	ErrInvalidArgument = &Error{Code: "invalid_argument"}
)
