package samekey

import (
	"encoding/hex"
	"encoding/json"
	"errors"
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

func ms(v vector) int64 { return int64(v["timestamp_ms"].(float64)) }

func ring(v vector) (*KeyRing, error) {
	var names []Scheme
	for _, s := range v["accepted"].([]any) {
		names = append(names, Scheme(s.(string)))
	}
	return NewKeyRing(names[0], names[1:]...)
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
		opts := Options{Scheme: Scheme(str(v, "scheme")), Namespace: str(v, "namespace"), Secret: secretOf(v)}
		id, err := DeriveULID(ms(v), opts, fieldsOf(v)...)
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
		c, err := CanonicalJSONText([]byte(str(v, "json")))
		if err != nil {
			return nil, err
		}
		h, err := ContentHashJSONText(Scheme(str(v, "scheme")), []byte(str(v, "json")))
		return map[string]any{"canonical": c, "hash": h}, err
	case "revision":
		opts := RevisionOptions{Scheme: Scheme(str(v, "scheme")), Secret: secretOf(v)}
		if p, ok := v["parent"].(string); ok {
			opts.Parent = &p
		}
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
		k, err := ParseKey(str(v, "text"))
		if err != nil {
			return nil, err
		}
		out := map[string]any{"kind": k.Kind, "scheme": string(k.Scheme), "canonical": k.Canonical}
		if _, ok := v["accepted"]; ok {
			r, err := ring(v)
			if err != nil {
				return nil, err
			}
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
		id, err := ParseULID(str(v, "ulid"))
		if err != nil {
			return nil, err
		}
		s, err := r.VerifyULID(id, ms(v), str(v, "namespace"), secretOf(v), fieldsOf(v)...)
		return map[string]any{"scheme": string(s)}, err
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
