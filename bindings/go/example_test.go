package samekey_test

import (
	"errors"
	"fmt"
	"time"

	samekey "github.com/samekey/samekey/bindings/go"
)

// The id of a post comes from what identifies it, so a retried insert carries the same
// id and the database refuses the duplicate instead of storing a second copy.
func Example() {
	published := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	opts := samekey.Options{Namespace: "posts"}
	id, err := samekey.DeriveULIDAt(published, opts, samekey.Fields("hello-world", "en")...)
	if err != nil {
		panic(err)
	}
	retry, _ := samekey.DeriveULIDAt(published, opts, samekey.Fields("hello-world", "en")...)
	fmt.Println(len(id.String()), id.Time().Equal(published), retry == id)
	// Output: 26 true true
}

// A Deriver checks its settings once; DeriveMany derives a batch in one call.
func ExampleDeriver_DeriveMany() {
	d, err := samekey.NewDeriver(samekey.Options{Scheme: samekey.V2, Namespace: "posts"})
	if err != nil {
		panic(err)
	}
	times := []int64{1714564800000, 1714564800000}
	rows := [][][]byte{samekey.Fields("hello-world", "en"), samekey.Fields("hello-world", "de")}
	ids, _ := d.DeriveMany(times, rows)
	one, _ := d.Derive(times[1], rows[1]...)
	fmt.Println(len(ids), ids[1] == one, ids[0] != ids[1])
	// Output: 2 true true
}

// NeedsWrite skips a write whose content did not change.
func ExampleNeedsWrite() {
	stored, _ := samekey.ContentHashJSON(samekey.V1, map[string]any{"title": "Hello", "tags": []any{"a"}})
	incoming, _ := samekey.ContentHashJSON(samekey.V1, map[string]any{"tags": []any{"a"}, "title": "Hello"})
	write, _ := samekey.NeedsWrite(stored, incoming)
	fmt.Println(write)
	// Output: false
}

// A key ring derives under the newest scheme and still recognises ids of the older ones;
// Verify refuses an edit that would change a stored document's identity.
func ExampleVerify() {
	at := time.UnixMilli(1714564800000)
	old, _ := samekey.DeriveULIDAt(at, samekey.Options{Scheme: samekey.V1}, samekey.Fields("slug", "en")...)
	accept := []samekey.Scheme{samekey.V2, samekey.V1}
	scheme, err := samekey.Verify(old, at, samekey.Options{}, accept, samekey.Fields("slug", "en")...)
	fmt.Println(scheme, err)
	_, err = samekey.Verify(old, at, samekey.Options{}, accept, samekey.Fields("renamed-slug", "en")...)
	fmt.Println(errors.Is(err, samekey.ErrIdentityMismatch))
	// Output:
	// v1 <nil>
	// true
}

// A ULID reads back from a database column in its text or its 16-byte form.
func ExampleULID_Scan() {
	id, _ := samekey.DeriveULID(1714564800000, samekey.Options{}, samekey.Fields("a")...)
	var fromText, fromBytes samekey.ULID
	_ = fromText.Scan(id.String())
	_ = fromBytes.Scan(id[:])
	fmt.Println(fromText == id, fromBytes == id)
	// Output: true true
}

// Errors carry the stable code every samekey implementation uses.
func ExampleError() {
	_, err := samekey.ParseULID("not a ulid")
	var e *samekey.Error
	fmt.Println(errors.As(err, &e), e.Code, errors.Is(err, samekey.ErrInvalidULID))
	// Output: true invalid_ulid true
}

func ExampleLikelySeconds() {
	// A publication time read from a JSON field, where a producer may have sent seconds.
	for _, ms := range []int64{1714564800, 1714564800000} {
		fmt.Println(ms, samekey.LikelySeconds(ms))
	}
	// Output:
	// 1714564800 true
	// 1714564800000 false
}
