package samekey

import (
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// The Go text encoder against the core's formatter: edge patterns and a million random
// ids (every vector's id is checked by TestEveryVector as well).
func TestTextIsTheCoresText(t *testing.T) {
	ids := []ULID{{}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}
	for bit := 0; bit < 128; bit++ {
		var u ULID
		u[bit/8] = 0x80 >> (bit % 8)
		ids = append(ids, u)
	}
	r := rand.New(rand.NewPCG(1, 2))
	n := 1_000_000
	if testing.Short() {
		n = 10_000
	}
	for i := 0; i < n; i++ {
		var u ULID
		for j := range u {
			u[j] = byte(r.Uint32())
		}
		ids = append(ids, u)
	}
	for _, u := range ids {
		want := coreText(u)
		if got := u.String(); got != want {
			t.Fatalf("% x: Go %s, core %s", u[:], got, want)
		}
		// The way back from the core's text, which CandidateULIDs reads.
		if back, ok := decodeCanonical(want); !ok || back != u {
			t.Fatalf("%s: decoded % x (%v), want % x", want, back[:], ok, u[:])
		}
	}
	for _, bad := range []string{"", "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "0000000000000000000000000u", "000000000000000000000000000"} {
		if _, ok := decodeCanonical(bad); ok {
			t.Fatalf("%q decoded as canonical text", bad)
		}
	}
}

func TestULIDInDatabaseSQL(t *testing.T) {
	id, err := DeriveULID(1714564800000, Options{Namespace: "posts"}, Fields("hello-world", "en")...)
	if err != nil {
		t.Fatal(err)
	}
	var _ driver.Valuer = id
	var _ sql.Scanner = &id
	v, err := id.Value()
	if err != nil || v != id.String() {
		t.Fatalf("Value: %v %v", v, err)
	}
	for _, src := range []any{id.String(), strings.ToLower(id.String()), []byte(id.String()), id[:]} {
		var got ULID
		if err := got.Scan(src); err != nil || got != id {
			t.Fatalf("Scan(%T %v): %v %v", src, src, got, err)
		}
	}
	var got ULID
	for _, src := range []any{nil, 42, "not a ulid", []byte{1, 2, 3}} {
		if err := got.Scan(src); err == nil {
			t.Fatalf("Scan(%v) accepted", src)
		}
	}
	if err := got.Scan(nil); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "sql.Null") {
		t.Fatalf("Scan(nil): %v", err)
	}
	if err := got.Scan("8ZZZZZZZZZZZZZZZZZZZZZZZZZ"); !errors.Is(err, ErrInvalidULID) {
		t.Fatalf("Scan(overflow): %v", err)
	}
	var null sql.Null[ULID]
	if err := null.Scan(nil); err != nil || null.Valid {
		t.Fatalf("sql.Null[ULID].Scan(nil): %v %v", null, err)
	}
}

func TestULIDText(t *testing.T) {
	id, _ := DeriveULID(1714564800000, Options{}, Fields("a")...)
	b, err := json.Marshal(map[string]ULID{"id": id})
	if err != nil || string(b) != `{"id":"`+id.String()+`"}` {
		t.Fatalf("%s %v", b, err)
	}
	var back map[string]ULID
	if err := json.Unmarshal(b, &back); err != nil || back["id"] != id {
		t.Fatalf("%v %v", back, err)
	}
	if out, _ := id.AppendText([]byte("id=")); string(out) != "id="+id.String() {
		t.Fatalf("%s", out)
	}
}

func TestSchemes(t *testing.T) {
	for _, s := range []Scheme{V0, V1, V2} {
		d, err := NewDeriver(Options{Scheme: s})
		if err != nil || d.Scheme() != s {
			t.Fatalf("%s: %v %v", s, d, err)
		}
	}
	if d, _ := NewDeriver(Options{}); d.Scheme() != V1 {
		t.Fatalf("the zero Options derive v1, not %s", d.Scheme())
	}
	if _, err := DeriveULID(0, Options{Scheme: "v9"}, Fields("a")...); !errors.Is(err, ErrUnknownScheme) {
		t.Fatalf("v9: %v", err)
	}
}

// A deriver keeps its own copy of the secret.
func TestDeriverCopiesTheSecret(t *testing.T) {
	secret := []byte("secret")
	d, _ := NewDeriver(Options{Secret: secret})
	before, _ := d.Derive(0, Fields("a")...)
	secret[0] = 'S'
	after, _ := d.Derive(0, Fields("a")...)
	if before != after {
		t.Fatal("changing the caller's secret slice changed the deriver's ids")
	}
}
