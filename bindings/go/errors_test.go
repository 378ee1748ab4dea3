package samekey

import (
	"fmt"
	"strings"
	"testing"
)

// The sentinels of errors.go, in the core's order.
var sentinels = []*Error{
	ErrTimestampOutOfRange, ErrInvalidTimestamp, ErrNoFields, ErrFieldTooLong, ErrInvalidString,
	ErrEmptySecret, ErrUnknownScheme, ErrSchemeNotSupported, ErrNamespaceNotSupported,
	ErrSecretNotSupported, ErrInvalidULID, ErrInvalidKey, ErrSchemeMismatch, ErrSchemeNotAccepted,
	ErrEmptyParent, ErrDuplicateKey, ErrNumberOutOfRange, ErrInvalidJSON, ErrNestingTooDeep,
	ErrIdentityMismatch, ErrIOError,
}

// goName is the sentinel name Go's initialisms give a code: invalid_json -> ErrInvalidJSON.
func goName(code string) string {
	initialisms := map[string]string{"ulid": "ULID", "json": "JSON", "io": "IO"}
	name := "Err"
	for _, w := range strings.Split(code, "_") {
		if up, ok := initialisms[w]; ok {
			name += up
		} else {
			name += strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return name
}

// The sentinels are the linked core's codes, one each, in order; on drift the test
// prints the declarations to paste into errors.go.
func TestSentinelsFollowTheCoreCodes(t *testing.T) {
	core := coreErrorCodes()
	same := len(core) == len(sentinels)
	for i := 0; same && i < len(core); i++ {
		same = sentinels[i].Code == core[i]
	}
	if !same {
		var paste strings.Builder
		for _, code := range core {
			fmt.Fprintf(&paste, "\t%s = &Error{Code: %q}\n", goName(code), code)
		}
		t.Fatalf("errors.go drifted from the core's codes; its sentinels should be:\n%s", paste.String())
	}
}
