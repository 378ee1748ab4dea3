// The pipeline's promises on FerretDB: re-runs write nothing, a lost acknowledgement and
// its retry leave one document, two concurrent runs make no duplicate, a changed
// publishedAt is refused, a changed body is written once. FerretDB (SAMEKEY_FERRETDB, a
// binary built from ../ferretdb) is started here on a free port.
package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

var uri string

func freePort(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startAndWait runs a server program until it prints a line starting with want.
func startAndWait(cmd *exec.Cmd, want string) (*bufio.Scanner, error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	lines := bufio.NewScanner(out)
	if !lines.Scan() || !strings.HasPrefix(lines.Text(), want) {
		return nil, fmt.Errorf("%s did not say %q: %q", cmd.Path, want, lines.Text())
	}
	return lines, nil
}

func TestMain(m *testing.M) {
	bin := os.Getenv("SAMEKEY_FERRETDB")
	if bin == "" {
		fmt.Fprintln(os.Stderr, "SAMEKEY_FERRETDB must name the FerretDB binary built from ../ferretdb (just test-examples builds it)")
		os.Exit(1)
	}
	dir, _ := os.MkdirTemp("", "ferretdb-")
	addr := freePort(&testing.T{})
	cmd := exec.Command(bin, "-listen", addr, "-dir", dir)
	if _, err := startAndWait(cmd, "ready"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	uri = "mongodb://" + addr + "/"
	code := m.Run()
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	os.RemoveAll(dir)
	os.Exit(code)
}

var dbCounter atomic.Int64

func freshDB() string { return fmt.Sprintf("t%d_%d", time.Now().UnixNano()%1e9, dbCounter.Add(1)) }

// collection connects to db's posts through uri, disconnecting when the test ends.
func collection(t *testing.T, uri, db string) *mongo.Collection {
	t.Helper()
	client, posts, err := Connect(context.Background(), uri, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Disconnect(context.Background()) })
	return posts
}

func run(t *testing.T, uri, db, input string, timeout time.Duration) []string {
	t.Helper()
	ctx := context.Background()
	posts := collection(t, uri, db)
	f, err := os.Open(filepath.Join("..", "data", input))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, err := (&Pipeline{Posts: posts, Timeout: timeout, Retries: 5, Log: os.Stderr}).Run(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// documents returns every document; without write metadata (updatedAt) unless all.
func documents(t *testing.T, db string, all bool) []bson.M {
	t.Helper()
	ctx := context.Background()
	cur, err := collection(t, uri, db).Find(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	var docs []bson.M
	if err := cur.All(ctx, &docs); err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if !all {
			delete(d, "updatedAt")
		}
	}
	return docs
}

func actions(out []string) map[string]string {
	m := map[string]string{}
	for _, l := range out {
		f := strings.Split(l, "\t")
		m[f[1]+"/"+f[2]] = f[4]
	}
	return m
}

func TestRerunningWritesNothing(t *testing.T) {
	db := freshDB()
	first := run(t, uri, db, "posts.jsonl", 2*time.Second)
	before := documents(t, db, true)
	if len(before) != len(first) {
		t.Fatalf("%d documents for %d posts", len(before), len(first))
	}
	for i := 0; i < 5; i++ {
		for _, l := range run(t, uri, db, "posts.jsonl", 2*time.Second) {
			if !strings.HasSuffix(l, "\tunchanged") {
				t.Fatalf("re-run wrote: %s", l)
			}
		}
	}
	if after := documents(t, db, true); !reflect.DeepEqual(after, before) {
		t.Fatalf("documents moved (updatedAt included):\n%v\n%v", before, after)
	}
}

func TestLostAcknowledgementAndItsRetryLeaveOneDocument(t *testing.T) {
	listen := freePort(t)
	proxy := exec.Command("python3", filepath.Join("..", "faultproxy.py"), "--protocol", "mongo",
		"--listen", listen, "--target", strings.TrimSuffix(strings.TrimPrefix(uri, "mongodb://"), "/"))
	lines, err := startAndWait(proxy, "ready")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { proxy.Process.Kill(); proxy.Wait() }()
	db := freshDB()
	collection(t, uri, db) // its indexes and scheme states: the first write through the proxy is a post's
	out := run(t, "mongodb://"+listen+"/", db, "posts.jsonl", time.Second)
	if !lines.Scan() || !strings.HasPrefix(lines.Text(), "dropped the reply to insert") {
		t.Fatalf("the fault did not happen: %q", lines.Text())
	}
	if got := actions(out)["hello-world/en"]; got != "unchanged" {
		t.Fatalf("the retry of the first post: %s, want unchanged (its write had landed)", got)
	}
	clean := freshDB()
	run(t, uri, clean, "posts.jsonl", 2*time.Second)
	if a, b := documents(t, db, false), documents(t, clean, false); !reflect.DeepEqual(a, b) {
		t.Fatalf("differs from a run without the fault:\n%v\n%v", a, b)
	}
}

func TestTwoPipelinesAtOnceMakeNoDuplicate(t *testing.T) {
	db := freshDB()
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); run(t, uri, db, "posts.jsonl", 5*time.Second) }()
	}
	wg.Wait()
	docs := documents(t, db, false)
	ids := map[any]bool{}
	for _, d := range docs {
		ids[d["_id"]] = true
	}
	if len(docs) != 6 || len(ids) != 6 {
		t.Fatalf("%d documents, %d distinct ids; want 6 and 6", len(docs), len(ids))
	}
}

func TestChangedPublishedAtIsRefusedAndChangedBodyWrittenOnce(t *testing.T) {
	db := freshDB()
	run(t, uri, db, "posts.jsonl", 2*time.Second)
	before := documents(t, db, true)
	got := actions(run(t, uri, db, "posts-edited.jsonl", 2*time.Second))
	want := map[string]string{"hello-world/en": "updated", "hello-world/fr": "refused:identity_mismatch", "deterministic-ids/en": "unchanged"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("actions %v, want %v", got, want)
	}
	after := documents(t, db, true)
	if len(after) != len(before) {
		t.Fatalf("%d documents, was %d", len(after), len(before))
	}
	find := func(docs []bson.M, slug, lang string) bson.M {
		for _, d := range docs {
			if d["slug"] == slug && d["lang"] == lang {
				return d
			}
		}
		return nil
	}
	if !reflect.DeepEqual(find(after, "hello-world", "fr"), find(before, "hello-world", "fr")) {
		t.Fatal("the refused document changed")
	}
	if !strings.Contains(find(after, "hello-world", "en")["body"].(string), "edited") {
		t.Fatal("the edited body was not written")
	}
	run(t, uri, db, "posts-edited.jsonl", 2*time.Second)
	if !reflect.DeepEqual(documents(t, db, true), after) {
		t.Fatal("the second run of the edit wrote again")
	}
}

func TestWritesTheCrossLanguageComparisonFile(t *testing.T) {
	db := freshDB()
	lines := append(run(t, uri, db, "posts.jsonl", 2*time.Second), run(t, uri, db, "posts-edited.jsonl", 2*time.Second)...)
	if dir := os.Getenv("SAMEKEY_EXAMPLES_OUT"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "go.tsv"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
