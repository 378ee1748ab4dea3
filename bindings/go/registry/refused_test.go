package registry_test

import (
	"context"
	"errors"
	"testing"

	"github.com/samekey/samekey/bindings/go"
	"github.com/samekey/samekey/bindings/go/registry"
)

// Input samekey refuses is its own error with the core's code, before any request: no
// registry listens on port 9, so a request would fail with connection_failed.
func TestInputSamekeyRefusesIsItsOwnErrorAndNothingIsSent(t *testing.T) {
	c, err := registry.New("http://127.0.0.1:9", "")
	if err != nil {
		t.Fatal(err)
	}
	c.Retry = registry.Retry{MaxRetries: 0, Deadline: 1e9}
	ctx := context.Background()
	for text, want := range map[string]error{
		`{"a": 1, "a": 2}`: samekey.ErrDuplicateKey,
		`{"a": 1e400}`:     samekey.ErrNumberOutOfRange,
		`{"a": "\ud800"}`:  samekey.ErrInvalidJSON, // a lone surrogate escape (spec §6.1)
	} {
		_, err := c.RegisterJSON(ctx, []byte(text), "")
		var sent *registry.Error
		if !errors.Is(err, want) || errors.As(err, &sent) {
			t.Errorf("%s: %v, want samekey's %v and no registry error", text, err, want)
		}
	}
}
