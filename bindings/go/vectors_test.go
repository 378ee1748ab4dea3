package samekey

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

type vector map[string]any

func vectorFile() string {
	if p := os.Getenv("SAMEKEY_VECTORS"); p != "" {
		return p
	}
	return filepath.Join("..", "..", "test-vectors", "samekey.json")
}

func loadVectors(t *testing.T) []vector {
	t.Helper()
	text, err := os.ReadFile(vectorFile())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema  string   `json:"schema"`
		Vectors []vector `json:"vectors"`
	}
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != "samekey-test-vectors/1" || len(doc.Vectors) == 0 {
		t.Fatalf("unexpected vector file %s", vectorFile())
	}
	return doc.Vectors
}

func str(v vector, k string) string { s, _ := v[k].(string); return s }

func fieldsOf(v vector) [][]byte {
	var out [][]byte
	for _, f := range v["fields"].([]any) {
		switch f := f.(type) {
		case string:
			out = append(out, []byte(f))
		case map[string]any:
			b, _ := hex.DecodeString(f["hex"].(string))
			out = append(out, b)
		}
	}
	return out
}

func secretOf(v vector) []byte {
	h, ok := v["secret_hex"].(string)
	if !ok {
		return nil
	}
	b, _ := hex.DecodeString(h)
	if b == nil {
		b = []byte{}
	}
	return b
}

// ms is a vector's time as Go gives it: an int64 of milliseconds. A fraction (spec §10.1)
// has no int64 and Go's API takes no float, so it fails here, as the conversion to the
// host's time fails, with the code spec §8.2 gives it.
func ms(v vector) (int64, error) {
	t := v["timestamp_ms"].(float64)
	if t != math.Trunc(t) {
		return 0, newError("invalid_timestamp", "not an integer number of milliseconds")
	}
	return int64(t), nil
}

func ring(v vector) (*KeyRing, error) {
	var names []Scheme
	for _, s := range v["accepted"].([]any) {
		names = append(names, Scheme(s.(string)))
	}
	return KeyRingOf(names)
}

func parentOf(v vector) *string {
	if p, ok := v["parent"].(string); ok {
		return &p
	}
	return nil
}

// run computes a vector's outputs through the public API.
func run(v vector) (map[string]any, error) {
	if s, ok := v["scheme"].(string); ok && s == "" {
		// Options{Scheme: ""} means the default (v1) in Go's zero-value idiom, so an
		// explicitly empty scheme name goes to the same check every scheme name passes.
		if _, err := coreSchemeCode(Scheme(s)); err != nil {
			return nil, err
		}
	}
	switch str(v, "op") {
	case "ulid":
		t, err := ms(v)
		if err != nil {
			return nil, err
		}
		opts := Options{Scheme: Scheme(str(v, "scheme")), Namespace: str(v, "namespace"), Secret: secretOf(v)}
		id, err := DeriveULID(t, opts, fieldsOf(v)...)
		if err != nil {
			return nil, err
		}
		msg, err := ULIDMessage(opts, fieldsOf(v)...)
		if err != nil {
			return nil, err
		}
		return map[string]any{"ulid": id.String(), "uuid": id.UUID(), "message_hex": hex.EncodeToString(msg)}, nil
	case "content":
		data, _ := hex.DecodeString(str(v, "data_hex"))
		h, err := ContentHash(Scheme(str(v, "scheme")), data)
		return map[string]any{"hash": h}, err
	case "content_json":
		// The hash first: it checks the scheme before the text (spec §6.1).
		h, err := ContentHashJSONText(Scheme(str(v, "scheme")), []byte(str(v, "json")))
		if err != nil {
			return nil, err
		}
		c, err := CanonicalJSONText([]byte(str(v, "json")))
		return map[string]any{"canonical": c, "hash": h}, err
	case "revision":
		opts := RevisionOptions{Scheme: Scheme(str(v, "scheme")), Secret: secretOf(v), Parent: parentOf(v)}
		key, err := RevisionKey(str(v, "content_hash"), opts)
		if err != nil {
			return nil, err
		}
		msg, err := RevisionMessage(str(v, "content_hash"), opts)
		return map[string]any{"key": key, "message_hex": hex.EncodeToString(msg)}, err
	case "timestamp":
		t, err := ParseRFC3339(str(v, "rfc3339"))
		return map[string]any{"timestamp_ms": float64(t)}, err
	case "ulid_parse":
		id, err := ParseULID(str(v, "text"))
		return map[string]any{"ulid": id.String(), "uuid": id.UUID(), "timestamp_ms": float64(id.TimestampMs())}, err
	case "key_parse":
		// A ring is checked when it is made, before it parses anything (spec §9.1).
		var r *KeyRing
		if _, ok := v["accepted"]; ok {
			var err error
			if r, err = ring(v); err != nil {
				return nil, err
			}
		}
		k, err := ParseKey(str(v, "text"))
		if err != nil {
			return nil, err
		}
		out := map[string]any{"kind": k.Kind, "scheme": string(k.Scheme), "canonical": k.Canonical}
		if r != nil {
			s, err := r.SchemeOfKey(str(v, "text"))
			if err != nil {
				return nil, err
			}
			out["scheme"] = string(s)
		}
		return out, nil
	case "verify":
		r, err := ring(v)
		if err != nil {
			return nil, err
		}
		t, err := ms(v)
		if err != nil {
			return nil, err
		}
		id, err := ParseULID(str(v, "ulid"))
		if err != nil {
			return nil, err
		}
		s, err := r.VerifyULID(id, t, str(v, "namespace"), secretOf(v), fieldsOf(v)...)
		return map[string]any{"scheme": string(s)}, err
	case "candidates":
		r, err := ring(v)
		if err != nil {
			return nil, err
		}
		t, err := ms(v)
		if err != nil {
			return nil, err
		}
		found, err := r.CandidateULIDs(t, str(v, "namespace"), secretOf(v), fieldsOf(v)...)
		list := []any{}
		for _, c := range found {
			list = append(list, map[string]any{"scheme": string(c.Scheme), "ulid": c.ULID.String()})
		}
		return map[string]any{"candidates": list}, err
	case "ring_revision":
		r, err := ring(v)
		if err != nil {
			return nil, err
		}
		key, err := r.RevisionKey(str(v, "content_hash"), parentOf(v), secretOf(v))
		return map[string]any{"key": key}, err
	case "needs_write":
		// Go's strings have no null: "" is the absent stored hash (spec §9.3).
		w, err := NeedsWrite(str(v, "stored"), str(v, "incoming"))
		return map[string]any{"needs_write": w}, err
	}
	return nil, errors.New("unknown op " + str(v, "op"))
}

func TestEveryVector(t *testing.T) {
	vectors := loadVectors(t)
	seen := map[string]bool{}
	for _, v := range vectors {
		id := str(v, "id")
		if seen[id] {
			t.Fatalf("duplicate vector id %s", id)
		}
		seen[id] = true
		got, err := run(v)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("%s: %v", id, err)
				continue
			}
			got = map[string]any{"error": e.Code}
		}
		if want := v["expect"]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: expected %v, got %v", id, want, got)
		}
	}
	t.Logf("%d vectors from %s", len(vectors), vectorFile())
}
