// Go's column of `just bench-matrix`: every operation through the samekey package's public
// API, timed the way every runner times (bench/matrix/protocol.md).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	samekey "github.com/samekey/samekey/bindings/go"
)

type cases struct {
	TimeMs     int64    `json:"time_ms"`
	Namespace  string   `json:"namespace"`
	Fields     []string `json:"fields"`
	Ulid       string   `json:"ulid"`
	JSON       string   `json:"json"`
	Small      string   `json:"small"`
	LargeBytes int      `json:"large_bytes"`
	RFC3339    string   `json:"rfc3339"`
	Parent     string   `json:"parent"`
	Ring       []string `json:"ring"`
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func main() {
	var c cases
	must(0, json.Unmarshal(must(os.ReadFile(os.Getenv("SAMEKEY_MATRIX_CASES"))), &c))
	fields := samekey.Fields(c.Fields...)
	small, jsonText := []byte(c.Small), []byte(c.JSON)
	large := make([]byte, c.LargeBytes)
	for i := range large {
		large[i] = byte(i * 131)
	}
	accept := make([]samekey.Scheme, len(c.Ring))
	for i, s := range c.Ring {
		accept[i] = samekey.Scheme(s)
	}
	opts := samekey.Options{Namespace: c.Namespace}
	optsV2 := samekey.Options{Namespace: c.Namespace, Scheme: samekey.V2}
	deriver := must(samekey.NewDeriver(opts))
	ring := must(samekey.KeyRingOf(accept))
	stored := must(samekey.ContentHash(samekey.V1, small))
	incoming := must(samekey.ContentHashJSONText(samekey.V1, jsonText))
	old := must(samekey.DeriveULID(c.TimeMs, opts, fields...))
	id := must(samekey.ParseULID(c.Ulid))
	parent := c.Parent

	ops := []struct {
		name string
		call func() int
	}{
		{"crossing", func() int { return len(samekey.Version()) }},
		{"ulid", func() int { return int(must(samekey.DeriveULID(c.TimeMs, opts, fields...))[15]) }},
		{"ulid_v2", func() int { return int(must(samekey.DeriveULID(c.TimeMs, optsV2, fields...))[15]) }},
		{"ulid_prepared", func() int { return int(must(deriver.Derive(c.TimeMs, fields...))[15]) }},
		{"ulid_parse", func() int { return int(must(samekey.ParseULID(c.Ulid))[15]) }},
		{"ulid_text", func() int { return len(id.String()) }},
		{"ulid_bytes", func() int { return len(append([]byte(nil), id[:]...)) }},
		{"hash_40", func() int { return len(must(samekey.ContentHash(samekey.V1, small))) }},
		{"hash_1m", func() int { return len(must(samekey.ContentHash(samekey.V1, large))) }},
		{"content_json", func() int { return len(must(samekey.ContentHashJSONText(samekey.V1, jsonText))) }},
		{"canonical_json", func() int { return len(must(samekey.CanonicalJSONText(jsonText))) }},
		{"revision_key", func() int {
			return len(must(samekey.RevisionKey(stored, samekey.RevisionOptions{Parent: &parent})))
		}},
		{"key_parse", func() int { return len(must(samekey.ParseKey(stored)).Canonical) }},
		{"ring_verify", func() int {
			return len(must(ring.VerifyULID(old, c.TimeMs, c.Namespace, nil, fields...)))
		}},
		{"ring_candidates", func() int {
			return len(must(ring.CandidateULIDs(c.TimeMs, c.Namespace, nil, fields...)))
		}},
		{"needs_write", func() int {
			if must(samekey.NeedsWrite(stored, incoming)) {
				return 1
			}
			return 0
		}},
		{"rfc3339", func() int { return int(must(samekey.ParseRFC3339(c.RFC3339))) }},
	}
	sink := 0
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		budget := time.Duration(must(strconv.Atoi(strings.TrimSpace(in.Text())))) * time.Millisecond
		cells := make([]string, 0, len(ops))
		for _, op := range ops {
			for n := 1; ; n *= 2 {
				start := time.Now()
				for i := 0; i < n; i++ {
					sink += op.call()
				}
				if took := time.Since(start); took >= budget {
					cells = append(cells, fmt.Sprintf("%q:%.1f", op.name, float64(took.Nanoseconds())/float64(n)))
					break
				}
			}
		}
		fmt.Printf("{%s,\"sink\":%d}\n", strings.Join(cells, ","), sink%10)
	}
}
