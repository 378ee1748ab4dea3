package registry_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/samekey/samekey/bindings/go"
	"github.com/samekey/samekey/bindings/go/registry"
)

func random(t *testing.T, n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

func client(t *testing.T, url string) *registry.Client {
	c, err := registry.New(url, "")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestAgainstARealRegistry(t *testing.T) {
	for name, database := range databases(t) {
		t.Run(name, func(t *testing.T) {
			url := serve(t, database, "--body-limit", "67108864")
			t.Run("json in any spelling is one revision with the key derived here", func(t *testing.T) { jsonSpellings(t, url) })
			t.Run("bytes, files and readers of the same data are one revision", func(t *testing.T) { sameData(t, url) })
			t.Run("failures carry the problem code and status", func(t *testing.T) { failures(t, url) })
			t.Run("a key of another ring is refused", func(t *testing.T) { otherRing(t, url) })
			p := startProxy(t, url)
			t.Run("a large payload the registry has is not uploaded again", func(t *testing.T) { skipUpload(t, p) })
			t.Run("faults", func(t *testing.T) { faults(t, url, p) })
		})
	}
}

func jsonSpellings(t *testing.T, url string) {
	ctx := context.Background()
	id := fmt.Sprintf("%x", random(t, 8))
	value := map[string]any{"title": "Grüße", "n": 1500.0, "tags": []any{"a", "b"}, "id": id}
	c := client(t, url)
	first, err := c.Register(ctx, value, "")
	if err != nil || !first.Created || first.Parent != nil || first.MediaType != "application/json" {
		t.Fatalf("%+v %v", first, err)
	}
	hash, _ := samekey.ContentHashJSON(samekey.V1, value)
	if want, _ := samekey.RevisionKey(hash, samekey.RevisionOptions{}); first.Key != want {
		t.Fatalf("%s != %s", first.Key, want)
	}
	again, err := c.RegisterJSON(ctx, []byte(`{ "tags":["a","b"], "n": 1.5e3, "id": "`+id+`", "title": "Gr\u00fc\u00dfe" }`), "")
	if err != nil || again.Key != first.Key || again.Created {
		t.Fatalf("%+v %v", again, err)
	}
	got, err := c.Revision(ctx, first.Key)
	if err != nil || !reflect.DeepEqual(got, again) {
		t.Fatalf("%+v %v", got, err)
	}
	data, err := c.Data(ctx, first.Key)
	if err != nil {
		t.Fatal(err)
	}
	defer data.Close()
	stored, _ := io.ReadAll(data)
	canonical, _ := samekey.CanonicalJSON(value)
	if string(stored) != canonical {
		t.Fatalf("%s != %s", stored, canonical)
	}
}

type plainReader struct{ io.Reader }

func sameData(t *testing.T, url string) {
	ctx := context.Background()
	data := random(t, 3<<20)
	path := filepath.Join(t.TempDir(), "data.bin")
	os.WriteFile(path, data, 0o600)
	c := client(t, url)
	root, err := c.Register(ctx, map[string]any{"root": fmt.Sprintf("%x", random(t, 8))}, "")
	if err != nil {
		t.Fatal(err)
	}
	first, err := c.RegisterBytes(ctx, data, root.Key)
	hash, _ := samekey.ContentHash(samekey.V1, data)
	want, _ := samekey.RevisionKey(hash, samekey.RevisionOptions{Parent: &root.Key})
	if err != nil || !first.Created || first.Key != want || *first.Parent != root.Key || first.Size != int64(len(data)) {
		t.Fatalf("%+v %v", first, err)
	}
	f, _ := os.Open(path)
	defer f.Close()
	for name, register := range map[string]func() (registry.Revision, error){
		"file":   func() (registry.Revision, error) { return c.RegisterFile(ctx, path, root.Key) },
		"seeker": func() (registry.Revision, error) { return c.RegisterReader(ctx, f, root.Key) },
		"bytes":  func() (registry.Revision, error) { return c.RegisterReader(ctx, bytes.NewReader(data), root.Key) },
		"unseekable": func() (registry.Revision, error) {
			return c.RegisterReader(ctx, plainReader{bytes.NewReader(data)}, root.Key)
		},
	} {
		found, err := register()
		if err != nil || found.Key != first.Key || found.Created {
			t.Fatalf("%s: %+v %v", name, found, err)
		}
	}
	// Empty data, however given, is one revision of size 0.
	empty := filepath.Join(t.TempDir(), "empty.bin")
	os.WriteFile(empty, nil, 0o600)
	emptyHash, _ := samekey.ContentHash(samekey.V1, nil)
	wantEmpty, _ := samekey.RevisionKey(emptyHash, samekey.RevisionOptions{Parent: &root.Key})
	for name, register := range map[string]func() (registry.Revision, error){
		"empty bytes": func() (registry.Revision, error) { return c.RegisterBytes(ctx, []byte{}, root.Key) },
		"empty file":  func() (registry.Revision, error) { return c.RegisterFile(ctx, empty, root.Key) },
		"empty reader": func() (registry.Revision, error) {
			return c.RegisterReader(ctx, plainReader{bytes.NewReader(nil)}, root.Key)
		},
	} {
		rev, err := register()
		if err != nil || rev.Key != wantEmpty || rev.Size != 0 {
			t.Fatalf("%s: %+v %v", name, rev, err)
		}
	}
	body, err := c.Data(ctx, first.Key)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := io.ReadAll(body)
	body.Close()
	if !bytes.Equal(stored, data) {
		t.Fatal("the stored bytes differ")
	}
	history, err := c.History(ctx, first.Key, 0)
	if err != nil || len(history) != 2 || history[0].Key != first.Key || history[1].Key != root.Key {
		t.Fatalf("%+v %v", history, err)
	}
	if one, err := c.History(ctx, first.Key, 1); err != nil || len(one) != 1 {
		t.Fatalf("%+v %v", one, err)
	}
}

func failures(t *testing.T, url string) {
	ctx := context.Background()
	c := client(t, url)
	hash, _ := samekey.ContentHash(samekey.V1, random(t, 32))
	missing, _ := samekey.RevisionKey(hash, samekey.RevisionOptions{})
	for _, tc := range []struct {
		call   func() error
		code   string
		status int
	}{
		{func() error { _, err := c.Revision(ctx, missing); return err }, "not_found", 404},
		{func() error { _, err := c.Data(ctx, missing); return err }, "not_found", 404},
		{func() error { _, err := c.History(ctx, missing, 0); return err }, "not_found", 404},
		{func() error { _, err := c.Register(ctx, map[string]any{"a": 1}, missing); return err }, "unknown_parent", 422},
		{func() error { _, err := c.Register(ctx, map[string]any{"a": 1}, "rev:v1:zz"); return err }, "invalid_key", 400},
		{func() error { _, err := c.History(ctx, missing, 1001); return err }, "invalid_query", 400},
	} {
		err := tc.call()
		var e *registry.Error
		if !errors.As(err, &e) || e.Code != tc.code || e.Status != tc.status || e.Detail == "" {
			t.Fatalf("want %s %d, got %v", tc.code, tc.status, err)
		}
	}
	_, err := c.Register(ctx, map[string]any{"a": 1}, "rev:v1:zz")
	if !errors.Is(err, samekey.ErrInvalidKey) {
		t.Fatalf("errors.Is(%v, samekey.ErrInvalidKey)", err)
	}
}

func otherRing(t *testing.T, url string) {
	ctx := context.Background()
	value := map[string]any{"ring": fmt.Sprintf("%x", random(t, 8))}
	c := client(t, url)
	c.Ring, _ = samekey.NewKeyRing(samekey.V2)
	_, err := c.Register(ctx, value, "")
	var e *registry.Error
	if !errors.As(err, &e) || e.Code != registry.CodeKeyMismatch || !strings.HasPrefix(e.Answered, "rev:v1:") || !strings.HasPrefix(e.Expected, "rev:v2:") {
		t.Fatalf("%v", err)
	}
	c.Ring, _ = samekey.NewKeyRing(samekey.V2, samekey.V1)
	if found, err := c.Register(ctx, value, ""); err != nil || found.Scheme != "v1" || found.Created {
		t.Fatalf("%+v %v", found, err)
	}
}

func skipUpload(t *testing.T, p proxy) {
	ctx := context.Background()
	data := random(t, 2<<20)
	c := client(t, p.url)
	p.reset(t)
	first, err := c.RegisterBytes(ctx, data, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := statuses(p.log(t)); !reflect.DeepEqual(got, []int{404, 201}) {
		t.Fatalf("%v", got)
	}
	p.reset(t)
	again, err := c.RegisterBytes(ctx, data, "")
	log := p.log(t)
	if err != nil || again.Key != first.Key || again.Created || len(log) != 1 || log[0].Method != "GET" || log[0].BodyBytes != 0 {
		t.Fatalf("%+v %v %+v", again, err, log)
	}
}

func faults(t *testing.T, url string, p proxy) {
	ctx := context.Background()
	c := client(t, p.url)
	c.Retry = registry.Retry{MaxRetries: 3, InitialDelay: 50 * time.Millisecond, MaxDelay: 200 * time.Millisecond, Deadline: 20 * time.Second, Statuses: registry.DefaultRetry().Statuses}
	type done struct {
		key  string
		data []byte
	}
	var reported []done
	unreported := 0
	before := created(t, url)
	register := func(c *registry.Client, data []byte) (registry.Revision, error) {
		rev, err := c.RegisterBytes(ctx, data, "")
		if err == nil {
			reported = append(reported, done{rev.Key, data})
		}
		return rev, err
	}
	check := func(name string, want []int, created bool, faults ...map[string]any) {
		p.reset(t)
		p.faults(t, faults...)
		rev, err := register(c, random(t, 4096))
		if got := statuses(p.log(t)); err != nil || rev.Created != created || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %+v %v, statuses %v", name, rev, err, got)
		}
	}
	check("a lost answer", []int{0, 200}, false, map[string]any{"kind": "drop_response", "method": "POST"})
	check("a body cut", []int{0, 201}, true, map[string]any{"kind": "cut_body", "after": 1000, "method": "POST"})
	// Committed, then the answer cut mid-way: retried like a lost answer, found.
	check("an answer cut after the commit", []int{201, 200}, false, map[string]any{"kind": "cut_answer", "after": 5, "method": "POST"})
	start := time.Now()
	check("503 then 429", []int{503, 429, 201}, true, map[string]any{"kind": "status", "status": 503}, map[string]any{"kind": "status", "status": 429, "code": "too_many_requests", "retry_after": "1"})
	if time.Since(start) < time.Second {
		t.Fatal("Retry-After was not honoured")
	}

	p.reset(t)
	p.faults(t, map[string]any{"kind": "status", "status": 503}, map[string]any{"kind": "status", "status": 503}, map[string]any{"kind": "status", "status": 503})
	few := client(t, p.url)
	few.Retry = registry.Retry{MaxRetries: 2, InitialDelay: 10 * time.Millisecond, MaxDelay: time.Second, Deadline: 10 * time.Second, Statuses: []int{503}}
	_, err := register(few, random(t, 100))
	var e *registry.Error
	if !errors.As(err, &e) || e.Code != "database_unavailable" || e.Status != 503 || len(p.log(t)) != 3 {
		t.Fatalf("%v %v", err, p.log(t))
	}

	p.reset(t)
	p.faults(t, map[string]any{"kind": "status", "status": 409, "code": "conflict"})
	if _, err := register(c, random(t, 100)); !errors.As(err, &e) || e.Code != "conflict" || len(p.log(t)) != 1 {
		t.Fatalf("%v", err)
	}

	// A file below SkipUploadAbove is hashed while sent: each attempt hashes anew.
	p.reset(t)
	p.faults(t, map[string]any{"kind": "cut_body", "after": 1000, "method": "POST"}, map[string]any{"kind": "drop_response", "method": "POST"})
	data := random(t, 4096)
	path := filepath.Join(t.TempDir(), "data.bin")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	rev, err := c.RegisterFile(ctx, path, "")
	if got := statuses(p.log(t)); err != nil || rev.Created || rev.Size != int64(len(data)) || !reflect.DeepEqual(got, []int{0, 0, 200}) {
		t.Fatalf("a file retried: %+v %v, statuses %v", rev, err, got)
	}
	reported = append(reported, done{rev.Key, data})

	p.reset(t)
	p.faults(t, map[string]any{"kind": "drop_response", "method": "POST"})
	_, err = c.RegisterReader(ctx, plainReader{bytes.NewReader(random(t, 4096))}, "")
	if !errors.As(err, &e) || e.Code != registry.CodeNotRewindable || len(p.log(t)) != 1 {
		t.Fatalf("%v", err)
	}
	unreported++ // its one attempt created it

	slow := random(t, 4096)
	p.reset(t)
	delay := map[string]any{"kind": "delay", "seconds": 3, "method": "POST"}
	p.faults(t, delay, delay, delay)
	impatient := client(t, p.url)
	impatient.HTTP = &http.Client{Timeout: 500 * time.Millisecond}
	impatient.Retry = registry.Retry{MaxRetries: 5, InitialDelay: 50 * time.Millisecond, MaxDelay: time.Second, Deadline: 1200 * time.Millisecond, Statuses: []int{503}}
	start = time.Now()
	if _, err := register(impatient, slow); !errors.As(err, &e) || (e.Code != registry.CodeDeadlineExceeded && e.Code != registry.CodeConnectionFailed) || time.Since(start) > 2500*time.Millisecond {
		t.Fatalf("%v after %v", err, time.Since(start))
	}
	time.Sleep(3 * time.Second)
	p.reset(t)
	if rev, err := register(c, slow); err != nil || rev.Created {
		t.Fatalf("the slow write was not found: %+v %v", rev, err)
	}

	// An answer that trickles in a byte at a time: the deadline holds (no read times out).
	trickled := random(t, 4096)
	p.reset(t)
	trickle := map[string]any{"kind": "trickle", "interval": 0.3, "method": "POST"}
	p.faults(t, trickle, trickle, trickle, trickle)
	patient := client(t, p.url)
	patient.Retry = registry.Retry{MaxRetries: 3, InitialDelay: 50 * time.Millisecond, MaxDelay: time.Second, Deadline: 6 * time.Second, Statuses: []int{503}}
	start = time.Now()
	if _, err := register(patient, trickled); !errors.As(err, &e) || e.Code != registry.CodeDeadlineExceeded || time.Since(start) < 5500*time.Millisecond || time.Since(start) > 7500*time.Millisecond {
		t.Fatalf("a trickling answer: %v after %v, want deadline_exceeded after 6 s", err, time.Since(start))
	}
	p.reset(t)
	if rev, err := register(c, trickled); err != nil || rev.Created {
		t.Fatalf("the trickled write was not found: %+v %v", rev, err)
	}

	// Every registration reported done is there with its bytes; one revision each.
	direct := client(t, url)
	distinct := map[string]bool{}
	for _, d := range reported {
		body, err := direct.Data(ctx, d.key)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(body)
		body.Close()
		if !bytes.Equal(got, d.data) {
			t.Fatalf("%s: the stored bytes differ", d.key)
		}
		distinct[d.key] = true
	}
	if len(reported) < 4 {
		t.Fatalf("only %d registrations reported done", len(reported))
	}
	if got := created(t, url) - before; got != len(distinct)+unreported {
		t.Fatalf("the registry created %d revisions for %d payloads", got, len(distinct)+unreported)
	}
}
