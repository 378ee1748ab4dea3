package samekey

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestErrorsCompareWithErrorsIs(t *testing.T) {
	_, err := DeriveULID(-1, Options{}, []byte("a"))
	if !errors.Is(err, ErrTimestampOutOfRange) || errors.Is(err, ErrInvalidULID) {
		t.Fatalf("got %v", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.Code != "timestamp_out_of_range" || !strings.Contains(e.Error(), "out of range") {
		t.Fatalf("got %#v", err)
	}
	if _, err := ParseULID("8ZZZZZZZZZZZZZZZZZZZZZZZZZ"); !errors.Is(err, ErrInvalidULID) {
		t.Fatalf("got %v", err)
	}
	if _, err := DeriveULID(0, Options{Namespace: "\xff"}, []byte("a")); !errors.Is(err, ErrInvalidString) {
		t.Fatalf("got %v", err)
	}
}

func TestKeyRingOfAnAcceptList(t *testing.T) {
	ring, err := KeyRingOf([]Scheme{"v2", "v1"})
	if err != nil || fmt.Sprint(ring.Accepted()) != "[v2 v1]" {
		t.Fatalf("KeyRingOf: %v %v", ring, err)
	}
	if _, err := KeyRingOf(nil); !errors.Is(err, ErrUnknownScheme) {
		t.Fatalf("an empty list: %v", err)
	}
	if _, err := KeyRingOf([]Scheme{"v1,v2"}); !errors.Is(err, ErrUnknownScheme) {
		t.Fatalf("a name is never split: %v", err)
	}
	id, err := ring.DeriveULID(0, "", nil, []byte("a"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(id, time.UnixMilli(0), Options{}, nil, []byte("a")); !errors.Is(err, ErrUnknownScheme) {
		t.Fatalf("Verify with no accepted scheme: %v", err)
	}
}

func TestTimesAndULIDValues(t *testing.T) {
	at := time.Date(2024, 5, 1, 12, 0, 0, 999_999_999, time.FixedZone("x", 7200))
	a, err := DeriveULIDAt(at, Options{Namespace: "posts"}, Fields("hello-world", "en")...)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := DeriveULID(at.UnixMilli(), Options{Namespace: "posts"}, Fields("hello-world", "en")...)
	if a != b || a.TimestampMs() != at.UnixMilli() || !a.Time().Equal(at.Truncate(time.Millisecond)) {
		t.Fatalf("%v %v", a, b)
	}
	if Millis(time.UnixMilli(-1).Add(time.Microsecond)) != -1 {
		t.Fatal("Millis must floor before 1970")
	}
	parsed, err := ParseULID(strings.ToLower(a.String()))
	if err != nil || parsed != a {
		t.Fatal(err)
	}
	if strings.ReplaceAll(a.UUID(), "-", "") != hex.EncodeToString(a[:]) {
		t.Fatal(a.UUID())
	}
}

func TestStreamingEqualsOneShot(t *testing.T) {
	data := bytes.Repeat([]byte("samekey"), 500_000)
	for _, scheme := range []Scheme{V1, V2} {
		one, err := ContentHash(scheme, data)
		if err != nil {
			t.Fatal(err)
		}
		streamed, err := ContentHashReader(scheme, bytes.NewReader(data))
		if err != nil || streamed != one {
			t.Fatalf("%s: %s != %s (%v)", scheme, streamed, one, err)
		}
	}
	sum := sha256.Sum256(data)
	if h, _ := ContentHash("v1", data); h != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Fatal(h)
	}
}

func TestJSONOfGoValues(t *testing.T) {
	c, err := CanonicalJSON(map[string]any{"b": []any{1.0, 1e21, int64(1)<<53 - 1, true, nil}, "a": "é"})
	if err != nil || c != `{"a":"é","b":[1,1e+21,9007199254740991,true,null]}` {
		t.Fatalf("%s %v", c, err)
	}
	if c, err := CanonicalJSON(float64(1 << 53)); err != nil || c != "9007199254740992" {
		t.Fatalf("a float64 is a double: %s %v", c, err)
	}
	for _, bad := range []any{int64(1) << 53, uint64(1) << 60, math.NaN(), math.Inf(1)} {
		if _, err := CanonicalJSON(bad); !errors.Is(err, ErrNumberOutOfRange) {
			t.Fatalf("%v: %v", bad, err)
		}
	}
	var te *TypeError
	if _, err := CanonicalJSON(map[int]string{1: "x"}); !errors.As(err, &te) {
		t.Fatalf("got %v", err)
	}
	if _, err := CanonicalJSON("\xff"); !errors.Is(err, ErrInvalidString) {
		t.Fatalf("got %v", err)
	}
	// json.Number is JSON number text (spec §6.2): §6.1's integer rule, not a double's rounding.
	if c, err := CanonicalJSON(map[string]any{"n": json.Number("1.50"), "m": json.Number("9007199254740991")}); err != nil || c != `{"m":9007199254740991,"n":1.5}` {
		t.Fatalf("%s %v", c, err)
	}
	if _, err := CanonicalJSON([]any{json.Number("9007199254740993")}); !errors.Is(err, ErrNumberOutOfRange) {
		t.Fatalf("an integer literal beyond 2^53-1: %v", err)
	}
	for _, bad := range []json.Number{"", "x", "[1]", "1 2", "01"} {
		if _, err := CanonicalJSON(bad); !errors.Is(err, ErrInvalidJSON) {
			t.Fatalf("%q: %v", bad, err)
		}
	}
	// Typed maps, slices and unsigned integers follow the same rules as their untyped forms.
	if c, err := CanonicalJSON(map[string][]uint8{"a": nil}); err == nil {
		t.Fatalf("[]uint8 is bytes, not JSON: %s", c)
	}
	if c, err := CanonicalJSON(map[string][]uint16{"b": {1, 2}, "a": {}}); err != nil || c != `{"a":[],"b":[1,2]}` {
		t.Fatalf("%s %v", c, err)
	}
}

func TestBatchEqualsSingle(t *testing.T) {
	d, err := NewDeriver(Options{Namespace: "posts"})
	if err != nil {
		t.Fatal(err)
	}
	var times []int64
	var rows [][][]byte
	for i := 0; i < 300; i++ {
		times = append(times, 1714564800000+int64(i))
		rows = append(rows, Fields("post-"+string(rune('a'+i%26)), "en"))
	}
	many, err := d.DeriveMany(times, rows)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		one, _ := DeriveULID(times[i], Options{Namespace: "posts"}, rows[i]...)
		if many[i] != one {
			t.Fatalf("row %d", i)
		}
	}
	texts, err := d.DeriveManyText(times, rows)
	if err != nil || len(texts) != len(many) {
		t.Fatal(err)
	}
	for i := range many {
		if texts[i] != many[i].String() {
			t.Fatalf("text of row %d", i)
		}
	}
	if _, err := NewDeriver(Options{Scheme: "v0", Namespace: "x"}); !errors.Is(err, ErrNamespaceNotSupported) {
		t.Fatalf("got %v", err)
	}
}

func TestGuardsAndRevisions(t *testing.T) {
	h, _ := ContentHash("v1", []byte(`{"rows":3}`))
	root, err := RevisionKey(h, RevisionOptions{})
	if err != nil || !strings.HasPrefix(root, "rev:v1:") {
		t.Fatal(root, err)
	}
	child, _ := RevisionKey(h, RevisionOptions{Parent: &root})
	if child == root {
		t.Fatal("a child differs from the root")
	}
	if w, _ := NeedsWrite(h, h); w {
		t.Fatal("unchanged content needs no write")
	}
	if w, _ := NeedsWrite("", h); !w {
		t.Fatal("new content needs a write")
	}
	legacy, _ := DeriveULID(0, Options{Scheme: "v0"}, Fields("slug", "en")...)
	if s, err := Verify(legacy, time.UnixMilli(0), Options{}, []Scheme{"v2", "v1", "v0"}, Fields("slug", "en")...); err != nil || s != "v0" {
		t.Fatal(s, err)
	}
	if _, err := Verify(legacy, time.UnixMilli(1), Options{}, []Scheme{"v2", "v0"}, Fields("slug", "en")...); !errors.Is(err, ErrIdentityMismatch) {
		t.Fatal(err)
	}
}

func TestConcurrentUse(t *testing.T) {
	d, _ := NewDeriver(Options{Scheme: "v2"})
	want, _ := d.Derive(5, []byte("x"))
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				if got, _ := d.Derive(5, []byte("x")); got != want {
					t.Error("concurrent derivation differs")
					return
				}
			}
		}()
	}
	wg.Wait()
}

// Batches big enough to be split over threads give the ids of one-by-one derivation, in
// order, whatever the cap on threads; a failing row's error comes after the rows before it.
func TestThreadedBatchEqualsSingle(t *testing.T) {
	n := 2*ParallelMinRows + 3
	times := make([]int64, n)
	rows := make([][][]byte, n)
	for i := range rows {
		times[i] = 1714564800000 + int64(i)
		rows[i] = Fields(fmt.Sprintf("post-%d", i), "en")
	}
	for _, scheme := range []Scheme{V1, V2} {
		for _, threads := range []int{0, 1, 2} {
			d, err := NewDeriver(Options{Scheme: scheme, Namespace: "posts", MaxThreads: threads})
			if err != nil {
				t.Fatal(err)
			}
			many, err := d.DeriveMany(times, rows)
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range []int{0, 1, ParallelMinRows, n - 1} {
				one, _ := d.Derive(times[i], rows[i]...)
				if many[i] != one {
					t.Fatalf("%s threads=%d row %d", scheme, threads, i)
				}
			}
		}
	}
	d, _ := NewDeriver(Options{Scheme: V2})
	bad := append([]int64(nil), times...)
	bad[n-2] = -1
	if _, err := d.DeriveMany(bad, rows); !errors.Is(err, ErrTimestampOutOfRange) {
		t.Fatalf("got %v", err)
	}
	if _, err := NewDeriver(Options{MaxThreads: -1}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("got %v", err)
	}
}

// A host value's path (spec §6.2): the scheme name's conversion, then the value's errors,
// then the scheme's own checks.
func TestContentHashJSONOrder(t *testing.T) {
	inf := []any{math.Inf(1)}
	cases := []struct {
		scheme Scheme
		value  any
		want   error
	}{
		{"v\xff", inf, ErrInvalidString},
		{"v\xff", map[string]any{"a": int64(1) << 60}, ErrInvalidString},
		{"v9", inf, ErrNumberOutOfRange},
		{"v0", []any{"\xff"}, ErrInvalidString},
		{"v9", []any{1}, ErrUnknownScheme},
	}
	for _, c := range cases {
		if _, err := ContentHashJSON(c.scheme, c.value); !errors.Is(err, c.want) {
			t.Errorf("ContentHashJSON(%q, %v) = %v, want %v", c.scheme, c.value, err, c.want)
		}
	}
}

// Every text crosses the C ABI with its length: a NUL is part of it, never its end.
func TestTextWithNUL(t *testing.T) {
	if _, err := KeyRingOf([]Scheme{"v1\x00"}); !errors.Is(err, ErrUnknownScheme) {
		t.Errorf("ring v1\\0: %v", err)
	}
	h, _ := ContentHash(V1, []byte("x"))
	if _, err := ParseKey(h + "\x00junk"); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("key with a NUL tail: %v", err)
	}
	if _, err := NeedsWrite(h, h+"\x00"); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("incoming with a NUL tail: %v", err)
	}
	if _, err := ContentHash("v1\x00", nil); !errors.Is(err, ErrUnknownScheme) {
		t.Errorf("scheme v1\\0: %v", err)
	}
}
